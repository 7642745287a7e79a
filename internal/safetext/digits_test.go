package safetext

import (
	"math/rand/v2"
	"regexp"
	"testing"
)

// HexDigits and DecimalDigits say what the regular expressions they
// replace said, on every string drawn from characters near their edges.
func TestDigitsMatchTheirExpressions(t *testing.T) {
	hex64 := regexp.MustCompile(`^[0-9a-fA-F]{64}$`)
	hex2 := regexp.MustCompile(`^[0-9a-fA-F]{2}$`)
	nano := regexp.MustCompile(`^[0-9]{1,19}$`)
	alphabet := []byte("0189afAFgG/:@`x \n-")
	r := rand.New(rand.NewPCG(1, 2))
	for i := range 20000 {
		b := make([]byte, r.IntN(70))
		for j := range b {
			b[j] = alphabet[r.IntN(len(alphabet))]
		}
		if i%3 == 0 { // mostly digits, so the long ones match too
			for j := range b {
				b[j] = "0123456789abcdefABCDEF"[r.IntN(22)]
			}
		}
		s := string(b)
		if HexDigits(s, 64) != hex64.MatchString(s) || HexDigits(s, 2) != hex2.MatchString(s) || DecimalDigits(s, 19) != nano.MatchString(s) {
			t.Fatalf("%q: HexDigits %v/%v, DecimalDigits %v; the expressions say %v/%v, %v", s,
				HexDigits(s, 64), HexDigits(s, 2), DecimalDigits(s, 19), hex64.MatchString(s), hex2.MatchString(s), nano.MatchString(s))
		}
	}
	for s, want := range map[string]bool{"": false, "0": true, "1234567890123456789": true, "12345678901234567890": false, "12a": false} {
		if DecimalDigits(s, 19) != want {
			t.Errorf("DecimalDigits(%q) = %v", s, !want)
		}
	}
}
