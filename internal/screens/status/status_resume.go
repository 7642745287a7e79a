package status

import (
	"cmp"
	"context"
	"sync"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/svcwallet/svcwallet/internal/exchange"
	"github.com/svcwallet/svcwallet/internal/follow"
	"github.com/svcwallet/svcwallet/internal/journal"
	"github.com/svcwallet/svcwallet/internal/screens/kit"
	"github.com/svcwallet/svcwallet/internal/tui"
	"github.com/svcwallet/svcwallet/internal/withdrawal"
)

// Journaling what the status screen learns, and resuming a withdrawal the
// journal holds unanswered: re-sending it, or saying it never happened.

// journalState journals a state a follower of this console learned for an
// own withdrawal (follow.Step.JournalState), in a Cmd: the status
// screen, the board and History's refresh all write through it. writes,
// when given, counts the write until it is done.
func journalState(app *kit.App, quoteID string, w exchange.Withdrawal, writes *sync.WaitGroup) tea.Cmd {
	if app.Journal() == nil {
		return nil
	}
	if writes != nil {
		writes.Add(1)
	}
	return journalCmd(app, func(wr withdrawal.Withdrawer) error {
		if writes != nil {
			defer writes.Done()
		}
		return wr.JournalState(quoteID, w)
	})
}

// journalCmd writes one line of an own withdrawal's journal in a Cmd; a
// failure is said in a toast, whichever screen is on top by then.
func journalCmd(app *kit.App, write func(withdrawal.Withdrawer) error) tea.Cmd {
	if app.Journal() == nil {
		return nil
	}
	w := app.Withdrawer()
	return func() tea.Msg {
		if err := write(w); err != nil {
			return tui.ErrorMsg{Err: exchange.UserError{Text: "The journal could not be written (" + err.Error() + "): the history may miss this state; check the disk", Cause: err}}
		}
		return nil
	}
}

// reject ends a resumed withdrawal that never happened, in the journal too.
func (s *statusScreen) reject(why string) tea.Cmd {
	s.phase, s.never, s.next = phaseRejected, follow.NeverHappened(why), time.Time{}
	id := s.quoteID
	return journalCmd(s.app, func(w withdrawal.Withdrawer) error { return w.JournalNeverHappened(id, why) })
}

// resend re-sends the journaled request byte for byte; the answer is
// journaled in the same Cmd (withdrawal.Withdrawer.Resend), so a crash cannot
// separate the two.
func (s *statusScreen) resend(req exchange.WithdrawRequest) tea.Cmd {
	s.phase, s.sending, s.err = phaseResend, true, nil
	s.lastReq = req
	withdrawer, tag, read := s.app.Withdrawer(), s.tag, s.journalReader()
	return func() tea.Msg {
		m := resendMsg{tag: tag}
		if read != nil {
			m.journal, m.seeded = read()
		}
		// Not cancelled when the screen is left: an answer must be journaled.
		cx, cancel := context.WithTimeout(context.Background(), withdrawal.WithdrawTimeout)
		defer cancel()
		m.Resent = withdrawer.Resend(cx, req)
		return m
	}
}

// resent takes the answer to the re-sent request.
func (s *statusScreen) resent(m resendMsg) tea.Cmd {
	s.sending = false
	s.seed(m.journal, m.seeded)
	switch {
	case m.Lost:
		s.err = exchange.UserError{Text: "No answer from the service after every retry: the request may or may not have arrived. Press r to send the identical request again (it cannot pay twice)."}
		return nil
	case m.Refused:
		s.phase, s.refusal = phaseCheck, withdrawal.ResendRefusal(m.Err)
		return s.fetch()
	}
	s.phase, s.follow.Journaled = phaseFollow, exchange.StateSubmitted
	s.follow.AcceptedAt = cmp.Or(s.follow.AcceptedAt, s.app.Common.Now())
	s.follow.Last, s.follow.Known = exchange.Withdrawal{QuoteID: m.Accepted.QuoteID, TxID: m.Accepted.TxID, State: m.Accepted.State, ReceiveAmount: m.Accepted.ReceiveAmount}, true
	s.addSeen(seen{state: exchange.StateSubmitted, at: s.app.Common.Now()})
	return s.fetch()
}

// lostRecord is the journal record of a re-send that got no answer, for
// deciding again on r.
func (s *statusScreen) lostRecord() journal.Record {
	rec := journal.Record{QuoteID: s.quoteID, Request: s.lastReq}
	if s.intent != nil {
		rec.Intent = *s.intent
	}
	return rec
}

func orText(s, alt string) string {
	if s == "" {
		return alt
	}
	return s
}
