package follow_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/svcwallet/svcwallet/internal/loopback"
	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/follow"
	"github.com/svcwallet/svcwallet/service/sandbox"
)

// TestFollowAsksOnlyAsItsAccount: a follow (the board, plain mode's) asks
// only as the account it was started for (Loop.As). A login as another
// account made meanwhile on the same client ends it, named, with its ids
// given back unasked: asked as that account, whose service does not know
// the first one's quotes, each ended NOT FOUND, for good, and the board
// kept it so in its file.
func TestFollowAsksOnlyAsItsAccount(t *testing.T) {
	w := loopback.NewWorld(t, sandbox.Options{Settle: time.Hour})
	c := w.Login(sandbox.DemoAPIKey, exchange.Options{})
	ids := seed(t, w.Ex, 2, sandbox.DestCompleted)
	as, _ := c.Session()
	s := follow.NewScheduler(5)
	for _, id := range ids {
		s.Add(id, w.Clock.Now())
	}
	asked := 0
	wait := func(ctx context.Context, d time.Duration) error {
		w.Clock.Advance(d)
		return ctx.Err()
	}
	loop := follow.Loop{Scheduler: s, Now: w.Clock.Now, Wait: wait, As: as,
		Ask: func(ctx context.Context, id string) (exchange.Withdrawal, error) {
			if asked++; asked == 2 {
				if _, err := c.Login(ctx, exchange.APIKey(sandbox.NoChainAPIKey)); err != nil {
					t.Fatal(err)
				}
			}
			return c.WithdrawalStatus(ctx, id)
		}}
	err := loop.Run(context.Background(), func(seen follow.Seen) bool {
		if seen.NotFound {
			t.Errorf("%s said NOT FOUND: asked as the account logged in meanwhile", seen.QuoteID)
		}
		return true
	})
	changed, ok := errors.AsType[*follow.LoginChangedError](err)
	if !ok || changed.Was.AccountID != sandbox.DemoAccountID || changed.Now.AccountID == sandbox.DemoAccountID {
		t.Fatalf("the follow ended with %v; want the login's change, from the demo account", err)
	}
	for _, id := range ids {
		if f, _ := s.Get(id); f.Final {
			t.Errorf("%s ended %+v; want it still followed", id, f.Follow)
		}
	}
	if s.Moving() != len(ids) {
		t.Errorf("%d ids moving; want %d given back", s.Moving(), len(ids))
	}
}

// TestSchedulerHoldsAnotherAccountsKept: an id kept as followed by another
// account than the scheduler's is held: never handed out, an answer told
// of it (the status screen's) changes nothing, asking again is refused,
// and it is kept as that account's; ids of this account, or of a file of
// an earlier version (no account), are followed as this one's.
func TestSchedulerHoldsAnotherAccountsKept(t *testing.T) {
	now := time.Date(2026, 3, 14, 9, 0, 0, 0, time.UTC)
	submitted := &exchange.Withdrawal{QuoteID: "q-held", State: exchange.StateSubmitted, UpdatedAt: now}
	s := follow.NewScheduler(5)
	s.Account = "acct-b"
	s.AddKept(follow.Kept{QuoteID: "q-held", Record: submitted, As: "acct-a"}, now)
	s.AddKept(follow.Kept{QuoteID: "q-mine", As: "acct-b"}, now)
	s.AddKept(follow.Kept{QuoteID: "q-earlier"}, now)
	if s.Moving() != 2 {
		t.Fatalf("%d ids moving; want this account's and the earlier file's", s.Moving())
	}
	for i := range 2 {
		if id, _, ok := s.Next(now.Add(time.Duration(i) * time.Second)); !ok || id == "q-held" {
			t.Fatalf("handed out %q (%v)", id, ok)
		}
	}
	s.Answer("q-held", exchange.Withdrawal{}, exchange.ErrNotFound, now)
	if s.Again("q-held", now) {
		t.Error("the held id was asked again")
	}
	f, _ := s.Get("q-held")
	if !f.Held || f.NotFound || f.Final || f.Kept().As != "acct-a" {
		t.Errorf("held id %+v, kept as %q; want it as it was, acct-a's", f.Follow, f.Kept().As)
	}
	s.AddKept(follow.Kept{QuoteID: "q-held-unknown", As: "acct-a"}, now)
	if f, _ := s.Get("q-held-unknown"); f.Outcome().Name != follow.LabelOtherLogin {
		t.Errorf("a held id of which nothing is known is named %q; want %s, not one being asked", f.Outcome().Name, follow.LabelOtherLogin)
	}
	if mine, _ := s.Get("q-earlier"); mine.Held || mine.Kept().As != "acct-b" {
		t.Errorf("the earlier file's id: held %v, kept as %q; want it followed as acct-b's", mine.Held, mine.Kept().As)
	}
}

// TestAnotherLoginsNotFoundAskedAnew: "not found" is an account's answer
// (no such withdrawal of its own), so one kept as another login's is not
// this one's: the id is asked anew as this account, never shown as ended
// NOT FOUND for it, nor as a vanished withdrawal its journal saw accepted.
func TestAnotherLoginsNotFoundAskedAnew(t *testing.T) {
	now := time.Date(2026, 3, 14, 9, 0, 0, 0, time.UTC)
	s := follow.NewScheduler(5)
	s.Account = "acct-b"
	s.AddKept(follow.Kept{QuoteID: "q-theirs", NotFound: true, Checked: now.Add(-time.Hour), As: "acct-a"}, now)
	s.AddKept(follow.Kept{QuoteID: "q-mine", NotFound: true, Checked: now.Add(-time.Hour), As: "acct-b"}, now)
	f, _ := s.Get("q-theirs")
	if f.NotFound || f.Final || f.Held || f.Kept().As != "acct-b" || f.Outcome().Name != follow.LabelAsking {
		t.Errorf("another login's not-found reads %s (%+v), kept as %q; want it asked as acct-b", f.Outcome().Name, f.Follow, f.Kept().As)
	}
	if id, _, ok := s.Next(now); !ok || id != "q-theirs" {
		t.Errorf("handed out %q (%v); want another login's not-found asked anew", id, ok)
	}
	if mine, _ := s.Get("q-mine"); !mine.NotFound || !mine.Final {
		t.Errorf("this login's own not-found %+v; want it final", mine.Follow)
	}
}

// TestSchedulerHoldsNoCaseOfItsOwnAccount: a row kept as followed by this
// account, answered by the service in another letter case of its address,
// is this account's (exchange.SameAccountID), followed, never held.
func TestSchedulerHoldsNoCaseOfItsOwnAccount(t *testing.T) {
	now := time.Date(2026, 3, 14, 9, 0, 0, 0, time.UTC)
	s := follow.NewScheduler(5)
	s.Account = "0x5f1c2e9a3b7d4c1308a6e2f9b0c4d7e1a2b3c4d5"
	s.AddKept(follow.Kept{QuoteID: "q-mine", As: "0x5F1C2E9A3B7D4C1308A6E2F9B0C4D7E1A2B3C4D5"}, now)
	if f, _ := s.Get("q-mine"); f.Held || s.Moving() != 1 {
		t.Errorf("this account's row kept in another letter case is held (%v)", f.Held)
	}
}
