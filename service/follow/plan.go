package follow

import (
	"context"
	"errors"
	"time"

	"github.com/svcwallet/svcwallet/service/exchange"
)

// A plan splits the follow loop in two, so that a face with an event loop
// (the console's watch board) wakes once for a span of answers, not a few
// times for each: the owner of the scheduler hands out a span's asks
// (Loop.Plan), one goroutine asks them at their slots touching no
// scheduler (Loop.AskPlan), and the owner takes the answers together
// (Loop.TookAt) and gives back what was not asked (Scheduler.Release).

// Slot is one ask a plan hands out: the id and when the budget lets it be
// asked.
type Slot struct {
	ID string
	At time.Time
	// shares are the scheduler's runs of fresh and hot asks before it
	// was handed out, restored when it is given back.
	freshAsks, hotAsks int
	// spent: its request went out, though its answer was cut short; given
	// back, the id waits again but its slot of the budget stays used.
	spent bool
	// was is its Follow when handed out, for the ask (Loop.AskOf), which
	// touches no scheduler.
	was Follow
}

// Plan is the asks of a span of the budget, the first due at once.
type Plan struct {
	Slots []Slot
	// Late is how far past its slot an ask may still go, a Gap when
	// planned: after a slow answer the rest are given back, not asked in a
	// burst.
	Late time.Duration
}

// Asked is the answer to one ask of a plan: w when err is nil, at when it
// came.
type Asked struct {
	ID  string
	At  time.Time
	W   exchange.Withdrawal
	Err error
}

// Plan hands out the ids to ask from now until span after it, each at its
// slot of the budget; a span of 0 hands out those due now. Nothing is
// handed out unless one is due now: then wait is how long until one is
// (0 when nothing moves). Each id handed out must be answered (TookAt) or
// given back (Release).
func (l Loop) Plan(now time.Time, span time.Duration) (p Plan, wait time.Duration) {
	p.Late = l.Gap
	at := now
	for {
		fresh, hot := l.freshAsks, l.hotAsks
		id, w, ok := l.Next(at)
		if ok {
			f, _ := l.Get(id)
			p.Slots = append(p.Slots, Slot{ID: id, At: at, freshAsks: fresh, hotAsks: hot, was: f.Follow})
			continue
		}
		if len(p.Slots) == 0 || w == 0 || at.Add(w).Sub(now) > span {
			return p, at.Add(w).Sub(now)
		}
		at = at.Add(w)
	}
}

// AskPlan asks each id of p at its slot, one after another, waiting with
// Wait; it touches no scheduler, so it runs in a goroutine of its own
// while the scheduler's owner goes on. It stops early, giving back the
// rest unasked, when ctx ends or Wait fails (an ask cut short by ctx is
// given back too, its slot spent: the request went out), after a 429 (the
// budget is paused), or when a slot is missed by more than p.Late. Each
// ask goes as l.As's account alone: once the client is another's, the rest
// is given back unasked with the follow's end (*LoginChangedError).
func (l Loop) AskPlan(ctx context.Context, p Plan) (asked []Asked, rest []Slot, changed *LoginChangedError) {
	if l.As.AccountID != "" {
		ctx = exchange.AsAccount(ctx, l.As)
	}
	for i, s := range p.Slots {
		if d := s.At.Sub(l.Now()); d > 0 {
			if l.Wait(ctx, d) != nil {
				return asked, p.Slots[i:], nil
			}
		} else if i > 0 && -d > p.Late {
			return asked, p.Slots[i:], nil
		}
		s.was.QuoteID = s.ID
		w, err := l.AskOf(ctx, s.was)
		if ctx.Err() != nil {
			rest = p.Slots[i:]
			rest[0].spent = true
			return asked, rest, nil
		}
		if changed := LoginChanged(err); changed != nil {
			changed.One = l.Len() == 1
			return asked, p.Slots[i:], changed // never sent: its slot is free
		}
		asked = append(asked, Asked{ID: s.ID, At: l.Now(), W: w, Err: err})
		if errors.Is(err, exchange.ErrRateLimited) {
			return asked, p.Slots[i+1:], nil
		}
	}
	return asked, nil, nil
}

// Release gives back the slots a plan did not ask, as if they had never
// been handed out: each id waits again where it was in its queue, and the
// budget is free again from the first of them, unless a 429 paused it
// past that.
func (s *Scheduler) Release(rest []Slot) {
	if len(rest) == 0 {
		return
	}
	for _, r := range rest {
		if f, ok := s.ids[r.ID]; ok && !f.Final && f.index < 0 {
			s.queue(f, r.At)
		}
	}
	if rest[0].spent {
		rest = rest[1:]
	}
	if len(rest) == 0 {
		return
	}
	if first := rest[0]; first.At.Before(s.nextSlot) && !s.paused.After(first.At) {
		s.nextSlot, s.freshAsks, s.hotAsks = first.At, first.freshAsks, first.hotAsks
	}
}
