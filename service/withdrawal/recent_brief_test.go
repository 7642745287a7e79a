package withdrawal_test

import (
	"strings"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/journal"
	"github.com/svcwallet/svcwallet/service/sandbox"
	"github.com/svcwallet/svcwallet/service/withdrawal"
)

// TestRecentBrief: the warning of a recent identical withdrawal in the
// review's fewer words names it by quote id, its age and state, and says
// the new one pays again, without the money and destination the review
// shows above it; one paid out as another token says what each pays out.
func TestRecentBrief(t *testing.T) {
	now := time.Date(2026, 5, 4, 10, 0, 0, 0, time.UTC)
	c := withdrawal.Choice{TokenIn: "USDT", TokenOut: "USDT", Route: exchange.WithdrawalRoute{Chain: "BASE"}, ToAddress: sandbox.DestCompleted, Amount: decimal.RequireFromString("14")}
	rec := journal.Record{QuoteID: "q-recent", Made: true, Answered: true, State: exchange.StateSending, Started: now.Add(-2 * time.Minute),
		Intent: journal.Intent{ToAddress: sandbox.DestCompleted, Chain: "BASE", TokenIn: "USDT", TokenOut: "USDT", PayAmount: c.Amount}}
	for out, want := range map[string]string{
		"USDT": "identical to q-recent, made 2m0s ago, still SENDING: this one pays again",
		"USDC": "the same money as q-recent (paid out as USDT; this one as USDC), made 2m0s ago, still SENDING: this one pays again",
	} {
		c.TokenOut = out
		rep := withdrawal.FindRepeat([]journal.Record{rec}, c, now)
		if rep.Recent == nil {
			t.Fatalf("%s: no recent withdrawal found", out)
		}
		if got := rep.RecentBrief(now); got != want {
			t.Errorf("%s: %q, want %q", out, got, want)
		}
		if full := rep.RecentWords(now); strings.Contains(rep.RecentBrief(now), sandbox.DestCompleted) || !strings.Contains(full, sandbox.DestCompleted) {
			t.Errorf("%s: the brief words name the destination, or the full ones do not: %q", out, full)
		}
	}
}
