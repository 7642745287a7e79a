package follow

import (
	"fmt"
	"testing"
	"time"

	"github.com/svcwallet/svcwallet/service/exchange"
)

// TestSchedulerPasteAmongHot (issue 35 item 1a): a board holding n ids
// that all changed within HotWindow (hot), each answered and asked again
// every 3 s, at 5 requests a second; 100 ids are pasted once the board
// runs steadily. However many are hot, every pasted id is first asked
// within 30 s of the paste, the asks go on at 5 a second, and the hot ids
// are still asked meanwhile: their re-asks share the budget with the ids
// never asked, neither starving the other.
func TestSchedulerPasteAmongHot(t *testing.T) {
	for _, n := range []int{60, 1_000, 10_000} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			start := time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)
			s := NewScheduler(5)
			answer := func(id string, now time.Time) exchange.Withdrawal {
				return exchange.Withdrawal{QuoteID: id, State: exchange.StateSubmitted, Chain: "ARBITRUM", TokenOut: "USDT",
					UpdatedAt: start.Add(-time.Minute)}
			}
			for i := range n {
				id := fmt.Sprintf("q-hot-%05d", i)
				w := answer(id, start)
				checked := start.Add(-time.Duration(i%60) * time.Second)
				s.AddKept(Kept{QuoteID: id, Record: &w, Since: w.UpdatedAt, Checked: checked}, start)
			}
			now := start
			run := func(until time.Time, ask func(id string)) {
				for now.Before(until) {
					id, wait, ok := s.Next(now)
					if !ok {
						now = now.Add(wait)
						continue
					}
					ask(id)
					s.Answer(id, answer(id, now), nil, now)
				}
			}
			run(start.Add(time.Minute), func(string) {}) // steady
			pastedAt := now
			var pasted []string
			for i := range 100 {
				id := fmt.Sprintf("q-new-%03d", i)
				s.Add(id, now)
				pasted = append(pasted, id)
			}
			first := map[string]time.Time{}
			var order []string // every ask after the paste
			waited := 0        // the asks until every pasted id was asked
			run(pastedAt.Add(30*time.Second), func(id string) {
				order = append(order, id)
				if _, ok := first[id]; !ok && id[:5] == "q-new" {
					if first[id] = now; len(first) == len(pasted) {
						waited = len(order)
					}
				}
			})
			for _, id := range pasted {
				if _, ok := first[id]; !ok {
					t.Fatalf("%d hot ids: pasted %s not asked within 30 s (%d asks)", n, id, len(order))
				}
			}
			if len(order) < 149 {
				t.Errorf("%d asks in 30 s, want 5 a second", len(order))
			}
			// While pasted ids wait, the hot ones keep a share.
			hot := 0
			for _, id := range order[:waited] {
				if id[:5] == "q-hot" {
					hot++
				}
			}
			if hot < waited/10 {
				t.Errorf("%d of the %d asks made while pasted ids waited went to the hot ids: starved", hot, waited)
			}
		})
	}
}

// TestSchedulerKeepsTheRateWhenLate: a console's timer fires a little
// after the wait Next asked for (here 15 ms); the budget's slots are kept
// from where they were due, so 100 moving ids are still asked 5 times a
// second, never two asks closer than half a slot.
func TestSchedulerKeepsTheRateWhenLate(t *testing.T) {
	start := time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)
	s := NewScheduler(5)
	for i := range 100 {
		s.Add(fmt.Sprintf("q-late-%03d", i), start)
	}
	now, asks, last := start, 0, time.Time{}
	for now.Before(start.Add(time.Minute)) {
		id, wait, ok := s.Next(now)
		if !ok {
			now = now.Add(wait + 15*time.Millisecond)
			continue
		}
		if !last.IsZero() && now.Sub(last) < s.Gap/2 {
			t.Fatalf("two asks %s apart", now.Sub(last))
		}
		asks, last = asks+1, now
		s.Answer(id, exchange.Withdrawal{QuoteID: id, State: exchange.StateSending, UpdatedAt: start.Add(-time.Hour)}, nil, now)
	}
	if asks < 299 {
		t.Errorf("%d asks in a minute with late timers, want 300", asks)
	}
}

// TestSchedulerLends: while another asker takes one request every 3 s of
// the budget (the status screen of a row the board opened), the scheduler
// spends the rest, so that together they keep to 5 a second; given back,
// it spends all of it again.
func TestSchedulerLends(t *testing.T) {
	start := time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)
	s := NewScheduler(5)
	for i := range 1000 {
		s.Add(fmt.Sprintf("q-lend-%04d", i), start)
	}
	count := func(from, to time.Time) int {
		n := 0
		for now := from; now.Before(to); {
			id, wait, ok := s.Next(now)
			if !ok {
				now = now.Add(wait)
				continue
			}
			n++
			s.Answer(id, exchange.Withdrawal{QuoteID: id, State: exchange.StateSending, UpdatedAt: start.Add(-time.Hour)}, nil, now)
		}
		return n
	}
	s.Lend(3 * time.Second)
	if n := count(start, start.Add(time.Minute)); n < 279 || n > 281 {
		t.Errorf("%d asks in a minute lending one every 3 s, want 280 (+20 = 300)", n)
	}
	s.Lend(0)
	if n := count(start.Add(time.Minute), start.Add(2*time.Minute)); n < 299 || n > 301 {
		t.Errorf("%d asks in a minute once given back, want 300", n)
	}
}
