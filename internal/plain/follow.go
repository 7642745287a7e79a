package plain

import (
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/follow"
	"github.com/svcwallet/svcwallet/service/withdrawal"
)

// Following a withdrawal: the scheduler and state machine of every
// follower (follow.Scheduler, follow.Follow) decide when to ask and what
// an answer means; each change is one line, "15:04:31 SUBMITTED →
// SENDING", said once.

// maxFailures ends a follow after this many failed asks in a row, as
// `svcwallet status --watch` does.
const maxFailures = 5

// followUntilEnd follows id until it ends, enter stops following, or
// ctrl+c. The states learned of this account's own withdrawals are
// journaled (Withdrawer.JournalState).
func (s *session) followUntilEnd(id string) error {
	sched, w := s.scheduler(id)
	s.p.Say("Following %s until it ends; press enter to stop following (the withdrawal goes on).", id)
	shown := ""
	stop := s.p.lineAsked()
	for {
		next, wait, ok := sched.Next(s.Now())
		if !ok {
			select {
			case <-s.After(wait):
			case r := <-stop:
				s.p.took()
				if errors.Is(r.err, io.EOF) {
					return ErrEnd
				}
				s.p.Say("Stopped following %s; it goes on: \"Look up a withdrawal's status\" finds it again.", id)
				return nil
			case <-s.ctx.Done():
				return ErrInterrupted
			}
			continue
		}
		f, err := s.ask(sched, w, next)
		if err != nil {
			return err
		}
		if name := f.Outcome().Name; f.Known || f.NotFound || f.Vanished {
			if name != shown {
				s.stateLine(shown, name)
				shown = name
			}
		} else if f.Err != nil {
			s.p.Say("%s no answer (%v): asked again in %s.", s.clock(), trimStop(exchange.Explain(f.Err)), f.Due.Sub(s.Now()).Round(time.Second))
			if f.Failures >= maxFailures {
				s.p.Say("Stopped following %s after %d failed asks in a row: \"Look up a withdrawal's status\" asks again.", id, f.Failures)
				return nil
			}
		}
		if f.Final {
			s.printRecord(f)
			return nil
		}
	}
}

// scheduler follows id alone, knowing this account's own withdrawals from
// the journal so their states are journaled; and the Withdrawer that
// journals them.
func (s *session) scheduler(id string) (*follow.Scheduler, withdrawal.Withdrawer) {
	sess, _ := s.client().Session()
	recs, err := s.target.Journal.RecordsOf(s.target.Env.Name, sess.AccountID, id)
	if err != nil {
		s.p.Say("The journal cannot be read (%v): the states seen are not journaled.", err)
	}
	sched := follow.NewScheduler(s.target.Env.EffectiveFollowRate())
	if s.PollInterval > 0 {
		sched.Interval = s.PollInterval
	}
	sched.Know(follow.OwnOf(recs))
	sched.Add(id, s.Now())
	return sched, withdrawal.Withdrawer{Client: s.client(), Journal: s.target.Journal, Now: s.Now}
}

// ask asks id's status once, hands the answer to the scheduler, journals
// a state learned, and returns what is known.
func (s *session) ask(sched *follow.Scheduler, w withdrawal.Withdrawer, id string) (follow.Followed, error) {
	cx, cancel := s.call()
	wd, err := s.client().WithdrawalStatus(cx, id)
	cancel()
	if s.ctx.Err() != nil {
		return follow.Followed{}, ErrInterrupted
	}
	step := sched.Answer(id, wd, err, s.Now())
	if step.JournalState != "" {
		if err := w.JournalState(id, wd); err != nil {
			s.p.Say("The journal could not record %s (%v).", step.JournalState, err)
		}
	}
	f, _ := sched.Get(id)
	return f, nil
}

// stateLine says a change of state at this moment: the first state alone,
// then "OLD → NEW".
func (s *session) stateLine(was, now string) {
	if was == "" {
		s.p.Say("%s %s", s.clock(), now)
		return
	}
	s.p.Say("%s %s → %s", s.clock(), was, now)
}

// clock is the time of day now, as the status screen's timeline shows it.
func (s *session) clock() string { return s.Now().Format("15:04:05") }

// printRecord says what is known of a withdrawal: its outcome in the one
// sentence every view gives it, and its particulars.
func (s *session) printRecord(f follow.Followed) {
	o := f.Outcome()
	s.p.Say("%s: %s", o.Name, o.Sentence())
	if !f.Known {
		return
	}
	r := f.Last
	s.line("Quote id", r.QuoteID, "")
	s.line("Transfer id", orNone(r.TxID), "")
	s.line("Receive", r.ReceiveAmount.String()+" "+r.TokenOut, "on "+r.Chain)
	if r.WithdrawTxHash != "" {
		s.line("Payout hash", r.WithdrawTxHash, "")
		if u := s.target.Env.ExplorerTxURL(r.Chain, r.WithdrawTxHash); u != "" {
			s.line("Explorer", u, "")
		}
	}
	if !r.UpdatedAt.IsZero() {
		s.line("Updated at", r.UpdatedAt.UTC().Format(time.RFC3339), "by the service")
	}
}

// lookUp asks a quote id, says its status, and offers to follow it while
// it moves.
func (s *session) lookUp() error {
	id, err := s.p.Ask("Quote id of the withdrawal:", exchange.CheckQuoteID)
	if err != nil {
		return err
	}
	return s.lookUpID(id)
}

// lookUpID asks id's status once and offers to follow it while it moves.
func (s *session) lookUpID(id string) error {
	sched, w := s.scheduler(id)
	f, err := s.ask(sched, w, id)
	if err != nil {
		return err
	}
	if !f.Known && !f.NotFound && !f.Vanished {
		return fmt.Errorf("the status of %s could not be read: %w", id, exchange.Explain(f.Err))
	}
	s.printRecord(f)
	if f.Final {
		return nil
	}
	i, err := s.p.Choose("It has not ended.", Options("Follow it until it ends", "Back home"))
	if err != nil || i == 1 {
		return err
	}
	return s.followUntilEnd(id)
}
