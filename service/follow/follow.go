// Package follow is following withdrawals: the state machine that decides
// what a status answer means (Follow), the scheduler that shares one request
// budget among many followed ids, poll delays and backoff, and the watch
// list of the board. It is pure but for the watch-list file: no clock of its
// own and no requests; the caller asks and hands the answers in.
package follow

import (
	"cmp"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/journal"
)

// Follow is what is known of one followed withdrawal, and the one place
// that decides what a status answer means: through a Scheduler and the
// one follow loop, the status screen, the watch board, History's refresh,
// `svcwallet status`, `history --refresh` and `withdraw --wait`.
// It is pure: no I/O and no clock of its own.
type Follow struct {
	QuoteID  string
	Last     exchange.Withdrawal // zero until the first answer
	Known    bool                // Last holds an answer
	Err      error               // the last failed ask, nil after a good one
	NotFound bool                // the service does not know the id: final
	// Vanished: the service does not know a withdrawal that may be under
	// way (MayBeUnderway): one this account's journal saw accepted
	// (AcceptedAt), which contradicts the journal, or one it sent with no
	// answer (Unanswered) whose quote may still execute. Never read as
	// unknown, never final; it is asked again.
	Vanished bool
	// Unanswered: this account's journal holds the withdraw request as
	// sent, with no answer (journal.Record.Unanswered).
	Unanswered bool
	// NeverPaid: the journal holds the request settled never paid
	// (journal.NeverPaid, by the service's clock, withdraw resume's).
	NeverPaid bool
	Failures  int  // consecutive failed asks, for the backoff
	Final     bool // terminal, expired unexecuted or unknown: never asked again
	// QuoteExpiry is the quote's expires_at when this account's journal
	// has it; without it an unexecuted quote is taken to expire
	// LongestQuoteLife after its updated_at (both on the service's clock).
	QuoteExpiry time.Time
	// Own: the withdrawal is this account's (Own.Seed), so its states are
	// journaled; Journaled is the last state the journal holds.
	Own       bool
	Journaled string
	// AcceptedAt is when this account's journal recorded the service's 202
	// for the withdrawal; zero when it holds none. A CREATED record then
	// contradicts the journal: it is never read as "nothing was debited".
	AcceptedAt time.Time
	// Refusal is the journal's REFUSED or NOT SENT of this account's
	// request, zero when it holds neither: a CREATED record is then that
	// outcome, final (RefusedHere), not a quote that may yet execute.
	Refusal Outcome
	// Signed is the journal's intent of an own withdrawal (Seed): a record
	// naming another chain, payout token or receive amount than its quote
	// locked is taken for its state, with what was signed (asSigned); zero
	// for another's.
	Signed journal.Intent
	// Unlike says what the last record claimed against the signed quote,
	// for the outcome's words, and Claim names it, to be kept; "" and nil
	// when it agreed.
	Unlike string
	Claim  *Claim
	// AskedOnce: it is asked once, not followed (Loop.Once): its words
	// promise no further ask of a withdrawal not final.
	AskedOnce bool
}

// Step is what one answer changed and what comes next.
type Step struct {
	// Changed: a new state, or the follow ended; worth announcing.
	Changed bool
	// Delay is the wait before the next ask (none once Final). After a 429
	// it is the pause the service asked for (RateLimited).
	Delay       time.Duration
	RateLimited bool
	// JournalState is the state to journal for an own withdrawal, or "";
	// LabelExpired for an unanswered request found never executed
	// (neverPaid).
	JournalState string
}

