package exchange_test

import (
	"context"
	"math/rand/v2"
	"sync"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"github.com/svcwallet/svcwallet/internal/exchangetest"
	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/sandbox"
)

// TestWithdrawFaultsPayExactlyOnce runs 1,000 seeded trials (250 outside
// -tags e2e) in which the
// withdraw endpoint answers 502 before committing, hangs after committing
// (the client times out), or drops the connection before or after
// committing. The client retries with the identical body (D10) and, when its
// retries run out, the intent is re-sent as the resume screen does. Each
// intent must debit the account exactly once: never twice, never none.
func TestWithdrawFaultsPayExactlyOnce(t *testing.T) {
	trials := exchangetest.Trials(1000)
	amount := decimal.RequireFromString("2")
	w := newWorld(t, sandbox.Options{})
	rng := rand.New(rand.NewPCG(20261122, 1))
	var mu sync.Mutex
	counts := map[sandbox.Fault]int{}
	w.Ex.InjectWithdrawFault(func(phase string) sandbox.Fault {
		mu.Lock()
		defer mu.Unlock()
		f := sandbox.FaultNone
		switch p := rng.IntN(100); {
		case phase == sandbox.PhaseBeforeCommit && p < 25:
			f = sandbox.FaultBadGateway
		case phase == sandbox.PhaseBeforeCommit && p < 35:
			f = sandbox.FaultDrop
		case phase == sandbox.PhaseAfterCommit && p < 15:
			f = sandbox.FaultHang
		case phase == sandbox.PhaseAfterCommit && p < 35:
			f = sandbox.FaultDrop
		}
		counts[f]++
		return f
	})
	// The withdrawing client gives up on a hung attempt quickly (an answer
	// slower than that is one more fault, paid once all the same); quotes
	// and status checks go through a second session with the default timeout.
	c := w.Login(sandbox.DemoAPIKey, exchange.Options{
		HTTPClient: shortTimeout(20 * time.Millisecond),
		Retry:      exchange.RetryPolicy{Attempts: 3, Sleep: noSleep},
	})
	check := w.Login(sandbox.DemoAPIKey, exchange.Options{})
	key := mustKey(t, sandbox.DemoPrivateKey)
	before := w.Ex.Balance(sandbox.DemoAccountID)
	for i := range trials {
		q, err := w.Quote(check, sandbox.DestCompleted, "ARBITRUM", amount.String())
		if err != nil {
			t.Fatalf("trial %d: quote: %v", i, err)
		}
		req := w.signWithdraw(check, q, key, nil)
		resends := 0
		for {
			_, err := c.Withdraw(context.Background(), req)
			if err == nil {
				break
			}
			if !exchange.Retryable(err) || resends > 50 {
				t.Fatalf("trial %d: withdraw failed for good after %d re-sends: %v", i, resends, err)
			}
			resends++
		}
		got, err := check.WithdrawalStatus(context.Background(), q.QuoteID)
		if err != nil || got.State != exchange.StateSubmitted {
			t.Fatalf("trial %d: status %+v, %v; want SUBMITTED", i, got, err)
		}
		want := before.Sub(amount.Mul(decimal.NewFromInt(int64(i + 1))))
		if bal := w.Ex.Balance(sandbox.DemoAccountID); !bal.Equal(want) {
			t.Fatalf("trial %d: balance %s, want %s (each intent must pay exactly once)", i, bal, want)
		}
	}
	mu.Lock()
	defer mu.Unlock()
	for _, f := range []sandbox.Fault{sandbox.FaultBadGateway, sandbox.FaultHang, sandbox.FaultDrop} {
		if counts[f] == 0 {
			t.Errorf("fault %d never injected: the trials did not exercise it", f)
		}
	}
	t.Logf("faults injected: 502=%d hang=%d drop=%d clean=%d", counts[sandbox.FaultBadGateway], counts[sandbox.FaultHang], counts[sandbox.FaultDrop], counts[sandbox.FaultNone])
}
