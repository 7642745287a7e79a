package withdrawal

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/svcwallet/svcwallet/service/journal"
)

// RecentRepeat is how long after an identical withdrawal was made a new
// one is worth a warning while the earlier one is accepted but not
// finished (Repeat.Recent).
const RecentRepeat = 10 * time.Minute

// FailedRepeat is how long after an identical withdrawal was made a new
// one is worth a warning once the earlier ended FAILED (Repeat.Failed):
// longer than RecentRepeat, as a FAILED one stays debited until support
// returns its funds, which takes longer than minutes, and a day holds the
// retries made after reading that it failed.
const FailedRepeat = 24 * time.Hour

// failedSince is where FailedRepeat's window at localNow starts: one that
// ended FAILED made at or after it is warned of (FindRepeat), and the
// journal picks those (RepeatRecords). Computed here alone, so both keep
// one made exactly FailedRepeat ago.
func failedSince(localNow time.Time) time.Time { return localNow.Add(-FailedRepeat) }

// Repeat is what the journal holds of earlier withdrawals identical to a
// new one: made by this account on this service (journal.Owner: whatever
// environment name or host reached it), to the same chain and
// destination, paying the same amount of the same token.
type Repeat struct {
	// Unanswered is one whose request got no answer (its intent is
	// journaled; no acceptance, refusal or state since, from a resume or a
	// status): it may have been paid, so a new one is refused
	// (*UnansweredError) until it is resumed. The newest, or nil.
	Unanswered *journal.Record
	// Recent is one the service accepted within RecentRepeat that is not
	// finished: the new one is only warned about (RecentWords). The
	// newest, or nil.
	Recent *journal.Record
	// Failed is one made within FailedRepeat (failedSince) that ended
	// FAILED: its funds stay debited until support returns them, and the
	// new one pays again; it is only warned about (FailedWords). The
	// newest, or nil.
	Failed *journal.Record
	// since is where the journal ended before it was read: what is
	// written after it was made since (checkAgain).
	since journal.Mark
	// tokenOut is what the new one pays out: an earlier one of another is
	// the same money leaving, but not an identical withdrawal.
	tokenOut string
}

// FindRepeat looks in recs (one owner's records, newest first, as
// AccountRecords reads them; its unfinished ones and those that ended
// FAILED since FailedRepeat are enough, as RepeatRecords reads them) for
// withdrawals identical to
// choice c (Repeat), at localNow on this machine's clock, the journal's.
func FindRepeat(recs []journal.Record, c Choice, localNow time.Time) Repeat {
	out := Repeat{tokenOut: c.TokenOut}
	for i := range recs {
		r := &recs[i]
		if !r.Made || !c.Same(r.Intent) {
			continue
		}
		switch {
		case r.Unanswered():
			if out.Unanswered == nil {
				out.Unanswered = r
			}
		case !r.Finished() && r.State != "" && localNow.Sub(r.Started) < RecentRepeat:
			if out.Recent == nil {
				out.Recent = r
			}
		case r.FailedSince(failedSince(localNow)):
			if out.Failed == nil {
				out.Failed = r
			}
		}
	}
	return out
}

// Same reports whether a journaled intent is the withdrawal c would make:
// the same chain, destination (an EVM address in any case) and amount of
// the same token paid. What is received (the token out, the fee) may
// differ: it is the same money leaving for the same place.
func (c Choice) Same(in journal.Intent) bool {
	return strings.EqualFold(in.Chain, c.Route.Chain) && in.PayAmount.Equal(c.Amount) &&
		strings.EqualFold(in.TokenIn, c.TokenIn) && sameDestination(in.ToAddress, c.ToAddress)
}

// sameDestination compares two addresses: 0x-hex ones whatever their
// checksum's case, any other (base58) exactly.
func sameDestination(a, b string) bool {
	if strings.HasPrefix(a, "0x") && strings.HasPrefix(b, "0x") && common.IsHexAddress(a) && common.IsHexAddress(b) {
		return strings.EqualFold(a, b)
	}
	return a == b
}

