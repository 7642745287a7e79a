package follow

import (
	"bytes"
	"crypto/ed25519"
	"errors"
	"fmt"
	"net/url"
	"slices"
	"strings"
	"unicode"

	"github.com/mr-tron/base58"

	"github.com/svcwallet/svcwallet/internal/safetext"
	"github.com/svcwallet/svcwallet/service/exchange"
)

// Finding what a customer quotes. The service finds a withdrawal by its
// quote id only (SPEC.md §4.10), but customers have its payout hash or
// transfer id: those are looked up among what this machine has seen (the
// journal's records, the board's), never sent as such (a SOLANA one not
// seen is asked as the quote id it may be: Resolve). A hex payout hash has
// a private key's shape (32 bytes of hex), and no such value is ever sent.

// IDKind is what an id a person gives is, by its shape.
type IDKind int

const (
	// QuoteID is asked of the service.
	QuoteID IDKind = iota
	// PayoutHash (0x and 64 hex digits, an EVM payout or a TRON one
	// written with 0x; or base58 of 64 bytes, a SOLANA payout) is looked
	// up here.
	PayoutHash
	// TransferID (tx-…, the service's transfer id) is looked up here.
	TransferID
)

// TransferIDPrefix starts the service's transfer ids (tx_id), as the
// sandbox makes them: an id that starts with it is never a quote id.
const TransferIDPrefix = "tx-"

// KindOf says what id is by its shape. A tx-… that is no id's shape (an
// escape sequence in it) is left a quote id, which every face refuses
// cleaned: a transfer id not found is said as given.
func KindOf(id string) IDKind {
	switch {
	case IsPayoutHash(id), isSolanaSignature(id):
		return PayoutHash
	case len(id) > len(TransferIDPrefix) && strings.EqualFold(id[:len(TransferIDPrefix)], TransferIDPrefix) &&
		exchange.CheckID("transfer id", id, true) == nil:
		return TransferID
	}
	return QuoteID
}

// ErrOwnSecretGiven is the refusal of ids one of which is or holds a
// credential of this session's, in the one wording every face places
// (status, plain mode's look-up, the board, withdraw resume); the id is
// never repeated.
var ErrOwnSecretGiven = fmt.Errorf("an id given is not a quote id: %w", exchange.ErrOwnSecret)

// RefuseOwnSecret is ErrOwnSecretGiven when one of ids, or a lookup's
// text, is or holds a credential of this session's (own:
// exchange.Client.OwnSecret), nil otherwise: a transfer id is tx- and any
// id's text, so it may hold one as a quote id may, and one not seen here
// was said back.
func RefuseOwnSecret(ids []string, lookups []Lookup, own func(string) bool) error {
	if slices.ContainsFunc(ids, own) || slices.ContainsFunc(lookups, func(l Lookup) bool { return own(l.Text) }) {
		return ErrOwnSecretGiven
	}
	return nil
}

// IsPayoutHash reports whether s is 0x and 64 hex digits: an EVM payout
// hash, or a private key written as one.
func IsPayoutHash(s string) bool {
	return len(s) == 66 && (s[:2] == "0x" || s[:2] == "0X") && safetext.HexDigits(s[2:], 64)
}

// TronHashAdvice is the next step when a payout hash is refused for a
// private key's shape: a TRON payout hash is written as 64 bare hex digits.
const TronHashAdvice = "a TRON payout hash has this shape too: give it with 0x in front (0x…) to look it up"

// LinkAdvice is the next step when an explorer's link is refused for a
// private key's shape: its hash is not where a link to a payout ends, or
// it carries a user or password (linkedHash). Advice to put 0x in front
// of a hash that had it was no step at all.
const LinkAdvice = "an explorer's link is looked up by the payout hash its path ends with, never with a user or password in it: give the payout hash alone"

// TronLinkAdvice is the next step when a TRON explorer's link is refused:
// its path ends with the payout hash written bare, refused alone too.
const TronLinkAdvice = "a TRON explorer's link ends with its payout hash bare: give that hash alone with 0x in front (0x…) to look it up"

// SplitKeyAdvice is the next step for words refused for a private key's
// shape in pieces (in groups, halves, over lines): no hash or id is
// written so, and to put 0x in front of it is no step.
const SplitKeyAdvice = "no payout hash or id is written in pieces: give each whole, as copied"

