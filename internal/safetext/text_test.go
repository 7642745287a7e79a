package safetext

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// survivor finds a character Clean must never let through.
func survivor(s string) (rune, bool) {
	for _, r := range s {
		if r == 0x1b || dropped(r) || r == utf8.RuneError {
			return r, true
		}
	}
	return 0, false
}

func TestClean(t *testing.T) {
	for _, tc := range []struct{ name, in, want string }{
		{"plain", "0xabc", "0xabc"},
		{"OSC 52 with BEL", "0xabc\x1b]52;c;ZWNobyBwd25lZA==\x07", "0xabc"},
		{"OSC 2 with ST", "ARB\x1b]2;owned\x1b\\ITRUM", "ARBITRUM"},
		{"CSI", "\x1b[2J\x1b[31mred\x1b[0m", "red"},
		{"C1 CSI", "a\u009b31mb", "ab"},
		{"C1 OSC to C1 ST", "a\u009d52;c;eA==\u009cb", "ab"},
		{"DCS", "a\x1bPq#0;2;0;0;0\x1b\\b", "ab"},
		{"two-byte ESC", "a\x1bcb", "ab"},
		{"bidi override", "evil\u202Etxt.exe", "eviltxt.exe"},
		{"invisible", "0x\u200b12\ufeff", "0x12"},
		{"isolates", "\u2066a\u2069", "a"},
		{"Arabic letter mark, word joiner, tag, soft hyphen", "a\u061cb\u2060c\U000E0041d\u00ade", "abcde"},
		{"line and paragraph separators", "a\u2028b\u2029c", "abc"},
		{"C0 and DEL", "a\nb\tc\x7fd\x00", "abcd"},
		{"not UTF-8", "a\xffb", "ab"},
		{"unterminated OSC eats the rest", "a\x1b]52;c;AAAA", "a"},
		{"letters of other scripts stay", "Zürich 東京", "Zürich 東京"},
	} {
		if got := Text(tc.in); got != tc.want {
			t.Errorf("%s: Text(%q) = %q, want %q", tc.name, tc.in, got, tc.want)
		}
	}
}

// FuzzClean: no control, escape or format character survives, valid UTF-8
// comes out, and cleaning twice changes nothing.
func FuzzClean(f *testing.F) {
	for _, s := range []string{"0xabc\x1b]52;c;ZQ==\x07", "\u009b31m", "a\u202eb", "\x1b[", "\x1bP\x1b", "é\xff", strings.Repeat("\x1b]", 10)} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		out := Text(s)
		if r, bad := survivor(out); bad {
			t.Fatalf("Text(%q) = %q keeps %U", s, out, r)
		}
		if !utf8.ValidString(out) {
			t.Fatalf("Text(%q) = %q is not UTF-8", s, out)
		}
		if again := Text(out); again != out {
			t.Fatalf("not idempotent: %q then %q", out, again)
		}
		if len(out) > len(s) {
			t.Fatalf("Clean grew %q to %q", s, out)
		}
	})
}

// TestHoldsKeyShape: 62 or more hex digits in a row anywhere is the shape
// of a private key (a key printed as a number drops its leading zeros);
// 61, or 64 broken by a character other than whitespace or a separator
// (TestHoldsKeyShapeSplit), is not.
func TestHoldsKeyShape(t *testing.T) {
	key := strings.Repeat("a1B2", 16)
	for s, want := range map[string]bool{
		key: true, "0x" + key: true, "-x" + key: true, "q-" + key + "-1": true, " " + key + "\r": true,
		key[:63]: true, key[:62]: true, key[:61]: false, key[:32] + "/" + key[32:]: false, "q-7mzq4d2kxw5v3c6hbf2ytjnr1e": false, "": false,
	} {
		if got := HoldsKeyShape(s); got != want {
			t.Errorf("HoldsKeyShape(%q) = %v, want %v", s, got, want)
		}
	}
}

func TestCapitalized(t *testing.T) {
	for in, want := range map[string]string{"": "", "the key": "The key", "élan": "Élan", "Already": "Already", "7 left": "7 left"} {
		if got := Capitalized(in); got != want {
			t.Errorf("Capitalized(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestIsLine: a text Line would leave as it is, and no other: one cut to
// the bound and an ellipsis (Line's own output) is past the bound.
func TestIsLine(t *testing.T) {
	for s, want := range map[string]bool{
		"bot": true, strings.Repeat("a", 10): true, "a … b": true,
		"": false, " bot": false, "bot ": false, "b\tot": false, "b\not": false, "b\u202eot": false, "b\x1b[2Jot": false,
		strings.Repeat("a", 11): false, Line(strings.Repeat("a", 20), 10): false, strings.Repeat("a", 8) + "…": false,
	} {
		if got := IsLine(s, 10); got != want {
			t.Errorf("IsLine(%q, 10) = %v, want %v", s, got, want)
		}
	}
}

// TestEscaped: what Text would drop is written escaped, the rest kept, and
// what comes out is clean text.
func TestEscaped(t *testing.T) {
	for in, want := range map[string]string{
		"/home/josé/state":         "/home/josé/state",
		"s\x1b]2;T\ax":             `s\x1b]2;T\ax`,
		"a\u202eb\u200bc":          `a\u202eb\u200bc`,
		"bad\xffbyte\u009b31m\x7f": `bad\xffbyte\u009b31m\x7f`,
	} {
		got := Escaped(in)
		if got != want || Text(got) != got {
			t.Errorf("Escaped(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestShownTyped: a typed path is escaped as Shown escapes one, its hex
// runs cut first as they read: a no-break space stays seen, and a key
// split by an invisible character is cut as one run.
func TestShownTyped(t *testing.T) {
	key := strings.Repeat("a1B2", 16)
	for in, want := range map[string]string{
		"/tmp/x.csv":                               "/tmp/x.csv",
		"/tmp/a\u00a0b.csv":                        `"/tmp/a\u00a0b.csv"`,
		"/tmp/" + key[:20] + ".csv":                "/tmp/a1B2a1B2….csv",
		"/tmp/" + key[:10] + "\u200b" + key[10:20]: `"/tmp/a1B2a1B2…\u200b"`,
	} {
		if got := ShownTyped(in); got != want {
			t.Errorf("ShownTyped(%q) = %s, want %s", in, got, want)
		}
	}
}
