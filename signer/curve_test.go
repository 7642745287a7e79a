package signer

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"math/big"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/svcwallet/svcwallet/internal/exchangetest"
)

// TestPrivateKeyRange: a key of zero or at or above the curve order is
// refused, as go-ethereum's ToECDSA refuses it; decred alone would take
// N+1 for the key 1 and sign as its address.
func TestPrivateKeyRange(t *testing.T) {
	n := new(big.Int).SetBytes(secp256k1N[:])
	word := func(x *big.Int) string { return hex.EncodeToString(x.FillBytes(make([]byte, 32))) }
	for name, s := range map[string]string{
		"zero": strings.Repeat("0", 64),
		"N":    word(n),
		"N+1":  word(new(big.Int).Add(n, big.NewInt(1))),
		"max":  strings.Repeat("f", 64),
	} {
		if _, err := ParsePrivateKeyHex(s); err == nil {
			t.Errorf("%s: accepted", name)
		}
		if _, err := crypto.ToECDSA(mustHex(s)); err == nil {
			t.Errorf("%s: go-ethereum accepts it; the test is wrong", name)
		}
	}
	for name, s := range map[string]string{"1": word(big.NewInt(1)), "N-1": word(new(big.Int).Sub(n, big.NewInt(1)))} {
		k, err := ParsePrivateKeyHex(s)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		theirs, _ := crypto.ToECDSA(mustHex(s))
		if k.Address() != crypto.PubkeyToAddress(theirs.PublicKey) {
			t.Errorf("%s: address %s, go-ethereum's %s", name, k.Address(), crypto.PubkeyToAddress(theirs.PublicKey))
		}
	}
	if _, err := keyFromBytes(make([]byte, 31)); err == nil {
		t.Error("a 31-byte key was accepted")
	}
}

// TestCurveAgreesWithGoEthereum: on random keys and digests our signature
// is go-ethereum's byte for byte (both RFC 6979, low s, v 0/1), and on
// random signatures, some damaged, recovery accepts and refuses what
// go-ethereum's does and recovers the same address.
func TestCurveAgreesWithGoEthereum(t *testing.T) {
	needLibsecp256k1(t)
	for range exchangetest.Trials(200) {
		theirs, err := crypto.GenerateKey()
		if err != nil {
			t.Fatal(err)
		}
		k, err := keyFromBytes(crypto.FromECDSA(theirs))
		if err != nil {
			t.Fatal(err)
		}
		if addressOf(k.PubKey()) != crypto.PubkeyToAddress(theirs.PublicKey) {
			t.Fatal("addresses differ")
		}
		var digest common.Hash
		rand.Read(digest[:])
		ours := signHash(k, digest[:])
		want, err := crypto.Sign(digest[:], theirs)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(ours[:], want) {
			t.Fatalf("signature %x, go-ethereum's %x", ours, want)
		}
		sig := ours
		b := make([]byte, 2)
		rand.Read(b)
		switch b[0] % 4 {
		case 1: // another byte of r or s
			sig[int(b[1])%64] ^= 1 << (b[1] % 8)
		case 2: // the other recovery id
			sig[64] ^= 1
		case 3: // the malleable twin, n − s
			s := new(big.Int).Sub(new(big.Int).SetBytes(secp256k1N[:]), new(big.Int).SetBytes(sig[32:64]))
			s.FillBytes(sig[32:64])
			sig[64] ^= 1
		}
		var r, s common.Hash
		copy(r[:], sig[:32])
		copy(s[:], sig[32:64])
		got, err := recoverDigest(digest, r, s, int(sig[64])+27)
		pub, gerr := crypto.Ecrecover(digest[:], sig[:])
		highS := bytes.Compare(s[:], secp256k1HalfN[:]) > 0
		switch {
		case highS && err == nil:
			t.Fatalf("high s accepted: %x", sig)
		case highS:
		case (err == nil) != (gerr == nil):
			t.Fatalf("%x: ours %v, go-ethereum's %v", sig, err, gerr)
		case err == nil && got != common.BytesToAddress(crypto.Keccak256(pub[1:])[12:]):
			t.Fatalf("%x: recovered %s, go-ethereum %x", sig, got, pub)
		}
	}
}

func mustHex(s string) []byte {
	b, err := hex.DecodeString(s)
	if err != nil {
		panic(err)
	}
	return b
}

// needLibsecp256k1 skips, saying why, a cross-check of the curve against
// go-ethereum's that would compare decred with decred (built without cgo).
func needLibsecp256k1(t *testing.T) {
	t.Helper()
	if !withLibsecp256k1 {
		t.Skip("built without cgo, go-ethereum's crypto is decred's curve, ours: this cross-check needs libsecp256k1 (CGO_ENABLED=1, as CI runs it)")
	}
}