// UnansweredError refuses a new withdrawal: an identical one
// (Repeat.Unanswered) got no answer and may have been paid. Its text says
// what to do in general words; each front end words the next step its own
// way (Fact and its own resume), and what was done with Unsent.
type UnansweredError struct {
	Earlier journal.Record
	// Signed: the check that found it came once this one was signed (the
	// check made again before the send, checkAgain, or a prepared
	// Transfer's submit), so "nothing was signed" would be untrue.
	Signed bool
}

func (e *UnansweredError) Error() string {
	return e.Fact() + ": resume it first (it sends the identical request, which cannot pay twice); " + e.Unsent()
}

// Unsent says what became of the refused withdrawal, for after the next
// step: signed or not, nothing of it left.
func (e *UnansweredError) Unsent() string {
	if e.Signed {
		return signedUnsent
	}
	return "nothing was signed or sent"
}

// signedUnsent says a withdrawal stopped once signed and before its
// request left: its signature exists, unused.
const signedUnsent = "this one was signed and not sent, so its signature was never used"

// Fact says which earlier withdrawal got no answer and what that means:
// "An earlier withdrawal of 14 USDT to 0x… on BASE (q-…, sent 2026-05-04
// 10:02 UTC) got no answer and may have been paid".
func (e *UnansweredError) Fact() string {
	r := e.Earlier
	return fmt.Sprintf("An earlier withdrawal of %s %s to %s on %s (%s, sent %s) got no answer and may have been paid",
		r.Intent.PayAmount, r.Intent.TokenIn, r.Intent.ToAddress, r.Intent.Chain, r.QuoteID, r.Started.UTC().Format("2006-01-02 15:04 UTC"))
}

// RecentWords warns of the withdrawal of the same money accepted a moment
// ago and not finished (rep.Recent, which must be set), relative to
// localNow: the new one is another payment. It is called identical only
// when it paid out the same token; else the words say what each pays out.
func (rep Repeat) RecentWords(localNow time.Time) string {
	r := *rep.Recent
	made := madeBefore(r, localNow).Round(time.Second)
	what, payout := sameMoney(r.Intent, rep.tokenOut)
	return fmt.Sprintf("%s of %s %s to %s on %s (%s%s) was made %s ago and is %s, not finished: this one pays again",
		what, r.Intent.PayAmount, r.Intent.TokenIn, r.Intent.ToAddress, r.Intent.Chain, r.QuoteID, payout, made, r.State)
}

// RecentBrief is RecentWords for a review that shows the new one's amount,
// destination and chain above it, in two lines of 60 cells: the earlier
// one named by its quote id alone, and what each pays out where they differ.
func (rep Repeat) RecentBrief(localNow time.Time) string {
	r := *rep.Recent
	made := madeBefore(r, localNow).Round(time.Second)
	what, payout := "identical to "+r.QuoteID, ""
	if _, differ := sameMoney(r.Intent, rep.tokenOut); differ != "" {
		what, payout = "the same money as "+r.QuoteID, " ("+strings.TrimLeft(differ, ",; ")+")"
	}
	return fmt.Sprintf("%s%s, made %s ago, still %s: this one pays again", what, payout, made, r.State)
}

// FailedWords warns of the withdrawal of the same money that ended FAILED
// (rep.Failed, which must be set), made before localNow: its funds stay
// debited until support returns them, and the new one pays again.
func (rep Repeat) FailedWords(localNow time.Time) string {
	r := *rep.Failed
	what, payout := sameMoney(r.Intent, rep.tokenOut)
	return fmt.Sprintf("%s of %s %s to %s on %s (%s%s), made %s (%s), ended FAILED: its funds stay debited until support returns them, and this one pays again",
		what, r.Intent.PayAmount, r.Intent.TokenIn, r.Intent.ToAddress, r.Intent.Chain, r.QuoteID, payout, ago(madeBefore(r, localNow)), r.Started.UTC().Format("2006-01-02 15:04 UTC"))
}

