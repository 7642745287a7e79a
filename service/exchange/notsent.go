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
	if _, reached := errors.AsType[*reachedError](err); reached {
		return false
	}
	_, ok := errors.AsType[*NotSentError](err)
	return ok
}

// sentOnce is err of a request whose first try reached the service (and
// was refused for its session): whatever failed after, a re-send or a
// login again that never left, it is never "not sent".
func sentOnce(err error) error {
	if NotSent(err) {
		return &reachedError{Err: err}
	}
	return err
}

// reachedError is an error of a request that reached the service, with a
// "not sent" of what came after inside it (sentOnce): NotSent is false.
type reachedError struct{ Err error }

func (e *reachedError) Error() string { return e.Err.Error() }

func (e *reachedError) Unwrap() error { return e.Err }

// dialFailed reports an HTTP client error from dialing the service: no
// connection was made, so not a byte of the request was written.
func dialFailed(err error) bool {
	oe, ok := errors.AsType[*net.OpError](err)
	return ok && oe.Op == "dial"
}
