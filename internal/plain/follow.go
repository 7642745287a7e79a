package plain

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/svcwallet/svcwallet/internal/safetext"
	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/follow"
)

// Following a withdrawal: the one follow loop (follow.Loop) decides when
// to ask and what an answer means; each change is one line, "15:04:31
// SUBMITTED → SENDING", said once.

// errStopped: the user pressed enter to stop following.
var errStopped = errors.New("stopped following")

// followUntilEnd follows ids until each ends, enter stops following, or
// ctrl+c, one line per change ("15:04:31 SUBMITTED → SENDING", the quote
// id before the states when several are followed), as `svcwallet status -
// --watch` does. The states learned of this account's own withdrawals are
// journaled (Withdrawer.JournalState).
func (s *session) followUntilEnd(ids ...string) error {
	loop, err := s.loop(ids...)
	if err != nil {
		return err
	}
	what := ids[0] + " until it ends; press enter to stop following (the withdrawal goes on)."
	if len(ids) > 1 {
		what = fmt.Sprintf("%d withdrawals until each ends; press enter to stop following (they go on).", len(ids))
	}
	s.p.Say("Following %s", what)
	shown := map[string]string{}
	last := map[string]follow.Follow{}
	loop.Wait = s.waiter(s.p.lineAsked())
	err = loop.Run(s.ctx, func(f follow.Seen) bool {
		id, about := f.QuoteID, ""
		last[id] = f.Follow
		if len(ids) > 1 {
			about = id + " "
		}
		switch name := f.Outcome().Name; {
		case f.Err != nil && !errors.Is(f.Err, exchange.ErrNotFound):
			// Said whether or not a state was seen before: giving up ends
			// the follow, which must not end unsaid.
			if !f.GaveUp {
				s.p.Say("%s %sno answer (%v): asked again in %s.", s.clock(), about, trimStop(exchange.Explain(f.Err)), f.Due.Sub(s.Now()).Round(time.Second))
				break
			}
			s.p.Say("%s %sno answer (%v).", s.clock(), about, trimStop(exchange.Explain(f.Err)))
			s.p.Say("Stopped following %s after %d failed asks in a row: \"Look up a withdrawal's status\" asks again.", id, f.Failures)
		case (f.Known || f.NotFound || f.Vanished) && name != shown[id]:
			s.stateLine(about, shown[id], name)
			shown[id] = name
		}
		if f.Final && len(ids) == 1 {
			s.printRecord(f.Followed, loop.Scheduler)
		}
		return true
	})
	switch {
	case errors.Is(err, errStopped):
		s.p.Say("Stopped following; what goes on: \"Look up a withdrawal's status\" finds it again.")
		return nil
	case s.loginChanged(err):
		return nil
	case err != nil && !errors.Is(err, ErrEnd):
		return ErrInterrupted
	case err == nil && len(ids) > 1:
		fs := make([]follow.Follow, len(ids))
		for i, id := range ids {
			fs[i] = last[id]
		}
		s.p.Say("%d withdrawals followed: %s.", len(ids), follow.Tally(fs))
	}
	return err
}

