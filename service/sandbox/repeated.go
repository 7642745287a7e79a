package sandbox

import (
	"bytes"
	"encoding/json"
	"strings"
	"unicode"
)

// repeatedKey is the first key of body's objects that names a field a key
// before it in the same object names, as encoding/json matches them
// (ignoring case): json.Unmarshal keeps the last, so {"amount":"1",
// "amount":"1000"} would be judged as 1000 where another reader sees 1.
// body is JSON json.Unmarshal has accepted.
func repeatedKey(body []byte) (string, bool) {
	d := json.NewDecoder(bytes.NewReader(body))
	d.UseNumber()
	return repeatedIn(d)
}

// repeatedIn reads one value from d, looking into its objects and arrays.
func repeatedIn(d *json.Decoder) (string, bool) {
	t, err := d.Token()
	if err != nil {
		return "", false
	}
	switch t {
	case json.Delim('{'):
		seen := map[string]bool{}
		for d.More() {
			k, err := d.Token()
			if err != nil {
				return "", false
			}
			name, _ := k.(string)
			if seen[folded(name)] {
				return name, true
			}
			seen[folded(name)] = true
			if name, found := repeatedIn(d); found {
				return name, true
			}
		}
		_, _ = d.Token()
	case json.Delim('['):
		for d.More() {
			if name, found := repeatedIn(d); found {
				return name, true
			}
		}
		_, _ = d.Token()
	}
	return "", false
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
