package signer

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/ethereum/go-ethereum/common"
)

// vectorsPath is an independent implementation's output (16 vectors), kept
// in the repository so the tests stand alone.
var vectorsPath = filepath.Join("testdata", "eip712_vectors.json")

type vectorFile struct {
	DomainType string   `json:"domain_type"`
	Vectors    []vector `json:"vectors"`
}

type vector struct {
	PrimaryType string `json:"primary_type"`
	TypeString  string `json:"type_string"`
	PrivateKey  string `json:"private_key"`
	Address     string `json:"address"`
	Domain      struct {
		Name    string `json:"name"`
		Version string `json:"version"`
		ChainID uint64 `json:"chainId"`
	} `json:"domain"`
	Message         map[string]json.RawMessage `json:"message"`
	DomainSeparator string                     `json:"domain_separator"`
	StructHash      string                     `json:"struct_hash"`
	Digest          string                     `json:"digest"`
	R               string                     `json:"r"`
	S               string                     `json:"s"`
	V               int                        `json:"v"`
}

func loadVectors(t testing.TB) vectorFile {
	t.Helper()
	b, err := os.ReadFile(vectorsPath)
	if err != nil {
		t.Fatalf("read vectors: %v", err)
	}
	var vf vectorFile
	if err := json.Unmarshal(b, &vf); err != nil {
		t.Fatalf("parse vectors: %v", err)
	}
	return vf
}

// num reads a JSON number or a decimal string.
func num(t testing.TB, raw json.RawMessage) int64 {
	t.Helper()
	var s string
	if json.Unmarshal(raw, &s) != nil {
		s = string(raw)
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		t.Fatalf("number %s: %v", raw, err)
	}
	return n
}

func addr(t testing.TB, raw json.RawMessage) common.Address {
	t.Helper()
	var s string
	if err := json.Unmarshal(raw, &s); err != nil || !common.IsHexAddress(s) {
		t.Fatalf("address %s", raw)
	}
	return common.HexToAddress(s)
}

func str(t testing.TB, raw json.RawMessage) string {
	t.Helper()
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		t.Fatalf("string %s", raw)
	}
	return s
}

func messageOf(t testing.TB, v vector) Message {
	m := v.Message
	switch v.PrimaryType {
	case "WalletLogin":
		return WalletLogin{Signer: addr(t, m["signer"]), Nonce: uint32(num(t, m["nonce"])), Expiration: num(t, m["expiration"])}
	case "AuthorizeBuilder":
		return AuthorizeBuilder{
			MainAccountID: addr(t, m["mainAccountID"]), BuilderAccountID: addr(t, m["builderAccountID"]),
			MaxFutureFeeRate: uint32(num(t, m["maxFutureFeeRate"])), MaxSpotFeeRate: uint32(num(t, m["maxSpotFeeRate"])),
			Nonce: uint32(num(t, m["nonce"])), Expiration: num(t, m["expiration"]),
		}
	case "AddAccountSignerWithBuilder":
		return AddAccountSignerWithBuilder{
			AccountID: addr(t, m["accountID"]), Signer: addr(t, m["signer"]), Permissions: str(t, m["permissions"]),
			BuilderAccountID: addr(t, m["builderAccountID"]),
			MaxFutureFeeRate: uint32(num(t, m["maxFutureFeeRate"])), MaxSpotFeeRate: uint32(num(t, m["maxSpotFeeRate"])),
			Nonce: uint32(num(t, m["nonce"])), Expiration: num(t, m["expiration"]),
		}
	case "Transfer":
		return Transfer{
			FromAccount: addr(t, m["fromAccount"]), FromSubAccount: uint64(num(t, m["fromSubAccount"])),
			ToAccount: addr(t, m["toAccount"]), ToSubAccount: uint64(num(t, m["toSubAccount"])),
			TokenCurrency: uint8(num(t, m["tokenCurrency"])), NumTokens: uint64(num(t, m["numTokens"])),
			Nonce: uint32(num(t, m["nonce"])), Expiration: num(t, m["expiration"]),
		}
	}
	t.Fatalf("unknown primary type %q", v.PrimaryType)
	return nil
}

func TestVectorsReproduced(t *testing.T) {
	vf := loadVectors(t)
	if vf.DomainType != "EIP712Domain(string name,string version,uint256 chainId)" {
		t.Fatalf("domain type %q", vf.DomainType)
	}
	if len(vf.Vectors) != 16 {
		t.Fatalf("want 16 vectors, got %d", len(vf.Vectors))
	}
	for i, v := range vf.Vectors {
		t.Run(strconv.Itoa(i)+"_"+v.PrimaryType, func(t *testing.T) {
			if v.Domain.Version != DomainVersion {
				t.Fatalf("domain version %q", v.Domain.Version)
			}
			d := Domain{Name: v.Domain.Name, ChainID: v.Domain.ChainID}
			m := messageOf(t, v)
			if got := TypeString(m); got != v.TypeString {
				t.Errorf("type string\n got %s\nwant %s", got, v.TypeString)
			}
			if got := d.Separator().Hex(); got != v.DomainSeparator {
				t.Errorf("domain separator %s, want %s", got, v.DomainSeparator)
			}
			if got := StructHash(m).Hex(); got != v.StructHash {
				t.Errorf("struct hash %s, want %s", got, v.StructHash)
			}
			if got := Digest(d, m).Hex(); got != v.Digest {
				t.Errorf("digest %s, want %s", got, v.Digest)
			}
			key, err := ParsePrivateKeyHex(v.PrivateKey)
			if err != nil {
				t.Fatal(err)
			}
			if key.Address() != common.HexToAddress(v.Address) {
				t.Fatalf("key address %s, want %s", key.Address(), v.Address)
			}
			sig, err := Sign(context.Background(), key, d, m)
			if err != nil {
				t.Fatal(err)
			}
			if sig.HexR() != v.R || sig.HexS() != v.S || int(sig.V) != v.V {
				t.Errorf("signature r=%s s=%s v=%d, want r=%s s=%s v=%d", sig.HexR(), sig.HexS(), sig.V, v.R, v.S, v.V)
			}
			// The verifier must accept the independent implementation's signature.
			got, err := Recover(d, m, common.HexToHash(v.R), common.HexToHash(v.S), v.V)
			if err != nil || got != common.HexToAddress(v.Address) {
				t.Errorf("recover = %s, %v; want %s", got, err, v.Address)
			}
		})
	}
}
