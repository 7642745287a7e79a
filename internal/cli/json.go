package cli

import (
	"bytes"
	"encoding/json"
	"io"
	"time"

	"github.com/svcwallet/svcwallet/internal/safetext"
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
	_, err := w.Write(safetext.EscapeJSON(b.Bytes()))
	return err
}

// jsonTime is a time as every JSON output writes it: RFC 3339 in UTC,
// in whole seconds, as the CSV outputs do.
func jsonTime(t time.Time) time.Time { return t.UTC().Truncate(time.Second) }
