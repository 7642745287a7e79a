package follow_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/svcwallet/svcwallet/internal/loopback"
	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/follow"
	"github.com/svcwallet/svcwallet/service/journal"
	"github.com/svcwallet/svcwallet/service/sandbox"
)

// seed records n withdrawals to each destination and returns their ids.
func seed(t testing.TB, ex *sandbox.Exchange, n int, dests ...string) []string {
	t.Helper()
	var ids []string
	for _, d := range dests {
		for range n {
			id, err := ex.SeedWithdrawal(sandbox.DemoAccountID, d, "ARBITRUM", "10")
			if err != nil {
				t.Fatal(err)
			}
			ids = append(ids, id)
		}
	}
	return ids
}

// runScheduler runs the scheduler against the client on the world's fake clock
// until nothing moves or until end, calling ask after each request.
func runScheduler(t *testing.T, w *loopback.World, c *exchange.Client, s *follow.Scheduler, end time.Time, ask func(id string, now time.Time, err error)) {
	t.Helper()
	for w.Clock.Now().Before(end) {
		now := w.Clock.Now()
		id, wait, ok := s.Next(now)
		if !ok {
			if wait == 0 {
				return
			}
			w.Clock.Advance(wait)
			continue
		}
		st, err := c.WithdrawalStatus(context.Background(), id)
		ask(id, now, err)
		s.Answer(id, st, err, now)
	}
}

// TestSchedulerThousandIDs: 1,000 withdrawals followed against a sandbox
// limited to 5 requests a second: no request is refused, no second holds
// more than 5, every moving id is asked at least every 1,000/5 + 3 s, and
// an id is never asked once final.
func TestSchedulerThousandIDs(t *testing.T) {
	t.Parallel() // its own sandbox on its own fake clock
	w := loopback.NewWorld(t, sandbox.Options{RateLimit: 5, Settle: 15 * time.Minute})
	c := w.Login(sandbox.DemoAPIKey, exchange.Options{})
	ids := seed(t, w.Ex, 334, sandbox.DestCompleted, sandbox.DestFailed, sandbox.DestRefunded)[:1000]
	s := follow.NewScheduler(5)
	start := w.Clock.Now()
	for _, id := range ids {
		s.Add(id, start)
	}
	perSecond := map[int64]int{}
	lastAsk := map[string]time.Time{}
	final := map[string]bool{}
	bound := 1000/5*time.Second + 3*time.Second
	runScheduler(t, w, c, s, start.Add(time.Hour), func(id string, now time.Time, err error) {
		if err != nil {
			t.Fatalf("%s at %s: %v", id, now.Sub(start), err)
		}
		if final[id] {
			t.Fatalf("%s asked again after it was final", id)
		}
		if perSecond[now.Unix()]++; perSecond[now.Unix()] > 5 {
			t.Fatalf("more than 5 requests in the second at %s", now.Sub(start))
		}
		if last, ok := lastAsk[id]; ok && now.Sub(last) > bound {
			t.Fatalf("%s waited %s between asks, over %s", id, now.Sub(last), bound)
		}
		lastAsk[id] = now
		if f, _ := s.Get(id); f.Known && exchange.Terminal(f.Last.State) {
			final[id] = true
		}
	})
	if s.Moving() != 0 {
		t.Fatalf("%d ids still moving after an hour", s.Moving())
	}
	for _, id := range ids {
		if f, _ := s.Get(id); !f.Final || !exchange.Terminal(f.Last.State) {
			t.Fatalf("%s ended %+v", id, f)
		}
	}
}

// TestSchedulerTenIDsEveryThreeSeconds: with few ids the budget is not the
// limit: each is asked every 3 s.
func TestSchedulerTenIDsEveryThreeSeconds(t *testing.T) {
	w := loopback.NewWorld(t, sandbox.Options{RateLimit: 5, Settle: 10 * time.Minute})
	c := w.Login(sandbox.DemoAPIKey, exchange.Options{})
	ids := seed(t, w.Ex, 10, sandbox.DestCompleted)
	s := follow.NewScheduler(5)
	start := w.Clock.Now()
	for _, id := range ids {
		s.Add(id, start)
	}
	asks := map[string][]time.Time{}
	runScheduler(t, w, c, s, start.Add(time.Minute), func(id string, now time.Time, err error) {
		if err != nil {
			t.Fatal(err)
		}
		asks[id] = append(asks[id], now)
	})
	for _, id := range ids {
		times := asks[id]
		if len(times) < 19 {
			t.Fatalf("%s asked %d times in a minute, want about 20", id, len(times))
		}
		for i := 1; i < len(times); i++ {
			if gap := times[i].Sub(times[i-1]); gap != 3*time.Second {
				t.Fatalf("%s asked %s after the previous ask, want 3s", id, gap)
			}
		}
	}
}

