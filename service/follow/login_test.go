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
