package safetext

import (
	"strings"
	"testing"
)

// TestShown: a path is shown as it is when Printable, else Go-quoted with
// what a terminal acts on or hides escaped, never cleaned into another
// name; letters outside ASCII stay letters.
func TestShown(t *testing.T) {
	for in, want := range map[string]string{
		"/home/ana/.local/state/svcwallet/journal.jsonl": "/home/ana/.local/state/svcwallet/journal.jsonl",
		"/home/josé/state":          "/home/josé/state",
		"/tmp/a b":                  "/tmp/a b",
		"/tmp/osc\x1b]52;c;x\a":     `"/tmp/osc\x1b]52;c;x\a"`,
		"/tmp/a\u00a0b":             `"/tmp/a\u00a0b"`,
		"/tmp/txt\u202egpj.exe":     `"/tmp/txt\u202egpj.exe"`,
		"/tmp/line\nbreak":          `"/tmp/line\nbreak"`,
		"/tmp/\xff":                 `"/tmp/\xff"`,
		"/tmp/zero\u200bwidth\"q\\": `"/tmp/zero\u200bwidth\"q\\"`,
	} {
		if got := Shown(in); got != want {
			t.Errorf("Shown(%q) = %s, want %s", in, got, want)
		}
		if !Printable(Shown(in)) {
			t.Errorf("Shown(%q) = %q is not Printable", in, Shown(in))
		}
	}
}

// TestNameQuoted: a refused name is quoted in ASCII (a look-alike letter
// escaped), bounded to 40 characters, the cut marked, its long hex runs
// cut as they read: a key split by zero-width spaces is one run, where
// escaped first it showed 8 digits and 4 more after each "\u200b".
func TestNameQuoted(t *testing.T) {
	for in, want := range map[string]string{
		"local":                     `"local"`,
		"l\u043ecal":                `"l\u043ecal"`,
		"lo\x1b[31mcal":             `"lo\x1b[31mcal"`,
		"ac0974bec39a17e36ba4a6b4d": `"ac0974be…"`,
		"abcdefghijklmnopqrstuvwxyz_abcdefghijklmnopqrstuvwxyz": `"abcdefghijklmnopqrstuvwxyz_abcdefghijklm…"`,
		"ac0974be\u200bc39a17e3\u200b6ba4a6b4":                  `"ac0974be\u200b…\u200b"`,
		// A recovery phrase set where a name goes ($SVCWALLET_ENV): none
		// of its words, nor an extended private key's start.
		"legal winner thank year wave sausage worth useful legal winner thank yellow":                                             `"…"`,
		"env: 1. legal 2. winner 3. thank 4. year 5. wave 6. sausage 7. worth 8. useful 9. legal 10. winner 11. thank 12. yellow": `"env: 1. …"`,
		"xprv9s21ZrQH143K3QTDL4LXw2F7HEK3wJUD2nW2nRk4stbPy6cq3jPPqjiChkVvvNKmPGJxWUtg6LnF5kejMRNNU3TGtRBeJgk33yuGBxrMPHi":         `"…"`,
	} {
		if got := NameQuoted(in); got != want {
			t.Errorf("NameQuoted(%q) = %s, want %s", in, got, want)
		}
	}
}

// TestIDQuoted: a refused id is quoted with every character but printable
// ASCII and the ellipsis escaped: cleaned, an escape sequence vanished
// (reading as ""), a bidi override or a control left an id that looks
// well formed, and a look-alike hyphen read as the hyphen. Its hex runs
// are cut as they read, as Quoted cuts them.
func TestIDQuoted(t *testing.T) {
	for in, want := range map[string]string{
		"q-with space":           `"q-with space"`,
		"bad!id":                 `"bad!id"`,
		"bad\x01id":              `"bad\x01id"`,
		"\x1b]0;pwn\a":           `"\x1b]0;pwn\a"`,
		"ab\u202ecd":             `"ab\u202ecd"`,
		"q\u20101":               `"q\u20101"`,
		"q\u00a0x":               `"q\u00a0x"`,
		"q-12…ab":                `"q-12…ab"`,
		"q\xff":                  `"q\xff"`,
		`q\u2026`:                `"q\\u2026"`,
		"q-ac0974bec39a17e36ba":  `"q-ac0974be…"`,
		strings.Repeat("q", 129): `"` + strings.Repeat("q", 60) + `…"`,
		// A run broken only by what a terminal hides reads as one, and is
		// cut as one: escaped first, a key split by them kept 8 digits a
		// piece ("200b" and "00ad" of their escapes counted in too).
		"ac0974be\u200bc39a17e3\u200b6ba4a6b4": `"ac0974be\u200b…\u200b"`,
		"ac0974be\x1b[0mc39a17e3":              `"ac0974be\x1b[0m…"`,
		"ac09\u00ad74be\u00adc39a\u00ad17e3":   `"ac09\u00ad74be\u00ad…\u00ad"`,
		"ac0974be\u200b\nc39a17e3":             `"ac0974be\u200b\nc39a17e3"`,
		// A link's query or fragment may hold a token (?apikey=, #token=),
		// as a config URL's may: cut before it, as config.CheckURL cuts.
		"https://api.example/api?module=tx&apikey=SECRET1": `"https://api.example/api?…"`,
		"https://x.example/tx/0xab#token=SECRET2":          `"https://x.example/tx/0xab#…"`,
		"https://user:hunter2@api.example/tx/0xab":         `"https://…@api.example/tx/0xab"`,
		"https://:tok3n@rpc.example?x=1":                   `"https://…@rpc.example?…"`,
		"https://api.example/u@x":                          `"https://api.example/u@x"`,
		"q-1@x":                                            `"q-1@x"`,
		"q-1?":                                             `"q-1?"`,
		"q?q-pasted":                                       `"q?q-pasted"`,
	} {
		if got := IDQuoted(in); got != want {
			t.Errorf("IDQuoted(%q) = %s, want %s", in, got, want)
		}
	}
}
