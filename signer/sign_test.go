package signer

import (
	"context"
	"errors"
	"math/big"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"
)

var testDomain = Domain{Name: DefaultDomainName, ChainID: 327}

func testTransfer(from common.Address) Transfer {
	return Transfer{
		FromAccount:   from,
		ToAccount:     common.HexToAddress("0x1111111111111111111111111111111111111111"),
		TokenCurrency: USDTCurrency,
		NumTokens:     25_500_000,
		Nonce:         0xdeadbeef,
		Expiration:    1_900_000_000_000_000_000,
	}
}

func signedTransfer(t *testing.T) (*PrivateKey, Transfer, Signature) {
	t.Helper()
	hexKey, _ := freshKeyHex(t)
	k, err := ParsePrivateKeyHex(hexKey)
	if err != nil {
		t.Fatal(err)
	}
	m := testTransfer(k.Address())
	sig, err := Sign(context.Background(), k, testDomain, m)
	if err != nil {
		t.Fatal(err)
	}
	return k, m, sig
}

func TestSignRecoverRoundTrip(t *testing.T) {
	k, m, sig := signedTransfer(t)
	if sig.Signer != k.Address() || sig.Nonce != m.Nonce || sig.Expiration != m.Expiration || sig.ChainID != 327 {
		t.Fatalf("signature object %+v does not repeat the message", sig)
	}
	if sig.V != 27 && sig.V != 28 {
		t.Fatalf("v = %d", sig.V)
	}
	got, err := Recover(testDomain, m, sig.R, sig.S, int(sig.V))
	if err != nil || got != k.Address() {
		t.Fatalf("recover = %s, %v; want %s", got, err, k.Address())
	}
	if r := sig.HexR(); len(r) != 66 || common.HexToHash(r) != sig.R {
		t.Fatalf("HexR = %s, want 0x and the 64 hex digits of %x", r, sig.R)
	}
}

func TestRecoverRefusesBadV(t *testing.T) {
	_, m, sig := signedTransfer(t)
	for _, v := range []int{0, 1, 26, 29, 30, 31, 32, 33, 34, 35, -27, 27 + 256} {
		if _, err := Recover(testDomain, m, sig.R, sig.S, v); !errors.Is(err, ErrBadV) {
			t.Errorf("v=%d: %v, want ErrBadV", v, err)
		}
	}
}

// TestRecoverRefusesHighS flips s to n−s and v to the other parity: the same
// signature in its malleable form, which recovers the same key in plain ECDSA
// but must be refused so one authorization has exactly one encoding.
func TestRecoverRefusesHighS(t *testing.T) {
	k, m, sig := signedTransfer(t)
	n := crypto.S256().Params().N
	highS := new(big.Int).Sub(n, new(big.Int).SetBytes(sig.S[:]))
	var s common.Hash
	highS.FillBytes(s[:])
	v := 55 - int(sig.V) // 27 ↔ 28

	// Check the flipped form really is the same signature to plain ECDSA.
	raw := append(append(append([]byte{}, sig.R[:]...), s[:]...), byte(v-27))
	d := Digest(testDomain, m)
	pub, err := crypto.SigToPub(d[:], raw)
	if err != nil || crypto.PubkeyToAddress(*pub) != k.Address() {
		t.Fatalf("malleated signature does not recover the signer (%v); the test is wrong", err)
	}
	if _, err := Recover(testDomain, m, sig.R, s, v); !errors.Is(err, ErrHighS) {
		t.Fatalf("high s: %v, want ErrHighS", err)
	}
}

func TestRecoverTamperedFields(t *testing.T) {
	k, m, sig := signedTransfer(t)
	tampered := map[string]Message{
		"numTokens":  func() Transfer { x := m; x.NumTokens++; return x }(),
		"toAccount":  func() Transfer { x := m; x.ToAccount[19] ^= 1; return x }(),
		"nonce":      func() Transfer { x := m; x.Nonce++; return x }(),
		"expiration": func() Transfer { x := m; x.Expiration++; return x }(),
		"subAccount": func() Transfer { x := m; x.FromSubAccount = 1; return x }(),
		"currency":   func() Transfer { x := m; x.TokenCurrency = 4; return x }(),
	}
	for name, tm := range tampered {
		// r and v fix the point R, so recovery succeeds for any digest; it just
		// yields some other key.
		got, err := Recover(testDomain, tm, sig.R, sig.S, int(sig.V))
		if err != nil || got == k.Address() {
			t.Errorf("tampered %s: recovered %s, %v; want another address", name, got, err)
		}
	}
	for name, d := range map[string]Domain{
		"chainId": {Name: testDomain.Name, ChainID: 326},
		"name":    {Name: "Other Exchange", ChainID: testDomain.ChainID},
	} {
		if got, err := Recover(d, m, sig.R, sig.S, int(sig.V)); err != nil || got == k.Address() {
			t.Errorf("other domain %s: recovered %s, %v; want another address", name, got, err)
		}
	}
}

