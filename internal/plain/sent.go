package plain

import (
	"errors"
	"fmt"

	"github.com/svcwallet/svcwallet/internal/safetext"
	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/follow"
	"github.com/svcwallet/svcwallet/service/journal"
	"github.com/svcwallet/svcwallet/service/withdrawal"
)

// What Execute sent, and taking up a journaled withdrawal (History, a
// lost answer): the words of the console's review and resume, and of
// `svcwallet withdraw`.

// executed says what Withdrawer.Execute sent and follows an accepted
// withdrawal to its end; a lost answer is settled at once. again: the user
// asked for a new quote.
func (s *session) executed(o withdrawal.Order, sent withdrawal.Sent) (bool, error) {
	if sent.Order.Quote.QuoteID != "" {
		o = sent.Order // a fresh quote carried the signature: follow it
	}
	id := o.Quote.QuoteID
	if sent.Err != nil && sent.Lost == nil && sent.Signed && !errors.Is(sent.Err, withdrawal.ErrStoppedOnceSigned) && !withdrawal.NonceUsed(sent.Err) {
		// Signed, and refused or stopped by a check: never "nothing was signed".
		s.unpaid = append(s.unpaid, "withdrawal "+id)
	}
	var changed *withdrawal.BridgeChangedError
	switch {
	case sent.Err == nil:
		s.sent = append(s.sent, "withdrawal "+id)
		a := sent.Accepted
		if sent.Requoted {
			s.p.Say("The quote expired while the signature was awaited; the fresh quote %s pays exactly %s %s and carries the same signature, which was never sent.",
				id, o.Quote.PayAmount, o.Choice.TokenIn)
		}
		said, facts := o.Accepted(a)
		s.p.Say("%s.", said)
		s.facts(facts)
		s.sayUnrecorded(sent.Unrecorded)
		return false, s.followUntilEnd(id)
	case sent.Answered():
		// Answered, so never "no answer"; settled all the same.
		s.sent = append(s.sent, "withdrawal "+id+" (answered, may have been paid)")
		s.p.Say("%v. It is journaled and is checked now.", trimStop(sent.Err))
		return false, s.settle(*sent.Lost)
	case sent.Lost != nil:
		s.sent = append(s.sent, "withdrawal "+id+" (no answer)")
		s.p.Say("No clear answer from the service: the withdrawal is journaled and is checked now; it cannot be paid twice.")
		return false, s.settle(*sent.Lost)
	case errors.Is(sent.Err, withdrawal.ErrStoppedOnceSigned):
		// Signed, then stopped: the last words say it was signed.
		s.unsent = append(s.unsent, "withdrawal "+id)
		s.p.Say("%s.", trimStop(exchange.Explain(sent.Err)))
		return false, ErrInterrupted
	case s.ctx.Err() != nil:
		return false, ErrInterrupted
	case withdrawal.NonceUsed(sent.Err):
		// Most likely paid: neither "not paid" nor a new quote, which pays
		// again; before a refusal the journal could not record, which it is.
		s.sent = append(s.sent, "withdrawal "+id+" (most likely paid already)")
		s.p.Say("%s.", trimStop(labelled("Not withdrawn", sent.Err)))
		s.sayUnrecorded(sent.Unrecorded)
		return false, nil
	case sent.Unrecorded != nil:
		s.p.Say("Not withdrawn: %v.", trimStop(exchange.Explain(sent.Err)))
		s.sayUnrecorded(sent.Unrecorded)
		return false, nil
	case withdrawal.AsUnanswered(sent.Err) != nil:
		ue := withdrawal.AsUnanswered(sent.Err)
		s.p.Say("Stopped: %s: resume it from History first. %s.", ue.Fact(), safetext.Capitalized(ue.Unsent()))
		return false, nil
	case errors.As(sent.Err, new(*journal.RolledBackError)):
		// Found once answered (every byte summed): a new quote is refused alike.
		return false, s.journalStop(sent.Err, sent.Signed)
	case errors.Is(sent.Err, exchange.ErrQuoteExpired):
		s.p.Say("Not withdrawn: quote %s expired before it was executed, so nothing was paid.", id)
		return s.whatNext(nil)
	case errors.As(sent.Err, &changed):
		s.p.Say("Not withdrawn: %v.", trimStop(sent.Err))
		return false, nil
	case errors.Is(sent.Err, exchange.CodeAddressFlagged):
		// Screening looks at the destination, not the signature: another
		// quote is refused the same way.
		s.p.Say("Not withdrawn: %v.", trimStop(exchange.Explain(sent.Err)))
		return false, nil
	}
	s.p.Say("%s.", trimStop(labelled("Not withdrawn", exchange.Explain(sent.Err))))
	return s.whatNext(nil)
}

// labelled is err under label, or under its own head for a signature not
// given (exchange.Labelled): "Not signed: …", never "Not withdrawn: Not
// signed: …".
func labelled(label string, err error) error {
	head, err := exchange.Labelled(label, err)
	return fmt.Errorf("%s: %w", head, err)
}

