package plain

import (
	"strings"
	"testing"

	"github.com/shopspring/decimal"

	"github.com/svcwallet/svcwallet/service/journal"
	"github.com/svcwallet/svcwallet/service/sandbox"
)

// TestLookUpFillsFromWhatWasSigned: an own withdrawal whose status record
// leaves out its receive amount and chain is said with the journal's,
// noted as from what was signed (follow.Follow.Filled), as the console's
// status screen, the board and `status` say it. It was said without them.
func TestLookUpFillsFromWhatWasSigned(t *testing.T) {
	r := newRig(t)
	id, err := r.ex.SeedWithdrawal(sandbox.DemoAccountID, sandbox.DestCompleted, "BASE", "10")
	if err != nil {
		t.Fatal(err)
	}
	in := journal.Intent{Chain: "BASE", ToAddress: sandbox.DestCompleted, TokenIn: "USDT", TokenOut: "USDT",
		PayAmount: decimal.RequireFromString("10"), ReceiveAmount: decimal.RequireFromString("8.5")}
	for _, e := range []journal.Entry{{Time: r.clock.Now(), Kind: journal.KindIntent, Env: r.env.Name, AccountID: sandbox.DemoAccountID, QuoteID: id, Intent: &in},
		{Time: r.clock.Now(), Kind: journal.KindAccepted, Env: r.env.Name, AccountID: sandbox.DemoAccountID, QuoteID: id}} {
		if err := r.journal.Append(e); err != nil {
			t.Fatal(err)
		}
	}
	r.statusLeftOut.Store(true)
	out, err := r.run(steps(logIn, typed("look up", id, "quit"))...)
	if err != nil {
		t.Fatal(err)
	}
	flat := strings.Join(strings.Fields(out), " ")
	for _, want := range []string{"Chain: BASE (from what was signed)", "Receive: 8.5 USDT (from what was signed)"} {
		if !strings.Contains(flat, want) {
			t.Errorf("the look-up lacks %q:\n%s", want, out)
		}
	}
}
