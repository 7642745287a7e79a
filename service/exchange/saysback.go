package exchange

import (
	"errors"
	"reflect"
	"slices"
	"strings"
	"sync"
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
	// Without the empty ones, a request and an id typed (OwnSecret) ask
	// for the same list, and find it prepared (Client.prepared).
	return slices.DeleteFunc(append(secrets, inFlight...), func(s string) bool { return s == "" })
}

// heldRun is the fewest characters of a credential in a row that count as
// saying it back: "invalid key AKlive0123456789…" gives most of it away.
const heldRun = 12

// credential is a secret prepared to be looked for, once through a string
// whatever its length (a hostile 4 KiB cookie, an answer of 1 MiB).
type credential struct {
	key string
	// said is the run that refuses an answer or an id: heldRun, and half
	// the credential when that is more. Credentials have structure the
	// spec does not rule out (an API key holding a 20-character account
	// id, a cookie holding an address, a builder's key sharing a prefix
	// with the session's), and a shorter run of one found in an honest
	// answer refused every login or an authorization already made.
	said int
	// masked is the run hidden in an error's message: heldRun, as before
	// the half rule. A mask refuses nothing, so hiding an account id a key
	// holds costs a message a few words; showing 31 characters of a
	// 64-character key would give half of it away.
	masked int
	runs   *runFinder // nil when only the key itself counts
}

// credentials prepares secrets. One shorter than minHeldSecret counts only
// as a whole string: looked for inside others, a key of a few characters
// is found in honest words, and a run of it would give away little.
func credentials(secrets []string) []credential {
	var cs []credential
	for _, k := range secrets {
		if k == "" {
			continue
		}
		c := credential{key: k}
		if len(k) >= minHeldSecret {
			c.masked = min(len(k), heldRun)
			c.said = max(c.masked, (len(k)+1)/2)
			c.runs = newRunFinder(asciiLower(k))
		}
		cs = append(cs, c)
	}
	return cs
}

// holdsAny reports whether s is one of cs or, for one of at least
// minHeldSecret characters, holds it or a run of it (heldRun characters in
// a row, and half of it when that is more), in any case.
func holdsAny(s string, cs []credential) bool {
	for _, c := range cs {
		found := false
		c.eachRun(s, c.said, func(int, int) bool { found = true; return false })
		if found {
			return true
		}
	}
	return false
}

// eachRun calls at with the start and end in s of the whole key, or of the
// longest run of at least least characters ending at each place, until at
// returns false; runs may overlap, their starts never go back.
func (c credential) eachRun(s string, least int, at func(start, end int) bool) {
	if s == c.key {
		at(0, len(s))
		return
	}
	if c.runs != nil {
		c.runs.runs(s, least, at)
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

// maskSecrets replaces every credential, or run of heldRun of one, in a
// service's message, wherever it stands: the runs of all of cs are marked
// first, so a run found late in the search is masked as well as the
// first. cs are the ones prepared (Client.prepared): a board's round of
// errors would prepare a 4 KiB cookie again for each.
func maskSecrets(msg string, cs []credential) string {
	var hidden []bool
	for _, c := range cs {
		done := 0 // runs overlap: each byte is marked once
		c.eachRun(msg, c.masked, func(i, j int) bool {
			if hidden == nil {
				hidden = make([]bool, len(msg))
			}
			for i = max(i, done); i < j; i++ {
				hidden[i] = true
			}
			done = j
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
func saysBack(v reflect.Value, field string, secrets []credential) (string, bool) {
	switch v.Kind() {
	case reflect.String:
		return field, holdsAny(v.String(), secrets)
	case reflect.Struct:
		for i := range v.NumField() {
			f := v.Type().Field(i)
			if !f.IsExported() {
				continue
			}
			name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			switch {
			case f.Anonymous && name == "":
				name = field
			case name == "" || name == "-":
				name = fieldWords(f.Name)
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

// fieldWords names a field no answer's JSON names (the account id, from a
// header) in words: AccountID is "account id".
func fieldWords(goName string) string {
	var b strings.Builder
	for i := 0; i < len(goName); i++ {
		c := goName[i]
		if 'A' <= c && c <= 'Z' && i > 0 && 'a' <= goName[i-1] && goName[i-1] <= 'z' {
			b.WriteByte(' ')
		}
		b.WriteByte(c)
	}
	return strings.ToLower(b.String())
}

// preparedCredentials keeps the credentials last prepared, for the next
// answer: a board's round reads thousands with the same ones, and
// preparing a cookie of 4 KiB takes about 0.7 ms and 320 KB.
type preparedCredentials struct {
	mu      sync.Mutex
	secrets []string
	cs      []credential
}

// of is secrets prepared, anew when they are not the last ones (a login
// sets another cookie, or carries another key).
func (p *preparedCredentials) of(secrets []string) []credential {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.cs == nil || !slices.Equal(p.secrets, secrets) {
		p.secrets, p.cs = secrets, credentials(secrets)
	}
	return p.cs
}

// refuseSaidBack refuses an answer that says back one of cs.
func refuseSaidBack(answer any, cs []credential) error {
	if field, ok := saysBack(reflect.ValueOf(answer), "field", cs); ok {
		return NewShapeError(field, "holds your own API key or session cookie, said back (not shown)")
	}
	return nil
}

// refusalNotSayingBack is a refusal of an answer's shape with a credential
// it quotes masked: it is made before the answer is looked through
// (refuseSaidBack looks at what cleaning left), and may name what the
// answer held ("the chain KEY with chain id 56").
func refusalNotSayingBack(err error, cs []credential) error {
	if se := new(ShapeError); errors.As(err, &se) {
		se.Reason = maskSecrets(se.Reason, cs)
	}
	return err
}
