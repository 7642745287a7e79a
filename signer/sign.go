package signer

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"

	"github.com/decred/dcrd/dcrec/secp256k1/v4"
	"github.com/ethereum/go-ethereum/common"
)

// Key signs typed data for one address. A key held in memory never prints
// or returns its private key; a key held elsewhere (clef, a signing
// command) is asked for each signature and may take a person's time.
type Key interface {
	Address() common.Address
	// SignTypedData signs message m under domain d as eth_signTypedData_v4
	// does, returning r ‖ s ‖ v (v as 0/1 or 27/28). A key source gets the
	// whole typed data, never a bare digest, so one that shows the user
	// what is signed (clef, a device, a signing command) can. It may block
	// until a person approves; cancelling ctx ends the wait.
	SignTypedData(ctx context.Context, d Domain, m Message) ([65]byte, error)
}

// Awaiter is a Key whose signatures wait for something outside svcwallet:
// a person approving in clef or on a device, a signing command.
type Awaiter interface {
	// Awaiting says what a signature waits for, to follow "waiting for":
	// "approval in clef at http://127.0.0.1:8550".
	Awaiting() string
}

// Awaiting is what k's signatures wait for, or "" for a key that signs at
// once (one in memory).
func Awaiting(k Key) string {
	if a, ok := k.(Awaiter); ok {
		return a.Awaiting()
	}
	return ""
}

// Watch returns k with every wait watched: before each signature that
// waits (Awaiting not ""), before is called with its context and what is
// awaited, and returns the context to wait under (the command line's
// catches ctrl+c) and a func called when the wait ends. It says what is
// awaited there: the command line prints it, the console can show it. A
// key that signs at once is returned as it is.
func Watch(k Key, before func(ctx context.Context, awaiting string) (context.Context, func())) Key {
	if Awaiting(k) == "" {
		return k
	}
	return watched{k, before}
}

type watched struct {
	Key
	before func(context.Context, string) (context.Context, func())
}

func (w watched) Awaiting() string { return Awaiting(w.Key) }

func (w watched) SignTypedData(ctx context.Context, d Domain, m Message) ([65]byte, error) {
	ctx, done := w.before(ctx, w.Awaiting())
	defer done()
	return w.Key.SignTypedData(ctx, d, m)
}

// PrivateKey is a Key backed by an in-memory secp256k1 key, and its
// address (derived once: a signature's check asks for it).
type PrivateKey struct {
	key  *secp256k1.PrivateKey
	addr common.Address
}

// newPrivateKey wraps a secp256k1 key.
func newPrivateKey(k *secp256k1.PrivateKey) *PrivateKey {
	return &PrivateKey{key: k, addr: addressOf(k.PubKey())}
}

// ParsePrivateKeyHex reads a 32-byte hex private key, with or without 0x.
// The error never repeats the input.
func ParsePrivateKeyHex(s string) (*PrivateKey, error) {
	s = strings.TrimSpace(s)
	s = strings.TrimPrefix(strings.TrimPrefix(s, "0x"), "0X")
	if len(s) != 64 {
		return nil, errors.New("private key must be 32 bytes of hex (64 characters)")
	}
	b, err := hex.DecodeString(s)
	if err != nil {
		return nil, errors.New("private key is not valid secp256k1 hex")
	}
	k, err := keyFromBytes(b)
	if err != nil {
		return nil, errors.New("private key is not valid secp256k1 hex")
	}
	return newPrivateKey(k), nil
}

func (p *PrivateKey) Address() common.Address { return p.addr }

func (p *PrivateKey) SignTypedData(_ context.Context, d Domain, m Message) ([65]byte, error) {
	return p.signDigest(Digest(d, m))
}

// signDigest signs a digest computed here: Sign's, so that a key held in
// memory does not compute it again.
func (p *PrivateKey) signDigest(digest common.Hash) ([65]byte, error) {
	return signHash(p.key, digest[:]), nil
}

// Signature is the signature object of SPEC.md §2.3 in typed form; the service
// package renders it as JSON (chain_id is a string in login and builder
// authorization, an integer in withdraw).
type Signature struct {
	Signer     common.Address
	R, S       common.Hash
	V          uint8 // 27 or 28
	Nonce      uint32
	Expiration int64 // unix nanoseconds
	ChainID    uint64
}

