// Package signer builds and signs the EIP-712 typed data of the exchange
// (SPEC.md §4.2, §4.4, §4.11; DESIGN.md D1, D2) and verifies signatures.
// It knows nothing of HTTP or terminals.
package signer

import (
	"encoding/binary"
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/ethereum/go-ethereum/common"
)

// DefaultDomainName is the EIP-712 domain name of the exchange (D1).
const DefaultDomainName = "Service Exchange"

// DomainVersion is the EIP-712 domain version string (SPEC.md §9).
const DomainVersion = "0"

// USDTCurrency is the currency enum id of USDT (SPEC.md §2.12).
const USDTCurrency = 3

// domainTypeHash is keccak256 of the domain type of D1 (no verifyingContract).
var domainTypeHash = keccak256Hash([]byte("EIP712Domain(string name,string version,uint256 chainId)"))

// Domain is the EIP-712 domain: the environment's exchange name and L2 chain id.
type Domain struct {
	Name    string `json:"name"`
	ChainID uint64 `json:"chain_id"`
}

// Separator is the domain separator hash. A session signs under one
// domain, so the last one computed is kept.
func (d Domain) Separator() common.Hash {
	if last := lastSeparator.Load(); last != nil && last.domain == d {
		return last.sep
	}
	var buf [4 * 32]byte
	copy(buf[0:], domainTypeHash[:])
	copy(buf[32:], keccak256([]byte(d.Name)))
	copy(buf[64:], keccak256([]byte(DomainVersion)))
	binary.BigEndian.PutUint64(buf[120:], d.ChainID)
	sep := keccak256Hash(buf[:])
	lastSeparator.Store(&separator{d, sep})
	return sep
}

// separator is a domain and its separator hash.
type separator struct {
	domain Domain
	sep    common.Hash
}

var lastSeparator atomic.Pointer[separator]

// Field is one member of a typed-data struct, in type order.
type Field struct {
	Name  string
	Type  string // address, string, uint8, uint32, uint64, int64
	Value any    // common.Address, string, uint64 or int64
}

// Display renders the value as it appears in eth_signTypedData_v4 JSON.
func (f Field) Display() string {
	switch v := f.Value.(type) {
	case common.Address:
		return v.Hex()
	case string:
		return v
	case uint64:
		return strconv.FormatUint(v, 10)
	case int64:
		return strconv.FormatInt(v, 10)
	}
	return fmt.Sprint(f.Value)
}

// Message is one of the four signed messages of D2.
type Message interface {
	PrimaryType() string
	Fields() []Field
	// NonceExpiration returns the replay nonce and the deadline in unix nanoseconds,
	// which the Signature object repeats beside r, s and v.
	NonceExpiration() (uint32, int64)
}

// TypeString is the EIP-712 encodeType of a message, e.g.
// "WalletLogin(address signer,uint32 nonce,int64 expiration)".
func TypeString(m Message) string {
	var b strings.Builder
	b.WriteString(m.PrimaryType())
	b.WriteByte('(')
	for i, f := range m.Fields() {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(f.Type)
		b.WriteByte(' ')
		b.WriteString(f.Name)
	}
	b.WriteByte(')')
	return b.String()
}

// StructHash is hashStruct(message): keccak256(typeHash ‖ encodeData).
func StructHash(m Message) common.Hash {
	fields := m.Fields()
	var words [32 * 9]byte // the longest message has 8 fields
	var buf []byte
	if n := 32 * (len(fields) + 1); n <= len(words) {
		buf = words[:n]
	} else {
		buf = make([]byte, n)
	}
	th := typeHash(m)
	copy(buf, th[:])
	for i, f := range fields {
		encodeValue(buf[32*(i+1):32*(i+2)], f.Value)
	}
	return keccak256Hash(buf)
}

// typeHashes is the keccak256 of each message's TypeString, by its Go
// type: a message's fields are its type's.
var typeHashes sync.Map

func typeHash(m Message) common.Hash {
	t := reflect.TypeOf(m)
	if h, ok := typeHashes.Load(t); ok {
		return h.(common.Hash)
	}
	h := keccak256Hash([]byte(TypeString(m)))
	typeHashes.Store(t, h)
	return h
}

// encodeValue writes one atomic or dynamic value as its 32-byte EIP-712 word.
func encodeValue(word []byte, v any) {
	switch v := v.(type) {
	case common.Address:
		copy(word[12:], v[:])
	case string:
		copy(word, keccak256([]byte(v)))
	case uint64:
		binary.BigEndian.PutUint64(word[24:], v)
	case int64:
		if v < 0 {
			for i := range 24 {
				word[i] = 0xff
			}
		}
		binary.BigEndian.PutUint64(word[24:], uint64(v))
	default:
		panic(fmt.Sprintf("signer: unsupported typed-data value %T", v))
	}
}

