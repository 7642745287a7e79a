package exchange

import (
	"reflect"
	"strings"
)

// A hostile or careless service can say a credential back: an error
// message quoting the API key it refused, a field holding the cookie. What
// it says is shown, printed with --json, journaled and kept, so the client
// refuses an answer holding one of its own credentials and masks one in an
// error's message, for every face at once.

// ownSecrets lists the credentials this client sends: its API key
// (Options.APIKey, or the one it logged in with), its session cookie, and
// inFlight, the one a login being answered carried.
func (c *Client) ownSecrets(inFlight ...string) []string {
	c.session.mu.Lock()
	secrets := []string{c.apiKey, c.session.cookie}
	if k, ok := c.session.cred.(apiKeyCred); ok {
		secrets = append(secrets, k.key)
	}
	c.session.mu.Unlock()
	return append(secrets, inFlight...)
}

// heldRun is the fewest characters of a credential in a row that count as
// saying it back: "invalid key AKlive0123456789…" gives most of it away.
const heldRun = 12

// holdsSecret reports whether s is one of secrets or, for one of at least
// minHeldSecret characters, holds it or heldRun characters of it in a row,
// in any case.
func holdsSecret(s string, secrets []string) (string, bool) {
	for _, k := range secrets {
		if _, _, ok := secretSpan(s, k); ok {
			return k, true
		}
	}
	return "", false
}

// secretSpan is where in s the longest run of k that holdsSecret counts
// starts and ends. Case is folded in ASCII alone, so that offsets in s
// stay offsets in s (strings.ToLower changes the length of some letters).
func secretSpan(s, k string) (start, end int, ok bool) {
	switch {
	case k == "":
		return 0, 0, false
	case s == k:
		return 0, len(s), true
	case len(k) < minHeldSecret:
		return 0, 0, false
	}
	ls, lk := asciiLower(s), asciiLower(k)
	n := min(len(lk), heldRun)
	for i := 0; i+n <= len(lk); i++ {
		j := strings.Index(ls, lk[i:i+n])
		if j < 0 {
			continue
		}
		start, end = j, j+n
		for ki := i; start > 0 && ki > 0 && ls[start-1] == lk[ki-1]; ki-- {
			start--
		}
		for ke := i + n; end < len(ls) && ke < len(lk) && ls[end] == lk[ke]; ke++ {
			end++
		}
		return start, end, true
	}
	return 0, 0, false
}

func asciiLower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}

// maskSecrets replaces every credential, or run of one, in a service's
// message.
func maskSecrets(msg string, secrets []string) string {
	for _, k := range secrets {
		// From past each mask: a mask is never searched again.
		for from := 0; ; {
			i, j, ok := secretSpan(msg[from:], k)
			if !ok {
				break
			}
			msg = msg[:from+i] + secretSaidBack + msg[from+j:]
			from += i + len(secretSaidBack)
		}
	}
	return msg
}

const secretSaidBack = "[your credential, not shown]"

// saysBack finds a string of an answer that holds one of secrets, and
// names the field it is in.
func saysBack(v reflect.Value, field string, secrets []string) (string, bool) {
	switch v.Kind() {
	case reflect.String:
		_, ok := holdsSecret(v.String(), secrets)
		return field, ok
	case reflect.Struct:
		for i := range v.NumField() {
			f := v.Type().Field(i)
			if !f.IsExported() {
				continue
			}
			name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			if name == "" || name == "-" {
				name = field
			}
			if where, ok := saysBack(v.Field(i), strings.ReplaceAll(name, "_", " "), secrets); ok {
				return where, true
			}
		}
	case reflect.Slice, reflect.Array:
		for i := range v.Len() {
			if where, ok := saysBack(v.Index(i), field, secrets); ok {
				return where, true
			}
		}
	case reflect.Map:
		for _, k := range v.MapKeys() {
			if where, ok := saysBack(k, field, secrets); ok {
				return where, true
			}
			if where, ok := saysBack(v.MapIndex(k), field, secrets); ok {
				return where, true
			}
		}
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			return saysBack(v.Elem(), field, secrets)
		}
	}
	return "", false
}

// refuseSaidBack refuses an answer that says back one of secrets.
func refuseSaidBack(answer any, secrets []string) error {
	if field, ok := saysBack(reflect.ValueOf(answer), "field", secrets); ok {
		return NewShapeError(field, "holds your own API key or session cookie, said back (not shown)")
	}
	return nil
}
