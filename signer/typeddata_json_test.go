package signer

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/signer/core/apitypes"
)

// TestTypedDataJSONHashesAsGoEthereum: the eth_signTypedData_v4 JSON of each
// of the four messages, read by go-ethereum's own typed-data code (what clef
// runs), hashes to the digest svcwallet signs; so a signer given the JSON
// signs exactly that digest. Permissions with '&' are not HTML-escaped.
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
			if bytes.Contains(raw, []byte(`\u0026`)) {
				t.Fatalf("HTML-escaped: %s", raw)
			}
		})
	}
}