// TestSchedulerHonours429: a scheduler allowed 5 a second against a
// sandbox allowing 2 gets 429s; after each, nothing is asked before its
// Retry-After has passed, and every id still reaches its final state.
func TestSchedulerHonours429(t *testing.T) {
	w := loopback.NewWorld(t, sandbox.Options{RateLimit: 2, Settle: 30 * time.Second})
	c := w.Login(sandbox.DemoAPIKey, exchange.Options{})
	ids := seed(t, w.Ex, 10, sandbox.DestCompleted, sandbox.DestRefunded)
	s := follow.NewScheduler(5)
	start := w.Clock.Now()
	for _, id := range ids {
		s.Add(id, start)
	}
	var pausedUntil time.Time
	refused := 0
	runScheduler(t, w, c, s, start.Add(10*time.Minute), func(id string, now time.Time, err error) {
		if now.Before(pausedUntil) {
			t.Fatalf("asked %s at %s, before the Retry-After ended at %s", id, now.Sub(start), pausedUntil.Sub(start))
		}
		var api *exchange.APIError
		if errors.As(err, &api) && errors.Is(err, exchange.ErrRateLimited) {
			if api.RetryAfter <= 0 {
				t.Fatal("429 without a Retry-After read")
			}
			refused++
			pausedUntil = now.Add(api.RetryAfter)
		} else if err != nil {
			t.Fatal(err)
		}
	})
	if refused == 0 {
		t.Fatal("the sandbox never refused: the test proves nothing")
	}
	if s.Moving() != 0 {
		t.Fatalf("%d ids still moving", s.Moving())
	}
}

// TestSchedulerAddKept (issue 21 bug 2): what was kept of an id is known
// at once; one final then (a terminal state, an unknown id) is never
// handed out, the moving ones are due at once, and so is a kept CREATED
// record however old: whether its quote expired unexecuted is decided on
// the service's clock of a fresh answer (D15). Kept gives back what
// AddKept took.
func TestSchedulerAddKept(t *testing.T) {
	now := time.Date(2026, 3, 2, 10, 0, 0, 0, time.UTC)
	rec := func(id, state string, updated time.Time) *exchange.Withdrawal {
		return &exchange.Withdrawal{QuoteID: id, State: state, Chain: "ARBITRUM", TokenOut: "USDT", UpdatedAt: updated}
	}
	s := follow.NewScheduler(5)
	kept := []follow.Kept{
		{QuoteID: "q-paid", Record: rec("q-paid", exchange.StateCompleted, now.Add(-time.Hour)), Since: now.Add(-time.Hour), Checked: now.Add(-time.Hour)},
		{QuoteID: "q-gone", NotFound: true},
		{QuoteID: "q-stale", Record: rec("q-stale", exchange.StateCreated, now.Add(-time.Hour))},
		{QuoteID: "q-sending", Record: rec("q-sending", exchange.StateSending, now.Add(-time.Minute))},
		{QuoteID: "q-new"},
	}
	for _, k := range kept {
		s.AddKept(k, now)
	}
	if s.Len() != 5 || s.Moving() != 3 {
		t.Fatalf("%d followed, %d moving; want 5 and 3", s.Len(), s.Moving())
	}
	if f, _ := s.Get("q-paid"); !f.Known || !f.Final || f.Last.State != exchange.StateCompleted || f.Kept().Checked != kept[0].Checked {
		t.Errorf("the completed one: %+v", f)
	}
	asked := map[string]bool{}
	for at := now; at.Before(now.Add(time.Minute)); at = at.Add(time.Second) {
		if id, _, ok := s.Next(at); ok {
			asked[id] = true
			s.Answer(id, exchange.Withdrawal{QuoteID: id, State: exchange.StateSending, Chain: "ARBITRUM", TokenOut: "USDT", UpdatedAt: now}, nil, at)
		}
	}
	if len(asked) != 3 || !asked["q-sending"] || !asked["q-new"] || !asked["q-stale"] {
		t.Errorf("asked %v; want only the moving, the new and the kept CREATED one", asked)
	}
}

// TestSchedulerPausedFor (issue 21 bug 3): a 429 pauses every ask for its
// Retry-After, which PausedFor counts down; an error that is not a 429
// pauses nothing.
func TestSchedulerPausedFor(t *testing.T) {
	now := time.Date(2026, 3, 2, 10, 0, 0, 0, time.UTC)
	s := follow.NewScheduler(5)
	s.Add("q-1", now)
	s.Add("q-2", now)
	id, _, _ := s.Next(now)
	s.Answer(id, exchange.Withdrawal{}, &exchange.APIError{Status: 503}, now)
	if p := s.PausedFor(now); p != 0 {
		t.Fatalf("a 503 paused the asks for %s", p)
	}
	now = now.Add(time.Second)
	id, _, _ = s.Next(now)
	s.Answer(id, exchange.Withdrawal{}, &exchange.APIError{Status: 429, Code: exchange.CodeRateLimited, RetryAfter: 3 * time.Second}, now)
	if p := s.PausedFor(now.Add(time.Second)); p != 2*time.Second {
		t.Fatalf("a second into a 3 s Retry-After: paused for %s more", p)
	}
	if _, wait, ok := s.Next(now.Add(time.Second)); ok || wait != 2*time.Second {
		t.Fatalf("asked during the pause, or waits %s", wait)
	}
	if p := s.PausedFor(now.Add(4 * time.Second)); p != 0 {
		t.Fatalf("after the pause: paused for %s", p)
	}
}

