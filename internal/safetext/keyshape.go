package safetext

import (
	"unicode"
	"unicode/utf8"
)

// keyDigits is the number of hex digits of a secp256k1 private key.
const keyDigits = 64

// minKeyPiece is the fewest hex digits a piece of a key split by
// whitespace has, but for its first and last: a key printed in groups has
// groups of 16 or more, and a list of short ids (numbers) must not add up
// to a key.
const minKeyPiece = 16

// HoldsKeyShape reports whether s holds the shape of a secp256k1 private
// key anywhere (KeySpans): 64 hex digits in a row, or runs of hex split
// only by whitespace or line breaks that together make 64 (a key wrapped
// over two lines). No id or argument svcwallet takes has one, so such a
// string is refused without being echoed or sent.
func HoldsKeyShape(s string) bool {
	return len(KeySpans(s)) > 0
}

// KeySpans returns where s holds the shape of a private key, as byte
// ranges [start, end): a run of 64 or more hex digits, or consecutive runs
// separated only by whitespace whose digits add up to exactly 64, every
// run but the first and last having at least minKeyPiece digits. Exactly
// 64, so that a list of ids of 24 hex digits is not a key; the pieces'
// bound, so that a list of short numbers is not.
func KeySpans(s string) [][2]int {
	var spans [][2]int
	var group [][2]int // runs of hex, each after whitespace only from the last
	flush := func() {
		for i := range group {
			digits := 0
			for j := i; j < len(group); j++ {
				n := group[j][1] - group[j][0]
				if j > i+1 && group[j-1][1]-group[j-1][0] < minKeyPiece {
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
		group = group[:0]
	}
	run, spaceOnly := -1, false // the start of the current run; whether only whitespace followed the last
	for i := 0; i < len(s); {
		if isHexDigit(s[i]) {
			if run < 0 {
				run = i
			}
			i++
			continue
		}
		if run >= 0 {
			group = append(group, [2]int{run, i})
			run, spaceOnly = -1, true
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if !unicode.IsSpace(r) && spaceOnly {
			flush()
			spaceOnly = false
		}
		i += size
	}
	if run >= 0 {
		group = append(group, [2]int{run, len(s)})
	}
	flush()
	return spans
}
