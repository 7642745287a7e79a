package sandbox

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
)

// misspelled is the first key of body's objects that encoding/json
// matches to a field of v only by ignoring case (QUOTE_ID, Signature,
// Nonce), and the field's name as SPEC.md spells it. A service that reads
// names as spelled finds such a field missing: a client whose request
// struct lost its json tags sends {"Signature":{"Nonce":…}}, which
// encoding/json alone would take. body is JSON json.Unmarshal accepted.
func misspelled(body []byte, v any) (got, want string, found bool) {
	names := map[string]string{}
	fieldNames(reflect.TypeOf(v), names, map[reflect.Type]bool{})
	d := json.NewDecoder(bytes.NewReader(body))
	d.UseNumber()
	return misspelledIn(d, names)
}

// fieldNames adds the json names of t's struct fields, at any depth, to
// names, keyed by their folding.
func fieldNames(t reflect.Type, names map[string]string, seen map[reflect.Type]bool) {
	for t != nil && (t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice || t.Kind() == reflect.Array || t.Kind() == reflect.Map) {
		t = t.Elem()
	}
	if t == nil || t.Kind() != reflect.Struct || seen[t] {
		return
	}
	seen[t] = true
	for i := range t.NumField() {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if !f.IsExported() || name == "-" {
			continue
		}
		if name == "" {
			name = f.Name
		}
		names[folded(name)] = name
		fieldNames(f.Type, names, seen)
	}
}

// misspelledIn reads one value from d, looking into its objects and arrays.
func misspelledIn(d *json.Decoder, names map[string]string) (string, string, bool) {
	t, err := d.Token()
	if err != nil {
		return "", "", false
	}
	switch t {
	case json.Delim('{'):
		for d.More() {
			k, err := d.Token()
			if err != nil {
				return "", "", false
			}
			name, _ := k.(string)
			if want, ok := names[folded(name)]; ok && want != name {
				return name, want, true
			}
			if got, want, found := misspelledIn(d, names); found {
				return got, want, true
			}
		}
		_, _ = d.Token()
	case json.Delim('['):
		for d.More() {
			if got, want, found := misspelledIn(d, names); found {
				return got, want, true
			}
		}
		_, _ = d.Token()
	}
	return "", "", false
}
