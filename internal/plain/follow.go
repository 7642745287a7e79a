package plain

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/follow"
	"github.com/svcwallet/svcwallet/service/withdrawal"
)

// Following a withdrawal: the one follow loop (follow.Loop) decides when
// to ask and what an answer means; each change is one line, "15:04:31
// SUBMITTED → SENDING", said once.

// maxFailures ends a follow after this many failed asks in a row, as
// `svcwallet status --watch` does.
const maxFailures = 5

// errStopped: the user pressed enter to stop following.
var errStopped = errors.New("stopped following")

// followUntilEnd follows id until it ends, enter stops following, or
// ctrl+c. The states learned of this account's own withdrawals are
// journaled (Withdrawer.JournalState).
func (s *session) followUntilEnd(id string) error {
	loop := s.loop(id)
	s.p.Say("Following %s until it ends; press enter to stop following (the withdrawal goes on).", id)
	shown := ""
	loop.Wait = s.waiter(s.p.lineAsked())
	err := loop.Run(s.ctx, func(f follow.Seen) bool {
		if name := f.Outcome().Name; f.Known || f.NotFound || f.Vanished {
			if name != shown {
				s.stateLine(shown, name)
				shown = name
			}
		} else if f.Err != nil {
			s.p.Say("%s no answer (%v): asked again in %s.", s.clock(), trimStop(exchange.Explain(f.Err)), f.Due.Sub(s.Now()).Round(time.Second))
			if f.GaveUp {
				s.p.Say("Stopped following %s after %d failed asks in a row: \"Look up a withdrawal's status\" asks again.", id, f.Failures)
			}
		}
		if f.Final {
			s.printRecord(f.Followed)
		}
		return true
	})
	switch {
	case errors.Is(err, errStopped):
		s.p.Say("Stopped following %s; it goes on: \"Look up a withdrawal's status\" finds it again.", id)
		return nil
	case err != nil && !errors.Is(err, ErrEnd):
		return ErrInterrupted
	}
	return err
}

// waiter waits d on the session's clock; a line read on stop (none when
// nil) stops following (errStopped, or ErrEnd at the input's end).
func (s *session) waiter(stop chan lineRead) func(ctx context.Context, d time.Duration) error {
	return func(ctx context.Context, d time.Duration) error {
		select {
		case <-s.After(d):
			return nil
		case r := <-stop:
			s.p.took()
			if errors.Is(r.err, io.EOF) {
				return ErrEnd
			}
			return errStopped
		case <-ctx.Done():
			return ErrInterrupted
		}
	}
}

// loop follows id alone, knowing this account's own withdrawals from the
// journal so their states are journaled (Withdrawer.JournalState).
func (s *session) loop(id string) follow.Loop {
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
	w := withdrawal.Withdrawer{Client: s.client(), Journal: s.target.Journal, Now: s.Now}
	return follow.Loop{Scheduler: sched, Now: s.Now, MaxFailures: maxFailures,
		Ask: func(ctx context.Context, id string) (exchange.Withdrawal, error) {
			cx, cancel := context.WithTimeout(ctx, requestTimeout)
			defer cancel()
			return s.client().WithdrawalStatus(cx, id)
		},
		Journal: func(id string, wd exchange.Withdrawal) error {
			err := w.JournalState(id, wd)
			if err != nil {
				s.p.Say("The journal could not record %s (%v).", wd.State, err)
			}
			return err
		}}
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
	loop := s.loop(id)
	loop.Once, loop.Wait = true, s.waiter(nil)
	var f follow.Seen
	if err := loop.Run(s.ctx, func(seen follow.Seen) bool { f = seen; return true }); err != nil {
		return ErrInterrupted
	}
	if !f.Known && !f.NotFound && !f.Vanished {
		return fmt.Errorf("the status of %s could not be read: %w", id, exchange.Explain(f.Err))
	}
	s.printRecord(f.Followed)
	if f.Final {
		return nil
	}
	i, err := s.p.Choose("It has not ended.", Options("Follow it until it ends", "Back home"))
	if err != nil || i == 1 {
		return err
	}
	return s.followUntilEnd(id)
}
