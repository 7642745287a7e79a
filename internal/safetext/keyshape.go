package safetext

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// minKeyDigits and maxKeyDigits bound the hex digits a private key is
// written with: its 64, down to 62 printed as a number without leading
// zeros (Python's hex()), up to 66 as openssl prints one with 00 in front.
const minKeyDigits, maxKeyDigits = 62, 66

// KeyShape is the shape KeySpans finds in the words every refusal of it
// says, so none names a count the rule no longer keeps.
const KeyShape = "the shape of a private key (62 or more hex digits, in a row or in pieces)"

// minLinePiece is the fewest digits of a key's inner pieces when each
// piece stands on a line of its own: a key wrapped over lines has 16 or
// more to a line, while short ids one a line are a file of ids (8 ids of 8
// digits, 11 of 6 make a key's count), not a key.
const minLinePiece = 16

// minMixedPiece is the fewest digits of a key's inner pieces when the
// separators between them differ (ac0974be:c39a17e3-b6a4d238 ff944bac…,
// copied in pieces from several places): IPv6 addresses written whole
// (groups of 4 apart by ':', the addresses by spaces) and MAC addresses on
// one line (2) have pieces alike and separators unlike, and are no key.
const minMixedPiece = 8

// keySeparators are the characters besides whitespace that may split a
// key's pieces: pasted in halves with a hyphen, comma or dot, in groups
// joined by colons, or as openssl prints one (two digits apart, with ':').
const keySeparators = ":-._,;"

// HoldsKeyShape reports whether s holds the shape of a secp256k1 private
// key anywhere (KeySpans): 62 or more hex digits in a row, or a key's
// digits in pieces split only by whitespace, line breaks or keySeparators
// (a key wrapped over lines, pasted in halves, printed in groups). No id or
// argument svcwallet takes has one, so such a string is refused without
// being echoed or sent.
func HoldsKeyShape(s string) bool {
	return len(KeySpans(s)) > 0
}

// KeySpans returns where s holds the shape of a private key, as byte
// ranges [start, end): a run of 62 or more hex digits, or consecutive runs
// separated only by whitespace, double quotes or keySeparators that hold
// 62 to 66 digits (minKeyDigits, maxKeyDigits) as a key split is written:
// its inner runs all as long as each other, the first and last no longer,
// the same separator between each two (whitespace and quotes aside) unless
// the inner runs hold minMixedPiece digits or more, and a letter a-f among
// them. So a key in halves, wrapped, in groups of any size, as openssl's
// pairs or in pieces of 8 or more apart by any separators is one; a list of
// ids is not: ids of 24 digits never add up to 62-66, UUIDs' groups differ,
// numbers hold no letter (a key's 64 digits hold one but for 1 in 10^13),
// sandbox ids are broken by other letters, ids one a line are pieces
// shorter than minLinePiece, IPv6 and MAC addresses' pieces shorter than
// minMixedPiece.
func KeySpans(s string) [][2]int {
	var spans [][2]int
	var group []keyRun // runs of hex, each after separators only from the last
	lettered := false  // whether a run of group holds a letter
	flush := func() {
		for i, first := range group {
			lines := true // whether each piece after first starts a line
			if first.digits() >= minKeyDigits {
				spans = append(spans, [2]int{first.start, first.end})
				continue
			}
			if !lettered || i+1 == len(group) {
				continue // a list of numbers is looked at once
			}
			digits, letter, end, inner := first.digits(), first.letter, -1, group[i+1].digits()
			if first.word && first.digits() < inner {
				continue // an id's last letters (q-…f): a key's first piece is no shorter run glued to a word
			}
			for j := i + 1; j < len(group); j++ {
				last := &group[j]
				if last.digits() >= minKeyDigits {
					break // a key alone, its own span: the digits before it (an id's last) are none of it
				}
				if j > i+1 && (first.digits() > inner || last.digits() > inner ||
					group[j-1].digits() != inner || last.sep != group[i+1].sep && inner < minMixedPiece) {
					break // three or more pieces, not as a key is split
				}
				if digits, letter = digits+last.digits(), letter || last.letter; digits > maxKeyDigits {
					break
				}
				if lines = lines && last.line; digits >= minKeyDigits && letter && (j == i+1 || !lines || inner >= minLinePiece) {
					end = last.end
				}
			}
			if end >= 0 {
				spans = append(spans, [2]int{first.start, end})
			}
		}
		group, lettered = group[:0], false
	}
	// The start of the current run and whether it holds a letter; whether
	// only separators followed the last run, the one (not whitespace)
	// among them, and whether a line break was.
	run, letter, sepOnly, sep, brk := -1, false, false, rune(0), false
	lastSep := rune(0)
	// endRun adds the run that ends at end to the group.
	endRun := func(end int) {
		group, lettered = append(group, keyRun{start: run, end: end, letter: letter, sep: lastSep, line: brk && lastSep == 0, word: wordBefore(s, run)}), lettered || letter
	}
	for i := 0; i < len(s); {
		if isHexDigit(s[i]) {
			if run < 0 {
				run, letter = i, false
			}
			letter = letter || s[i] > '9'
			i++
			continue
		}
		if run >= 0 {
			endRun(i)
			run, sepOnly, sep, brk = -1, true, 0, false
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case !sepOnly:
		case unicode.IsSpace(r) || r == '"':
			// A double quote is read as whitespace: ids in double quotes
			// (a CSV export's fields) are read without them, and so would
			// a key's halves be, each sent as an id.
			brk = brk || r == '\n' || r == '\r'
		case strings.ContainsRune(keySeparators, r) && (sep == 0 || sep == r):
			sep = r
		default:
			flush()
			sepOnly, sep, brk = false, 0, false
		}
		lastSep = sep
		i += size
	}
	if run >= 0 {
		endRun(len(s))
	}
	flush()
	return spans
}

// keyRun is a run of hex digits: where it is, whether it holds a letter
// a-f, the separator (not whitespace) before it, 0 for none, and whether
// only whitespace holding a line break is before it.
type keyRun struct {
	start, end int
	letter     bool
	sep        rune
	line       bool
	word       bool // it goes on a word: wordBefore
}

// wordBefore reports whether the run of hex starting at i goes on a word
// before it: a letter (but the x of 0x), or a - or _ after a letter or
// digit (q-1, q-…f).
func wordBefore(s string, i int) bool {
	if i == 0 {
		return false
	}
	c := s[i-1]
	switch {
	case c == 'x' || c == 'X':
		return i < 2 || s[i-2] != '0'
	case c == '-' || c == '_':
		return i >= 2 && isAlnum(s[i-2])
	}
	return isAlnum(c)
}

func isAlnum(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

func (r keyRun) digits() int { return r.end - r.start }
