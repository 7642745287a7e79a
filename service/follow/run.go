package follow

import (
	"context"
	"time"

	"github.com/svcwallet/svcwallet/service/exchange"
)

// GiveUpAfter is how many failed asks in a row end a line face's follow
// (MaxFailures), 36 to 72 s of backoff (PollDelay) after the first: a
// script or a person should learn the service is gone.
const GiveUpAfter = 5

// Loop is the one follow loop: it asks each quote id its Scheduler hands
// out when the budget allows, journals what an answer teaches of an own
// withdrawal, and tells the face each answer (Seen), which it words. The
// line faces (`status`, `history --refresh`, `withdraw --wait`, plain
// mode) run it to the end (Run); the console's check of unfinished
// withdrawals and its status screen drive it one ask at a time from their
// timers (Next, then Took with the answer), its watch board a span of asks
// at a time (Plan, AskPlan, TookAt).
type Loop struct {
	*Scheduler
	// Ask asks the service one quote id's status (Client.WithdrawalStatus).
	Ask func(ctx context.Context, id string) (exchange.Withdrawal, error)
	// Reread reads the service's clock again after an answer whose kept
	// reading would decide its follow (Follow.WantsServiceTime,
	// Client.ServiceTimeAfter); nil never does, and the decision waits.
	Reread func(ctx context.Context, w exchange.Withdrawal) exchange.Withdrawal
	// Journal writes a state learned of an own withdrawal
	// (Withdrawer.JournalState); nil journals nothing.
	Journal func(id string, w exchange.Withdrawal) error
	Now     func() time.Time
	// Wait waits d, or less when ctx ends or the face stops following; its
	// error ends Run.
	Wait func(ctx context.Context, d time.Duration) error
	// MaxFailures gives an id up after this many failed asks in a row, 429s
	// included; 0 never does.
	MaxFailures int
	// Once asks each id until it is answered once (a 429 is no answer).
	Once bool
	// As is the session the follow was started for: every ask goes as its
	// account alone (exchange.AsAccount). A login as another account made
	// meanwhile on the same client is never asked: its service does not
	// know this account's quotes, and each would end NOT FOUND, for good.
	// Zero asks as whatever session the client holds.
	As exchange.Session
}

// LoginChangedError ends a follow whose client was logged in as another
// account (Now) than the one it was started for (Was): nothing more is
// asked, and the ids not asked are given back as they were. Its words,
// with the account to log in as, are otherlogin.go's.
type LoginChangedError struct {
	Was, Now exchange.Session
	One      bool // one withdrawal was followed, not several
}

// Seen is one answer the loop took, as of that answer.
type Seen struct {
	Followed
	Step Step
	Err  error // the ask's
	// JournalErr: the state learned could not be journaled.
	JournalErr error
	// GaveUp: MaxFailures failed asks in a row; Done: the id is no longer
	// followed (final, answered with Once, or given up).
	GaveUp, Done bool
}

// Run follows the scheduler's ids until none moves, telling seen each
// answer; seen returning false stops following that id. It ends early
// with ctx's error or Wait's, or a *LoginChangedError. It asks what is
// due, one at a time, as a plan of no span (Plan, AskPlan).
func (l Loop) Run(ctx context.Context, seen func(Seen) bool) error {
	for l.Moving() > 0 {
		p, wait := l.Plan(l.Now(), 0)
		if len(p.Slots) == 0 {
			if err := l.Wait(ctx, wait); err != nil {
				return err
			}
			continue
		}
		asked, rest, changed := l.AskPlan(ctx, p)
		if ctx.Err() != nil {
			return ctx.Err()
		}
		for _, a := range asked {
			s := l.TookAt(a)
			if l.Journal != nil && s.Step.JournalState != "" {
				s.JournalErr = l.Journal(a.ID, a.W)
			}
			if !seen(s) || s.Done {
				l.Remove(a.ID)
			}
		}
		l.Release(rest)
		if changed != nil {
			return changed
		}
	}
	return nil
}

// AskOf asks f's status (Ask), reading the service's clock again when the
// reading kept would decide it (Reread): the one ask of every follower.
func (l Loop) AskOf(ctx context.Context, f Follow) (exchange.Withdrawal, error) {
	w, err := l.Ask(ctx, f.QuoteID)
	if l.Reread != nil && ctx.Err() == nil && f.WantsServiceTime(w, err) {
		w = l.Reread(ctx, w)
	}
	return w, err
}

// Took hands the answer to one ask of id (w when err is nil), come now,
// to the scheduler and says what it came to. It does no I/O.
func (l Loop) Took(id string, w exchange.Withdrawal, err error) Seen {
	return l.TookAt(Asked{ID: id, At: l.Now(), W: w, Err: err})
}

// TookAt is Took of an answer that came at a.At.
func (l Loop) TookAt(a Asked) Seen {
	step := l.Answer(a.ID, a.W, a.Err, a.At)
	f, _ := l.Get(a.ID)
	f.AskedOnce = l.Once
	s := Seen{Followed: f, Step: step, Err: a.Err}
	s.GaveUp = a.Err != nil && l.MaxFailures > 0 && f.Failures >= l.MaxFailures
	s.Done = f.Final || s.GaveUp || l.Once && !step.RateLimited
	return s
}