// Digest is keccak256(0x19 0x01 ‖ domainSeparator ‖ hashStruct(message)): what is signed.
func Digest(d Domain, m Message) common.Hash {
	var buf [2 + 64]byte
	buf[0], buf[1] = 0x19, 0x01
	sep := d.Separator()
	sh := StructHash(m)
	copy(buf[2:], sep[:])
	copy(buf[34:], sh[:])
	return keccak256Hash(buf[:])
}

// WalletLogin is the wallet-login message (SPEC.md §4.2).
type WalletLogin struct {
	Signer     common.Address
	Nonce      uint32
	Expiration int64
}

func (WalletLogin) PrimaryType() string { return "WalletLogin" }

func (m WalletLogin) NonceExpiration() (uint32, int64) { return m.Nonce, m.Expiration }

func (m WalletLogin) Fields() []Field {
	return []Field{
		{"signer", "address", m.Signer},
		{"nonce", "uint32", uint64(m.Nonce)},
		{"expiration", "int64", m.Expiration},
	}
}

// AuthorizeBuilder authorizes a builder without creating an API key (SPEC.md §4.4).
type AuthorizeBuilder struct {
	MainAccountID    common.Address
	BuilderAccountID common.Address
	MaxFutureFeeRate uint32
	MaxSpotFeeRate   uint32
	Nonce            uint32
	Expiration       int64
}

func (AuthorizeBuilder) PrimaryType() string { return "AuthorizeBuilder" }

func (m AuthorizeBuilder) NonceExpiration() (uint32, int64) { return m.Nonce, m.Expiration }

func (m AuthorizeBuilder) Fields() []Field {
	return []Field{
		{"mainAccountID", "address", m.MainAccountID},
		{"builderAccountID", "address", m.BuilderAccountID},
		{"maxFutureFeeRate", "uint32", uint64(m.MaxFutureFeeRate)},
		{"maxSpotFeeRate", "uint32", uint64(m.MaxSpotFeeRate)},
		{"nonce", "uint32", uint64(m.Nonce)},
		{"expiration", "int64", m.Expiration},
	}
}

// AddAccountSignerWithBuilder authorizes a builder and registers the builder's
// API-key signer with the given permissions (SPEC.md §4.4).
type AddAccountSignerWithBuilder struct {
	AccountID        common.Address
	Signer           common.Address
	Permissions      string // canonical form, see Permissions.String
	BuilderAccountID common.Address
	MaxFutureFeeRate uint32
	MaxSpotFeeRate   uint32
	Nonce            uint32
	Expiration       int64
}

func (AddAccountSignerWithBuilder) PrimaryType() string { return "AddAccountSignerWithBuilder" }

func (m AddAccountSignerWithBuilder) NonceExpiration() (uint32, int64) {
	return m.Nonce, m.Expiration
}

func (m AddAccountSignerWithBuilder) Fields() []Field {
	return []Field{
		{"accountID", "address", m.AccountID},
		{"signer", "address", m.Signer},
		{"permissions", "string", m.Permissions},
		{"builderAccountID", "address", m.BuilderAccountID},
		{"maxFutureFeeRate", "uint32", uint64(m.MaxFutureFeeRate)},
		{"maxSpotFeeRate", "uint32", uint64(m.MaxSpotFeeRate)},
		{"nonce", "uint32", uint64(m.Nonce)},
		{"expiration", "int64", m.Expiration},
	}
}

// Transfer moves funds between accounts; a bridge withdrawal signs one to the
// bridge funding address (SPEC.md §4.11; field order of D2).
type Transfer struct {
	FromAccount    common.Address `json:"from_account"`
	FromSubAccount uint64         `json:"from_sub_account"`
	ToAccount      common.Address `json:"to_account"`
	ToSubAccount   uint64         `json:"to_sub_account"`
	TokenCurrency  uint8          `json:"token_currency"`
	NumTokens      uint64         `json:"num_tokens"` // raw units, 6 decimals for USDT
	Nonce          uint32         `json:"nonce"`
	Expiration     int64          `json:"expiration"`
}

func (Transfer) PrimaryType() string { return "Transfer" }

func (m Transfer) NonceExpiration() (uint32, int64) { return m.Nonce, m.Expiration }

func (m Transfer) Fields() []Field {
	return []Field{
		{"fromAccount", "address", m.FromAccount},
		{"fromSubAccount", "uint64", m.FromSubAccount},
		{"toAccount", "address", m.ToAccount},
		{"toSubAccount", "uint64", m.ToSubAccount},
		{"tokenCurrency", "uint8", uint64(m.TokenCurrency)},
		{"numTokens", "uint64", m.NumTokens},
		{"nonce", "uint32", uint64(m.Nonce)},
		{"expiration", "int64", m.Expiration},
	}
}
