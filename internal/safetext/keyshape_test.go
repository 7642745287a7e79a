package safetext

import (
	"strings"
	"testing"
)

// TestHoldsKeyShapeSplit: a key wrapped over lines, or pasted in groups or
// halves, is refused as the whole key is: runs of hex split only by
// whitespace or separators (: - . _ , ;) that together make 64 digits, as
// openssl's two digits apart with colons. Lists of ids that are not a key
// (of 24 hex digits, short numbers, UUIDs, sandbox ids) are not.
func TestHoldsKeyShapeSplit(t *testing.T) {
	key := strings.Repeat("a1B2", 16)
	ids24 := strings.Repeat("0123456789abcdef01234567\n", 10)
	var numbers strings.Builder
	for n := range 500 {
		numbers.WriteString(strings.Repeat("7", n%9+1) + "\n")
	}
	uuids := strings.Repeat("550e8400-e29b-41d4-a716-446655440000,", 10)
	for s, want := range map[string]bool{
		key[:32] + "\n" + key[32:]:                                       true,
		key[:32] + " " + key[32:]:                                        true,
		key[:32] + "\r\n" + key[32:] + "\n":                              true,
		"0x" + key[:32] + "\n" + key[32:]:                                true,
		"q-1\n0x" + key[:50] + "\n" + key[50:] + " # key":                true,
		key[:16] + " " + key[16:32] + "\t" + key[32:48] + " " + key[48:]: true,
		key[:1] + "\n" + key[1:]:                                         true,
		key[:30] + "\u00a0\n  " + key[30:]:                               true,
		key[:32] + ",\n" + key[32:]:                                      true,
		key[:32] + "-" + key[32:]:                                        true,
		key[:32] + "." + key[32:]:                                        true,
		key[:32] + ";" + key[32:]:                                        true,
		key[:16] + ":" + key[16:32] + ":" + key[32:48] + ":" + key[48:]:  true,
		openssl(key): true,
		strings.Replace(openssl(key), "priv:\n    ", "priv:\n    00:", 1): true,
		key[:32] + "_" + key[32:]:    true,
		key[:32] + "/" + key[32:]:    false,
		colonGroups(key, 4):          false,
		colonGroups(key, 8):          false,
		uuids:                        false,
		key[:32] + "\nq-" + key[32:]: false,
		key[:32] + "\n" + key[32:63]: false,
		ids24:                        false,
		numbers.String():             false,
		key[:8] + " " + key[8:16] + " " + key[16:24] + " " + key[24:32] + " " + key[32:40] + " " + key[40:48] + " " + key[48:56] + " " + key[56:]: false,
		"q-7mzq4d2kxw5v3c6hbf2ytjnr1e\nq-abcdefa2cd3bf4ea5e6dcb7ae1\n":                                                                            false,
	} {
		if got := HoldsKeyShape(s); got != want {
			t.Errorf("HoldsKeyShape(%q) = %v, want %v", s, got, want)
		}
	}
}

// TestKeySpans: the span of a split key covers its pieces and the
// whitespace between, and nothing around them.
func TestKeySpans(t *testing.T) {
	key := strings.Repeat("c3", 32)
	s := "q-1 0x" + key[:32] + "\n" + key[32:] + " q-2"
	spans := KeySpans(s)
	if len(spans) != 1 || s[spans[0][0]:spans[0][1]] != key[:32]+"\n"+key[32:] {
		t.Fatalf("KeySpans(%q) = %v", s, spans)
	}
}

// openssl is key as `openssl ec -text` prints a private key: "priv:", then
// lines of 15 bytes, two hex digits each, joined by colons.
func openssl(key string) string {
	var b strings.Builder
	b.WriteString("priv:")
	for i := 0; i < len(key); i += 2 {
		if i%30 == 0 {
			b.WriteString("\n    ")
		}
		b.WriteString(key[i : i+2])
		if i+2 < len(key) {
			b.WriteString(":")
		}
	}
	return b.String() + "\n"
}

// colonGroups is key in groups of n digits joined by colons, as IPv6
// addresses are written: only openssl's pairs make a key's middle pieces.
func colonGroups(key string, n int) string {
	var groups []string
	for i := 0; i < len(key); i += n {
		groups = append(groups, key[i:i+n])
	}
	return strings.Join(groups, ":")
}
