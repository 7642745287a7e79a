package sandbox

import (
	"encoding/json"
	"errors"
	"strconv"
	"strings"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/signer"
)

// wireSig is the signature object of SPEC.md §2.3 as received. Pointers tell
// an absent field from a zero one; chain_id is raw because it is a string in
// login and builder authorization and an integer in withdraw (both accepted).
type wireSig struct {
	Signer     *string         `json:"signer"`
	R          *string         `json:"r"`
	S          *string         `json:"s"`
	V          *int            `json:"v"`
	Nonce      *uint32         `json:"nonce"`
	Expiration *string         `json:"expiration"`
	ChainID    json.RawMessage `json:"chain_id"`
}

// sigKey is a signature exactly as sent, to recognise a repeated request.
type sigKey struct {
	signer, r, s, expiration, chainID string
	v                                 int
	nonce                             uint32
}

// sig is a signature whose formats, chain id and time window were checked.
type sig struct {
	key        sigKey
	signer     common.Address
	r, s       common.Hash
	v          int
	nonce      uint32
	expiration int64
}

// present checks that every required sub-field is there, naming the first
// missing one. chain_id is required in builder authorization only.
func (w *wireSig) present(chainRequired bool) (sigKey, *apiError) {
	if w == nil {
		return sigKey{}, malformed("field signature is required")
	}
	var k sigKey
	var err *apiError
	if k.signer, err = need(w.Signer, "signature.signer"); err != nil {
		return k, err
	}
	if k.r, err = need(w.R, "signature.r"); err != nil {
		return k, err
	}
	if k.s, err = need(w.S, "signature.s"); err != nil {
		return k, err
	}
	if w.V == nil {
		return k, malformed("field signature.v is required")
	}
	if w.Nonce == nil {
		return k, malformed("field signature.nonce is required")
	}
	if k.expiration, err = need(w.Expiration, "signature.expiration"); err != nil {
		return k, err
	}
	k.v, k.nonce = *w.V, *w.Nonce
	k.chainID = strings.TrimSpace(string(w.ChainID))
	// An empty string gives none either.
	if chainRequired && (k.chainID == "" || k.chainID == "null" || k.chainID == `""`) {
		return k, malformed("field signature.chain_id is required")
	}
	return k, nil
}

// check validates a signature's formats (v 2005, r/s 2006), its chain id
// (0 or absent means the environment's; another one is 1012) and its
// expiration: unix nanoseconds as a decimal string (1003), in the future
// (2001) and at most maxAhead from now (2008).
func (e *Exchange) check(w *wireSig, chainRequired bool, now time.Time, maxAhead time.Duration) (sig, *apiError) {
	k, err := w.present(chainRequired)
	if err != nil {
		return sig{}, err
	}
	s := sig{key: k, v: k.v, nonce: k.nonce}
	if s.signer, err = parseAddress(k.signer, "signature.signer"); err != nil {
		return s, err
	}
	if k.v != 27 && k.v != 28 {
		return s, fail(exchange.CodeBadV, "signature.v must be 27 or 28")
	}
	var ok bool
	if s.r, ok = parseWord(k.r); !ok {
		return s, fail(exchange.CodeBadRS, "signature.r must be 0x followed by 64 hex digits")
	}
	if s.s, ok = parseWord(k.s); !ok {
		return s, fail(exchange.CodeBadRS, "signature.s must be 0x followed by 64 hex digits")
	}
	if err := e.checkChainID(k.chainID); err != nil {
		return s, err
	}
	// The signed value's one decimal string: ParseInt also takes a sign
	// and leading zeros ("+1790…", "01790…"), which a client must not send.
	var perr error
	if s.expiration, perr = strconv.ParseInt(k.expiration, 10, 64); perr != nil || strconv.FormatInt(s.expiration, 10) != k.expiration {
		return s, malformed("field signature.expiration must be unix nanoseconds as a decimal string")
	}
	switch {
	case s.expiration <= now.UnixNano():
		return s, fail(exchange.CodeSignatureExpired, "signature has expired; sign again")
	case s.expiration > now.Add(maxAhead).UnixNano():
		return s, failf(exchange.CodeExpirationTooFar, "signature expiration is more than %s ahead", human(maxAhead))
	}
	return s, nil
}

func human(d time.Duration) string {
	if d >= 24*time.Hour {
		return strconv.Itoa(int(d/(24*time.Hour))) + " days"
	}
	return strconv.Itoa(int(d/time.Minute)) + " minutes"
}

// checkChainID accepts the raw chain_id as a JSON number or decimal string.
func (e *Exchange) checkChainID(raw string) *apiError {
	if raw == "" || raw == "null" {
		return nil
	}
	if strings.HasPrefix(raw, `"`) {
		_ = json.Unmarshal([]byte(raw), &raw) // valid JSON: the whole body parsed
		if raw == "" {
			return nil
		}
	}
	// As written, digits alone: ParseUint takes leading zeros.
	id, err := strconv.ParseUint(raw, 10, 64)
	if err != nil || strconv.FormatUint(id, 10) != raw {
		return malformed("field signature.chain_id must be a chain id such as %q", strconv.FormatUint(e.domain.ChainID, 10))
	}
	if id != 0 && id != e.domain.ChainID {
		return failf(exchange.CodeBadChainID, "signature.chain_id %d is not this environment's chain id %d", id, e.domain.ChainID)
	}
	return nil
}

// verify recovers the signer of m and requires it to be the claimed one: a
// signature over any other payload (amount, account, chain) fails here.
func (e *Exchange) verify(s sig, m signer.Message, what string) *apiError {
	got, err := signer.Recover(e.domain, m, s.r, s.s, s.v)
	switch {
	case errors.Is(err, signer.ErrHighS):
		return fail(exchange.CodeHighS, "signature.s must be in the lower half of the curve order")
	case err != nil || got != s.signer:
		return fail(exchange.CodeSignatureMismatch, "signature does not match "+what)
	}
	return nil
}

// Kinds of signed message with separate nonce spaces.
const (
	kindLogin = iota
	kindBuilder
	kindTransfer
)

type nonceKey struct {
	kind   int
	signer common.Address
	nonce  uint32
}

// useNonce records a nonce until its signature expires (after that the
// signature is refused as expired anyway); prune then drops it, so the
// table stays as small as the set of live signatures.
func (e *Exchange) useNonce(k nonceKey, expires int64) {
	e.nonces[k] = expires
	e.nonceExpiry.push(expires, k)
}

// nonceUsed reports a nonce still inside its signature's validity window.
func (e *Exchange) nonceUsed(k nonceKey, now time.Time) bool {
	exp, ok := e.nonces[k]
	return ok && exp > now.UnixNano()
}
