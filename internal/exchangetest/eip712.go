package exchangetest

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math/big"
	"slices"
	"strconv"
	"strings"

	"github.com/decred/dcrd/dcrec/secp256k1/v4"
	"github.com/decred/dcrd/dcrec/secp256k1/v4/ecdsa"
	"github.com/ethereum/go-ethereum/common"
	"golang.org/x/crypto/sha3"
)

// The stock wallet's EIP-712: eth_signTypedData_v4 read from its JSON and
// hashed by the types the JSON declares, as a wallet does, never by
// svcwallet's signer (which knows its four messages as Go types). The
// signer's tests hold it to go-ethereum's apitypes; keeping go-ethereum's
// crypto out of here keeps its C out of every test binary that fakes a
// wallet. Its keccak is x/crypto's, not the signer's (go-ethereum's).

// TypedData is eth_signTypedData_v4's JSON as a wallet reads it.
type TypedData struct {
	Types       map[string][]TypedMember `json:"types"`
	PrimaryType string                   `json:"primaryType"`
	Domain      TypedDomain              `json:"domain"`
	Message     map[string]any           `json:"message"`
}

// TypedMember is one field of a struct type.
type TypedMember struct {
	Name string `json:"name"`
	Type string `json:"type"`
}

// TypedDomain is the EIP-712 domain; its fields are hashed as far as the
// EIP712Domain type lists them.
type TypedDomain struct {
	Name              string `json:"name"`
	Version           string `json:"version"`
	ChainID           any    `json:"chainId"`
	VerifyingContract string `json:"verifyingContract,omitempty"`
}

// TypedDataHash is the digest a wallet signs: keccak(0x1901 ‖ domain
// separator ‖ hash of the message).
func TypedDataHash(td TypedData) (common.Hash, error) {
	domain := map[string]any{"name": td.Domain.Name, "version": td.Domain.Version,
		"chainId": td.Domain.ChainID, "verifyingContract": td.Domain.VerifyingContract}
	sep, err := td.hashStruct("EIP712Domain", domain)
	if err != nil {
		return common.Hash{}, fmt.Errorf("domain: %w", err)
	}
	msg, err := td.hashStruct(td.PrimaryType, td.Message)
	if err != nil {
		return common.Hash{}, fmt.Errorf("message: %w", err)
	}
	return common.BytesToHash(keccak([]byte{0x19, 0x01}, sep, msg)), nil
}

func (td TypedData) hashStruct(name string, data map[string]any) ([]byte, error) {
	members, ok := td.Types[name]
	if !ok {
		return nil, fmt.Errorf("type %q is not declared", name)
	}
	enc := [][]byte{keccak([]byte(td.encodeType(name)))}
	for _, m := range members {
		v, ok := data[m.Name]
		if !ok {
			return nil, fmt.Errorf("%s.%s is missing", name, m.Name)
		}
		word, err := td.encodeValue(m.Type, v)
		if err != nil {
			return nil, fmt.Errorf("%s.%s: %w", name, m.Name, err)
		}
		enc = append(enc, word)
	}
	return keccak(enc...), nil
}

// encodeType is the type's string followed by those of the struct types
// it refers to, sorted by name.
func (td TypedData) encodeType(name string) string {
	deps := map[string]bool{}
	var walk func(string)
	walk = func(n string) {
		if deps[n] || td.Types[n] == nil {
			return
		}
		deps[n] = true
		for _, m := range td.Types[n] {
			walk(m.Type)
		}
	}
	walk(name)
	delete(deps, name)
	others := make([]string, 0, len(deps))
	for n := range deps {
		others = append(others, n)
	}
	slices.Sort(others)
	var b strings.Builder
	for _, n := range append([]string{name}, others...) {
		fields := make([]string, len(td.Types[n]))
		for i, m := range td.Types[n] {
			fields[i] = m.Type + " " + m.Name
		}
		b.WriteString(n + "(" + strings.Join(fields, ",") + ")")
	}
	return b.String()
}

// encodeValue is one field's 32-byte word.
func (td TypedData) encodeValue(typ string, v any) ([]byte, error) {
	if _, ok := td.Types[typ]; ok {
		m, ok := v.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("%v is not a %s", v, typ)
		}
		return td.hashStruct(typ, m)
	}
	s, isString := v.(string)
	switch {
	case typ == "string" && isString:
		return keccak([]byte(s)), nil
	case typ == "address" && isString:
		b, err := hex.DecodeString(strings.TrimPrefix(s, "0x"))
		if err != nil || len(b) != 20 {
			return nil, fmt.Errorf("%q is not an address", s)
		}
		return common.LeftPadBytes(b, 32), nil
	case strings.HasPrefix(typ, "uint"), strings.HasPrefix(typ, "int"):
		return encodeInt(typ, v)
	}
	return nil, fmt.Errorf("%v as %s: not a type this wallet signs", v, typ)
}

