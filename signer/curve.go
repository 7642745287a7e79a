package signer

import (
	"errors"

	"github.com/decred/dcrd/dcrec/secp256k1/v4"
	"github.com/decred/dcrd/dcrec/secp256k1/v4/ecdsa"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto/keccak"
)

// The curve comes from decred's pure-Go secp256k1 and keccak from
// go-ethereum's crypto/keccak (Go and assembly, linked by common anyway),
// not from go-ethereum's crypto, whose libsecp256k1 is C: a cgo package
// makes every binary and test binary link with gcc.

// keccak256 is Ethereum's Keccak-256 (the pre-standard padding) of the parts.
func keccak256(parts ...[]byte) []byte {
	h := keccak.NewLegacyKeccak256()
	for _, p := range parts {
		h.Write(p)
	}
	return h.Sum(nil)
}

// keccak256Hash is keccak256 as a Hash.
func keccak256Hash(parts ...[]byte) common.Hash {
	return common.BytesToHash(keccak256(parts...))
}

// errInvalidKey is a private key that is not 32 bytes in [1, N).
var errInvalidKey = errors.New("invalid private key: it must be 32 bytes, not zero and below the curve order")

// keyFromBytes reads a 32-byte private key, refusing zero and values ≥ N
// as go-ethereum's ToECDSA does (decred's PrivKeyFromBytes would reduce
// them mod N without a word, signing as another key).
func keyFromBytes(b []byte) (*secp256k1.PrivateKey, error) {
	var d secp256k1.ModNScalar
	if len(b) != 32 {
		return nil, errInvalidKey
	}
	if overflow := d.SetByteSlice(b); overflow || d.IsZero() {
		return nil, errInvalidKey
	}
	return secp256k1.NewPrivateKey(&d), nil
}

// addressOf is the Ethereum address of a public key: the last 20 bytes of
// the keccak of its uncompressed X ‖ Y.
func addressOf(pub *secp256k1.PublicKey) common.Address {
	return common.BytesToAddress(keccak256(pub.SerializeUncompressed()[1:])[12:])
}

// signHash signs a 32-byte digest (RFC 6979, low s) as r ‖ s ‖ v, v 0/1:
// decred's compact form is v+27 ‖ r ‖ s, the recovery byte first.
func signHash(k *secp256k1.PrivateKey, digest []byte) [65]byte {
	compact := ecdsa.SignCompact(k, digest, false)
	var out [65]byte
	copy(out[:64], compact[1:])
	out[64] = compact[0] - 27
	return out
}

// recoverHash is the public key that signed digest with r ‖ s ‖ v, v 0/1.
func recoverHash(digest []byte, sig [65]byte) (*secp256k1.PublicKey, error) {
	var compact [65]byte
	compact[0] = sig[64] + 27
	copy(compact[1:], sig[:64])
	pub, _, err := ecdsa.RecoverCompact(compact[:], digest)
	return pub, err
}
