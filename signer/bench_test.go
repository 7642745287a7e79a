package signer

import (
	"context"
	"testing"
	"time"

	"github.com/decred/dcrd/dcrec/secp256k1/v4/ecdsa"
	"github.com/ethereum/go-ethereum/common"
)

// benchKey is a fixed key so runs are comparable.
func benchKey(b *testing.B) *PrivateKey {
	k, err := ParsePrivateKeyHex("4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318")
	if err != nil {
		b.Fatal(err)
	}
	return k
}

// BenchmarkSignTransfer is the whole local signing step of a withdrawal:
// typed-data digest, ECDSA signature and the Signature object.
func BenchmarkSignTransfer(b *testing.B) {
	k := benchKey(b)
	m := testTransfer(k.Address())
	for b.Loop() {
		if _, err := Sign(context.Background(), k, testDomain, m); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCryptoSign is the floor BenchmarkSignTransfer is measured against:
// the bare secp256k1 signature of a fixed digest by the library we sign
// with (decred's).
func BenchmarkCryptoSign(b *testing.B) {
	k := benchKey(b)
	digest := keccak256([]byte("fixed digest"))
	for b.Loop() {
		ecdsa.SignCompact(k.key, digest, false)
	}
}

func BenchmarkRecoverTransfer(b *testing.B) {
	k := benchKey(b)
	m := testTransfer(k.Address())
	sig, err := Sign(context.Background(), k, testDomain, m)
	if err != nil {
		b.Fatal(err)
	}
	var got common.Address
	for b.Loop() {
		if got, err = Recover(testDomain, m, sig.R, sig.S, int(sig.V)); err != nil {
			b.Fatal(err)
		}
	}
	if got != k.Address() {
		b.Fatalf("recovered %s", got)
	}
}

func BenchmarkDigestTransfer(b *testing.B) {
	m := testTransfer(common.HexToAddress("0x2c7536E3605D9C16a7a3D7b1898e529396a65c23"))
	for b.Loop() {
		Digest(testDomain, m)
	}
}

// BenchmarkSignVsBare is a Transfer signed with its self-check (Sign:
// the digest, the signature, the address it recovers to) against the
// floor, the bare compact signature and recovery of the same digest by the
// library we sign with (decred's ecdsa), each iteration timing both so that a busy machine slows both
// alike; ratio is Sign's time over the floor's (the goal: at most 1.2).
func BenchmarkSignVsBare(b *testing.B) {
	k := benchKey(b)
	m := testTransfer(k.Address())
	digest := Digest(testDomain, m)
	var signed, bare time.Duration
	for b.Loop() {
		start := time.Now()
		if _, err := Sign(context.Background(), k, testDomain, m); err != nil {
			b.Fatal(err)
		}
		mid := time.Now()
		sig := ecdsa.SignCompact(k.key, digest[:], false)
		if _, _, err := ecdsa.RecoverCompact(sig, digest[:]); err != nil {
			b.Fatal(err)
		}
		signed, bare = signed+mid.Sub(start), bare+time.Since(mid)
	}
	b.ReportMetric(float64(signed.Nanoseconds())/float64(b.N), "sign-ns/op")
	b.ReportMetric(float64(bare.Nanoseconds())/float64(b.N), "bare-ns/op")
	b.ReportMetric(float64(signed)/float64(bare), "ratio")
}

// BenchmarkSignRecoverBare is BenchmarkSignVsBare's floor alone, for an
// instruction count (docs/bench.sh).
func BenchmarkSignRecoverBare(b *testing.B) {
	k := benchKey(b)
	digest := Digest(testDomain, testTransfer(k.Address()))
	b.ReportAllocs()
	for b.Loop() {
		sig := ecdsa.SignCompact(k.key, digest[:], false)
		if _, _, err := ecdsa.RecoverCompact(sig, digest[:]); err != nil {
			b.Fatal(err)
		}
	}
}