// Answer takes one ask's outcome (w when err is nil). interval is
// the wait between asks of a moving withdrawal; after errors the wait
// backs off (PollDelay, jitter drawing in [0, n)).
func (f *Follow) Answer(w exchange.Withdrawal, err error, interval time.Duration, jitter func(n int64) int64) Step {
	if f.Final {
		return Step{}
	}
	if f.WantsServiceTime(w, err) {
		// A kept reading never calls a quote dead: read as no time.
		w.ServiceTime = time.Time{}
	}
	if err == nil {
		w = f.asJournaled(f.asSigned(w, f.Signed))
	}
	switch {
	case errors.Is(err, exchange.ErrRateLimited):
		// A 429 counts as a failure, so repeated ones without a
		// Retry-After back off; one is honoured up to its cap (RetryWait).
		f.Err = err
		f.Failures++
		return Step{Delay: exchange.RetryWait(err, PollDelay(interval, f.Failures, jitter)), RateLimited: true}
	case errors.Is(err, exchange.ErrNotFound) && f.MayBeUnderway(w.ServiceTime):
		// A lagging replica, a hostile answer, or a request still on its
		// way: the funds may have left or may yet; asked again, as one moving.
		step := Step{Changed: !f.Vanished, Delay: interval}
		f.Err, f.Failures, f.Vanished = nil, 0, true
		return step
	case errors.Is(err, exchange.ErrNotFound):
		f.Err, f.NotFound, f.Final, f.Vanished = nil, true, true, false
		return Step{Changed: true, JournalState: f.neverPaid()}
	case err != nil:
		f.Err = err
		f.Failures++
		return Step{Delay: PollDelay(interval, f.Failures, jitter)}
	}
	step := Step{Changed: !f.Known || f.Last.State != w.State || f.Vanished}
	f.Last, f.Known, f.Err, f.Failures, f.NotFound, f.Vanished = w, true, nil, 0, false, false
	// CREATED is not journaled: to the journal a state means the request
	// was answered.
	if f.Own && w.State != f.Journaled && w.State != exchange.StateCreated {
		f.Journaled, step.JournalState = w.State, w.State
	}
	if f.Ended() {
		f.Final, step.Changed = true, true
		if f.ExpiredUnexecuted() {
			step.JournalState = f.neverPaid()
		}
		return step
	}
	step.Delay = interval
	return step
}

// neverPaid is LabelExpired, for Step.JournalState, of an own request
// sent with no answer that an answer read past its quote's margin, by the
// service's clock read after it, found never executed: the follower
// journals it never paid as `withdraw resume` does (Withdrawer.JournalState
// decides it again, under the journal's lock); "" otherwise.
func (f *Follow) neverPaid() string {
	if f.Own && f.Unanswered && !f.NeverPaid {
		return LabelExpired
	}
	return ""
}

// asSigned is w with the chain, payout token and receive amount of the
// quote signed (s, the journal's intent), when w claims others: no face
// shows the service's claim as what this withdrawal pays out, and its
// state is still taken, so the follow ends (a refused record would be
// asked again forever). What either leaves out says nothing.
func (f *Follow) asSigned(w exchange.Withdrawal, s journal.Intent) exchange.Withdrawal {
	f.Unlike, f.Claim = "", nil
	c := claimOf(w, s)
	if s.Chain == "" || c == nil {
		return w
	}
	signed := cmp.Or(s.TokenOut, "payout")
	if !s.ReceiveAmount.IsZero() {
		signed = s.ReceiveAmount.String() + " " + signed
	}
	signed += " on " + s.Chain
	f.Unlike = fmt.Sprintf("The service's record names %s, not the %s of the quote this account signed (its journal): what was signed is shown; tell support with the quote id.",
		strings.Join(c.parts(s.Chain, cmp.Or(w.TokenOut, s.TokenOut)), " and "), signed)
	f.Claim = c
	// A payout hash beside another chain, or of another chain's shape, is
	// not the signed chain's transaction: shown or opened as its, it would
	// say that chain paid out.
	if c.Chain != "" || c.WithdrawTxHash != "" {
		w.WithdrawTxHash = ""
	}
	// A field the journal left out is not made zero: it was not signed
	// against, so the record's stays.
	w.Chain, w.TokenOut = s.Chain, cmp.Or(s.TokenOut, w.TokenOut)
	if !s.ReceiveAmount.IsZero() {
		w.ReceiveAmount = s.ReceiveAmount
	}
	return w
}

// asJournaled is w when it leaves the final state this account's journal
// saw (SPEC.md §2.10: COMPLETED, then REFUNDED or SENDING), with words for
// support; one the journal saw paid is shown paid, as it was journaled:
// shown not paid, it would be sent again and pay twice.
func (f *Follow) asJournaled(w exchange.Withdrawal) exchange.Withdrawal {
	if !exchange.Terminal(f.Journaled) || w.State == f.Journaled {
		return w
	}
	said := "The service's record now says " + w.State + ", but this account's journal saw it " + f.Journaled + ", a final state"
	if f.Journaled == exchange.StateCompleted {
		w.State = exchange.StateCompleted
		said += ": it is shown as the journal saw it"
	}
	if said += "; tell support with the quote id."; !strings.Contains(f.Unlike, said) { // said once, held again by Know
		f.Unlike = strings.TrimSpace(f.Unlike + " " + said)
	}
	return w
}

