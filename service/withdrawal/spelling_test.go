package withdrawal_test

import (
	"context"
	"net/url"
	"testing"

	"github.com/svcwallet/svcwallet/service/withdrawal"
)

// TestResumeUnderAnotherSpelling: a withdrawal that got no answer is
// settled through its environment when base_url spells the same host
// otherwise (a leading zero in the port), and when its line was written
// under such a spelling by an earlier version: both were refused as
// another service's. Meanwhile the repeat guard still holds the identical
// withdrawal back through that spelling: it is never signed twice.
func TestResumeUnderAnotherSpelling(t *testing.T) {
	r := newRig(t, 0, false)
	o, rec := r.lostWithdrawal()
	r.holding.Store(false)
	u, err := url.Parse(r.env.BaseURL)
	if err != nil {
		t.Fatal(err)
	}
	u.Host = u.Hostname() + ":0" + u.Port()
	spelt, c := r.named(r.env.Name, u.String())
	if spelt.Service() != r.env.Service() {
		t.Fatalf("%s is %v, %s is %v: want one service", spelt.BaseURL, spelt.Service(), r.env.BaseURL, r.env.Service())
	}
	through := mustWithdrawer(t, withdrawal.Setup{Client: c, Journal: r.journal, Now: r.local.Now, BridgePins: r.pins})
	if rep, err := through.Repeats(o.Choice); err != nil || rep.Unanswered == nil || rep.Unanswered.QuoteID != o.Quote.QuoteID {
		t.Fatalf("through %s the repeat guard found %+v (%v), want the unanswered %s", spelt.BaseURL, rep.Unanswered, err, o.Quote.QuoteID)
	}
	earlier := rec
	earlier.Service.Host = u.Host
	if settled := r.withdrawer().Settle(context.Background(), earlier); settled.Outcome != withdrawal.SettledAccepted {
		t.Fatalf("a line written for %s, settled through %s: %+v, want it accepted", u.Host, r.env.BaseURL, settled)
	}
	if settled := through.Settle(context.Background(), rec); settled.Outcome != withdrawal.SettledAccepted {
		t.Fatalf("settled through %s: %+v, want it accepted", spelt.BaseURL, settled)
	}
	if r.guarded(o) {
		t.Fatal("still unanswered once settled")
	}
}