// history lists this account's withdrawals in the journal, newest first,
// and takes one up: its status followed, or an unanswered one settled.
func (s *session) history() error {
	recs, skipped, err := s.target.Journal.AccountRecords(s.target.Owner())
	if err != nil {
		return exchange.UserError{Text: "The withdrawal journal cannot be read (" + err.Error() + "): run " + s.command("doctor"), Cause: err}
	}
	if skipped > 0 {
		s.p.Say("%d lines of the journal could not be read and are left out: run %s.", skipped, s.command("doctor"))
	}
	if len(recs) == 0 {
		s.p.Say("No withdrawal of this account in this machine's journal.")
		return nil
	}
	const shown = 20
	if len(recs) > shown {
		// The older ones are not offered: the command line lists them all,
		// but not the embedded sandbox's, whose journal ends with this run.
		where := ""
		if !s.target.Env.Embedded() {
			where = " (every one, with the command that takes up an unfinished one: " + s.command("history") + ")"
		}
		s.p.Say("The newest %d of %d withdrawals%s:", shown, len(recs), where)
		recs = recs[:shown]
	}
	options := make([]Option, len(recs)+1)
	for i, r := range recs {
		o := follow.RecordOutcome(r)
		options[i] = Option{Name: r.QuoteID, About: o.Name + ", " + r.Intent.PayAmount.String() + " " + r.Intent.TokenIn + " to " +
			r.Intent.ToAddress + " on " + r.Intent.Chain + ", sent " + r.Started.Local().Format("2006-01-02 15:04 MST")}
	}
	options[len(recs)] = Option{Name: "Back home"}
	i, err := s.p.Choose("Take one up, or go back:", options)
	if err != nil || i == len(recs) {
		return err
	}
	return s.takeUp(recs[i])
}

// takeUp does with a journaled withdrawal what the journal says
// (withdrawal.PlanResume).
func (s *session) takeUp(rec journal.Record) error {
	switch withdrawal.PlanResume(rec) {
	case withdrawal.ResumeNeverHappened:
		o := follow.RecordOutcome(rec)
		s.p.Say("%s %s: %s", rec.QuoteID, o.Name, o.Sentence())
		return nil
	case withdrawal.ResumeFollow:
		return s.lookUpID(rec.QuoteID)
	}
	return s.settle(rec)
}

// sayUnrecorded says what of the service's answer could not be written
// down (withdrawal.UnrecordedError), and how History reconciles it.
func (s *session) sayUnrecorded(u *withdrawal.UnrecordedError) {
	if u == nil {
		return
	}
	if u.Journal != nil {
		s.p.Say("But the journal could not record the answer (%v): History shows withdrawal %s unanswered, and an identical withdrawal is refused, until you resume it there (it sends the identical request, which cannot pay twice). Free disk space first.", u.Journal, u.QuoteID)
	}
	if u.Bridge != nil {
		s.p.Say("%s.", safetext.Capitalized(u.BridgeUnrecorded()))
	}
}

// settle takes up a request that got no answer (Withdrawer.Settle): the
// identical request re-sent while its quote holds, else the service asked
// whether it arrived; "never paid" only when its clock makes it certain.
func (s *session) settle(rec journal.Record) error {
	id := rec.QuoteID
	s.p.Say("Settling %s with the service: the identical request is sent again while its quote holds (it cannot pay twice), else the service is asked whether it arrived…", id)
	w, err := s.withdrawer(false)
	if err != nil {
		return err
	}
	cx, cancel := s.waitFor()
	settled := w.Settle(cx, rec)
	cancel()
	switch settled.Outcome {
	case withdrawal.SettledOtherAccount, withdrawal.SettledLoggedOut:
		s.p.Say("Not taken up: %v from History.", settled.Err)
		return nil
	case withdrawal.SettledElsewhere:
		s.p.Say("Not taken up: %v. Log in to the environment that reaches that service and take it up there.", settled.Err)
		return nil
	case withdrawal.SettledLost:
		if s.ctx.Err() != nil {
			return ErrInterrupted
		}
		s.p.Say("Still no answer to %s (%v): it may or may not have arrived. Take it up again from History later: it cannot pay twice.", id, trimStop(exchange.Explain(settled.Err)))
		return nil
	case withdrawal.SettledUndecided:
		s.p.Say("Withdrawal %s: %s. An identical withdrawal is refused until then; take it up again from History.", id, settled.Fact())
		return nil
	case withdrawal.SettledNeverHappened:
		if settled.JournalErr != nil {
			s.p.Say("The journal could not record it (%v).", settled.JournalErr)
		}
		o := follow.NeverHappened(settled.Why)
		s.p.Say("%s %s: %s", id, o.Name, o.Sentence())
		return nil
	case withdrawal.SettledAccepted:
		s.p.Say("The identical request was accepted (%s): it is on its way.", settled.Accepted.State)
		// Held to the receive amount the journal's quote locked, as withdraw
		// resume and the console's resume hold it.
		if _, unlike := withdrawal.Resumed(rec).Locked(settled.Accepted); unlike != nil {
			s.p.Say("%s.", safetext.Capitalized(unlike.Error()))
		}
		if settled.JournalErr != nil {
			s.sayUnrecorded(&withdrawal.UnrecordedError{QuoteID: id, Journal: settled.JournalErr})
		}
	case withdrawal.SettledArrived:
		s.p.Say("The first request did arrive: the service has it.")
	}
	return s.followUntilEnd(id)
}
