package follow_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/follow"
)

// slotsOf says a plan's slots as "id@ms after start", to compare.
func slotsOf(slots []follow.Slot, start time.Time) []string {
	var out []string
	for _, s := range slots {
		out = append(out, fmt.Sprintf("%s@%d", s.ID, s.At.Sub(start).Milliseconds()))
	}
	return out
}

// planned is a scheduler at 5 a second holding the fresh ids f1…f6 (f6
// the newest, asked first) and one hot id due now, on s's clock.
func planned(s *script) *follow.Scheduler {
	sched := follow.NewScheduler(5)
	w := exchange.Withdrawal{QuoteID: "hot", State: exchange.StateSubmitted, UpdatedAt: s.now.Add(-time.Minute)}
	sched.AddKept(follow.Kept{QuoteID: "hot", Record: &w, Since: w.UpdatedAt, Checked: s.now.Add(-10 * time.Second)}, s.now)
	for i := 1; i <= 6; i++ {
		sched.Add(fmt.Sprintf("f%d", i), s.now)
	}
	return sched
}

// TestPlanHandsOutASpan (issue 35 item 2): a plan hands out the asks of a
// span at the budget's slots, keeping the shares (four fresh asks, then
// the hot one due); a span of 0 hands out what is due now; nothing is
// handed out before an ask is due.
func TestPlanHandsOutASpan(t *testing.T) {
	s := &script{now: time.Date(2026, 3, 14, 9, 0, 0, 0, time.UTC)}
	start := s.now
	loop := s.loop(planned(s))
	p, _ := loop.Plan(s.now, time.Second)
	if want := []string{"f6@0", "f5@200", "f4@400", "f3@600", "hot@800", "f2@1000"}; !slices.Equal(slotsOf(p.Slots, start), want) {
		t.Fatalf("a second's plan %v, want %v", slotsOf(p.Slots, start), want)
	}
	if p, wait := loop.Plan(s.now, 0); len(p.Slots) != 0 || wait != 1200*time.Millisecond {
		t.Fatalf("with the budget spent: %v, wait %s; want nothing until 1.2 s", slotsOf(p.Slots, start), wait)
	}
	if p, _ := loop.Plan(s.now.Add(1200*time.Millisecond), 0); !slices.Equal(slotsOf(p.Slots, start), []string{"f1@1200"}) {
		t.Fatalf("a plan of no span %v, want f1 alone", slotsOf(p.Slots, start))
	}
}

// TestAskPlanGivesBackWhatItDidNotAsk: the asker of a plan stops at a
// 429, at a slot missed by more than a Gap (after a slow answer: no burst
// follows), and when its context ends while it waits; what it gave back
// is handed out again as if it had never been, the same ids at the same
// slots in the same shares, but after a 429's pause.
func TestAskPlanGivesBackWhatItDidNotAsk(t *testing.T) {
	for _, tc := range []struct {
		name  string
		slow  time.Duration // the first answer's wait
		limit bool          // the second ask is answered 429
		stop  bool          // the context ends in the first wait
		asked int
	}{
		{name: "rate limited", limit: true, asked: 2},
		{name: "slow answer", slow: 500 * time.Millisecond, asked: 1},
		{name: "stopped", stop: true, asked: 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := &script{now: time.Date(2026, 3, 14, 9, 0, 0, 0, time.UTC), answers: map[string][]error{},
				states: map[string][]string{"hot": {exchange.StateSubmitted}}}
			for i := 1; i <= 6; i++ {
				s.states[fmt.Sprintf("f%d", i)] = []string{exchange.StateSubmitted}
			}
			start := s.now
			sched := planned(s)
			loop := s.loop(sched)
			if tc.limit {
				s.answers["f5"] = []error{rateLimited}
			}
			ask := loop.Ask
			loop.Ask = func(ctx context.Context, id string) (exchange.Withdrawal, error) {
				s.now = s.now.Add(tc.slow)
				return ask(ctx, id)
			}
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			if tc.stop {
				loop.Wait = func(context.Context, time.Duration) error { cancel(); return ctx.Err() }
			}
			p, _ := loop.Plan(s.now, time.Second)
			asked, rest, _ := loop.AskPlan(ctx, p)
			if len(asked) != tc.asked || len(s.asked) != tc.asked || len(asked)+len(rest) != len(p.Slots) {
				t.Fatalf("asked %v and gave back %v of %v, want %d asked", s.asked, slotsOf(rest, start), slotsOf(p.Slots, start), tc.asked)
			}
			for _, a := range asked {
				loop.TookAt(a)
			}
			sched.Release(rest)
			again, wait := loop.Plan(rest[0].At, time.Second)
			if tc.limit {
				if len(again.Slots) != 0 || wait < rateLimited.RetryAfter-time.Second {
					t.Fatalf("after a 429 the slots given back were handed out again within %s: %v", wait, slotsOf(again.Slots, start))
				}
				return
			}
			if got, want := slotsOf(again.Slots, start)[:len(rest)], slotsOf(rest, start); !slices.Equal(got, want) {
				t.Fatalf("given back %v, handed out again %v", want, got)
			}
		})
	}
	if !errors.Is(rateLimited, exchange.ErrRateLimited) {
		t.Fatal("the script's 429 is not one")
	}
}

