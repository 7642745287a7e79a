package withdrawal

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/svcwallet/svcwallet/service/config"
	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/follow"
	"github.com/svcwallet/svcwallet/service/journal"
)

// Resuming a journaled withdrawal: the one protocol behind the console's
// History and `withdraw resume`. The journal decides what it can
// (PlanResume); an unanswered request is settled with the service
// (Settle), which journals "never paid" only when the service's clock
// makes it certain (follow.MayStillExecute).

// ResumeStep is what to do first with a journaled withdrawal.
type ResumeStep int

const (
	// ResumeFollow: it was answered; follow its status.
	ResumeFollow ResumeStep = iota
	// ResumeNeverHappened: it never happened (a refusal, or a quote that
	// expired unexecuted): nothing to follow.
	ResumeNeverHappened
	// ResumeSettle: it got no answer; settle it with the service (Settle).
	ResumeSettle
)

// PlanResume decides, from the journal alone, how to take up rec.
func PlanResume(rec journal.Record) ResumeStep {
	switch {
	case rec.Answered && rec.State == "":
		return ResumeNeverHappened
	case rec.Answered:
		return ResumeFollow
	}
	return ResumeSettle
}

// Resent is the outcome of re-sending a journaled request.
type Resent struct {
	Accepted exchange.WithdrawAccepted
	Err      error
	Lost     bool // no answer after every retry: it may or may not have arrived
	// Refused now: since the first send got no answer, this does not prove
	// the request never ran; the status decides.
	Refused bool
	// Unrecorded: the acceptance could not be journaled; the journal
	// still shows the withdrawal unanswered.
	Unrecorded error
}

// Resend re-sends a journaled request byte for byte (same signature and
// nonce, so it cannot pay twice: D10) as this session's account, and
// journals an acceptance.
func (w Withdrawer) Resend(ctx context.Context, req exchange.WithdrawRequest) Resent {
	s, _ := w.client.Session()
	return w.resendAs(exchange.AsAccount(ctx, s), req, s.AccountID)
}

// resendAs is Resend as account, which ctx is pinned to (exchange.AsAccount).
func (w Withdrawer) resendAs(ctx context.Context, req exchange.WithdrawRequest, account string) Resent {
	acc, err := w.client.Withdraw(ctx, req)
	switch {
	case err == nil:
		return Resent{Accepted: acc, Unrecorded: w.append(w.accepted(req.QuoteID, account, acc))}
	case exchange.UnnamedRefusal(err):
		// An answer that says nothing of the request: the status decides,
		// as after a refusal, or it stayed "no answer" while paid.
		return Resent{Err: err, Refused: true}
	case exchange.OutcomeUnknown(err), exchange.NotSent(err):
		// A re-send that never left leaves the first as unknown as it was.
		return Resent{Err: err, Lost: true}
	}
	return Resent{Err: err, Refused: true}
}

// Settled is what settling an unanswered withdrawal came to (Settle).
type Settled struct {
	Outcome SettledOutcome
	// Accepted is the re-send's answer (SettledAccepted).
	Accepted exchange.WithdrawAccepted
	// Why is what was journaled (SettledNeverHappened): NeverPaid, or the
	// service's refusal of the re-send. JournalErr: that line, or the
	// re-send's acceptance (SettledAccepted), could not be written: the
	// journal still shows the withdrawal unanswered.
	Why        string
	JournalErr error
	// Err is what failed: the re-send (SettledLost), or the status or the
	// service's time that could not be read (SettledUndecided; nil when
	// only the margin is not over yet).
	Err error
	// Until is when, on the service's clock, whether the request arrived
	// can be told, and ServiceNow that clock when the status was asked
	// (SettledUndecided with the service's time read).
	Until, ServiceNow time.Time
	// Refusal is the service's refusal of the re-send (SettledUndecided):
	// it does not prove the first request never runs.
	Refusal string
}

// SettledOutcome names what Settle came to.
type SettledOutcome int

