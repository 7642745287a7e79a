package safetext

import (
	"strconv"
	"strings"
	"testing"
)

// TestHoldsKeyShapeSplit: a key wrapped over lines, or pasted in groups or
// halves, is refused as the whole key is: runs of hex split only by
// whitespace or separators (: - . _ , ;) that together make 62 to 66
// digits, the inner runs alike, the first and last no longer, one
// separator between each two, as openssl's pairs after colons. Lists of
// ids that are not a key (of 24 hex digits, numbers, UUIDs, MAC addresses,
// sandbox ids) are not, nor short ids one a line, as a file of ids is:
// a key wrapped over lines has 16 digits or more to a line.
func TestHoldsKeyShapeSplit(t *testing.T) {
	key := strings.Repeat("a1B2", 16)
	ids24 := strings.Repeat("0123456789abcdef01234567\n", 10)
	var numbers strings.Builder
	for n := range 500 {
		numbers.WriteString(strings.Repeat("7", n%9+1) + "\n")
	}
	uuids := strings.Repeat("550e8400-e29b-41d4-a716-446655440000,", 10)
	// Transfer ids of 8 decimal digits, and MAC addresses one a line: as
	// many digits as a key, in pieces alike, but no letter, or separators
	// unlike.
	decimal8 := strings.Repeat("20261130\n", 8)
	macs := strings.Repeat("a4:5e:60:c2:1b:9f\n", 6)
	// IPv6 addresses written whole and MAC addresses on one line: pieces
	// alike, the separators unlike, but of 4 digits and 2.
	ipv6s := strings.Repeat("2001:0db8:85a3:0000:0000:8a2e:0370:7334 ", 4)
	macsInALine := strings.Repeat("a4:5e:60:c2:1b:9f, ", 8)
	// Commit ids abbreviated to 7 to 9 digits, one a line: pieces unlike.
	var abbrevs strings.Builder
	for n := range 30 {
		abbrevs.WriteString(key[n%3:n%3+7+n%3] + "\n")
	}
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
		key[:32] + "_" + key[32:]:                 true,
		mixed(key, 8, ":", "-", " "):              true,
		mixed(key, 8, ":", ":", ":", "\n"):        true,
		mixed(key, 16, ",", "-", "\n"):            true,
		mixed(key, 8, ".", ";", "_", ",", "\n"):   true,
		mixed(key, 4, ":", "-"):                   false,
		ipv6s:                                     false,
		macsInALine:                               false,
		colonGroups(key, 4):                       true,
		colonGroups(key, 8):                       true,
		colonGroups(key[:62], 8):                  true,
		groups(key, 8, ","):                       true,
		groups(key, 8, " - "):                     true,
		groups(key, 16, "\n"):                     true,
		groups(key, 20, "\n"):                     true,
		groups(key, 2, " "):                       true,
		"0x" + key[:62]:                           true,
		"0x" + key[:63]:                           true,
		"0x" + key[:61]:                           false,
		key[:32] + "\n" + key[32:63]:              true,
		key[:30] + "\n" + key[32:63]:              false,
		colonGroups(key[:60], 4):                  false,
		key[:32] + "/" + key[32:]:                 false,
		groups(key[:32], 8, ":") + "," + key[32:]: false,
		`"` + key[:32] + `" "` + key[32:] + `"`:   true,
		`"` + key[:32] + `","` + key[32:] + `"`:   true,
		strings.Repeat(`"3f9a2c1b"`+"\n", 20):     false,
		decimal8:                                  false,
		strings.Repeat("3f9a2c1b\n", 20):          false,
		strings.Repeat("a3f9c2\r\n", 20):          false,
		groups(key, 8, "\n"):                      false,
		groups(key[:32], 8, " ") + "\n" + groups(key[32:], 8, " "): true,
		key[:58] + "\n" + key[58:]:                                 true,
		macs:                                                       false,
		abbrevs.String():                                           false,
		key[:34] + "\n" + key[:33]:                                 false,
		key[:32] + strings.Repeat(",7", 40):                        false,
		strings.Repeat("7,", 40) + key[:32]:                        false,
		uuids:                                                      false,
		key[:32] + "\nq-" + key[32:]:                               false,
		ids24:                                                      false,
		numbers.String():                                           false,
		key[:8] + " " + key[8:16] + " " + key[16:24] + " " + key[24:32] + " " + key[32:40] + " " + key[40:48] + " " + key[48:56] + " " + key[56:]: true,
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
	// A key whole is its own span: the hex an id before or after it ends
	// or starts with (q-…f, 2 digits with the key's 64 make 66) is none of it.
	for _, s := range []string{"q-mqekavustnsyqkfkgvnwfmhrrf\n" + key + "\n", "q-ab " + key + " cd-1", "0x" + key + ",ab", "ref ab\n" + key + "\n"} {
		spans := KeySpans(s)
		if len(spans) != 1 || s[spans[0][0]:spans[0][1]] != key {
			t.Errorf("KeySpans(%q) = %v, want the key alone", s, spans)
		}
	}
	// So is a key in halves, wrapped: a word's last digits shorter than
	// its pieces start none of it; 0x is no word.
	for _, s := range []string{"q-mqekavustnsyqkfkgvnwfmhrrf\n" + key[:32] + "\n" + key[32:], "q-1\n" + key[:32] + "\n" + key[32:]} {
		spans := KeySpans(s)
		if len(spans) != 1 || s[spans[0][0]:spans[0][1]] != key[:32]+"\n"+key[32:] {
			t.Errorf("KeySpans(%q) = %v, want the key's halves alone", s, spans)
		}
	}
	// A - is a word's only after a letter or digit: a key in uneven halves
	// after a list's dash is still found whole.
	if s := "-" + key[:30] + "\n" + key[30:]; len(KeySpans(s)) == 0 || KeySpans(s)[0] != [2]int{1, len(s)} {
		t.Errorf("KeySpans(%q) = %v, want the key's halves after the dash", s, KeySpans(s))
	}
	if s := "0xab\n" + key[:31] + "\n" + key[31:62]; len(KeySpans(s)) == 0 || KeySpans(s)[0][0] != 2 {
		t.Errorf("KeySpans(%q) = %v, want the key from after 0x", s, KeySpans(s))
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

// colonGroups is key in groups of n digits joined by colons.
func colonGroups(key string, n int) string { return groups(key, n, ":") }

// groups is key in groups of n digits (the last may be shorter) joined by sep.
func groups(key string, n int, sep string) string {
	var pieces []string
	for i := 0; i < len(key); i += n {
		pieces = append(pieces, key[i:min(i+n, len(key))])
	}
	return strings.Join(pieces, sep)
}

// mixed is key in groups of n digits joined by seps in turn, as a key is
// copied in pieces from several places: ac0974be:c39a17e3-b6a4d238 ff944bac….
func mixed(key string, n int, seps ...string) string {
	var b strings.Builder
	for i := 0; i < len(key); i += n {
		if i > 0 {
			b.WriteString(seps[(i/n-1)%len(seps)])
		}
		b.WriteString(key[i:min(i+n, len(key))])
	}
	return b.String()
}

// BenchmarkKeySpans10000: a list of 10,000 ids is checked fast, whatever
// their shape: sandbox quote ids, numbers of one digit (the most pieces a
// window looks at, none a key), of 8 (pieces alike, no letter) and hex ids
// of 8 one a line (pieces alike, each on a line of its own).
func BenchmarkKeySpans10000(b *testing.B) {
	for name, id := range map[string]string{"sandbox": "q-abcdefa2cd3bf4ea5e6dcb7ae1\n", "digit": "7\n", "number": "20261130\n", "hex": "3f9a2c1b\n"} {
		list := strings.Repeat(id, 10000)
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				if HoldsKeyShape(list) {
					b.Fatal("a list of ids taken for a key")
				}
			}
		})
	}
}

// TestKeyShapeWords: the words every refusal of a key's shape says
// (KeyShape) name the fewest digits KeySpans refuses, not the 64 of a key
// written whole: 0x and 62 digits is refused too.
func TestKeyShapeWords(t *testing.T) {
	if !strings.Contains(KeyShape, strconv.Itoa(minKeyDigits)+" or more hex digits") {
		t.Errorf("%q does not name %d, the fewest digits refused", KeyShape, minKeyDigits)
	}
	if strings.Contains(KeyShape, "64") {
		t.Errorf("%q names 64, which the rule does not keep to", KeyShape)
	}
}
