//go:build unix

package withdrawal_test

import (
	"context"
	"net/http"
	"os"
	"strings"
	"testing"

	"github.com/shopspring/decimal"

	"github.com/svcwallet/svcwallet/internal/exchangetest"
	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/sandbox"
	"github.com/svcwallet/svcwallet/service/withdrawal"
)

// TestAcceptedButNotRecorded: with room for the intent but not for the
// acceptance (a file-size limit set as the request leaves, as a disk that
// fills up would), the acceptance stands and is said to be unrecorded
// (Sent.Unrecorded), never dropped; the short write leaves no fragment,
// the journal shows the withdrawal unanswered (an identical one is
// refused), and settling it once there is room sends the identical
// request, which the service answers with its first acceptance: paid
// once, and recorded. It runs in a child process, as the limit applies to
// the whole process.
func TestAcceptedButNotRecorded(t *testing.T) {
	if !exchangetest.InChild(t, "accepted, unrecorded, then settled") {
		return
	}
	r := newRig(t, 0, false)
	lift := func() {}
	full := func(req *http.Request) {
		if req.URL.Path != exchange.PathWithdraw {
			return
		}
		lift = exchangetest.RoomAfter(t, r.journal.Path(), 40) // the intent fits; 40 bytes of the acceptance do
	}
	r.before.Store(&full)
	o := r.order(r.choice(sandbox.DestCompleted, "25"))
	sent := r.withdrawer().Execute(context.Background(), o, demoKey)
	r.before.Store(nil)
	lift()
	if sent.Err != nil || sent.Accepted.State != exchange.StateSubmitted || sent.Unrecorded == nil || sent.Unrecorded.Journal == nil ||
		sent.Unrecorded.QuoteID != o.Quote.QuoteID || !strings.Contains(sent.Unrecorded.Error(), "until it is resumed") {
		t.Fatalf("accepted with a full disk: %+v (unrecorded %+v)", sent, sent.Unrecorded)
	}
	b, err := os.ReadFile(r.journal.Path())
	exchangetest.Must(t, err)
	if strings.Count(string(b), "\n") != 1 || !strings.HasSuffix(string(b), "\n") {
		t.Fatalf("journal after the failed acceptance, want its intent line alone:\n%s", b)
	}
	rec := r.record(o.Quote.QuoteID)
	if !rec.Unanswered() || !r.guarded(o) {
		t.Fatalf("record %+v: want it unanswered, an identical one refused", rec)
	}
	settled := r.withdrawer().Settle(context.Background(), rec)
	if settled.Outcome != withdrawal.SettledAccepted || settled.JournalErr != nil || settled.Accepted.TxID != sent.Accepted.TxID {
		t.Fatalf("settled %+v, want the first acceptance again, recorded", settled)
	}
	if rec := r.record(o.Quote.QuoteID); rec.Unanswered() || r.guarded(o) {
		t.Fatalf("record %+v after settling: still unanswered", rec)
	}
	if n := r.withdraws.Load(); n != 2 || !r.ex.Balance(sandbox.DemoAccountID).Equal(decimal.RequireFromString("9975")) {
		t.Fatalf("%d withdraw requests, balance %s: want the identical request twice, paid once", n, r.ex.Balance(sandbox.DemoAccountID))
	}
	t.Log("accepted, unrecorded, then settled")
}
