package exchange

import (
	"context"
	"errors"
	"net/http"
	"time"
)

// RetryPolicy bounds the withdraw retries of D10 and paces Patiently.
type RetryPolicy struct {
	Attempts int           // total tries, first included
	Base     time.Duration // first backoff; doubled each retry, with jitter (Backoff)
	Max      time.Duration // cap of one backoff
	// Sleep waits d or until ctx ends; tests replace it to run without waiting.
	Sleep func(ctx context.Context, d time.Duration) error
	// Jitter draws in [0, n) for the backoff: rand.Int64N when nil.
	Jitter func(n int64) int64
}

// WithdrawTimeout covers every retry of one withdraw (D10): after it, a
// request of ours may still be on its way, but no new attempt leaves.
const WithdrawTimeout = 2 * time.Minute

// DefaultRetry: 5 tries over roughly 8 s of backoff.
var DefaultRetry = RetryPolicy{Attempts: 5, Base: 500 * time.Millisecond, Max: 4 * time.Second}

// orDefault is p, or DefaultRetry with p's Sleep and Jitter when p names no
// attempts (the zero value).
func (p RetryPolicy) orDefault() RetryPolicy {
	if p.Attempts > 0 {
		return p
	}
	d := DefaultRetry
	d.Sleep, d.Jitter = p.Sleep, p.Jitter
	return d
}

// wait is the pause after failures failed tries, the last with err: the
// one Retry-After policy over the one backoff.
func (p RetryPolicy) wait(failures int, err error) time.Duration {
	return RetryWait(err, Backoff(p.Base, p.Max, failures, p.Jitter))
}

func (p RetryPolicy) sleep(ctx context.Context, d time.Duration) error {
	if p.Sleep != nil {
		return p.Sleep(ctx, d)
	}
	return Sleep(ctx, d)
}

// Sleep waits d, or less if ctx ends first (then it returns ctx's error).
func Sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// Withdraw executes a signed withdrawal (SPEC.md §4.9). A timed-out, reset or
// 5xx attempt is retried with the identical body, same signature and nonce
// (D10): the service treats the repeat as a duplicate of the first, so a retry
// never pays twice. The caller must have journaled req before calling.
//
// When an attempt got no answer, a later refusal does not prove nothing was
// paid (the first may have executed), so it comes back as an
// *OutcomeUnknownError; OutcomeUnknown tells the caller to ask
// WithdrawalStatus before calling the withdrawal refused. Any 2xx is an
// acceptance, even one whose body cannot be read.
func (c *Client) Withdraw(ctx context.Context, req WithdrawRequest) (WithdrawAccepted, error) {
	var res WithdrawAccepted
	var err error
	unanswered := false
	// Every attempt goes as the account the first went as: a login made
	// during a pause, as another account, is never sent the signed request.
	as, _ := c.session.renewal()
	for attempt := range c.retry.Attempts {
		if attempt > 0 {
			wait := c.retry.wait(attempt, err)
			c.log.Info("retrying withdraw with the same signature", "attempt", attempt+1, "backoff", wait)
			if serr := c.retry.sleep(ctx, wait); serr != nil {
				return res, givenUp(unanswered, err)
			}
		}
		err = c.doAuthed(ctx, call{method: http.MethodPost, base: c.env.BaseURL, path: PathWithdraw, body: req, as: &as}, &res)
		var unreadable *UnreadableAnswerError
		switch {
		case err == nil && res.QuoteID != req.QuoteID:
			// The withdrawal is the quote that was sent, whatever the answer
			// echoes: following another id would report someone else's.
			c.log.Warn("withdraw accepted naming another quote id")
			return WithdrawAccepted{QuoteID: req.QuoteID, TxID: res.TxID, State: StateSubmitted, ReceiveAmount: res.ReceiveAmount, Fee: res.Fee, FeeUSD: res.FeeUSD}, nil
		case err == nil:
			return res, nil
		case errors.As(err, &unreadable):
			c.log.Warn("withdraw accepted with an unreadable body", "status", unreadable.Status)
			return WithdrawAccepted{QuoteID: req.QuoteID, State: StateSubmitted}, nil
		case Retryable(err) && ctx.Err() == nil:
			// One that never left cannot have executed.
			unanswered = unanswered || !NotSent(err)
			continue
		case unanswered:
			return res, &OutcomeUnknownError{Err: err}
		}
		return res, err
	}
	return res, givenUp(unanswered, err)
}

