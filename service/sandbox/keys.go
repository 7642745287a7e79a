package sandbox

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"unicode"
)

// badKey says the first key of body's objects that the service would not
// read as encoding/json does, in one walk of body: one naming a field a key
// before it in the same object names, as encoding/json matches them
// (ignoring case), which json.Unmarshal keeps the last of ({"amount":"1",
// "amount":"1000"} judged as 1000 where another reader sees 1); or one it
// matches to a field of v only by ignoring case (QUOTE_ID, Signature,
// Nonce), which a service reading names as spelled finds missing. body is
// JSON json.Unmarshal accepted into v.
func badKey(body []byte, v any) *apiError {
	names := map[string]string{}
	fieldNames(reflect.TypeOf(v), names, map[reflect.Type]bool{})
	d := json.NewDecoder(bytes.NewReader(body))
	d.UseNumber()
	return badKeyIn(d, names)
}

// badKeyIn reads one value from d, looking into its objects and arrays.
func badKeyIn(d *json.Decoder, names map[string]string) *apiError {
	t, err := d.Token()
	if err != nil {
		return nil
	}
	switch t {
	case json.Delim('{'):
		seen := map[string]bool{}
		for d.More() {
			k, err := d.Token()
			if err != nil {
				return nil
			}
			name, _ := k.(string)
			f := folded(name)
			if seen[f] {
				return malformed("field %.40q is given twice: send each field once", name)
			}
			seen[f] = true
			if want, ok := names[f]; ok && want != name {
				return malformed("field %.40q is spelled %q: send each field as SPEC.md names it", name, want)
			}
			if bad := badKeyIn(d, names); bad != nil {
				return bad
			}
		}
		_, _ = d.Token()
	case json.Delim('['):
		for d.More() {
			if bad := badKeyIn(d, names); bad != nil {
				return bad
			}
		}
		_, _ = d.Token()
	}
	return nil
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

// folded is name with each letter as the least of its case folding orbit:
// two names that strings.EqualFold matches fold alike (K, k and the Kelvin
// sign; S, s and the long ſ).
func folded(name string) string {
	return strings.Map(func(r rune) rune {
		least := r
		for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
			least = min(least, f)
		}
		return least
	}, name)
}