// TestToldWhileHandedOutQueuedOnce: an id handed out in a span and told
// meanwhile by another asker (the row's status screen), then answered by
// the span, waits in one queue once: removed, it is never asked again.
func TestToldWhileHandedOutQueuedOnce(t *testing.T) {
	s := &script{now: time.Date(2026, 3, 14, 9, 0, 0, 0, time.UTC), answers: map[string][]error{},
		states: map[string][]string{"x": {exchange.StateSubmitted}, "y": {exchange.StateSubmitted}}}
	sched := follow.NewScheduler(5)
	sched.Add("x", s.now)
	sched.Add("y", s.now)
	loop := s.loop(sched)
	p, _ := loop.Plan(s.now, time.Second)
	loop.TookAt(follow.Asked{ID: "x", At: s.now, W: exchange.Withdrawal{QuoteID: "x", State: exchange.StateSubmitted, UpdatedAt: s.now}})
	asked, rest, _ := loop.AskPlan(context.Background(), p)
	for _, a := range asked {
		loop.TookAt(a)
	}
	sched.Release(rest)
	sched.Remove("x")
	for range 20 {
		s.now = s.now.Add(time.Second)
		for {
			id, _, ok := sched.Next(s.now)
			if !ok {
				break
			}
			if id == "x" {
				t.Fatal("x asked after it was removed: it was queued twice")
			}
			sched.Answer(id, exchange.Withdrawal{QuoteID: id, State: exchange.StateSubmitted, UpdatedAt: s.now}, nil, s.now)
		}
	}
}

// TestACutAskKeepsItsSlot: a span cut short while an ask is out (a row
// removed, a status screen opened) gives the id back but not its slot of
// the budget: the request went out, so the next span asks no more than the
// budget in that second.
func TestACutAskKeepsItsSlot(t *testing.T) {
	s := &script{now: time.Date(2026, 3, 14, 9, 0, 0, 0, time.UTC), answers: map[string][]error{}, states: map[string][]string{}}
	start := s.now
	sched := follow.NewScheduler(5)
	for _, id := range []string{"a", "b", "c", "d", "e", "f", "g"} {
		s.states[id] = []string{exchange.StateSubmitted}
		sched.Add(id, s.now)
	}
	loop := s.loop(sched)
	var sent []time.Duration
	ask := loop.Ask
	ctx, cancel := context.WithCancel(context.Background())
	loop.Ask = func(c context.Context, id string) (exchange.Withdrawal, error) {
		sent = append(sent, s.now.Sub(start))
		if len(sent) == 3 {
			cancel()
		}
		return ask(c, id)
	}
	for _, c := range []context.Context{ctx, context.Background()} {
		p, _ := loop.Plan(s.now, time.Second)
		asked, rest, _ := loop.AskPlan(c, p)
		for _, a := range asked {
			loop.TookAt(a)
		}
		sched.Release(rest)
	}
	n := 0
	for _, d := range sent {
		if d < time.Second {
			n++
		}
	}
	if n > 5 {
		t.Errorf("%d requests in the first second at 5 a second: %v", n, sent)
	}
}
