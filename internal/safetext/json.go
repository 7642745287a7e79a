package safetext

import (
	"fmt"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"
)

// EscapeJSON rewrites C1 controls and format characters (bidi marks,
// zero-width characters) as \u escapes. encoding/json already escapes C0,
// and in its output such characters can only stand inside strings.
func EscapeJSON(b []byte) []byte {
	var out []byte
	for i := 0; i < len(b); {
		r, size := utf8.DecodeRune(b[i:])
		if r >= 0x80 && (unicode.IsControl(r) || unicode.Is(unicode.Cf, r)) {
			if out == nil {
				out = append(make([]byte, 0, len(b)+16), b[:i]...)
			}
			if r > 0xffff {
				r1, r2 := utf16.EncodeRune(r)
				out = fmt.Appendf(out, `\u%04x\u%04x`, r1, r2)
			} else {
				out = fmt.Appendf(out, `\u%04x`, r)
			}
		} else if out != nil {
			out = append(out, b[i:i+size]...)
		}
		i += size
	}
	if out == nil {
		return b
	}
	return out
}