// keptAsJournaled holds a record read back (the board's file), not
// answered this run, to the final state the journal saw, as an answer is
// (asJournaled): a kept REFUNDED is final and never asked again.
func (f *Follow) keptAsJournaled() {
	if f.Known {
		f.Last = f.asJournaled(f.Last)
	}
}

// otherShape: hash is not of the signed chain's payout hashes' shape.
func otherShape(hash, chain string) bool {
	return hash != "" && chain != "" && exchange.ValidTxHash(exchange.ChainTypeOfChain(chain), hash) != nil
}

// differs: a name the record gives is not the one signed; either left out
// says nothing.
func differs(got, signed string) bool {
	return got != "" && signed != "" && !strings.EqualFold(got, signed)
}

// MayBeUnderway reports that the service's not knowing f's withdrawal,
// when its clock read serviceNow (zero: not known), is not final: the
// journal saw it accepted, or sent it with no answer while its quote may
// still execute (MayStillExecute, the rule behind every "never paid").
// It is the one decision that a not found may yet change.
func (f *Follow) MayBeUnderway(serviceNow time.Time) bool {
	return !f.AcceptedAt.IsZero() || f.Unanswered && MayStillExecute(f.QuoteExpiry, serviceNow)
}

// WantsServiceTime reports that the service's clock w carries, a reading
// kept from before its answer (exchange.Withdrawal.ServiceTimeKept), would
// decide that f's quote can no longer execute: that decision is taken only
// on /time read after the answer (exchange.Client.ServiceTimeAfter, which
// the follow loop asks then, Loop.AskOf). Anywhere else a kept reading
// only puts a decision off, which is as safe, and asks nothing.
func (f *Follow) WantsServiceTime(w exchange.Withdrawal, err error) bool {
	if !w.ServiceTimeKept || w.ServiceTime.IsZero() || !f.AcceptedAt.IsZero() {
		return false
	}
	switch {
	case errors.Is(err, exchange.ErrNotFound):
		return f.Unanswered && !MayStillExecute(f.QuoteExpiry, w.ServiceTime)
	case err == nil && w.State == exchange.StateCreated:
		g := Follow{QuoteExpiry: f.QuoteExpiry, Last: w}
		return !MayStillExecute(g.quoteExpiry(), w.ServiceTime)
	}
	return false
}

// NotFoundYet reports a not found of a withdrawal this account sent with
// no answer while its quote may still execute (LabelNotFoundYet): not the
// journal contradicted, as a vanished accepted one is.
func (f *Follow) NotFoundYet() bool { return f.Vanished && f.AcceptedAt.IsZero() }

// NeverExecuted reports a withdrawal this account sent with no answer
// that the service did not know after its quote could no longer execute,
// by its own clock, or one the journal holds settled so (`withdraw
// resume`'s), refused or never sent: never paid, whatever the 404 says.
func (f *Follow) NeverExecuted() bool {
	return f.NotFound && (f.Unanswered || f.NeverPaid || f.Refusal.Name != "")
}

// Ended reports whether the last answer ends the follow: a terminal state,
// or a quote that can no longer be executed.
func (f *Follow) Ended() bool {
	return f.Known && (exchange.Terminal(f.Last.State) || f.ExpiredUnexecuted() || f.RefusedHere())
}

// RefusedHere reports a CREATED record of a withdrawal whose request this
// account's journal saw the service refuse, or never leave: never
// executed, and nothing will come of it. The refusal is the journal's,
// the CREATED the service's.
func (f *Follow) RefusedHere() bool {
	return f.Known && f.Refusal.Name != "" && f.AcceptedAt.IsZero() && f.Last.State == exchange.StateCreated
}

// ExpiredUnexecuted reports a CREATED record read when the service's clock
// (its ServiceTime) was past the quote's expiry and ExecutableMargin
// (MayStillExecute): nothing moved, and nothing will. Until then, and
// without the service's time, the quote may still execute; one the
// journal saw accepted never expired unexecuted.
func (f *Follow) ExpiredUnexecuted() bool {
	if !f.Known || f.Last.State != exchange.StateCreated || !f.AcceptedAt.IsZero() {
		return false
	}
	return !MayStillExecute(f.quoteExpiry(), f.Last.ServiceTime)
}