// TestSchedulerFinalStates: an unknown id is final at once; an unexecuted
// quote is final (expired) soon after the expiry its journal record holds
// (Know) plus the margin, and one the journal lacks once the default
// lifetime plus the margin has passed since updated_at, by the service's
// clock, not minutes later.
func TestSchedulerFinalStates(t *testing.T) {
	s := follow.NewScheduler(5)
	now := time.Date(2026, 3, 2, 10, 0, 0, 0, time.UTC)
	s.Know(follow.Own{"q-journaled": {QuoteID: "q-journaled", Made: true, Intent: journal.Intent{ExpiresAt: now.Add(20 * time.Second)}}})
	s.Add("q-gone", now)
	s.Add("q-created", now)
	s.Add("q-journaled", now)
	for range 3 {
		id, _, _ := s.Next(now)
		switch id {
		case "q-gone":
			s.Answer(id, exchange.Withdrawal{}, &exchange.APIError{Status: 404, Code: exchange.CodeNotFound}, now)
		default:
			s.Answer(id, exchange.Withdrawal{QuoteID: id, State: exchange.StateCreated, UpdatedAt: now}, nil, now)
		}
		now = now.Add(time.Second)
	}
	if f, _ := s.Get("q-gone"); !f.Final || !f.NotFound {
		t.Fatalf("unknown id not final: %+v", f)
	}
	ended := map[string]time.Duration{}
	start := now.Add(-3 * time.Second)
	for at := now; at.Before(now.Add(10 * time.Minute)); at = at.Add(time.Second) {
		id, _, ok := s.Next(at)
		if !ok {
			continue
		}
		s.Answer(id, exchange.Withdrawal{QuoteID: id, State: exchange.StateCreated, UpdatedAt: start, ServiceTime: at}, nil, at)
		if f, _ := s.Get(id); f.Final {
			ended[id] = at.Sub(start)
		}
	}
	if d, ok := ended["q-journaled"]; !ok || d > 20*time.Second+follow.ExecutableMargin+3*time.Second || d < 20*time.Second+follow.ExecutableMargin {
		t.Errorf("the journaled quote expired after %s (ended %v); want soon after its own expiry and the margin", d, ok)
	}
	stale := follow.LongestQuoteLife + follow.ExecutableMargin
	if d, ok := ended["q-created"]; !ok || d > stale+3*time.Second || d < stale {
		t.Errorf("an unexecuted quote expired after %s (ended %v); want the default lifetime plus the margin", d, ok)
	}
}

// TestSchedulerJournalsOwnOnly: the scheduler says to journal each new
// state of an own withdrawal once, from the last one its journal holds on
// (SUBMITTED, from the acceptance), and never a state of an id the journal
// does not hold for this account, nor CREATED.
func TestSchedulerJournalsOwnOnly(t *testing.T) {
	now := time.Date(2026, 3, 2, 10, 0, 0, 0, time.UTC)
	s := follow.NewScheduler(5)
	s.Add("q-mine", now) // added before the journal is read: it learns too
	s.Add("q-other", now)
	s.Know(follow.OwnOf([]journal.Record{
		{QuoteID: "q-mine", Made: true, Answered: true, State: exchange.StateSubmitted, AcceptedAt: now},
		{QuoteID: "q-seen", State: exchange.StateSending}, // a state line without intent or acceptance: not made here
	}))
	s.Add("q-seen", now)
	journaled := map[string][]string{}
	for i, state := range []string{exchange.StateCreated, exchange.StateSubmitted, exchange.StateSubmitted, exchange.StateSending, exchange.StateCompleted} {
		for j := range 3 {
			at := now.Add(time.Duration(i)*time.Minute + time.Duration(j)*s.Gap)
			id, _, ok := s.Next(at)
			if !ok {
				t.Fatalf("nothing to ask at %s", state)
			}
			if step := s.Answer(id, exchange.Withdrawal{QuoteID: id, State: state, UpdatedAt: at}, nil, at); step.JournalState != "" {
				journaled[id] = append(journaled[id], step.JournalState)
			}
		}
	}
	if got := fmt.Sprint(journaled); got != "map[q-mine:[SENDING COMPLETED]]" {
		t.Errorf("journaled %s; want SENDING and COMPLETED of q-mine, once each", got)
	}
}