// givenUp is the error Withdraw stops retrying with, err being the last
// attempt's: one that never left, after an attempt without an answer
// (unanswered), is an unknown outcome, since that earlier one may have
// executed.
func givenUp(unanswered bool, err error) error {
	if unanswered && NotSent(err) {
		return &OutcomeUnknownError{Err: err}
	}
	return err
}

// OutcomeUnknownError is a withdraw refused after an attempt that got no
// answer: the first attempt may have executed.
type OutcomeUnknownError struct{ Err error }

func (e *OutcomeUnknownError) Error() string {
	return "no answer to an earlier attempt, then: " + e.Err.Error()
}

func (e *OutcomeUnknownError) Unwrap() error { return e.Err }

// OutcomeUnknown reports whether a withdraw may or may not have executed:
// no answer at all, a refusal after an unanswered attempt, or a 4xx the
// interface gives no meaning (UnnamedRefusal). Only WithdrawalStatus can
// tell; the request is kept for an identical re-send.
func OutcomeUnknown(err error) bool {
	var ou *OutcomeUnknownError
	return Retryable(err) || errors.As(err, &ou) || errors.Is(err, context.DeadlineExceeded) || UnnamedRefusal(err)
}

// UnnamedRefusal reports a 4xx answer whose status SPEC.md §7 and D7 give
// no meaning (not 400, 401, 403, 404, 405, 409, 410 nor 429), or a 1xx or
// 3xx (none has one: a 303 See Other is how a service says a POST was
// done), and whose body carries no code the client knows: a 408 or 499 of
// a gateway that gave up after passing the request on, a 418, 422 or 451
// of a proxy. It says nothing of whether a withdrawal executed, so it is
// never taken as "never paid" (D15).
func UnnamedRefusal(err error) bool {
	ae, ok := errors.AsType[*APIError](err)
	if !ok || ae.Status > 499 || ae.Code.known() {
		return false
	}
	switch ae.Status {
	case http.StatusBadRequest, http.StatusUnauthorized, http.StatusForbidden, http.StatusNotFound,
		http.StatusMethodNotAllowed, http.StatusConflict, http.StatusGone, http.StatusTooManyRequests:
		return false
	}
	return true
}

// QuoteUsed reports a withdraw answered that its quote was already
// executed with another signature (9108), or answered 409 without a code
// of its own: a conflict with the quote's state, which never proves that
// nothing was paid. Only WithdrawalStatus can tell.
func QuoteUsed(err error) bool {
	if errors.Is(err, CodeQuoteUsed) {
		return true
	}
	ae, ok := errors.AsType[*APIError](err)
	return ok && ae.Status == http.StatusConflict && ae.Code == 0
}

// Retryable reports whether a failed call may have been lost in transit and is
// safe to repeat with the same body: no answer at all, a 5xx, or a 429.
func Retryable(err error) bool {
	if err == nil {
		return false
	}
	var te *TransportError
	if errors.As(err, &te) {
		return !errors.Is(err, context.Canceled)
	}
	var ae *APIError
	if errors.As(err, &ae) {
		return ae.Status >= 500 || ae.Status == http.StatusTooManyRequests
	}
	return false
}

// PatientTries is how many times Patiently makes a call the service keeps
// refusing with 429.
const PatientTries = 3

// Patiently makes call and, while the service answers 429, waits as p says
// (its Retry-After, else p's backoff: RetryWait) and makes it again,
// PatientTries times in all. Only for calls that change nothing (withdrawal
// info, the clock, a quote): a withdraw has its own retries (D10), and a
// follower its own request budget.
func Patiently[T any](ctx context.Context, p RetryPolicy, call func(context.Context) (T, error)) (T, error) {
	p = p.orDefault()
	for try := 1; ; try++ {
		v, err := call(ctx)
		if try == PatientTries || !errors.Is(err, ErrRateLimited) {
			return v, err
		}
		if serr := p.sleep(ctx, p.wait(try, err)); serr != nil {
			return v, err
		}
	}
}
