// Package safetext makes text from outside svcwallet (the network, files read
// back, what users paste) safe to show, print, copy, journal or sign, and
// says what an identifier may hold. It imports only the standard library so
// that the domain, the terminal chrome and the command line share it.
package safetext

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Text makes a string from the network safe to show, print, copy, journal
// or sign: escape sequences are removed whole (CSI, OSC, DCS, SOS, PM, APC,
// and two-byte ESC sequences, in their 7-bit and C1 forms), the remaining
// C0, DEL and C1 controls are dropped, and so are the bidi and invisible
// format characters that make a string read differently from what it is
// (U+200B–U+200F, U+202A–U+202E, U+2066–U+2069, U+FEFF), and bytes that are
// not UTF-8. Text(Text(s)) == Text(s).
func Text(s string) string {
	if isClean(s) {
		return s // the common case: no copy
	}
	var b strings.Builder
	b.Grow(len(s))
	reading(s, func(piece string, kept bool) {
		if kept {
			b.WriteString(piece)
		}
	})
	return b.String()
}

// reading hands f s in pieces, in order, as Text reads it: each character
// Text keeps (kept), and what it drops, an escape sequence whole, a
// control, an invisible character or a byte not UTF-8 (!kept).
func reading(s string, f func(piece string, kept bool)) {
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		end, kept := i+size, false
		switch {
		case r == utf8.RuneError && size <= 1:
			end = i + 1
		case r == 0x1b:
			end = skipEscape(s, i+1)
		case r == 0x9b: // C1 CSI
			end = skipCSI(s, i+size)
		case r == 0x90 || r == 0x98 || r == 0x9d || r == 0x9e || r == 0x9f: // C1 DCS, SOS, OSC, PM, APC
			end = skipString(s, i+size)
		case dropped(r):
		default:
			kept = true
		}
		f(s[i:end], kept)
		i = end
	}
}

// isClean reports whether Text would return s unchanged.
func isClean(s string) bool {
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if (r == utf8.RuneError && size <= 1) || r == 0x1b || dropped(r) {
			return false
		}
		i += size
	}
	return true
}

// dropped is a control, a line or paragraph separator, or a format
// character (Unicode Cf: the bidi marks and overrides, zero-width and other
// invisible characters, tags).
func dropped(r rune) bool {
	switch {
	case r < 0x20, r == 0x7f, r >= 0x80 && r <= 0x9f, r == 0x2028, r == 0x2029:
		return true
	case r < 0xad:
		return false
	}
	return unicode.Is(unicode.Cf, r)
}

// skipEscape skips what follows an ESC at i: a CSI, a string sequence
// (OSC, DCS, SOS, PM, APC) or one final byte.
func skipEscape(s string, i int) int {
	if i >= len(s) {
		return i
	}
	switch s[i] {
	case '[':
		return skipCSI(s, i+1)
	case ']', 'P', 'X', '^', '_':
		return skipString(s, i+1)
	}
	// Intermediate bytes (0x20–0x2f), then one final byte.
	for i < len(s) && s[i] >= 0x20 && s[i] <= 0x2f {
		i++
	}
	if i < len(s) && s[i] >= 0x30 && s[i] <= 0x7e {
		i++
	}
	return i
}

// skipCSI skips parameter and intermediate bytes up to and including the
// final byte (0x40–0x7e); a sequence cut short ends at the first other byte.
func skipCSI(s string, i int) int {
	for i < len(s) && s[i] >= 0x20 && s[i] <= 0x3f {
		i++
	}
	if i < len(s) && s[i] >= 0x40 && s[i] <= 0x7e {
		i++
	}
	return i
}

// skipString skips a string sequence's body up to its terminator: BEL, ESC \
// or the C1 ST (U+009C). An unterminated one runs to the end of s, which is
// what a terminal would swallow too.
func skipString(s string, i int) int {
	for i < len(s) {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == 0x07, r == 0x9c:
			return i + size
		case r == 0x1b:
			if i+1 < len(s) && s[i+1] == '\\' {
				return i + 2
			}
			return i + 1
		}
		i += size
	}
	return i
}

// Escaped is s with each character Text would drop written as Go writes it
// in a quoted string (\x1b, \a, \u202e, a byte not UTF-8 as \xff), the
// rest as it is: for text that must be shown whole, a path the environment
// names, yet drive no terminal. Escaped(s) == s when Text(s) == s.
func Escaped(s string) string {
	if isClean(s) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size <= 1:
			b.WriteString(`\x` + strconv.FormatUint(uint64(s[i])|0x100, 16)[1:])
		case r == 0x1b || dropped(r):
			q := strconv.QuoteRune(r)
			b.WriteString(q[1 : len(q)-1])
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

// Line cleans free text to one line (line breaks and tabs become spaces)
// and bounds it to limit bytes, never splitting a character; a limit of 0
// or less bounds nothing.
func Line(s string, limit int) string {
	s = strings.TrimSpace(flat(s))
	if limit <= 0 || len(s) <= limit {
		return s
	}
	cut := limit
	for cut > 0 && s[cut]&0xc0 == 0x80 {
		cut--
	}
	return s[:cut] + "…"
}

// IsLine reports whether s is 1 to max bytes of clean text on one line,
// without leading or trailing spaces: what Line leaves of it unchanged.
// Line alone passes a text it cut to max bytes and an ellipsis.
func IsLine(s string, max int) bool {
	return s != "" && len(s) <= max && Line(s, max) == s
}

// MaxNameLen bounds a name: a chain, a token, an environment, a header.
const MaxNameLen = 64

// lineBreaks turns line breaks and tabs into spaces.
var lineBreaks = strings.NewReplacer("\r\n", " ", "\n", " ", "\r", " ", "\t", " ")

// flat is s cleaned (Text) on one line: line breaks and tabs as spaces.
func flat(s string) string { return Text(lineBreaks.Replace(s)) }

// Capitalized starts s with a capital letter: a fact worded in lower case
// (an error's text) opening a sentence of its own. Every face words with it.
func Capitalized(s string) string {
	r, n := utf8.DecodeRuneInString(s)
	if n == 0 {
		return s
	}
	return string(unicode.ToUpper(r)) + s[n:]
}