// loginChanged says, and reports, that the follow ended because the
// session became another account's than the one it followed as, in the
// follow's words (follow.LoginChangedError).
func (s *session) loginChanged(err error) bool {
	c, ok := errors.AsType[*follow.LoginChangedError](err)
	if ok {
		s.p.Say("Stopped following: %v.", c)
	}
	return ok
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

// loop follows ids in one request budget as the session's account alone
// (follow.Loop.As), knowing this account's own withdrawals from the journal
// so their states are journaled (Withdrawer.JournalState, of a follower's
// Withdrawer).
func (s *session) loop(ids ...string) (follow.Loop, error) {
	recs, err := s.target.Journal.RecordsOf(s.target.Owner(), ids...)
	if err != nil {
		s.p.Say("The journal cannot be read (%v): the states seen are not journaled.", err)
	}
	sched := follow.NewScheduler(s.target.Env.EffectiveFollowRate())
	if s.PollInterval > 0 {
		sched.Interval = s.PollInterval
	}
	sched.Know(follow.OwnOf(recs))
	for _, id := range ids {
		sched.Add(id, s.Now())
	}
	w, err := s.withdrawer(true)
	as, _ := s.client().Session()
	return follow.Loop{Scheduler: sched, Now: s.Now, MaxFailures: follow.GiveUpAfter, As: as,
		Ask: func(ctx context.Context, id string) (exchange.Withdrawal, error) {
			cx, cancel := context.WithTimeout(ctx, exchange.CallTimeout)
			defer cancel()
			return s.client().WithdrawalStatus(cx, id)
		},
		Reread: func(ctx context.Context, wd exchange.Withdrawal) exchange.Withdrawal {
			cx, cancel := context.WithTimeout(ctx, exchange.CallTimeout)
			defer cancel()
			return s.client().ServiceTimeAfter(cx, wd)
		},
		Journal: func(id string, wd exchange.Withdrawal) error {
			err := w.JournalState(id, wd)
			if err != nil {
				s.p.Say("The journal could not record %s (%v).", wd.State, err)
			}
			return err
		}}, err
}

// stateLine says a change of state at this moment, after about (the
// quote id when several are followed): the first state alone, then "OLD →
// NEW".
func (s *session) stateLine(about, was, now string) {
	if was == "" {
		s.p.Say("%s %s%s", s.clock(), about, now)
		return
	}
	s.p.Say("%s %s%s → %s", s.clock(), about, was, now)
}

// clock is the time of day now, as the status screen's timeline shows it.
func (s *session) clock() string { return s.Now().Format("15:04:05") }

// printRecord says what is known of a withdrawal: its outcome in the one
// sentence every view gives it, and its particulars, filled from what
// sched knows the journal signed of it.
func (s *session) printRecord(f follow.Followed, sched *follow.Scheduler) {
	o := f.Outcome()
	s.p.Say("%s: %s", o.Name, o.Sentence())
	if !f.Known {
		return
	}
	own, _ := sched.Record(f.QuoteID)
	s.facts(f.Particulars(s.target.Env, own.Intent))
}

// lookUp asks for quote ids (one, or several as `svcwallet status` takes
// them), says each one's status, and offers to follow those still moving.
func (s *session) lookUp() error {
	var ids []string
	_, err := s.p.Ask("Look up quote ids, payout hashes, transfer ids or explorer links (spaces between):", func(a string) error {
		// A column pasted from a spreadsheet is one line an id: the others,
		// left, would each answer Home's question as a choice it has not,
		// and its first line alone may be half of a key split over two
		// rows, which only the lines together tell: none of it is sent.
		if s.p.gate.PastedMore(s.ctx, false) {
			return errors.New(s.droppedWords())
		}
		var err error
		ids, err = s.checkIDs(a)
		return err
	})
	if err != nil {
		return err
	}
	return s.lookUpID(ids...)
}

// checkIDs is the quote ids a look-up's answer a gives, or why it is not
// taken, never repeating what it refused.
func (s *session) checkIDs(a string) ([]string, error) {
	ids, lookups, bad := follow.ParseQuoteIDs(a, true)
	if len(bad) > 0 {
		if said, ok := follow.LineRefusal(bad[0], true); ok {
			return nil, errors.New(said) // about the line, never repeating it
		}
		if why := follow.CredentialRefusal(bad[0]); why != nil {
			return nil, fmt.Errorf("this is not a quote id: %w", why) // never repeated
		}
		return nil, follow.NotQuoteID(bad[0].Text, bad[0].Err)
	}
	if err := follow.RefuseOwnSecret(ids, lookups, s.client().OwnSecret); err != nil {
		return nil, err // never repeated
	}
	if len(lookups) > 0 {
		known := follow.KnownHere(s.target.Journal, s.target.Owner())
		var err error
		ids, err = follow.InPlace(ids, lookups, func(l follow.Lookup) ([]string, error) {
			found, err := known.Find(l, s.client().OwnSecret)
			switch {
			case err != nil:
				return nil, errors.New(follow.NotSeenSentence(l))
			case len(found.QuoteIDs) == 0: // another account's alone: not asked as this one
				return nil, errors.New(found.Said(l.Name()))
			case len(found.QuoteIDs) > 1 || len(found.Others) > 0:
				s.p.Say("%s.", safetext.Capitalized(found.Said(l.Name())))
			}
			return found.QuoteIDs, nil
		})
		if err != nil {
			return nil, err
		}
	}
	if len(ids) == 0 {
		return nil, errors.New("no quote id in it")
	}
	return ids, nil
}

// droppedWords is said of a look-up whose answer came with more lines.
// On the embedded sandbox status - would start an exchange of its own,
// which knows none of this run's ids: it is not named there.
func (s *session) droppedWords() string {
	const dropped = "the paste held more lines than the first: nothing of it was looked up, and the lines after the first were dropped unread. Give several ids on one line, spaces between"
	if s.target.Env.Embedded() {
		return dropped
	}
	return fmt.Sprintf("%s; for a column of them, run %s and paste it there, then end it with ctrl+d (ctrl+z, Enter on Windows)", dropped, s.command("status", "-"))
}

// sayAsking says a look-up is under way, before its answers: several are
// said once all have answered, and at the request budget 50 take 10 s, a
// silence a screen reader's user cannot tell from a hang.
func (s *session) sayAsking(ids []string) {
	if len(ids) == 1 {
		s.p.Say("Asking the service about %s…", ids[0])
		return
	}
	rate := s.target.Env.EffectiveFollowRate()
	if took := follow.AskedOnceIn(len(ids), rate); took >= 2*time.Second {
		s.p.Say("Asking the service about %d withdrawals, %d a second: about %s…", len(ids), rate, took.Round(time.Second))
		return
	}
	s.p.Say("Asking the service about %d withdrawals…", len(ids))
}

// lookUpID asks each id's status once, says it, and offers to follow
// those still moving.
func (s *session) lookUpID(ids ...string) error {
	loop, err := s.loop(ids...)
	if err != nil {
		return err
	}
	s.sayAsking(ids)
	loop.Once, loop.Wait = true, s.waiter(nil)
	var moving []string
	var failed error
	ended := map[string]bool{}
	// Several ids are said once all have answered, in the order given (as
	// `svcwallet status` prints them), not in the order the answers came.
	said := map[string]string{}
	err = loop.Run(s.ctx, func(f follow.Seen) bool {
		switch {
		case !f.Known && !f.NotFound && !f.Vanished:
			failed = fmt.Errorf("the status of %s could not be read: %w", f.QuoteID, exchange.Explain(f.Err))
			if len(ids) > 1 {
				said[f.QuoteID] = safetext.Capitalized(trimStop(failed)) + "."
			}
			return true
		case len(ids) > 1:
			o := f.Outcome()
			said[f.QuoteID] = fmt.Sprintf("%s %s: %s", f.QuoteID, o.Name, o.Sentence())
		default:
			s.printRecord(f.Followed, loop.Scheduler)
		}
		if f.Final {
			ended[f.QuoteID] = true
		}
		return true
	})
	// What was seen is said even when ctrl+c ended the asking.
	for _, id := range ids {
		if line, ok := said[id]; ok {
			s.p.Say("%s", line)
			delete(said, id) // an id given twice is said once
		}
	}
	if s.loginChanged(err) {
		return nil
	}
	if err != nil {
		return ErrInterrupted
	}
	for _, id := range ids {
		if !ended[id] { // in the order given, unanswered ones too
			moving = append(moving, id)
		}
	}
	if len(ids) == 1 && failed != nil {
		return failed
	}
	if len(moving) == 0 {
		return nil
	}
	title := "It has not ended."
	if len(ids) > 1 {
		title = fmt.Sprintf("%d of them have not ended.", len(moving))
	}
	i, err := s.p.Choose(title, Options("Follow until the end", "Back home"))
	if err != nil || i == 1 {
		return err
	}
	return s.followUntilEnd(moving...)
}
