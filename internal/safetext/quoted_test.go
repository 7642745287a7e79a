package safetext

import (
	"regexp"
	"strings"
	"testing"
)

// TestQuoted: what an error repeats of typed text keeps at most 8 hex
// digits in a row, none of a run as long as a key's half (said by its
// length alone), no wallet secret, and everything else as it was.
func TestQuoted(t *testing.T) {
	key := "ac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80"
	for in, want := range map[string]string{
		"":                           "",
		"q-abc123":                   "q-abc123",
		"12345678":                   "12345678",
		"123456789":                  "12345678…",
		key:                          "ac0974be…",
		"0x" + key:                   "0x" + "ac0974be…",
		"/tmp/" + key[:40] + ".json": "/tmp/ac0974be….json",
		"my key " + key + " here":    "my key ac0974be… here",
		// A key's half, the other given apart, showed 8 digits each.
		key[:30]:               "ac0974be…",
		key[:31]:               "[31 hex digits]",
		"0x" + key[32:]:        "0x[32 hex digits]",
		key[:33]:               "[33 hex digits]",
		key[:34]:               "ac0974be…",
		key[:32] + "\u200b":    "[32 hex digits]",
		"deadbeef-cafebabe0":   "deadbeef-cafebabe…",
		"/home/ab/keys/ü.json": "/home/ab/keys/ü.json",
		// A recovery phrase set where a name goes ($SVCWALLET_ENV) was
		// said to the 40 characters a message keeps.
		"no environment legal winner thank year wave sausage worth useful legal winner thank yellow":                             "no environment …",
		"bip32: xprv9s21ZrQH143K3QTDL4LXw2F7HEK3wJUD2nW2nRk4stbPy6cq3jPPqjiChkVvvNKmPGJxWUtg6LnF5kejMRNNU3TGtRBeJgk33yuGBxrMPHi": "bip32: …",
	} {
		if got := Quoted(in); got != want {
			t.Errorf("Quoted(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestQuotedSeesThroughEscapes: a key broken into runs of eight by colour
// codes or zero-width spaces reads whole on screen, so it is cut as one run.
func TestQuotedSeesThroughEscapes(t *testing.T) {
	key := strings.Repeat("a1b2c3d4", 8)
	var coloured, invisible strings.Builder
	for i := 0; i < len(key); i += 8 {
		coloured.WriteString(key[i:i+8] + "\x1b[0m")
		invisible.WriteString(key[i:i+8] + "\u200b")
	}
	for name, s := range map[string]string{"colour codes": coloured.String(), "zero-width spaces": invisible.String()} {
		if got := Quoted(s); got != "a1b2c3d4…" {
			t.Errorf("%s: Quoted = %q", name, got)
		}
	}
}

// TestASCIIShown: a name of printable ASCII is shown as it is; one holding
// an escape, an invisible or a letter outside ASCII is quoted with them
// escaped, never cleaned into another name.
func TestASCIIShown(t *testing.T) {
	for in, want := range map[string]string{
		"--json":         "--json",
		"--js\x1b[31mon": `"--js\x1b[31mon"`,
		"--js\u043en":    `"--js\u043en"`,
		"--json\u200b":   `"--json\u200b"`,
		"--json\u202e":   `"--json\u202e"`,
		"--a b":          "--a b",
		"--\xff":         `"--\xff"`,
	} {
		if got := ASCIIShown(in); got != want {
			t.Errorf("ASCIIShown(%q) = %s, want %s", in, got, want)
		}
	}
}

// TestQuotedCutsAKeyInPieces: a key's shape in pieces (KeySpans: groups,
// halves, openssl's pairs, wrapped) is cut as a run of its digits is, at
// its eighth digit, by every refusal's repeat (Quoted, NameQuoted,
// IDQuoted, ShownTyped): each piece being short, they repeated it whole,
// or up to their length's bound (52 of 64 digits in IDQuoted).
func TestQuotedCutsAKeyInPieces(t *testing.T) {
	key := "ac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80"
	pieces := func(size int, sep string) string {
		var p []string
		for i := 0; i < len(key); i += size {
			p = append(p, key[i:i+size])
		}
		return strings.Join(p, sep)
	}
	escapes := regexp.MustCompile(`\\(u[0-9a-f]{4}|x1b\[0m|x[0-9a-f]{2}|[nrt])`)
	for name, s := range map[string]string{
		"groups of 8":        "to " + pieces(8, " ") + " now",
		"openssl's pairs":    pieces(2, ":"),
		"halves":             pieces(32, "-"),
		"wrapped":            pieces(16, "\n"),
		"groups in colour":   pieces(8, "\x1b[0m "),
		"https link holding": "https://h.example/" + pieces(8, "-"),
	} {
		for fn, quote := range map[string]func(string) string{"Quoted": Quoted, "NameQuoted": NameQuoted, "IDQuoted": IDQuoted, "ShownTyped": ShownTyped} {
			got := quote(s)
			digits := 0
			for _, c := range []byte(escapes.ReplaceAllString(strings.ReplaceAll(got, "h.example", ""), "")) {
				if isHexDigit(c) {
					digits++
				}
			}
			if digits > maxQuotedHex || !strings.Contains(got, key[:2]) {
				t.Errorf("%s: %s = %q: %d hex digits, want the key's first at most %d", name, fn, got, digits, maxQuotedHex)
			}
		}
	}
}