const (
	// SettledAccepted: the identical request was re-sent and accepted
	// (journaled): follow it.
	SettledAccepted SettledOutcome = iota
	// SettledArrived: the first request did arrive (the service has moved
	// it on): follow it.
	SettledArrived
	// SettledNeverHappened: it certainly never executed; journaled (Why).
	SettledNeverHappened
	// SettledLost: the re-send got no answer either; it may or may not
	// have arrived. Settling again later re-sends it, which cannot pay
	// twice.
	SettledLost
	// SettledUndecided: the service has not executed it so far, but its
	// quote may still execute (Until), or the status or the service's time
	// could not be read (Err). Nothing was journaled: the record stays
	// unanswered and an identical withdrawal is still refused.
	SettledUndecided
	// SettledElsewhere: it was signed for and sent to another service than
	// this environment reaches (Err, an *OtherServiceError): nothing was
	// sent or asked.
	SettledElsewhere
	// SettledOtherAccount: it was journaled as another account's than the
	// session's (Err, an *OtherRecordAccountError, naming which to log in
	// as): nothing was sent or asked, and asking again here cannot help.
	SettledOtherAccount
	// SettledLoggedOut: no session was logged in (Err, a
	// *LoggedOutError, naming the account to log in as): with no account
	// to pin its requests to, nothing was sent or asked.
	SettledLoggedOut
)

// OtherServiceError refuses to take up a journaled withdrawal through
// another service than the one its intent was signed for and sent to
// (journal.Record.Service): the signed Transfer and the session would go
// to a host that never had them (a name pointed elsewhere since).
type OtherServiceError struct {
	QuoteID      string
	Signed, Here config.Service
}

func (e *OtherServiceError) Error() string {
	return fmt.Sprintf("withdrawal %s was signed for and sent to %s, but this environment reaches %s: nothing was sent", e.QuoteID, e.Signed, e.Here)
}

// Fact says why whether the request arrived cannot be told yet
// (SettledUndecided), in words every front end uses before its own next
// step.
func (s Settled) Fact() string {
	var noTime errNoServiceTime
	switch {
	case errors.As(s.Err, &noTime):
		return "whether it arrived cannot be told yet: " + noTime.Error()
	case s.Err != nil:
		return "whether it arrived cannot be told yet: " + exchange.Explain(s.Err).Error()
	case s.Until.IsZero():
		return "whether it arrived cannot be told yet: its quote's expiry is not in the journal"
	}
	refused := ""
	if s.Refusal != "" {
		refused = " and refused the identical request now (" + s.Refusal + ")"
	}
	return fmt.Sprintf("whether it arrived cannot be told yet: the service has not executed it%s, but a request still on its way may execute it until %s by the service's clock; until then it stays unanswered",
		refused, s.Until.UTC().Format("2006-01-02 15:04:05 UTC"))
}

// errNoServiceTime wraps a /time that could not be read when a decision
// needed it.
type errNoServiceTime struct{ err error }

func (e errNoServiceTime) Error() string {
	return "the service's time could not be read (" + exchange.Explain(e.err).Error() + "), and \"never paid\" is decided only on its clock"
}

func (e errNoServiceTime) Unwrap() error { return e.err }

