package status

import (
	"cmp"
	"context"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/svcwallet/svcwallet/internal/safetext"
	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/follow"
	"github.com/svcwallet/svcwallet/service/journal"
	"github.com/svcwallet/svcwallet/service/withdrawal"
	"github.com/svcwallet/svcwallet/tui"
)

// Resuming a withdrawal the journal holds unanswered: re-sending it, or
// saying it never happened.

// settle settles the journaled request rec, which got no answer
// (withdrawal.Withdrawer.Settle), in one Cmd that also journals what it
// learns, so a crash cannot separate the two. Not cancelled when the screen
// is left: an answer must be journaled.
func (s *statusScreen) settle(rec journal.Record) tea.Cmd {
	s.phase, s.sending, s.err, s.unanswered = phaseSettle, true, nil, &rec
	s.tag = tui.NextTag() // a pending settleAgainMsg is dropped
	withdrawer, tag, read := s.app.Withdrawer(), s.tag, s.journalReader()
	return func() tea.Msg {
		m := settleMsg{tag: tag}
		if read != nil {
			m.journal, m.seeded = read()
		}
		cx, cancel := context.WithTimeout(context.Background(), exchange.WithdrawTimeout)
		defer cancel()
		m.Settled = withdrawer.Settle(cx, rec)
		return m
	}
}

// settled takes what settling the unanswered request came to: followed
// when it arrived or was accepted now, ended when it certainly never
// happened, else said, to be settled again (r, or by itself once the
// service's clock can tell).
func (s *statusScreen) settled(m settleMsg) tea.Cmd {
	s.sending = false
	s.seed(m.journal, m.seeded)
	if m.Outcome == withdrawal.SettledLost || m.Outcome == withdrawal.SettledUndecided {
		// The journal still holds it unanswered: History offers it again.
		if ended := s.app.SessionEnded(exchange.Worded(m.Err, "Session ended before this withdrawal was settled: it is saved, still unanswered; log in again, then take it up from History (it cannot be paid twice)")); ended != nil {
			return ended
		}
	}
	var said tea.Cmd // an acceptance the journal could not record
	switch m.Outcome {
	case withdrawal.SettledElsewhere:
		s.err, s.elsewhere = exchange.UserError{Text: safetext.Capitalized(m.Err.Error()) + ". Log in to the environment that reaches that service and take it up there.", Cause: m.Err}, true
		return nil
	case withdrawal.SettledOtherAccount, withdrawal.SettledLoggedOut:
		s.err, s.elsewhere = exchange.UserError{Text: safetext.Capitalized(m.Err.Error()) + " from History.", Cause: m.Err}, true
		return nil
	case withdrawal.SettledLost:
		s.err = exchange.UserError{Text: "No answer from the service after every retry: the request may or may not have arrived. Press r to send the identical request again (it cannot pay twice)."}
		return nil
	case withdrawal.SettledUndecided:
		next := "Press r to ask again."
		var again tea.Cmd
		if wait := m.Until.Sub(m.ServiceNow); !m.Until.IsZero() && !m.ServiceNow.IsZero() && m.Err == nil {
			next = "It is asked again then; r asks now."
			again = s.app.After(wait+time.Second, settleAgainMsg{tag: s.tag})
		}
		s.err = exchange.UserError{Text: safetext.Capitalized(m.Fact()) + ". " + next}
		return again
	case withdrawal.SettledNeverHappened:
		s.phase, s.never, s.next = phaseRejected, follow.NeverHappened(m.Why), time.Time{}
		if m.JournalErr != nil {
			return func() tea.Msg {
				return tui.ErrorMsg{Err: exchange.UserError{Text: "The journal could not be written (" + m.JournalErr.Error() + "): the history may miss this state; check the disk", Cause: m.JournalErr}}
			}
		}
		return nil
	case withdrawal.SettledAccepted:
		// Followed from the answer, as journaled: its states are
		// journaled from SUBMITTED on.
		rec, now := *s.unanswered, s.app.Common.Now()
		rec.State, rec.AcceptedAt = exchange.StateSubmitted, cmp.Or(s.follow.AcceptedAt, now)
		s.sched.Know(follow.Own{rec.QuoteID: rec})
		s.sched.Remove(rec.QuoteID)
		// Shown with the receive amount the journal says its quote locked;
		// an answer naming another is said, as withdraw resume says it.
		a, unlike := withdrawal.Resumed(rec).Locked(m.Accepted)
		s.sched.AddKept(follow.Kept{QuoteID: rec.QuoteID, Record: &exchange.Withdrawal{QuoteID: a.QuoteID, TxID: a.TxID,
			State: a.State, ReceiveAmount: a.ReceiveAmount}}, now)
		s.sync()
		s.addSeen(seen{state: exchange.StateSubmitted, at: now})
		var words []string
		var cause error
		if m.JournalErr != nil {
			u := &withdrawal.UnrecordedError{QuoteID: m.Accepted.QuoteID, Journal: m.JournalErr}
			words, cause = append(words, "Accepted, but "+u.Error()+": resume it from History again once the disk has room."), u
		}
		if unlike != nil {
			words, cause = append(words, safetext.Capitalized(unlike.Error())+"."), cmp.Or(cause, error(unlike))
		}
		if words != nil {
			said = func() tea.Msg {
				return tui.ErrorMsg{Err: exchange.UserError{Text: strings.Join(words, " "), Cause: cause}}
			}
		}
	}
	s.phase, s.unanswered = phaseFollow, nil
	return tea.Batch(s.step(), said)
}