// FailedBrief is FailedWords for a review that shows the new one's amount,
// destination and chain above it, in two lines of 60 cells with a quote
// id of 28 characters (RecentBrief): "debited" says its funds stay so.
func (rep Repeat) FailedBrief(localNow time.Time) string {
	r := *rep.Failed
	what := "identical " + r.QuoteID
	if _, differ := sameMoney(r.Intent, rep.tokenOut); differ != "" {
		what = "same money as " + r.QuoteID
	}
	return fmt.Sprintf("%s FAILED %s, debited until support returns it: this one pays again", what, ago(madeBefore(r, localNow)))
}

// madeBefore is how long before localNow r was made on this machine's
// clock, never less than nothing (a clock set back).
func madeBefore(r journal.Record, localNow time.Time) time.Duration {
	return max(localNow.Sub(r.Started), 0)
}

// ago says d, how long ago a withdrawal was made (madeBefore), in one
// unit: "40s ago", "3m ago", "23h ago".
func ago(d time.Duration) string {
	switch {
	case d < time.Minute:
		return fmt.Sprintf("%ds ago", int(d.Round(time.Second)/time.Second))
	case d < time.Hour:
		return fmt.Sprintf("%dm ago", int(d.Round(time.Minute)/time.Minute))
	default:
		return fmt.Sprintf("%dh ago", int(d.Round(time.Hour)/time.Hour))
	}
}

// sameMoney words an earlier withdrawal of the same money (Choice.Same)
// against a new one paying out tokenOut: identical only when it paid out
// the same token, else what each pays out, to go after its quote id.
func sameMoney(earlier journal.Intent, tokenOut string) (what, payout string) {
	switch {
	case earlier.TokenOut == "": // journaled without it: not known to be identical
		return "A withdrawal", "; this one pays out as " + tokenOut
	case !strings.EqualFold(earlier.TokenOut, tokenOut):
		return "A withdrawal", ", paid out as " + earlier.TokenOut + "; this one as " + tokenOut
	}
	return "An identical withdrawal", ""
}

// RepeatRecords reads from j what FindRepeat looks through at localNow:
// o's unfinished withdrawals and those that ended FAILED within
// FailedRepeat (journal.RepeatRecords), with the count of lines skipped.
func RepeatRecords(j *journal.Journal, o journal.Owner, localNow time.Time) ([]journal.Record, int, error) {
	return j.RepeatRecords(o, failedSince(localNow))
}

// Repeats reads the journal's withdrawals of the session's account on
// this service (journal.Owner: through whatever environment name or host
// they were made) that RepeatRecords reads, and finds those identical to
// c (FindRepeat). No journal finds none. A journal that lost lines
// svcwallet wrote to it cannot tell: *journal.RolledBackError, as it is.
// Any other error is written for the user.
func (w Withdrawer) Repeats(c Choice) (Repeat, error) { return w.repeats(c, false) }

// repeats is Repeats; whole sums every byte svcwallet wrote to the journal
// (rolledBack), for the check made once the person has answered, which
// guards the signature.
func (w Withdrawer) repeats(c Choice, whole bool) (Repeat, error) {
	if w.journal == nil {
		return Repeat{}, nil
	}
	if err := w.rolledBack(whole, whole); err != nil {
		return Repeat{}, err
	}
	since, err := w.journal.Mark()
	if err != nil {
		return Repeat{}, w.journalProblem("could not be read to tell whether an identical withdrawal got no answer", err)
	}
	now := w.now()
	recs, _, err := RepeatRecords(w.journal, w.owner(), now)
	if err != nil {
		return Repeat{}, w.journalProblem("could not be read to tell whether an identical withdrawal got no answer", err)
	}
	rep := FindRepeat(recs, c, now)
	rep.since = since
	return rep, nil
}

