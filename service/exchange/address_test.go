package exchange

import (
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/common"
)

func TestValidateAddress(t *testing.T) {
	cases := []struct {
		chainType, addr string
		wantErr         string // "" = valid
	}{
		{ChainTypeEVM, "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC", ""},
		{ChainTypeEVM, "0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc", ""},
		{ChainTypeEVM, "0x3C44CDDDB6A900FA2B585DD299E03D12FA4293BC", ""},
		{ChainTypeEVM, "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293Bc", "checksum"},
		{ChainTypeEVM, "3C44CdDdB6a900fa2b585dd299e03d12FA4293BC", "starts with 0x"},
		{ChainTypeEVM, "0X3C44CdDdB6a900fa2b585dd299e03d12FA4293BC", "starts with 0x"},
		{ChainTypeEVM, "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293B", "not 39"},
		{ChainTypeEVM, "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BG", "only hex"},
		{ChainTypeEVM, "", "starts with 0x"},
		{ChainTypeSolana, "EPjFWJd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v", ""},
		{ChainTypeSolana, "EPjFWJd5AufqSSqeM2qN1xzybapC8G4wEGGkZwy", "32 bytes, not"},
		{ChainTypeSolana, "EPjFWJd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTD0l1", "base58"},
		{ChainTypeSolana, "", "empty"},
		{ChainTypeSolana, strings.Repeat("1", 45), "too long"},
		// The likely mix-up is named, with both ways out (issue 12).
		{ChainTypeSolana, "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t", "this is a Tron address: choose a Tron chain, or enter a Solana address"},
		{ChainTypeSolana, "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC", "this is an EVM address: choose an EVM chain, or enter a Solana address"},
		{ChainTypeEVM, "EPjFWJd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v", "this is a Solana address: choose a Solana chain, or enter an EVM address"},
		{ChainTypeTron, "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t", ""},
		{ChainTypeTron, "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6u", "checksum"},
		{ChainTypeTron, "EPjFWJd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v", "this is a Solana address"},
		{ChainTypeTron, "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC", "this is an EVM address: choose an EVM chain, or enter a Tron address"},
		{ChainTypeTron, "0x3C44", "starts with T"},
		{ChainTypeTron, "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6", "a Tron address has 34 characters, not 33"},
		// A stray character is named with its position in characters (issue 21).
		{ChainTypeEVM, "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC\u200b", "invisible character U+200B at position 43"},
		{ChainTypeEVM, "0x3C44\u0421dDdB6a900fa2b585dd299e03d12FA4293BC", "non-Latin look-alike 'С' (U+0421) at position 7"},
		{ChainTypeSolana, "EPjFWJd5Aufq SSqeM2qN1xzybapC8G4wEGGkZwyTDt1v", "a space at position 13"},
		{ChainTypeTron, "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t\u202e", "invisible character U+202E at position 35"},
		{ChainTypeEVM, "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293B\u2705", "character '✅' (U+2705) at position 42"},
		{ChainTypeEVM, "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293B;", "character ';' at position 42"},
		{"bitcoin", "1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa", "unknown chain type"},
	}
	for _, c := range cases {
		err := ValidateAddress(c.chainType, c.addr)
		switch {
		case c.wantErr == "" && err != nil:
			t.Errorf("%s %q: unexpected error %v", c.chainType, c.addr, err)
		case c.wantErr != "" && err == nil:
			t.Errorf("%s %q: accepted, want error containing %q", c.chainType, c.addr, c.wantErr)
		case c.wantErr != "" && !strings.Contains(err.Error(), c.wantErr):
			t.Errorf("%s %q: error %q, want it to contain %q", c.chainType, c.addr, err, c.wantErr)
		}
	}
}

// A Tron address whose version byte is not 0x41 is refused even with a good checksum.
func TestValidateTronVersionByte(t *testing.T) {
	// base58check of 0x00 ‖ 20 bytes: a Bitcoin-style address of 25 bytes.
	if err := ValidateAddress(ChainTypeTron, "1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa"); err == nil || !strings.Contains(err.Error(), "starts with T") {
		t.Fatalf("got %v, want a version byte error", err)
	}
}

func FuzzValidateAddress(f *testing.F) {
	for _, s := range []string{"0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC", "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t", "EPjFWJd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v", "", "0x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, addr string) {
		for _, ct := range []string{ChainTypeEVM, ChainTypeSolana, ChainTypeTron} {
			err := ValidateAddress(ct, addr)
			if err == nil && ct == ChainTypeEVM && !common.IsHexAddress(addr) {
				t.Fatalf("accepted %q as EVM", addr)
			}
		}
	})
}

// TestShapeErrorArticle: a shape refusal puts "an" before a field named
// with a vowel first ("sent a account id" was said) and "a" before another.
func TestShapeErrorArticle(t *testing.T) {
	for field, want := range map[string]string{
		"account id":     "the service sent an account id that",
		"EVM address":    "the service sent an EVM address that",
		"quote id":       "the service sent a quote id that",
		"Solana address": "the service sent a Solana address that",
	} {
		if got := NewShapeError(field, "is empty").Error(); !strings.HasPrefix(got, want) {
			t.Errorf("%q: %s", field, got)
		}
	}
}