// encodeInt is an intN or uintN given as a JSON number (exact, as read by
// ReadTypedData) or a decimal or 0x string, refused outside its range.
func encodeInt(typ string, v any) ([]byte, error) {
	signed := !strings.HasPrefix(typ, "u")
	bits, err := strconv.Atoi(strings.TrimPrefix(strings.TrimPrefix(typ, "u"), "int"))
	if err != nil || bits < 8 || bits > 256 || bits%8 != 0 {
		return nil, fmt.Errorf("%s is not an integer type", typ)
	}
	n, ok := new(big.Int), false
	switch x := v.(type) {
	case float64:
		var acc big.Accuracy
		n, acc = new(big.Float).SetFloat64(x).Int(nil)
		ok = acc == big.Exact
	case json.Number:
		n, ok = n.SetString(x.String(), 10)
	case string:
		if h, isHex := strings.CutPrefix(x, "0x"); isHex {
			n, ok = n.SetString(h, 16)
		} else {
			n, ok = n.SetString(x, 10)
		}
	}
	if !ok {
		return nil, fmt.Errorf("%v is not a %s", v, typ)
	}
	lo, hi := big.NewInt(0), new(big.Int).Lsh(big.NewInt(1), uint(bits))
	if signed {
		hi.Rsh(hi, 1)
		lo.Neg(hi)
	}
	if n.Cmp(lo) < 0 || n.Cmp(hi) >= 0 {
		return nil, fmt.Errorf("%v is out of range for %s", v, typ)
	}
	if n.Sign() < 0 { // two's complement in 256 bits
		n.Add(n, new(big.Int).Lsh(big.NewInt(1), 256))
	}
	return n.FillBytes(make([]byte, 32)), nil
}

// signTypedData signs td with a hex key as a wallet would: r ‖ s ‖ v, v 27/28.
func signTypedData(keyHex string, td TypedData) ([]byte, error) {
	hash, err := TypedDataHash(td)
	if err != nil {
		return nil, fmt.Errorf("typed data: %v", err)
	}
	k, err := keyOf(keyHex)
	if err != nil {
		return nil, err
	}
	compact := ecdsa.SignCompact(k, hash[:], false) // v+27 ‖ r ‖ s
	return append(compact[1:], compact[0]), nil
}

// SignTypedDataJSON signs eth_signTypedData_v4 JSON as a wallet would,
// hashing it with the wallet's own EIP-712 code (not svcwallet's), and
// returns r ‖ s ‖ v with v 27 or 28.
func SignTypedDataJSON(keyHex string, typedData []byte) ([]byte, error) {
	td, err := ReadTypedData(typedData)
	if err != nil {
		return nil, err
	}
	return signTypedData(keyHex, td)
}

// ReadTypedData reads eth_signTypedData_v4 JSON keeping numbers exact: a
// chain id or amount above 2^53 is not rounded as a float64 would be.
func ReadTypedData(b []byte) (TypedData, error) {
	var td TypedData
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	if err := dec.Decode(&td); err != nil {
		return TypedData{}, fmt.Errorf("typed data: %v", err)
	}
	return td, nil
}

// keyOf reads a hex private key: the tests' fixed keys, in range.
func keyOf(keyHex string) (*secp256k1.PrivateKey, error) {
	b, err := hex.DecodeString(strings.TrimPrefix(keyHex, "0x"))
	if err != nil || len(b) != 32 {
		return nil, fmt.Errorf("not a private key")
	}
	return secp256k1.PrivKeyFromBytes(b), nil
}

// KeyAddress is the address of a hex key.
func KeyAddress(keyHex string) common.Address {
	k, err := keyOf(keyHex)
	if err != nil {
		panic(err)
	}
	return common.BytesToAddress(keccak(k.PubKey().SerializeUncompressed()[1:])[12:])
}

func keccak(parts ...[]byte) []byte {
	h := sha3.NewLegacyKeccak256()
	for _, p := range parts {
		h.Write(p)
	}
	return h.Sum(nil)
}
