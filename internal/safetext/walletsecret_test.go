package safetext

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"fmt"
	"math/big"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// TestWalletSecretShape: a recovery phrase (12 or more words of a BIP-39
// list, on one line, one a line, or apart by commas) and a key written
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
		numbered(strings.Replace(phrase, "year", "a", 1), ". ", " "): false,
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
	// Spain's and France's word lists hold letters with accents, a
	// phrase may come joined by '-', '_' or '.' into one word, or apart by
	// spaces other than ASCII's.
	for _, s := range []string{
		"ábaco abdomen abeja abierto abogado abono aborto abrazo abrir abuelo abuso acción",
		"abdomen abeja abierto abogado abono aborto abrazo abrir abuelo abuso acabar ábaco",
		"académie acajou acarien accabler accepter acclamer abaisser abandon abdiquer abeille abolir aborder",
		strings.ReplaceAll(phrase, " ", "-"),
		strings.ReplaceAll(phrase, " ", "\u00a0"), // no-break spaces, copied from a page
		strings.ReplaceAll(phrase, " ", "\u3000"),
		strings.ReplaceAll(phrase, " ", "_"),
		strings.ReplaceAll(phrase, " ", "."),
	} {
		if !HoldsWalletSecretShape(s) {
			t.Errorf("%.40q is not a secret's shape", s)
		}
	}
	for _, s := range numberedPhrases(phrase) {
		for _, around := range []string{"%s", "q-7\n%s\nq-8", "mine 3 %s page 2"} {
			if !HoldsWalletSecretShape(fmt.Sprintf(around, s)) {
				t.Errorf("a numbered phrase %.40q is not a secret's shape in %q", s, around)
			}
		}
	}
	for _, s := range []string{
		"1. open the app 2. choose withdraw 3. give the amount 4. review it 5. press enter",
		"1. q-abc 2. q-def 3. q-ghi 4. q-jkl 5. q-mno 6. q-pqr 7. q-stu 8. q-vwx 9. q-yza 10. q-bcd 11. q-efg 12. q-hij",
		"el retiro de ayer no ha llegado a mi cartera en la cadena, por favor búsquelo pronto",
		"see watchboard-prod-eu-20261130.csv and my-withdrawals-from-last-week.csv for the rows",
		"sign --mnemonic-file words.txt --derivation-path m/44 --index zero",
		"25. legal 26. winner 27. thank 28. year 29. wave 30. sausage 31. worth 32. useful 33. legal 34. winner 35. thank 36. yellow",
		// Prose with numbers up to 24 in it, not one before each word:
		// a signing program's error and a support note were cut whole.
		"sent 5 USDT from 3 wallets across 2 chains then 1 more from each and 4 back into the other one twice",
		"Error: Ethereum app version 1.10.3 needed; open the Ledger Live Manager and update your Nano S Plus",
		"eth mainnet node down; retry 1 more time; then 2; then call ops team lead now please",
		"wait 10 more minutes then retry 2 times from the same host with 4 workers then page ops",
	} {
		if HoldsWalletSecretShape(s) {
			t.Errorf("%.40q is taken for a secret's shape", s)
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

// TestQuotedCutsSecrets: a recovery phrase, a key's byte list or base64
// in text an error repeats (Quoted: a signing command's output) is one
// "…", the rest kept, looked for as the text reads once cleaned; text
// without one is kept whole.
func TestQuotedCutsSecrets(t *testing.T) {
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
		if got := Quoted(tc.in); got != tc.want {
			t.Errorf("Quoted(%.60q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// numberedPhrases is phrase as a recovery sheet or a wallet's backup screen
// writes it: each word after its number (1., 01), 1:, 1-, (1), #1), on
// one line, one a line or in two columns, or as a JSON list of strings.
func numberedPhrases(phrase string) []string {
	words := strings.Fields(phrase)
	each := func(f func(n int, w string) string) []string {
		var out []string
		for i, w := range words {
			out = append(out, f(i+1, w))
		}
		return out
	}
	dot := each(func(n int, w string) string { return strconv.Itoa(n) + ". " + w })
	half := len(dot) / 2
	var columns []string
	for i := range half {
		columns = append(columns, dot[i]+"    "+dot[i+half])
	}
	return []string{
		strings.Join(dot, " "),
		strings.Join(dot, "\n"),
		strings.Join(columns, "\n"),
		strings.Join(each(func(n int, w string) string { return fmt.Sprintf("%02d.%s", n, w) }), "\n"),
		strings.Join(each(func(n int, w string) string { return fmt.Sprintf("%02d) %s", n, w) }), "\r\n"),
		strings.Join(each(func(n int, w string) string { return fmt.Sprintf("%d:%s", n, w) }), " "),
		strings.Join(each(func(n int, w string) string { return fmt.Sprintf("%d-%s", n, w) }), "\t"),
		strings.Join(each(func(n int, w string) string { return fmt.Sprintf("(%d) %s", n, w) }), " "),
		strings.Join(each(func(n int, w string) string { return fmt.Sprintf("#%d %s", n, w) }), "\n"),
		`["` + strings.Join(words, `", "`) + `"]`,
		"'" + strings.Join(words, "' '") + "'",
	}
}

// TestExtendedPrivateKeyShape: a BIP-32 extended private key (xprv…, and
// SLIP-132's tprv, yprv, zprv…), which gives every key of a wallet, is a
// wallet secret's shape wherever it is: 111 letters and digits, a token,
// so it was sent as a quote id. Its checksum is checked, so an id that
// begins so is not one; an extended public key (xpub…) is no secret.
func TestExtendedPrivateKeyShape(t *testing.T) {
	body := make([]byte, 74) // depth, parent, index, chain code, 0, key
	for i := range body {
		body[i] = byte(i*53 + 7)
	}
	body[41] = 0
	xprv, tprv, xpub := extendedKey(0x0488ADE4, body), extendedKey(0x04358394, body), extendedKey(0x0488B21E, body)
	if !strings.HasPrefix(xprv, "xprv") || !strings.HasPrefix(tprv, "tprv") || !strings.HasPrefix(xpub, "xpub") || len(xprv) != 111 {
		t.Fatalf("the keys made are %q, %q, %q", xprv, tprv, xpub)
	}
	broken := []byte(xprv)
	broken[60] = map[bool]byte{true: 'b', false: 'a'}[broken[60] == 'a']
	for s, want := range map[string]bool{
		xprv:                              true,
		tprv:                              true,
		"q-1 " + xprv + " # pasted":       true,
		"key=" + xprv + "\n":              true,
		xpub:                              false,
		string(broken):                    false,
		"xprv" + strings.Repeat("z", 107): false,
	} {
		if got := HoldsWalletSecretShape(s); got != want {
			t.Errorf("HoldsWalletSecretShape(%.50q) = %v, want %v", s, got, want)
		}
	}
	if got := Quoted("derive from " + xprv + " at m/0"); got != "derive from … at m/0" {
		t.Errorf("Quoted said %q", got)
	}
}

// extendedKey is body (74 bytes) after version and depth's place, as
// BIP-32 serializes a key: base58 of the 78 bytes and the first 4 of their
// double SHA-256.
func extendedKey(version uint32, body []byte) string {
	b := binary.BigEndian.AppendUint32(nil, version)
	b = append(b, body...)
	first := sha256.Sum256(b)
	check := sha256.Sum256(first[:])
	b = append(b, check[:4]...)
	n := new(big.Int).SetBytes(b)
	var out []byte
	for mod := new(big.Int); n.Sign() > 0; {
		n.DivMod(n, big.NewInt(58), mod)
		out = append(out, "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"[mod.Int64()])
	}
	slices.Reverse(out)
	return string(out)
}
