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

// holdsSecret reports whether s is one of secrets or, for one of at least
// minHeldSecret characters, holds it in any case.
func holdsSecret(s string, secrets []string) (string, bool) {
	lower := strings.ToLower(s)
	for _, k := range secrets {
		if k != "" && (s == k || len(k) >= minHeldSecret && strings.Contains(lower, strings.ToLower(k))) {
			return k, true
		}
	}
	return "", false
}

// maskSecrets replaces every credential in a service's message.
func maskSecrets(msg string, secrets []string) string {
	for {
		k, ok := holdsSecret(msg, secrets)
		if !ok {
			return msg
		}
		if msg == k {
			return secretSaidBack
		}
		i := strings.Index(strings.ToLower(msg), strings.ToLower(k))
		msg = msg[:i] + secretSaidBack + msg[i+len(k):]
	}
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
