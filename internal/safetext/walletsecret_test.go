package safetext

import (
	"encoding/base64"
	"strconv"
	"strings"
	"testing"
)

// TestWalletSecretShape: a recovery phrase (12 or more words of 3 to 8
// letters, on one line, one a line, or apart by commas) and a key written
// as a list of its bytes (a SOLANA keypair file, id.json) are a wallet
// secret's shape, and so is a key in standard base64 with its padding (32
// or 64 bytes); lists of ids, paths, prose with short words, a phrase's first
// words and a few numbers are not.
func TestWalletSecretShape(t *testing.T) {
	phrase := "legal winner thank year wave sausage worth useful legal winner thank yellow"
	var keypair []string
	for i := range 64 {
		keypair = append(keypair, strconv.Itoa((i*37+11)%256))
	}
	idJSON := "[" + strings.Join(keypair, ",") + "]"
	raw := make([]byte, 64)
	for i := range raw {
		raw[i] = byte(i*37 + 251)
	}
	b64, seed64 := base64.StdEncoding.EncodeToString(raw), base64.StdEncoding.EncodeToString(raw[:32])
	for s, want := range map[string]bool{
		b64:                                      true,
		seed64:                                   true,
		"q-1 " + b64 + " # pasted":               true,
		strings.TrimRight(b64, "="):              true,  // 86 characters, a '+' or '/' in it
		"/" + strings.TrimRight(seed64, "=")[1:]: false, // an absolute path's shape
		"keys/mainwallet/backup2025/eu/ledger/x1A":     false,
		base64.RawStdEncoding.EncodeToString(raw[:31]): false,
		"/tmp/TestAuthLoginOnce2739194/001/config":     false,
		base64.RawURLEncoding.EncodeToString(raw[:32]): false,
		base64.StdEncoding.EncodeToString(raw[:20]):    false,
		phrase:                       true,
		numbered(phrase, ". ", " "):  true,
		numbered(phrase, ") ", "\n"): true,
		numbered(phrase, " ", "   "): true,
		numbered(phrase, ".", "\n"):  true,
		"sent 5 USDT from 3 wallets across 2 chains then 1 more from each and 4 back into the other one twice": false,
		numbered(strings.Replace(phrase, "year", "a", 1), ". ", " "):                                           false,
		strings.ToUpper(phrase):                        true,
		strings.ReplaceAll(phrase, " ", "\n"):          true,
		strings.ReplaceAll(phrase, " ", ", "):          true,
		"q-1 " + phrase + " # mine":                    true,
		phrase + " " + phrase:                          true,
		idJSON:                                         true,
		strings.Join(keypair, ", "):                    true,
		"[" + strings.Join(keypair, ",\n ") + "]\n":    true,
		strings.Join(keypair[:32], ","):                true,
		strings.Join(strings.Fields(phrase)[:11], " "): false,
		"please look up my withdrawal of yesterday: it did not arrive at my wallet on the chain": false,
		strings.Repeat("q-abcdefgh ", 20):   false,
		strings.Repeat("12345, ", 40):       false,
		strings.Join(keypair[:31], ","):     false,
		strings.Join(keypair, " "):          false,
		strings.Repeat("256,", 40):          false,
		strings.Repeat("tx-abc q-def ", 10): false,
	} {
		if got := HoldsWalletSecretShape(s); got != want {
			t.Errorf("HoldsWalletSecretShape(%.50q) = %v, want %v", s, got, want)
		}
	}
	if spans := WalletSecretSpans("q-1\n" + phrase + "\nq-2"); len(spans) != 1 || spans[0] != [2]int{4, 4 + len(phrase)} {
		t.Errorf("the phrase's span is %v, want [[4 %d]]", spans, 4+len(phrase))
	}
}

// numbered is phrase's words numbered from 1, as a wallet shows them to
// be written down: "1. legal 2. winner …" (after each number, then between
// each word and the next number).
func numbered(phrase, after, between string) string {
	var b strings.Builder
	for i, w := range strings.Fields(phrase) {
		if i > 0 {
			b.WriteString(between)
		}
		b.WriteString(strconv.Itoa(i+1) + after + w)
	}
	return b.String()
}

// TestSecretsCut: a recovery phrase, a key's byte list or base64 in text
// an error repeats is one "…", the rest kept; text without one is kept
// whole.
func TestSecretsCut(t *testing.T) {
	const phrase = "legal winner thank year wave sausage worth useful legal winner thank yellow"
	bytes := "[" + strings.TrimSuffix(strings.Repeat("17, ", 32), ", ") + "]"
	for _, tc := range []struct{ in, want string }{
		{"+ cast wallet sign --mnemonic " + phrase + " /tmp/f.json", "+ cast wallet sign --… /tmp/f.json"},
		{"bad keypair " + bytes + " here", "bad keypair … here"},
		{phrase + "\n" + phrase, "…"},
		// As it reads: parted by an escape sequence or an invisible
		// character, it is one phrase once cleaned.
		{"mnemonic: \x1b[1m" + strings.Replace(phrase, " ", "\x1b[0m ", 1), "mnemonic: …"},
		{"mnemonic: " + strings.Replace(phrase, " ", "\u200b ", 3), "mnemonic: …"},
		{"Error: user rejected the request", "Error: user rejected the request"},
	} {
		if got := SecretsCut(tc.in); got != tc.want {
			t.Errorf("SecretsCut(%.60q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