func TestRecoverRefusesOutOfRangeRS(t *testing.T) {
	_, m, sig := signedTransfer(t)
	var zero, nBytes common.Hash
	crypto.S256().Params().N.FillBytes(nBytes[:])
	for name, rs := range map[string][2]common.Hash{
		"r=0": {zero, sig.S},
		"s=0": {sig.R, zero},
		"r=n": {nBytes, sig.S},
	} {
		if _, err := Recover(testDomain, m, rs[0], rs[1], int(sig.V)); !errors.Is(err, ErrNotRecovery) {
			t.Errorf("%s: %v, want ErrNotRecovery", name, err)
		}
	}
}

func TestNewNonceVaries(t *testing.T) {
	first := NewNonce()
	for range 8 {
		if NewNonce() != first {
			return
		}
	}
	t.Fatalf("9 draws of NewNonce all returned %d", first)
}

// lyingKey claims one address and signs with another key, or returns raw
// bytes of its own: a key source that cannot be trusted.
type lyingKey struct {
	claims common.Address
	signs  *PrivateKey
	raw    *[65]byte
}

func (l lyingKey) Address() common.Address { return l.claims }

func (l lyingKey) SignTypedData(ctx context.Context, d Domain, m Message) ([65]byte, error) {
	if l.raw != nil {
		return *l.raw, nil
	}
	return l.signs.SignTypedData(ctx, d, m)
}

// TestSignChecksTheSigner: whatever a key source returns is recovered
// against the digest computed here; a signature by another key, or
// garbage, is refused, and one with v as 27/28 is taken as it is.
func TestSignChecksTheSigner(t *testing.T) {
	k, m, _ := signedTransfer(t)
	otherHex, _ := freshKeyHex(t)
	other, err := ParsePrivateKeyHex(otherHex)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Sign(context.Background(), lyingKey{claims: k.Address(), signs: other}, testDomain, m); !errors.Is(err, ErrWrongSigner) {
		t.Fatalf("another key's signature: %v", err)
	}
	garbage := [65]byte{1, 2, 3}
	if _, err := Sign(context.Background(), lyingKey{claims: k.Address(), raw: &garbage}, testDomain, m); !errors.Is(err, ErrWrongSigner) {
		t.Fatalf("garbage: %v", err)
	}
	raw, err := k.SignTypedData(context.Background(), testDomain, m)
	if err != nil {
		t.Fatal(err)
	}
	raw[64] += 27
	if sig, err := Sign(context.Background(), lyingKey{claims: k.Address(), raw: &raw}, testDomain, m); err != nil || sig.V != raw[64] {
		t.Fatalf("v given as 27/28: %+v, %v", sig, err)
	}
}

// TestCurveOrderBytes: the order and half order r and s are compared with
// as bytes are secp256k1's.
func TestCurveOrderBytes(t *testing.T) {
	n := crypto.S256().Params().N
	if got := new(big.Int).SetBytes(secp256k1N[:]); got.Cmp(n) != 0 {
		t.Errorf("secp256k1N = %x, want %x", got, n)
	}
	if got := new(big.Int).SetBytes(secp256k1HalfN[:]); got.Cmp(new(big.Int).Rsh(n, 1)) != 0 {
		t.Errorf("secp256k1HalfN = %x, want n/2", got)
	}
}

// countedTransfer is a Transfer that counts the times its fields are
// encoded: once per digest.
type countedTransfer struct {
	Transfer
	fields *int
}

func (c countedTransfer) Fields() []Field {
	*c.fields++
	return c.Transfer.Fields()
}

// TestSignComputesTheDigestOnce: a key held in memory signs the digest
// Sign computed and checks the signature against, not one of its own.
func TestSignComputesTheDigestOnce(t *testing.T) {
	hexKey, _ := freshKeyHex(t)
	k, err := ParsePrivateKeyHex(hexKey)
	if err != nil {
		t.Fatal(err)
	}
	m := countedTransfer{testTransfer(k.Address()), new(int)}
	if _, err := Sign(context.Background(), k, testDomain, m); err != nil { // its type hash, once
		t.Fatal(err)
	}
	*m.fields = 0
	sig, err := Sign(context.Background(), k, testDomain, m)
	if err != nil {
		t.Fatal(err)
	}
	if *m.fields != 1 {
		t.Errorf("a signature with its check encoded the message %d times, want 1", *m.fields)
	}
	if got, err := Recover(testDomain, m.Transfer, sig.R, sig.S, int(sig.V)); err != nil || got != k.Address() {
		t.Errorf("recovered %s, %v; want %s", got, err, k.Address())
	}
}

// TestSeparatorKeptPerDomain: the domain separator is computed once for a
// domain signed under again, and anew for another.
func TestSeparatorKeptPerDomain(t *testing.T) {
	want := testDomain.Separator()
	marked := common.Hash{1}
	lastSeparator.Store(&separator{testDomain, marked})
	defer lastSeparator.Store(nil)
	if got := testDomain.Separator(); got != marked {
		t.Errorf("the separator of the last domain was computed again: %s", got)
	}
	other := Domain{Name: testDomain.Name, ChainID: 326}
	if got := other.Separator(); got == marked || got == want {
		t.Errorf("another domain's separator is the last one's: %s", got)
	}
	if got := testDomain.Separator(); got != want {
		t.Errorf("separator after another domain = %s, want %s", got, want)
	}
}
