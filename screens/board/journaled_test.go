package board

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/svcwallet/svcwallet/screens/screentest"
	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/follow"
	"github.com/svcwallet/svcwallet/service/journal"
	"github.com/svcwallet/svcwallet/service/sandbox"
)

// TestBoardLearnsAnotherTerminalsRefusal: a withdrawal on the board that
// `withdraw` in another terminal journals as refused shows REFUSED at the
// board's next span of asks, not only when the board is opened again: the
// service's record stays CREATED, which says nothing of the refusal.
func TestBoardLearnsAnotherTerminalsRefusal(t *testing.T) {
	r := screentest.NewStatusRig(t)
	br := newBoardRig(t, r)
	req, in := r.Signed(r.App.Client(), sandbox.DemoPrivateKey, sandbox.DestFlagged, "25")
	br.run(br.b.addText(req.QuoteID))
	for i := 0; i < 20 && br.b.rows[req.QuoteID].Known == false && br.fire(); i++ {
	}
	if row := br.b.rows[req.QuoteID]; row == nil || row.label == follow.LabelRefused {
		t.Fatalf("the row before the refusal: %+v", row)
	}
	// The other terminal: its own journal on the same file.
	other, err := journal.Open(r.App.Journal().Path())
	if err != nil {
		t.Fatal(err)
	}
	sess, _ := r.App.Client().Session()
	_, werr := r.App.Client().Withdraw(context.Background(), req)
	if werr == nil || exchange.OutcomeUnknown(werr) {
		t.Fatalf("withdraw to a flagged address: %v, want a refusal", werr)
	}
	for _, e := range []journal.Entry{
		{Time: r.Clock.Now(), Kind: journal.KindIntent, Env: r.App.Target.Env.Name, AccountID: sess.AccountID, QuoteID: req.QuoteID, Request: &req, Intent: &in},
		{Time: r.Clock.Now(), Kind: journal.KindRejected, Env: r.App.Target.Env.Name, AccountID: sess.AccountID, QuoteID: req.QuoteID, Error: exchange.Explain(werr).Error()},
	} {
		if err := other.Append(e); err != nil {
			t.Fatal(err)
		}
	}
	br.toasts = nil
	for i := 0; i < 20 && br.b.rows[req.QuoteID].label != follow.LabelRefused && br.fire(); i++ {
	}
	if row := br.b.rows[req.QuoteID]; row.label != follow.LabelRefused || !slices.ContainsFunc(br.toasts, func(s string) bool { return strings.HasSuffix(s, "→ "+follow.LabelRefused) }) {
		t.Fatalf("the row after another terminal journaled its refusal: %s, said %q", row.label, br.toasts)
	}
}
