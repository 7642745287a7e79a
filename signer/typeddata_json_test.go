package signer

import (
	"bytes"
	"crypto/rand"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/signer/core/apitypes"

	"github.com/svcwallet/svcwallet/internal/exchangetest"
)

// TestTypedDataJSONHashesAsGoEthereum: the eth_signTypedData_v4 JSON of each
// of the four messages, read by go-ethereum's own typed-data code (what clef
// runs), hashes to the digest svcwallet signs; so a signer given the JSON
// signs exactly that digest, and so does the stock wallet of exchangetest
// (the fake clef and signing command). Permissions with '&' are not HTML-escaped.
func TestTypedDataJSONHashesAsGoEthereum(t *testing.T) {
	a, b := common.HexToAddress("0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266"), common.HexToAddress("0x70997970C51812dc3A010C7d01b50e0d17dc79C8")
	d := Domain{Name: DefaultDomainName, ChainID: 327}
	for _, m := range []Message{
		WalletLogin{Signer: a, Nonce: 4294967295, Expiration: 1772445600000000000},
		AuthorizeBuilder{MainAccountID: a, BuilderAccountID: b, MaxFutureFeeRate: 1000, MaxSpotFeeRate: 5, Nonce: 7, Expiration: 1772445600000000000},
		AddAccountSignerWithBuilder{AccountID: a, Signer: b, Permissions: "Admin&Trade", BuilderAccountID: b, MaxFutureFeeRate: 10, MaxSpotFeeRate: 1, Nonce: 8, Expiration: 1772445600000000000},
		Transfer{FromAccount: a, ToAccount: b, TokenCurrency: USDTCurrency, NumTokens: 18446744073709551615, Nonce: 9, Expiration: 1772445600000000000},
	} {
		t.Run(m.PrimaryType(), func(t *testing.T) {
			raw := TypedDataJSON(d, m)
			var td apitypes.TypedData
			if err := json.Unmarshal(raw, &td); err != nil {
				t.Fatalf("go-ethereum cannot read %s: %v", raw, err)
			}
			hash, _, err := apitypes.TypedDataAndHash(td)
			if err != nil {
				t.Fatalf("go-ethereum cannot hash %s: %v", raw, err)
			}
			if got, want := common.BytesToHash(hash), Digest(d, m); got != want {
				t.Fatalf("go-ethereum hashes %s to %s, svcwallet signs %s", raw, got, want)
			}
			// The stock wallet other packages' tests sign with hashes as go-ethereum does.
			stock, err := exchangetest.ReadTypedData(raw)
			if err != nil {
				t.Fatal(err)
			}
			if got, err := exchangetest.TypedDataHash(stock); err != nil || got != common.BytesToHash(hash) {
				t.Fatalf("the stock wallet hashes %s to %s (%v), go-ethereum to %x", raw, got, err, hash)
			}
			if bytes.Contains(raw, []byte(`\u0026`)) {
				t.Fatalf("HTML-escaped: %s", raw)
			}
		})
	}
}

// TestStockWalletSignsAsGoEthereum: on random messages and keys the stock
// wallet's signature (exchangetest's EIP-712 and curve code) is
// go-ethereum's apitypes digest signed by go-ethereum's crypto, byte for
// byte, so the fake clef and signing command are an independent wallet.
func TestStockWalletSignsAsGoEthereum(t *testing.T) {
	needLibsecp256k1(t)
	word := func() (a common.Address) { rand.Read(a[:]); return a }
	for range exchangetest.Trials(100) {
		key, err := crypto.GenerateKey()
		if err != nil {
			t.Fatal(err)
		}
		var n [16]byte
		rand.Read(n[:])
		d := Domain{Name: DefaultDomainName, ChainID: binary.BigEndian.Uint64(n[8:])}
		nonce, exp := binary.BigEndian.Uint32(n[:4]), int64(binary.BigEndian.Uint64(n[:8]))
		m := []Message{
			Transfer{FromAccount: word(), ToAccount: word(), FromSubAccount: uint64(n[4]), TokenCurrency: n[5], NumTokens: binary.BigEndian.Uint64(n[8:]), Nonce: nonce, Expiration: exp},
			AddAccountSignerWithBuilder{AccountID: word(), Signer: word(), Permissions: "Admin&Trade", BuilderAccountID: word(), MaxFutureFeeRate: nonce, MaxSpotFeeRate: nonce / 3, Nonce: nonce, Expiration: -exp},
		}[n[6]%2]
		raw := TypedDataJSON(d, m)
		var td apitypes.TypedData
		if err := json.Unmarshal(raw, &td); err != nil {
			t.Fatal(err)
		}
		hash, _, err := apitypes.TypedDataAndHash(td)
		if err != nil {
			t.Fatalf("%s: %v", raw, err)
		}
		want, err := crypto.Sign(hash, key)
		if err != nil {
			t.Fatal(err)
		}
		want[64] += 27
		got, err := exchangetest.SignTypedDataJSON(hex.EncodeToString(crypto.FromECDSA(key)), raw)
		if err != nil || !bytes.Equal(got, want) {
			t.Fatalf("%s: the stock wallet signs %x (%v), go-ethereum %x", raw, got, err, want)
		}
	}
}