// HashAdvice is the next step for words refused for a private key's
// shape: LinkAdvice when one of them is a link, nearHashWords when one
// holds 0x and a digit or two fewer or more than a payout hash as a token
// (tokenCore: quoted, in brackets; to put 0x in front of it is no step),
// TronHashAdvice when one holds a key's digits in a row, else
// SplitKeyAdvice.
func HashAdvice(words ...string) string {
	if slices.ContainsFunc(words, isLink) {
		if slices.ContainsFunc(words, tronLinked) {
			return TronLinkAdvice
		}
		return LinkAdvice
	}
	for _, w := range words {
		for _, f := range strings.FieldsFunc(w, func(r rune) bool { return unicode.IsSpace(r) || r == ',' || r == ';' }) {
			core, _ := tokenCore(f)
			if near := nearHashWords(core); near != "" {
				return near
			}
		}
	}
	if slices.ContainsFunc(words, inARow) {
		return TronHashAdvice
	}
	return SplitKeyAdvice
}

// inARow reports whether w holds a private key's shape in one run of hex
// digits, as a TRON payout hash is written.
func inARow(w string) bool {
	return slices.ContainsFunc(safetext.KeySpans(w), func(s [2]int) bool { return safetext.HexDigits(w[s[0]:s[1]], s[1]-s[0]) })
}

// CredentialRefusal is why m, refused for a credential's shape
// (ParseQuoteIDs), is not looked up, with the next step: a key's shape may
// be a TRON payout hash written bare or a link not taken (HashAdvice), a
// recovery phrase's or a key's byte list's is none. nil for another
// refusal, which the face says with its text: a credential's is never
// repeated.
func CredentialRefusal(m MalformedID) error {
	switch {
	case errors.Is(m.Err, exchange.ErrSecretShape): // an ErrKeyShape too
		return m.Err
	case errors.Is(m.Err, exchange.ErrKeyShape):
		return fmt.Errorf("%w; %s", m.Err, HashAdvice(m.Text))
	}
	return nil
}

// isSolanaSignature reports whether s is base58 of 64 bytes, as a SOLANA
// payout's transaction signature is written (86 to 88 characters: fewer
// only for leading zero bytes, which no signature has in practice).
func isSolanaSignature(s string) bool {
	if len(s) < 86 || len(s) > 88 {
		return false
	}
	b, err := base58.Decode(s)
	return err == nil && len(b) == 64
}

// isSolanaKeypair reports whether s is a SOLANA private key as wallets
// export it: base58 of 64 bytes, a seed then its ed25519 public key. It
// has a payout hash's shape, so it is told apart before anything asks it
// as a quote id: it is never sent nor shown.
func isSolanaKeypair(s string) bool {
	b, err := base58.Decode(s)
	if err != nil || len(b) != ed25519.PrivateKeySize {
		return false
	}
	pub := ed25519.NewKeyFromSeed(b[:ed25519.SeedSize]).Public().(ed25519.PublicKey)
	return bytes.Equal(pub, b[ed25519.SeedSize:])
}

// linkedHash is the payout hash an explorer's link to a transaction names
// as the last part of its path or fragment (https://arbiscan.io/tx/0x…,
// https://solscan.io/tx/SIG?cluster=…), as customers paste it, and where
// it is in w; "" when w is no such link. It is looked up as the hash given
// alone is, never sent. A link with a user or password is none; 64 bare
// hex digits (a TRON explorer's) stay a private key's shape, as they do
// alone.
func linkedHash(w string) (hash string, at int) {
	for _, last := range linkTails(w) {
		at := strings.LastIndex(w, last)
		if last != "" && at >= 0 && (IsPayoutHash(last) || isSolanaSignature(last) && !isSolanaKeypair(last)) {
			return last, at
		}
	}
	return "", 0
}

// tronLinked reports whether w is a link, with no user or password, whose
// path or fragment ends with 64 bare hex digits, as a TRON explorer's does.
func tronLinked(w string) bool {
	tails := linkTails(strings.TrimSpace(w))
	return slices.ContainsFunc(tails[:], func(last string) bool { return safetext.HexDigits(last, 64) })
}

