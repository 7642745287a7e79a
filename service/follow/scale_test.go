package follow

import (
	"fmt"
	"testing"
	"time"

	"github.com/svcwallet/svcwallet/service/exchange"
)

// TestSchedulerFreshAtScale (issue 28 item 23, issue 35 item 1): a board of
// 10,000 ids at 5 requests a second, restarted with what it kept: 4,950
// finished (never asked again), 4,950 moving for hours (cold), and 100
// withdrawals made in the last minute just added. The fake service settles
// a new withdrawal as the sandbox does, but twice as slowly: SUBMITTED,
// SENDING from 6 s after it was made, COMPLETED from 12 s. Every new one is
// first asked within 30 s, newest first; while some wait for their first
// ask (four slots in five), the re-asks share the fifth, so one asked
// early is asked again within 30 s, and every 15 s at most once all were
// asked; an id pasted at 120 s is asked within 2 s; the old moving ones
// still get their quarter of the re-asks. (New withdrawals that all stay
// in motion for 20 s and more cannot all be asked every 15 s: 100 first
// asks and the second asks of those asked in the first 15 s are more than
// 150 requests in 30 s.)
func TestSchedulerFreshAtScale(t *testing.T) {
	start := time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)
	s := NewScheduler(5)
	made := map[string]time.Time{}
	state := func(id string, now time.Time) exchange.Withdrawal {
		w := exchange.Withdrawal{QuoteID: id, State: exchange.StateSending, Chain: "ARBITRUM", TokenOut: "USDT",
			UpdatedAt: start.Add(-2 * time.Hour)}
		if at, ok := made[id]; ok {
			switch age := now.Sub(at); {
			case age >= 12*time.Second:
				w.State, w.WithdrawTxHash, w.UpdatedAt = exchange.StateCompleted, "0xabc", at.Add(12*time.Second)
			case age >= 6*time.Second:
				w.State, w.UpdatedAt = exchange.StateSending, at.Add(6*time.Second)
			default:
				w.State, w.UpdatedAt = exchange.StateSubmitted, at
			}
		}
		return w
	}
	checked := start.Add(-time.Minute)
	for i := range 4950 {
		id := fmt.Sprintf("q-done-%04d", i)
		w := exchange.Withdrawal{QuoteID: id, State: exchange.StateCompleted, WithdrawTxHash: "0xabc", Chain: "ARBITRUM", TokenOut: "USDT"}
		s.AddKept(Kept{QuoteID: id, Record: &w, Checked: checked}, start)
	}
	var cold []string
	for i := range 4950 {
		id := fmt.Sprintf("q-old-%04d", i)
		w := state(id, start)
		s.AddKept(Kept{QuoteID: id, Record: &w, Since: checked, Checked: checked}, start)
		cold = append(cold, id)
	}
	var fresh []string
	for i := range 100 { // made one every 0.6 s over the last minute, added in that order
		id := fmt.Sprintf("q-new-%03d", i)
		made[id] = start.Add(-60*time.Second + time.Duration(i)*600*time.Millisecond)
		s.Add(id, start)
		fresh = append(fresh, id)
	}

	asked := map[string][]time.Time{}
	pasted, pastedAt := "q-pasted-1", start.Add(120*time.Second)
	made[pasted] = pastedAt
	now := start
	for now.Before(start.Add(10 * time.Minute)) {
		if _, ok := s.Get(pasted); !ok && !now.Before(pastedAt) {
			s.Add(pasted, now)
		}
		id, wait, ok := s.Next(now)
		if !ok {
			if _, added := s.Get(pasted); !added && now.Add(wait).After(pastedAt) {
				wait = pastedAt.Sub(now)
			}
			now = now.Add(wait)
			continue
		}
		asked[id] = append(asked[id], now)
		s.Answer(id, state(id, now), nil, now)
	}

	allAsked := start
	for _, id := range fresh {
		if len(asked[id]) > 0 && asked[id][0].After(allAsked) {
			allAsked = asked[id][0]
		}
	}
	for i, id := range fresh {
		times := asked[id]
		if len(times) == 0 || times[0].Sub(start) > 30*time.Second {
			t.Fatalf("%s first asked at %v, want within 30 s", id, times)
		}
		if i > 0 && times[0].After(asked[fresh[i-1]][0]) {
			t.Errorf("%s, made after %s, was asked after it", id, fresh[i-1])
		}
		end := made[id].Add(12 * time.Second)
		for j := 1; j < len(times) && times[j-1].Before(end); j++ {
			bound := 15 * time.Second
			if times[j-1].Before(allAsked) {
				bound = 30 * time.Second
			}
			if gap := times[j].Sub(times[j-1]); gap > bound {
				t.Errorf("%s, still moving, waited %s between asks at %s", id, gap, times[j].Sub(start))
			}
		}
	}
	if p := asked[pasted]; len(p) == 0 || p[0].Sub(pastedAt) > 2*time.Second {
		t.Errorf("the id pasted at 120 s was asked at %v", p)
	}
	for i := range 4950 {
		if n := len(asked[fmt.Sprintf("q-done-%04d", i)]); n != 0 {
			t.Fatalf("a finished id was asked %d times", n)
		}
	}
	missed := 0
	for _, id := range cold {
		if len(asked[id]) == 0 {
			missed++
		}
	}
	if asked := len(cold) - missed; asked < 750 { // a quarter of 5 a second for 10 minutes
		t.Errorf("only %d of the old moving ids were asked in 10 minutes", asked)
	}
}
