package cli

import (
	"bytes"
	"encoding/json"
	"io"

	"github.com/svcwallet/svcwallet/internal/safetext"
)

// Every --json output goes through these writers: no HTML escaping (a
// permission string stays "Admin&Trade"), and any non-ASCII control or
// format character that reached a value (the service package cleans them
// out of every answer; this is the second line) is written as \uXXXX, so
// no byte of the output can drive a terminal or hide text from a reader.

// writeJSON writes v as one indented JSON document.
func writeJSON(w io.Writer, v any) error { return encodeIndented(w, v, "", "  ") }

// writeJSONLine writes v as one JSON object on one line, for streams.
func writeJSONLine(w io.Writer, v any) error { return encodeIndented(w, v, "", "") }

// encodeIndented writes v indented by indent, each line after its first
// starting with prefix.
func encodeIndented(w io.Writer, v any, prefix, indent string) error {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent(prefix, indent)
	if err := enc.Encode(v); err != nil {
		return err
	}
	_, err := w.Write(safetext.EscapeJSON(b.Bytes()))
	return err
}

// jsonArray writes a JSON array an element at a time, byte for byte as
// writeJSON writes the slice of them: a listing written as it is read.
type jsonArray struct {
	w io.Writer
	n int
}

func (a *jsonArray) add(v any) error {
	sep := ",\n  "
	if a.n == 0 {
		sep = "[\n  "
	}
	a.n++
	if _, err := io.WriteString(a.w, sep); err != nil {
		return err
	}
	// Encode ends the element with a newline, which the next separator
	// or end replaces.
	var b bytes.Buffer
	if err := encodeIndented(&b, v, "  ", "  "); err != nil {
		return err
	}
	_, err := a.w.Write(bytes.TrimSuffix(b.Bytes(), []byte("\n")))
	return err
}

// end closes the array.
func (a *jsonArray) end() error {
	end := "\n]\n"
	if a.n == 0 {
		end = "[]\n"
	}
	_, err := io.WriteString(a.w, end)
	return err
}
