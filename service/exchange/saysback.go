package exchange

import (
	"errors"
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
		found := false
		secretRuns(s, k, func(int, int) bool { found = true; return false })
		if found {
			return k, true
		}
	}
	return "", false
}

// secretRuns calls at with the start and end in s of every place that
// holdsSecret counts, until at returns false; runs may overlap. Case is
// folded in ASCII alone, so that offsets in s stay offsets in s
// (strings.ToLower changes the length of some letters).
func secretRuns(s, k string, at func(start, end int) bool) {
	switch {
	case k == "":
		return
	case s == k:
		at(0, len(s))
		return
	case len(k) < minHeldSecret:
		return
	}
	ls, lk := asciiLower(s), asciiLower(k)
	n := min(len(lk), heldRun)
	for i := 0; i+n <= len(lk); i++ {
		for from := 0; from+n <= len(ls); {
			j := strings.Index(ls[from:], lk[i:i+n])
			if j < 0 {
				break
			}
			if !at(from+j, from+j+n) {
				return
			}
			from += j + 1
		}
	}
}

// asciiLower is s in lower case in ASCII alone; s itself, uncopied, when
// it has no capital (most of an answer's strings).
func asciiLower(s string) string {
	i := 0
	for i < len(s) && (s[i] < 'A' || s[i] > 'Z') {
		i++
	}
	if i == len(s) {
		return s
	}
	b := []byte(s)
	for ; i < len(b); i++ {
		if c := b[i]; 'A' <= c && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}

// maskSecrets replaces every credential, or run of one, in a service's
// message, wherever it stands: the runs of all secrets are marked first,
// so a run found late in the search is masked as well as the first.
func maskSecrets(msg string, secrets []string) string {
	var hidden []bool
	for _, k := range secrets {
		secretRuns(msg, k, func(i, j int) bool {
			if hidden == nil {
				hidden = make([]bool, len(msg))
			}
			for ; i < j; i++ {
				hidden[i] = true
			}
			return true
		})
	}
	if hidden == nil {
		return msg
	}
	var b strings.Builder
	for i := 0; i < len(msg); i++ {
		if !hidden[i] {
			b.WriteByte(msg[i])
			continue
		}
		b.WriteString(secretSaidBack)
		for i+1 < len(msg) && hidden[i+1] {
			i++
		}
	}
	return b.String()
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

// refusalNotSayingBack is a refusal of an answer's shape with a credential
// it quotes masked: it is made before the answer is looked through
// (refuseSaidBack looks at what cleaning left), and may name what the
// answer held ("the chain KEY with chain id 56").
func refusalNotSayingBack(err error, secrets []string) error {
	if se := new(ShapeError); errors.As(err, &se) {
		se.Reason = maskSecrets(se.Reason, secrets)
	}
	return err
}