// Settle takes up a journaled request rec that got no answer, through the
// service its intent was signed for alone (SettledElsewhere): while its
// quote is valid by the service's clock, or that clock cannot be read, it
// re-sends the identical request (Resend: it cannot pay twice). Then,
// unless the re-send was accepted or got no answer either, it asks the
// status: a record the service moved on means the request arrived; one it
// does not know (404) or that is still CREATED means it has not executed
// so far, which is journaled as never happened (NeverPaid, or the
// re-send's refusal) only once the service's clock, read right before the
// status and never later than ours (Client.ExpiryNow), is past the quote's
// expiry and follow.ExecutableMargin.
// Otherwise nothing is journaled (SettledUndecided). On a session of
// another account's than rec's nothing is asked (SettledOtherAccount), nor
// on none (SettledLoggedOut).
func (w Withdrawer) Settle(ctx context.Context, rec journal.Record) Settled {
	// An intent of an earlier version names no service: it goes where the
	// environment chosen reaches, as it did.
	if env := w.client.Env(); !rec.Service.IsZero() && !env.Reaches(rec.Service) {
		return Settled{Outcome: SettledElsewhere, Err: &OtherServiceError{QuoteID: rec.QuoteID, Signed: rec.Service, Here: env.Service()}}
	}
	as, err := w.recordOf(rec)
	if _, out := errors.AsType[*LoggedOutError](err); out {
		return Settled{Outcome: SettledLoggedOut, Err: err}
	}
	if err != nil {
		return Settled{Outcome: SettledOtherAccount, Err: err}
	}
	// Asked as that account alone, whatever login lands meanwhile: another
	// account's "not found" of this quote would be taken for never paid.
	ctx = exchange.AsAccount(ctx, as)
	serviceNow, clockErr := w.client.ExpiryNow(ctx)
	why := ""
	if clockErr != nil || serviceNow.Before(rec.Intent.ExpiresAt) {
		r := w.resendAs(ctx, rec.Request, as.AccountID)
		switch {
		case r.Lost:
			return Settled{Outcome: SettledLost, Err: r.Err}
		case !r.Refused:
			return Settled{Outcome: SettledAccepted, Accepted: r.Accepted, JournalErr: r.Unrecorded}
		}
		// Refused now: the first send may still have arrived.
		why = resendRefusal(r.Err, rec.QuoteID)
		serviceNow, clockErr = w.client.ExpiryNow(ctx)
	}
	wd, err := w.client.WithdrawalStatus(ctx, rec.QuoteID)
	switch {
	case err == nil && wd.State != exchange.StateCreated:
		return Settled{Outcome: SettledArrived}
	case err != nil && !errors.Is(err, exchange.ErrNotFound):
		return Settled{Outcome: SettledUndecided, Err: err}
	case clockErr != nil:
		return Settled{Outcome: SettledUndecided, Err: errNoServiceTime{clockErr}}
	case follow.MayStillExecute(rec.Intent.ExpiresAt, serviceNow):
		s := Settled{Outcome: SettledUndecided, Refusal: why, ServiceNow: serviceNow}
		if !rec.Intent.ExpiresAt.IsZero() {
			s.Until = rec.Intent.ExpiresAt.Add(follow.ExecutableMargin)
		}
		return s
	}
	if why == "" {
		why = NeverPaid
	}
	e := w.entryAs(journal.KindRejected, rec.QuoteID, as.AccountID)
	e.Error, e.QuoteExpired = why, why == NeverPaid
	return Settled{Outcome: SettledNeverHappened, Why: why, JournalErr: w.append(e)}
}

// resendRefusal words a refused re-send for the record, should the status
// then show the request never arrived: an expired quote is NeverPaid; a
// 409 or a 3xx or 4xx the interface gives no meaning is no refusal (""):
// it says the quote may have been paid, which the status tells; a nonce
// used already says the Transfer most likely paid on another quote.
func resendRefusal(err error, quoteID string) string {
	switch {
	case errors.Is(err, exchange.ErrQuoteExpired):
		return NeverPaid
	case exchange.UnnamedRefusal(err), exchange.QuoteUsed(err):
		return ""
	case NonceUsed(err):
		return nonceUsedWords(err, quoteID).Error()
	}
	return exchange.Explain(err).Error()
}

// NeverPaid is journaled for an unanswered request whose quote expired and
// which the service never executed (journal.NeverPaid).
const NeverPaid = journal.NeverPaid

// journalNeverPaid journals a follower's not found or CREATED record of
// an unanswered request never paid (follow.LabelExpired), as Settle
// does, only when the record is still unanswered under the journal's lock
// and the service's clock read after that answer (never a kept reading)
// is past its journaled quote expiry and the margin: the one rule of
// "never paid" (follow.MayStillExecute). Otherwise nothing is written.
func (w Withdrawer) journalNeverPaid(quoteID string, wd exchange.Withdrawal) error {
	if wd.ServiceTimeKept || wd.ServiceTime.IsZero() {
		return nil
	}
	e := w.entry(journal.KindRejected, quoteID)
	e.Error, e.QuoteExpired = NeverPaid, true
	owner := journal.OwnerOf(w.client.Env(), e.AccountID)
	err := w.journal.AppendGuarded(func() error {
		recs, err := w.journal.RecordsOf(owner, quoteID)
		if err != nil {
			return err
		}
		if !slices.ContainsFunc(recs, func(r journal.Record) bool {
			return r.Made && r.Unanswered() && !follow.MayStillExecute(r.Intent.ExpiresAt, wd.ServiceTime)
		}) {
			return errNotNeverPaid
		}
		return nil
	}, e)
	if errors.Is(err, errNotNeverPaid) {
		return nil
	}
	return err
}

// errNotNeverPaid: the journal's record does not let journalNeverPaid
// write (answered meanwhile, another's, or its quote may still execute).
var errNotNeverPaid = errors.New("not never paid")
