package session

import (
	"errors"
	"fmt"

	"github.com/ethereum/go-ethereum/common"

	"github.com/svcwallet/svcwallet/service/config"
	"github.com/svcwallet/svcwallet/service/exchange"
)

// Bounds of what is read back.
const (
	// MaxLifetime is the furthest ahead a kept session may end: browsers
	// cap a cookie's life at 400 days (RFC 6265bis), and a service's 30.
	MaxLifetime = exchange.MaxCookieLife
	maxCookie   = exchange.MaxCookieValue
	maxRecord   = 16 << 10
)

// check holds an entry to the shape of a session Login gives for e, and to
// its time: ended is an *ExpiredError, anything else an *UnreadableError.
func (s Store) check(en Entry, e config.Environment) error {
	bad := func(format string, a ...any) error { return &UnreadableError{Reason: fmt.Errorf(format, a...)} }
	if err := checkBound(en.Bound); err != nil {
		return bad("%v", err)
	}
	switch {
	case en.Env != e.Name:
		return bad("it names another environment")
	case !isCookieValue(en.Cookie):
		return bad("its cookie is not a cookie's value")
	case en.Method != "API key" && en.Method != "wallet":
		return bad("it names no way of logging in")
	case en.Funding != "" && !common.IsHexAddress(en.Funding):
		return bad("its funding address is not an address")
	case en.Wallet != "" && (en.Method != "wallet" || !common.IsHexAddress(en.Wallet)):
		return bad("its wallet is not the address of a wallet login")
	case en.Expires.IsZero():
		return bad("it has no end")
	}
	if err := exchange.CheckID("account id", en.AccountID, true); err != nil {
		return bad("%v", err)
	}
	if err := exchange.CheckID("sub-account id", en.SubAccount, false); err != nil {
		return bad("%v", err)
	}
	now := s.Now()
	if !now.Before(en.Expires) {
		return &ExpiredError{Entry: en}
	}
	if en.Expires.After(now.Add(MaxLifetime)) {
		return bad("it ends more than %d days ahead", int(MaxLifetime.Hours()/24))
	}
	return nil
}

// checkBound holds the hosts and chain id read back to a Service's shape.
func checkBound(b Bound) error {
	if err := b.Service.Check(); err != nil {
		return fmt.Errorf("its service %v", err)
	}
	for _, h := range []string{b.AuthHost, b.MarketHost} {
		if err := (config.Service{Host: h, ChainID: b.Service.ChainID}).Check(); err != nil {
			return fmt.Errorf("its host %v", err)
		}
	}
	return nil
}

// isCookieValue reports whether v is a cookie value as Go's reader gives
// the login one (RFC 6265 §4.1.1, no quotes, and a space or comma within,
// which some services send and the login took), of at most maxCookie bytes.
func isCookieValue(v string) bool {
	if v == "" || len(v) > maxCookie || v[0] == ' ' || v[len(v)-1] == ' ' {
		return false
	}
	for i := 0; i < len(v); i++ {
		switch c := v[i]; {
		case c == 0x20, c == 0x21, c >= 0x23 && c <= 0x3a, c >= 0x3c && c <= 0x5b, c >= 0x5d && c <= 0x7e:
		default:
			return false
		}
	}
	return true
}

// UnkeptError is the session a login just gave that Save will not keep, as
// it would refuse it read back: said of that login, not of a kept session.
type UnkeptError struct{ Reason error }

func (e *UnkeptError) Error() string {
	return "the service's session cannot be kept: " + e.Reason.Error()
}
func (e *UnkeptError) Unwrap() error { return e.Reason }

// unkept words check's refusal of en, the session a login just gave; a
// cookie without Max-Age or Expires (a browser's session cookie) has no end.
func unkept(en Entry, err error) error {
	switch u, ok := errors.AsType[*UnreadableError](err); {
	case en.Expires.IsZero():
		err = errors.New("its cookie sets no end (no Max-Age or Expires), and svcwallet keeps only a session that ends")
	case ok:
		err = u.Reason
	}
	return &UnkeptError{Reason: err}
}