// quoteExpiry is the quote's expires_at on the service's clock: the
// journal's, else LongestQuoteLife after the record's updated_at;
// zero when neither is known.
func (f *Follow) quoteExpiry() time.Time {
	if !f.QuoteExpiry.IsZero() || f.Last.UpdatedAt.IsZero() {
		return f.QuoteExpiry
	}
	return f.Last.UpdatedAt.Add(LongestQuoteLife)
}

// Payout is what a followed withdrawal's last answer means for the
// money: the exit status of `svcwallet status` and `svcwallet withdraw
// --wait` is set from it.
type Payout int

const (
	PayoutPending Payout = iota // nothing known yet, or not final
	PayoutPaid                  // COMPLETED
	PayoutNotPaid               // FAILED, REFUNDED, a quote that expired unexecuted (NeverExecuted too) or one refused here
)

// Payout says what the last answer means for the money.
func (f *Follow) Payout() Payout {
	switch {
	case f.NeverExecuted():
		return PayoutNotPaid
	case !f.Known || f.Vanished:
		return PayoutPending
	case f.Last.State == exchange.StateCompleted:
		return PayoutPaid
	case f.Last.State == exchange.StateFailed, f.Last.State == exchange.StateRefunded, f.ExpiredUnexecuted(), f.RefusedHere():
		return PayoutNotPaid
	}
	return PayoutPending
}

// Refresh opens the follow again when the user asks, unless it ended in a
// terminal state: an id the service did not know may be known now.
func (f *Follow) Refresh() {
	if f.NotFound || f.Final && !exchange.Terminal(f.Last.State) {
		f.NotFound, f.Final = false, false
	}
}

// Own is this account's own withdrawals in one environment, by quote id:
// those whose intent or acceptance its journal holds (journal.Record.Made).
// Every follower (the status screen, the board, `svcwallet status`,
// History's refresh) seeds its Follow from it, so an own withdrawal's
// states are journaled from the last one the journal holds on, and an id
// pasted for another account never is.
type Own map[string]journal.Record

// OwnOf keeps the withdrawals this account made from recs, which are one
// account's records in one environment (Journal.AccountRecords).
func OwnOf(recs []journal.Record) Own {
	own := Own{}
	for _, r := range recs {
		if r.Made {
			own[r.QuoteID] = r
		}
	}
	return own
}

// Seed tells f what the journal holds of its withdrawal, when it is own:
// that its states are to be journaled, the last one journaled, when the
// service accepted it or that it refused it, and when its quote expires.
func (o Own) Seed(f *Follow) {
	r, ok := o[f.QuoteID]
	if !ok {
		return
	}
	f.Own, f.Journaled, f.AcceptedAt, f.Unanswered = true, r.State, r.AcceptedAt, r.Unanswered()
	out := RecordOutcome(r)
	f.NeverPaid = out.Name == LabelExpired
	if out.Name == LabelRefused || out.Name == LabelNotSent {
		f.Refusal = out
	}
	if !r.Intent.ExpiresAt.IsZero() {
		f.QuoteExpiry = r.Intent.ExpiresAt
	}
	f.Signed = r.Intent
}

// Recall puts the journal's last record of f's withdrawal, when it is own,
// in place of an answer not had yet, so the console's views of it (the
// board, the status screen) start from what this machine knows instead of
// from blank, also while the service cannot be asked; a state the journal
// holds that ends it replaces a kept one that does not. It is asked all
// the same.
func (o Own) Recall(f *Follow) {
	r, ok := o[f.QuoteID]
	if !ok || r.State == "" || f.Known && (exchange.Terminal(f.Last.State) || !exchange.Terminal(r.State)) {
		return
	}
	w := f.Last
	if !f.Known {
		w = exchange.Withdrawal{QuoteID: r.QuoteID, Chain: r.Intent.Chain, TokenOut: r.Intent.TokenOut, ReceiveAmount: r.Intent.ReceiveAmount}
	}
	w.State = r.State
	if r.TxHash != "" {
		w.WithdrawTxHash = r.TxHash
	}
	f.Last, f.Known = w, true
}
