package builder

import (
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"time"

	"github.com/svcwallet/svcwallet/service/exchange"
)

// Fate is what became of a signed authorization the service did not
// accept: the one rule the console, plain mode and the command line say
// it by, each offering its next step in its own words.
type Fate int

const (
	// FateNotSent: the request never left this machine, so nothing was
	// authorized; the same signed body may be sent again.
	FateNotSent Fate = iota + 1
	// FateLimited: the service answered 429 and did not take it; the same
	// signed body may be sent again after Failure.Wait.
	FateLimited
	// FateUnknown: sent, and no answer says whether it was taken (none
	// came, a 5xx, a 3xx or 4xx the interface gives no meaning, or an
	// earlier attempt's was unknown); the same signed body may be sent again.
	FateUnknown
	// FateRefused: refused for good; the same body would be refused again,
	// and a new nonce needs a new review.
	FateRefused
	// FateTaken: accepted (a success status) with the service's answer,
	// one field of it unusable: the builder is authorized, and may hold
	// an API key the user never saw. Nothing is sent or signed again.
	FateTaken
)

// Answer is what an attempt whose outcome is unknown was answered, for
// the faces' short words: each is unknown for its own reason.
type Answer int

const (
	// AnswerNone: sent, and no answer came.
	AnswerNone Answer = iota + 1
	// AnswerServerError: a 5xx, the service or a gateway failing.
	AnswerServerError
	// AnswerUnnamed: a 3xx or 4xx the interface gives no meaning
	// (exchange.UnnamedRefusal), as a gateway's 499 after passing it on.
	AnswerUnnamed
	// AnswerUnreadable: a status over a body not the service's answer (a
	// proxy's page?).
	AnswerUnreadable
)

// Failure is a signed authorization not accepted: its Fate, the wait a
// 429 asked before the same body is sent again (0 after any other
// answer), and its words, true on every face. Answer and Status say what
// this attempt got when that alone leaves the outcome unknown (0 when it
// proves nothing, as a 429 after no answer, or the fate is another);
// TakenEarlier, a FateTaken known by this attempt's nonce already used:
// an earlier attempt, whose answer never came, took it.
type Failure struct {
	Fate         Fate
	Wait         time.Duration
	Err          error
	Answer       Answer
	Status       int
	TakenEarlier bool
}

// WaitSeconds is Wait in whole seconds, rounded up, as words say it.
func (f Failure) WaitSeconds() int { return int((f.Wait + time.Second - 1) / time.Second) }

func (f Failure) Error() string { return f.Err.Error() }

// Head is the few words every face heads a failure with: whether the
// builder is authorized, and how that is known when it is. Short, as a
// longer head narrows the words beside it at 80 columns.
func (f Failure) Head() string {
	switch {
	case f.Fate == FateTaken && f.TakenEarlier:
		return "Authorized by the earlier send"
	case f.Fate == FateTaken:
		return "Authorized, answer unreadable"
	case f.Fate == FateUnknown:
		return "Not authorized so far"
	}
	return "Not authorized"
}

func (f Failure) Unwrap() error { return f.Err }

