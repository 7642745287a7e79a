package follow_test

import (
	"context"
	"errors"
	"net/http"
	"slices"
	"testing"
	"time"

	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/follow"
	"github.com/svcwallet/svcwallet/service/journal"
)

// script is a service answering each quote id from its list, in turn, on a
// clock only the loop's waits move.
type script struct {
	now     time.Time
	answers map[string][]error // nil: the next state of states
	states  map[string][]string
	asked   []string
	waited  time.Duration
}

var (
	rateLimited = &exchange.APIError{Status: http.StatusTooManyRequests, Code: exchange.CodeRateLimited, RetryAfter: 2 * time.Second}
	unreachable = &exchange.TransportError{Host: "api.example", Err: errors.New("connection refused")}
)

func (s *script) loop(sched *follow.Scheduler) follow.Loop {
	return follow.Loop{Scheduler: sched, Now: func() time.Time { return s.now }, MaxFailures: 3,
		Wait: func(ctx context.Context, d time.Duration) error {
			s.now, s.waited = s.now.Add(d), s.waited+d
			return ctx.Err()
		},
		Ask: func(_ context.Context, id string) (exchange.Withdrawal, error) {
			s.asked = append(s.asked, id)
			if errs := s.answers[id]; len(errs) > 0 {
				s.answers[id] = errs[1:]
				if errs[0] != nil {
					return exchange.Withdrawal{}, errs[0]
				}
			}
			state := s.states[id][0]
			if len(s.states[id]) > 1 {
				s.states[id] = s.states[id][1:]
			}
			return exchange.Withdrawal{QuoteID: id, State: state, UpdatedAt: s.now}, nil
		}}
}

// TestLoopRunsEachIDToItsEnd: the one follow loop asks each id until it is
// final, waits out a 429 (asked again, not counted as an answer), gives an
// id up after MaxFailures failed asks in a row, journals the states of an
// own withdrawal only, and stops following an id the face settles.
func TestLoopRunsEachIDToItsEnd(t *testing.T) {
	s := &script{now: time.Date(2026, 3, 14, 9, 0, 0, 0, time.UTC),
		answers: map[string][]error{"own": {rateLimited, nil, nil}, "gone": {unreachable, unreachable, unreachable}, "settled": {nil}},
		states: map[string][]string{"own": {exchange.StateSubmitted, exchange.StateCompleted}, "other": {exchange.StateSending, exchange.StateFailed},
			"settled": {exchange.StateSending}}}
	sched := follow.NewScheduler(5)
	sched.Know(follow.OwnOf([]journal.Record{{QuoteID: "own", Made: true}}))
	for _, id := range []string{"own", "other", "gone", "settled"} {
		sched.Add(id, s.now)
	}
	loop := s.loop(sched)
	var journaled []string
	loop.Journal = func(id string, w exchange.Withdrawal) error {
		journaled = append(journaled, id+" "+w.State)
		return nil
	}
	last := map[string]follow.Seen{}
	err := loop.Run(context.Background(), func(seen follow.Seen) bool {
		last[seen.QuoteID] = seen
		return seen.QuoteID != "settled"
	})
	if err != nil {
		t.Fatal(err)
	}
	if o := last["own"]; !o.Done || !o.Final || o.Last.State != exchange.StateCompleted {
		t.Errorf("own ended %+v, want COMPLETED", o.Follow)
	}
	if o := last["other"]; !o.Done || o.Last.State != exchange.StateFailed {
		t.Errorf("other ended %+v, want FAILED", o.Follow)
	}
	if g := last["gone"]; !g.GaveUp || !g.Done || g.Failures != 3 {
		t.Errorf("gone: gave up %v after %d failures, want after 3", g.GaveUp, g.Failures)
	}
	if n := count(s.asked, "settled"); n != 1 {
		t.Errorf("an id the face settled was asked %d times", n)
	}
	if n := count(s.asked, "own"); n != 3 {
		t.Errorf("own asked %d times, want 3 (the 429, SUBMITTED, COMPLETED)", n)
	}
	if want := []string{"own SUBMITTED", "own COMPLETED"}; !slices.Equal(journaled, want) {
		t.Errorf("journaled %v, want %v", journaled, want)
	}
	if s.waited < rateLimited.RetryAfter {
		t.Errorf("waited %s in all: the 429's pause was not waited out", s.waited)
	}
}

// TestLoopOnce: with Once each id is asked until answered once: a 429 is
// no answer and is asked again after its pause; any other failure is the
// answer.
func TestLoopOnce(t *testing.T) {
	s := &script{now: time.Date(2026, 3, 14, 9, 0, 0, 0, time.UTC),
		answers: map[string][]error{"limited": {rateLimited, nil}, "down": {unreachable}},
		states:  map[string][]string{"limited": {exchange.StateSending}}}
	sched := follow.NewScheduler(5)
	sched.Add("limited", s.now)
	sched.Add("down", s.now)
	loop := s.loop(sched)
	loop.Once = true
	var seen []follow.Seen
	if err := loop.Run(context.Background(), func(f follow.Seen) bool { seen = append(seen, f); return true }); err != nil {
		t.Fatal(err)
	}
	if len(s.asked) != 3 || count(s.asked, "limited") != 2 {
		t.Fatalf("asked %v, want limited twice and down once", s.asked)
	}
	for _, f := range seen {
		if want := !f.Step.RateLimited; f.Done != want {
			t.Errorf("%s (rate limited %v): done %v", f.QuoteID, f.Step.RateLimited, f.Done)
		}
	}
	s.answers["limited"] = []error{nil}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	sched.Add("again", s.now)
	if err := loop.Run(ctx, func(follow.Seen) bool { return true }); !errors.Is(err, context.Canceled) {
		t.Errorf("a run whose context ended: %v", err)
	}
}

func count(ids []string, id string) int {
	n := 0
	for _, x := range ids {
		if x == id {
			n++
		}
	}
	return n
}