// linkTails is the last parts of a link's fragment and path, in that
// order, where an explorer names a transaction; both "" when w is no link
// or names a user or password.
func linkTails(w string) (tails [2]string) {
	if !isLink(w) {
		return tails
	}
	u, err := url.Parse(w)
	if err != nil || u.User != nil || u.Host == "" {
		return tails
	}
	for i, p := range []string{u.Fragment, u.Path} {
		p = strings.TrimRight(p, "/")
		tails[i] = p[strings.LastIndexByte(p, '/')+1:]
	}
	return tails
}

// isLink reports whether w starts as a web link does. Asked of every word
// a field holds at each key: no copy of it made.
func isLink(w string) bool { return hasPrefixFold(w, "https://") || hasPrefixFold(w, "http://") }

func hasPrefixFold(s, prefix string) bool {
	return len(s) >= len(prefix) && strings.EqualFold(s[:len(prefix)], prefix)
}

// MaskHashes is text with each payout hash that stands as one token
// (between the start or end, whitespace, a comma, a semicolon or a #, as
// TokenHash reads it: quoted, in brackets, before punctuation, or ending
// an explorer's link) blanked, so that a check for a private key's shape
// (safetext.KeySpans) looks at the rest: a hash given to be found is not a
// key typed by mistake. The quotes and brackets stay, so nothing around a
// hash joins across it.
func MaskHashes(text string) string {
	var b []byte
	start := 0
	for i := 0; i <= len(text); i++ {
		if i < len(text) && !idSeparator(text[i]) {
			continue
		}
		if h, at, _ := TokenHash(text[start:i]); IsPayoutHash(h) {
			if b == nil {
				b = []byte(text)
			}
			for j := start + at; j < start+at+len(h); j++ {
				b[j] = ' '
			}
		}
		start = i + 1
	}
	if b == nil {
		return text
	}
	return string(b)
}

// tokenOpeners may stand before one id in a paste and tokenClosers after
// it: a CSV export's or a chat's quotes, brackets, and the punctuation
// that ends a list's item or a sentence.
const tokenOpeners, tokenClosers = "\"'`([{", "\"'`)]}.,;:"

// TokenHash is the payout hash w is as one token (0x and 64 hex digits,
// or a SOLANA signature, or an explorer's link to one: linkedHash), bare,
// quoted, in brackets or followed by punctuation ("0x…", (0x…), 0x….), with
// where it is in w and whether a link named it; "" when w is none. A hash
// glued to anything else (x(0x…), 0x….x) is no token: its digits are a
// key's shape as before.
func TokenHash(w string) (hash string, at int, linked bool) {
	core, from := tokenCore(w)
	if IsPayoutHash(core) || isSolanaSignature(core) {
		return core, from, false
	}
	if h, at := linkedHash(core); h != "" {
		return h, from + at, true
	}
	return "", 0, false
}

// tokenCore is w without the quotes and brackets around it and the
// punctuation after it (tokenOpeners, tokenClosers), and where it starts.
func tokenCore(w string) (core string, at int) {
	core = strings.TrimLeft(w, tokenOpeners)
	return strings.TrimRight(core, tokenClosers), len(w) - len(core)
}

// idSeparator is what stands between ids in a field or a line of ids.
func idSeparator(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == ',' || c == ';' || c == '#'
}

// InPlace is ids with the withdrawals each lookup names put where the
// lookup was given among them (its At), as `status` and plain mode's
// look-up say them: a withdrawal given twice (its quote id and its
// transfer id) once, at its quote id's place, else its first. resolve
// gives a lookup's quote ids, every one a shared payout hash names; none
// leaves it out (one not seen, said by the face), an error stops.
func InPlace(ids []string, lookups []Lookup, resolve func(Lookup) ([]string, error)) ([]string, error) {
	seen := make(map[string]bool, len(ids))
	for _, id := range ids {
		seen[id] = true
	}
	out := make([]string, 0, len(ids)+len(lookups))
	for i, id := range append(ids[:len(ids):len(ids)], "") {
		for ; len(lookups) > 0 && lookups[0].At == i; lookups = lookups[1:] {
			found, err := resolve(lookups[0])
			if err != nil {
				return nil, err
			}
			for _, q := range found {
				if !seen[q] {
					seen[q] = true
					out = append(out, q)
				}
			}
		}
		if id != "" {
			out = append(out, id)
		}
	}
	return out, nil
}
