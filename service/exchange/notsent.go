package exchange

import (
	"errors"
	"net"
)

// NotSentError is a request that never left this machine, so the service
// cannot have seen it: it could not be built, it had no session (not
// logged in, or renewing the session failed or waits for a person), its
// context ended before it was written, or no connection to the service
// was made (the dial failed: refused, no route, no such host, and the
// transport got no connection on any try of its own). Sending it again is
// safe.
type NotSentError struct{ Err error }

func (e *NotSentError) Error() string { return e.Err.Error() }

func (e *NotSentError) Unwrap() error { return e.Err }

// NotSent reports whether err says the request never left this machine. A
// withdraw that gave up after an attempt without an answer
// (OutcomeUnknownError) is never "not sent", whatever its last attempt.
// A not-sent error passes OutcomeUnknown too (no answer came), so callers
// ask NotSent first.
func NotSent(err error) bool {
	if _, unknown := errors.AsType[*OutcomeUnknownError](err); unknown {
		return false
	}
	_, ok := errors.AsType[*NotSentError](err)
	return ok
}

// sentOnce is err without its "not sent": a request whose first try
// reached the service (and was refused) is not one that never left.
func sentOnce(err error) error {
	if ns, ok := err.(*NotSentError); ok {
		return ns.Err
	}
	return err
}

// dialFailed reports an HTTP client error from dialing the service: no
// connection was made, so not a byte of the request was written.
func dialFailed(err error) bool {
	oe, ok := errors.AsType[*net.OpError](err)
	return ok && oe.Op == "dial"
}
