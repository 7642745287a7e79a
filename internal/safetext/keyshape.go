package safetext

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// keyDigits is the number of hex digits of a secp256k1 private key.
const keyDigits = 64

// minKeyPiece is the fewest hex digits a piece of a split key has, but for
// its first and last: a key printed in groups has groups of 16 or more, and
// a list of short ids (numbers) must not add up to a key.
const minKeyPiece = 16

// keySeparators are the characters besides whitespace that may split a
// key's pieces: pasted in halves with a hyphen, comma or dot, in groups
// joined by colons, or as openssl prints one (two digits apart, with ':').
const keySeparators = ":-._,;"

// HoldsKeyShape reports whether s holds the shape of a secp256k1 private
// key anywhere (KeySpans): 64 hex digits in a row, or runs of hex split
// only by whitespace, line breaks or keySeparators that together make 64
// (a key wrapped over two lines, pasted in halves). No id or argument
// svcwallet takes has one, so such a string is refused without being
// echoed or sent.
func HoldsKeyShape(s string) bool {
	return len(KeySpans(s)) > 0
}

// KeySpans returns where s holds the shape of a private key, as byte
// ranges [start, end): a run of 64 or more hex digits, or consecutive runs
// separated only by whitespace or keySeparators whose digits add up to
// exactly 64, every run but the first and last having at least minKeyPiece
// digits, or exactly two after a colon (openssl's form). Exactly 64, so
// that a list of ids of 24 hex digits is not a key; the pieces' bound, so
// that a list of short numbers (or UUIDs) is not.
func KeySpans(s string) [][2]int {
	var spans [][2]int
	var group [][2]int   // runs of hex, each after separators only from the last
	var colonPair []bool // for each run of group: two digits after a colon
	flush := func() {
		for i := range group {
			digits := 0
			for j := i; j < len(group); j++ {
				n := group[j][1] - group[j][0]
				if mid := j - 1; j > i+1 && group[mid][1]-group[mid][0] < minKeyPiece && !colonPair[mid] {
					break // the run before j would be a piece in the middle
				}
				if digits += n; digits == keyDigits || j == i && n >= keyDigits {
					spans = append(spans, [2]int{group[i][0], group[j][1]})
				}
				if digits >= keyDigits {
					break
				}
			}
		}
		group, colonPair = group[:0], colonPair[:0]
	}
	// The start of the current run; whether only separators followed the
	// last run, and whether a colon was among them.
	run, sepOnly, colon := -1, false, false
	add := func(end int) {
		group = append(group, [2]int{run, end})
		colonPair = append(colonPair, colon && end-run == 2)
		run, sepOnly, colon = -1, true, false
	}
	for i := 0; i < len(s); {
		if isHexDigit(s[i]) {
			if run < 0 {
				run = i
			}
			i++
			continue
		}
		if run >= 0 {
			add(i)
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case !sepOnly:
		case unicode.IsSpace(r) || strings.ContainsRune(keySeparators, r):
			colon = colon || r == ':'
		default:
			flush()
			sepOnly, colon = false, false
		}
		i += size
	}
	if run >= 0 {
		add(len(s))
	}
	flush()
	return spans
}