// checkRepeat refuses o before anything is signed when an identical
// withdrawal got no answer (*UnansweredError), unless w.allowRepeat. It
// returns what it found, for checkAgain.
func (w Withdrawer) checkRepeat(o Order) (Repeat, error) {
	rep, err := w.repeats(o.Choice, true)
	if err != nil {
		return rep, err
	}
	if w.journal != nil {
		if err := w.quoteIDFree(o); err != nil {
			return rep, err
		}
	}
	if rep.Unanswered != nil && !w.allowRepeat {
		return rep, &UnansweredError{Earlier: *rep.Unanswered}
	}
	return rep, nil
}

// checkAgain is the repeat check that decides, made under the journal's
// lock right before o's intent is journaled: o is refused when an
// identical withdrawal was made since checkRepeat read the journal
// (before, made before the signature) and not refused (*OvertakenError:
// another run of it sent while this one awaited its signature, whether or
// not it has finished since), or when one got no answer (unless
// w.allowRepeat). AllowRepeat does not lift the first: it repeats a
// withdrawal that got no answer, not one sent meanwhile.
func (w Withdrawer) checkAgain(o Order, before Repeat) error {
	if w.journal == nil {
		return nil
	}
	if err := w.rolledBack(false, true); err != nil {
		return err
	}
	made, err := w.journal.RecordsSince(w.owner(), before.since)
	if err != nil {
		return w.journalProblem("could not be read to tell whether an identical withdrawal was made meanwhile", err)
	}
	if err := w.quoteIDFree(o); err != nil {
		return err
	}
	for _, r := range made { // newest first
		refused := r.Answered && r.State == ""
		if r.Made && !refused && o.Choice.Same(r.Intent) {
			return &OvertakenError{Other: r, TokenOut: o.Choice.TokenOut}
		}
	}
	recs, _, err := w.journal.UnfinishedRecords(w.owner())
	if err != nil {
		return w.journalProblem("could not be read to tell whether an identical withdrawal got no answer", err)
	}
	if rep := FindRepeat(recs, o.Choice, w.now()); rep.Unanswered != nil && !w.allowRepeat {
		return &UnansweredError{Earlier: *rep.Unanswered, Signed: true}
	}
	return nil
}

// rolledBack refuses a journal that lost lines svcwallet wrote to it
// (*journal.RolledBackError, as it is): a withdrawal it no longer shows
// unanswered may have been paid. whole sums every byte written, for the
// check made before a signature once the person has answered: a journal
// rewritten in place, as long and ending as it did, passes the check of
// its length and last 4 KiB. The check under the journal's lock needs no
// more: what it finds unanswered was there to be found by that one.
// guards: the check guards a signature or a send, and so never gives up
// waiting for the journal's write lock (CheckWrittenBeforeSend).
func (w Withdrawer) rolledBack(whole, guards bool) error {
	check := w.journal.CheckWritten
	if guards {
		check = w.journal.CheckWrittenBeforeSend
	}
	err := check(whole)
	var lost *journal.RolledBackError
	if err != nil && !errors.As(err, &lost) {
		return w.journalProblem("could not be checked against what svcwallet wrote to it", err)
	}
	return err
}

// OvertakenError refuses a signed withdrawal before it is sent: an
// identical one was made while it was under way (its signature awaited),
// by another run of the same withdrawal (a second process, a console and
// a script). Two runs at once are taken for one withdrawal meant once.
type OvertakenError struct {
	Other journal.Record
	// TokenOut is what this one pays out: the other is identical only
	// when it pays out the same.
	TokenOut string
}

func (e *OvertakenError) Error() string {
	r := e.Other
	what, payout := sameMoney(r.Intent, e.TokenOut)
	return fmt.Sprintf("%s of %s %s to %s on %s (%s, sent %s%s) was made by another run while this one was under way: this one was not sent, and its signature was never used; make it again only if both are meant",
		what, r.Intent.PayAmount, r.Intent.TokenIn, r.Intent.ToAddress, r.Intent.Chain, r.QuoteID, r.Started.UTC().Format("2006-01-02 15:04:05 UTC"), payout)
}

// AsUnanswered returns the *UnansweredError in err's chain, or nil.
func AsUnanswered(err error) *UnansweredError {
	var ue *UnansweredError
	if errors.As(err, &ue) {
		return ue
	}
	return nil
}
