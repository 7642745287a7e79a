package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"unicode"
	"unicode/utf8"
)

// Every --json output goes through these writers: no HTML escaping (a
// permission string stays "Admin&Trade"), and any non-ASCII control or
// format character that reached a value (the service package cleans them
// out of every answer; this is the second line) is written as \uXXXX, so
// no byte of the output can drive a terminal or hide text from a reader.

// writeJSON writes v as one indented JSON document.
func writeJSON(w io.Writer, v any) error { return encodeJSON(w, v, "  ") }

// writeJSONLine writes v as one JSON object on one line, for streams.
func writeJSONLine(w io.Writer, v any) error { return encodeJSON(w, v, "") }

func encodeJSON(w io.Writer, v any, indent string) error {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", indent)
	if err := enc.Encode(v); err != nil {
		return err
	}
	_, err := w.Write(escapeControls(b.Bytes()))
	return err
}

// escapeControls rewrites C1 controls and format characters (bidi marks,
// zero-width characters) as \u escapes. encoding/json already escapes C0,
// and in its output such characters can only stand inside strings.
func escapeControls(b []byte) []byte {
	var out []byte
	for i := 0; i < len(b); {
		r, size := utf8.DecodeRune(b[i:])
		if r >= 0x80 && (unicode.IsControl(r) || unicode.Is(unicode.Cf, r)) {
			if out == nil {
				out = append(make([]byte, 0, len(b)+16), b[:i]...)
			}
			if r > 0xffff {
				r1, r2 := utf16Surrogates(r)
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

// utf16Surrogates splits a rune above U+FFFF into its UTF-16 pair, the form
// a JSON \u escape takes.
func utf16Surrogates(r rune) (rune, rune) {
	r -= 0x10000
	return 0xd800 + (r>>10)&0x3ff, 0xdc00 + r&0x3ff
}