// HexR and HexS render r and s as 0x + 64 lowercase hex.
func (s Signature) HexR() string { return "0x" + hex.EncodeToString(s.R[:]) }
func (s Signature) HexS() string { return "0x" + hex.EncodeToString(s.S[:]) }

// ErrWrongSigner is a signature that does not recover to the key's address.
var ErrWrongSigner = errors.New("the signature is not the key's")

// Sign signs the message under the domain with key. The nonce and expiration in
// the returned Signature are those inside m. Whatever the key source, the
// signature is checked against the digest computed here: one that does not
// recover to the key's address is refused (an error wrapping
// ErrWrongSigner that says whose it is), never used.
func Sign(ctx context.Context, key Key, d Domain, m Message) (Signature, error) {
	digest := Digest(d, m)
	var raw [65]byte
	var err error
	if p, ok := key.(*PrivateKey); ok {
		raw, err = p.signDigest(digest)
	} else {
		raw, err = key.SignTypedData(ctx, d, m)
	}
	if err != nil {
		return Signature{}, err
	}
	v := raw[64]
	if v < 27 {
		v += 27
	}
	nonce, exp := m.NonceExpiration()
	addr := key.Address()
	sig := Signature{Signer: addr, V: v, Nonce: nonce, Expiration: exp, ChainID: d.ChainID}
	copy(sig.R[:], raw[:32])
	copy(sig.S[:], raw[32:64])
	who, err := recoverDigest(digest, sig.R, sig.S, int(sig.V))
	switch {
	case err != nil:
		return Signature{}, fmt.Errorf("%w: it recovers to no address (%v); expected %s", ErrWrongSigner, err, addr.Hex())
	case who != addr:
		return Signature{}, fmt.Errorf("%w: over the digest svcwallet computed it recovers to %s, not to the expected %s", ErrWrongSigner, who.Hex(), addr.Hex())
	}
	return sig, nil
}

// NewNonce returns a uniformly random uint32 from crypto/rand (D9).
func NewNonce() uint32 {
	var b [4]byte
	if _, err := rand.Read(b[:]); err != nil {
		panic("signer: crypto/rand failed: " + err.Error())
	}
	return binary.BigEndian.Uint32(b[:])
}

// secp256k1N and secp256k1HalfN are the curve's order and half of it,
// big-endian: a signature's r and s are compared with them as bytes.
var (
	secp256k1N     = common.HexToHash("0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141")
	secp256k1HalfN = common.HexToHash("0x7fffffffffffffffffffffffffffffff5d576e7357a4501ddfe92f46681b20a0")
)

// Errors of Recover, matched with errors.Is by the sandbox to pick its error codes.
var (
	ErrBadV        = errors.New("v must be 27 or 28")
	ErrHighS       = errors.New("s must be in the lower half of the curve order")
	ErrNotRecovery = errors.New("signature does not recover to a public key")
)

// Recover returns the address that signed m under d with (r, s, v). It refuses
// v other than 27/28 and high-s signatures, as the service does.
func Recover(d Domain, m Message, r, s common.Hash, v int) (common.Address, error) {
	return recoverDigest(Digest(d, m), r, s, v)
}

// recoverDigest is Recover of the digest of the typed data signed.
func recoverDigest(digest, r, s common.Hash, v int) (common.Address, error) {
	if v != 27 && v != 28 {
		return common.Address{}, ErrBadV
	}
	if bytes.Compare(s[:], secp256k1HalfN[:]) > 0 {
		return common.Address{}, ErrHighS
	}
	if r == (common.Hash{}) || s == (common.Hash{}) || bytes.Compare(r[:], secp256k1N[:]) >= 0 {
		return common.Address{}, ErrNotRecovery
	}
	var raw [65]byte
	copy(raw[:32], r[:])
	copy(raw[32:64], s[:])
	raw[64] = byte(v - 27)
	pub, err := recoverHash(digest[:], raw)
	if err != nil {
		return common.Address{}, ErrNotRecovery
	}
	return addressOf(pub), nil
}