// BenchmarkSchedulerStep: one Next and Answer with 10,000 moving ids.
func BenchmarkSchedulerStep(b *testing.B) {
	s := follow.NewScheduler(5)
	now := time.Date(2026, 3, 2, 10, 0, 0, 0, time.UTC)
	for i := range 10000 {
		s.Add(fmt.Sprintf("q-%08d", i), now)
	}
	w := exchange.Withdrawal{State: exchange.StateSending, UpdatedAt: now}
	b.ReportAllocs()
	for b.Loop() {
		now = now.Add(200 * time.Millisecond)
		id, _, ok := s.Next(now)
		if !ok {
			b.Fatal("nothing due")
		}
		w.QuoteID = id
		s.Answer(id, w, nil, now)
	}
}

// BenchmarkSchedulerMemory10k reports the heap held by 10,000 followed ids,
// each with an answer, as bytes/10k-ids.
func BenchmarkSchedulerMemory10k(b *testing.B) {
	for b.Loop() {
		var before, after runtimeMem
		before.read()
		s := follow.NewScheduler(5)
		now := time.Date(2026, 3, 2, 10, 0, 0, 0, time.UTC)
		for i := range 10000 {
			id := fmt.Sprintf("q-%026d", i)
			s.Add(id, now)
		}
		for range 10000 {
			id, _, ok := s.Next(now)
			if !ok {
				b.Fatal("nothing due")
			}
			s.Answer(id, exchange.Withdrawal{QuoteID: id, TxID: "tx-" + id, State: exchange.StateSending, Chain: "ARBITRUM", TokenOut: "USDT", UpdatedAt: now}, nil, now)
			now = now.Add(200 * time.Millisecond)
		}
		after.read()
		b.ReportMetric(float64(after.heap-before.heap), "bytes/10k-ids")
		if s.Len() != 10000 {
			b.Fatal(s.Len())
		}
	}
}

// TestSchedulerAgain: a person asking again makes a moving id due at once,
// whether it waits its turn or was handed out and its answer lost; an id
// taken for unknown is followed again; one that ended in a terminal state
// is not.
func TestSchedulerAgain(t *testing.T) {
	now := time.Date(2026, 3, 14, 9, 0, 0, 0, time.UTC)
	s := follow.NewScheduler(5)
	for _, id := range []string{"moving", "unknown", "done"} {
		s.Add(id, now)
	}
	answers := map[string]error{"unknown": exchange.ErrNotFound}
	for range 3 {
		id, _, ok := s.Next(now)
		if !ok {
			now = now.Add(s.Gap)
			id, _, _ = s.Next(now)
		}
		state := exchange.StateSending
		if id == "done" {
			state = exchange.StateCompleted
		}
		s.Answer(id, exchange.Withdrawal{QuoteID: id, State: state}, answers[id], now)
	}
	now = now.Add(time.Second) // before "moving" is due again
	if !s.Again("moving", now) || !s.Again("unknown", now) || s.Again("done", now) || s.Again("never added", now) {
		t.Fatal("Again: want moving and unknown followed again, done and an id never added not")
	}
	var asked []string
	for range 2 {
		id, wait, ok := s.Next(now)
		if !ok {
			now = now.Add(wait)
			id, _, ok = s.Next(now)
		}
		if !ok {
			t.Fatal("an id asked again is not handed out")
		}
		asked = append(asked, id)
	}
	slices.Sort(asked)
	if !slices.Equal(asked, []string{"moving", "unknown"}) || now.After(time.Date(2026, 3, 14, 9, 0, 2, 0, time.UTC)) {
		t.Fatalf("asked %v by %s; want moving and unknown at once", asked, now.Format(time.TimeOnly))
	}
	// Handed out, its answer lost (its screen hidden): due again, once.
	s.Again("moving", now)
	if _, wait, _ := s.Next(now); wait > s.Gap {
		t.Fatalf("a lost ask asked again waits %s", wait)
	}
}

// TestAskedOnceIn: what the faces say a look-up of n ids takes is the
// scheduler's budget, its default for a rate not set: 50 ids at 5 a second
// take 10 s.
func TestAskedOnceIn(t *testing.T) {
	for _, c := range []struct {
		n, rate int
		want    time.Duration
	}{{50, 5, 10 * time.Second}, {11, 5, 2200 * time.Millisecond}, {50, 0, 10 * time.Second}, {3, 1, 3 * time.Second}} {
		if got := follow.AskedOnceIn(c.n, c.rate); got != c.want {
			t.Errorf("AskedOnceIn(%d, %d) = %s, want %s", c.n, c.rate, got, c.want)
		}
	}
}