// Failed judges err, the error of sending a signed authorization of a
// (an error before it is said as it is, by Explain); earlier is the fate
// of the attempt before with the same body (0 on the first). An
// acceptance in the answer's form with a field that cannot be used was
// taken (FateTaken); whatever else came instead of an acceptance (an
// interrupted request, a success status over a body not in the answer's
// form, as a proxy's page, or over an error's body) may have been taken. After an
// attempt whose outcome is unknown, one that never left or was rate
// limited proves nothing: the first may have been taken.
func (a Auth) Failed(err error, earlier Fate) Failure {
	ae, isAPI := errors.AsType[*exchange.APIError](err)
	limited := errors.Is(err, exchange.CodeRateLimited) || isAPI && ae.Status == http.StatusTooManyRequests
	fate := FateUnknown
	var unreadable *exchange.UnreadableAnswerError
	switch {
	case errors.As(err, &unreadable) && errors.As(unreadable.Reason, new(*exchange.ShapeError)):
		return Failure{Fate: FateTaken, Err: exchange.Worded(err, a.taken(unreadable))}
	case earlier == FateUnknown && errors.Is(err, exchange.CodeDuplicateSignature):
		// Its random nonce used, after this body got no answer: that
		// attempt went through. Refused, a new review would authorize twice.
		return Failure{Fate: FateTaken, TakenEarlier: true, Err: exchange.Worded(err, "The service says this authorization's nonce was already used: the attempt that got no answer went through, so "+
			a.Builder.Hex()+" is authorized: "+a.lookWhere()+"; authorizing again would sign anew")}
	case exchange.NotSent(err):
		fate = FateNotSent
	case limited:
		fate = FateLimited
	case isAPI && ae.Status < 500 && !exchange.UnnamedRefusal(err):
		fate = FateRefused
	}
	answer, status := answered(ae, isAPI, fate, unreadable)
	var wait time.Duration
	if limited {
		// The one Retry-After policy over the one backoff, as every caller
		// that asks again after a 429; kept when an earlier attempt makes
		// the outcome unknown, since sending sooner earns another 429.
		wait = exchange.RetryWait(err, exchange.Backoff(exchange.DefaultRetry.Base, exchange.DefaultRetry.Max, 1, nil))
	}
	seconds := Failure{Wait: wait}.WaitSeconds()
	words := Explain(err).Error()
	if unreadable != nil {
		// A 2xx a proxy or portal may have sent, or over an error's body:
		// never "authorized".
		body := "a body that is not the service's answer (a proxy's page?)"
		if unreadable.Reason != nil {
			body = unreadable.Reason.Error()
		}
		words = fmt.Sprintf("The authorization was answered HTTP %d with %s, which does not say whether it was taken", unreadable.Status, body)
	}
	switch {
	case earlier == FateUnknown && limited:
		fate, words = FateUnknown, fmt.Sprintf("An earlier attempt may have been taken, and this one was not: the service is limiting requests (HTTP 429), so wait %d s before sending it again", seconds)
	case earlier == FateUnknown && fate != FateRefused && fate != FateUnknown:
		fate, words = FateUnknown, "An earlier attempt may have been taken, and this one: "+words
	}
	switch fate {
	case FateNotSent:
		return Failure{Fate: fate, Err: exchange.Worded(err, words+". The authorization was not sent, so nothing was authorized")}
	case FateLimited:
		return Failure{Fate: fate, Wait: wait, Err: exchange.Worded(err, fmt.Sprintf(
			"The service is limiting requests (HTTP 429) and did not take the authorization: wait %d s before sending it again", seconds))}
	case FateRefused:
		return Failure{Fate: fate, Err: Explain(err)}
	}
	return Failure{Fate: fate, Wait: wait, Answer: answer, Status: status, Err: exchange.Worded(err, words+"; "+a.Unchecked())}
}

// answered says what an error was answered when fate, its own, is
// FateUnknown: its Answer and HTTP status (0 when none came), from the
// HTTP error Failed found in it (ae, when isAPI) or its unreadable answer.
func answered(ae *exchange.APIError, isAPI bool, fate Fate, unreadable *exchange.UnreadableAnswerError) (Answer, int) {
	switch {
	case fate != FateUnknown:
		return 0, 0
	case unreadable != nil:
		return AnswerUnreadable, unreadable.Status
	case isAPI && ae.Status >= 500:
		return AnswerServerError, ae.Status
	case isAPI:
		return AnswerUnnamed, ae.Status
	}
	return AnswerNone, 0
}

// taken says an acceptance whose answer (fact) cannot be read: the
// authorization holds, so what the user must do is look, not send again.
func (a Auth) taken(ue *exchange.UnreadableAnswerError) string {
	// A shape error's own words end in "try again", which would sign anew;
	// another Reason (a secret said back) says its own.
	fact := ue.Error()
	if se := new(exchange.ShapeError); errors.As(ue, &se) {
		fact = "the service sent " + exchange.Articled(se.Field) + " that " + se.Reason
	}
	return "The service accepted the authorization, so " + a.Builder.Hex() + " is authorized, but its answer cannot be read (" +
		fact + "): " + a.lookWhere() + "; authorizing again would sign anew"
}

// Unwritten is an authorization taken whose answer could not be written
// where it is read (err): the builder is authorized, and an API key the
// service made for it was never seen, so it is said where to revoke it.
func (a Auth) Unwritten(err error) error {
	return fmt.Errorf("the service accepted the authorization, so %s is authorized, but its answer cannot be written to the output (%w): %s; authorizing again would sign anew",
		a.Builder.Hex(), err, a.lookWhere())
}

// lookWhere says where to see an authorization taken whose answer was
// never read, and its API key, if it made one.
func (a Auth) lookWhere() string {
	if a.WithKey {
		return "the builder may now hold an API key you never saw: look up the key labelled " + strconv.Quote(a.Label) +
			" in the API key list of the exchange's web UI and revoke it there"
	}
	return "check the builder's authorization in the exchange's web UI and revoke it there if it is not what you meant"
}
