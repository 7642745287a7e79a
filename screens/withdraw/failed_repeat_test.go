package withdraw

import (
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
	"github.com/shopspring/decimal"

	"github.com/svcwallet/svcwallet/screens/kit"
	"github.com/svcwallet/svcwallet/screens/screentest"
	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/journal"
	"github.com/svcwallet/svcwallet/service/sandbox"
	"github.com/svcwallet/svcwallet/signer"
)

// TestReviewNotesRepeatOfFailed: with an identical withdrawal in the
// journal that ended FAILED (finished, so not on Home), the review notes,
// above its question, its quote id, when it was made, that its funds stay
// debited until support returns them and that this one pays again; it is
// a note, not a stop: enter is offered.
func TestReviewNotesRepeatOfFailed(t *testing.T) {
	app, now := screentest.LoggedInApp(t)
	s, _ := app.Client().Session()
	at := now.Add(-3 * time.Minute)
	entry := func(kind, state string) journal.Entry {
		return journal.Entry{Time: at, Kind: kind, Env: app.Target.Env.Name, AccountID: s.AccountID, QuoteID: "q-failed", State: state}
	}
	intent := entry(journal.KindIntent, "")
	intent.Intent = &journal.Intent{ToAddress: sandbox.DestCompleted, Chain: "ARBITRUM", TokenIn: "USDT", TokenOut: "USDT",
		PayAmount: decimal.RequireFromString("25"), ReceiveAmount: decimal.RequireFromString("23.5"), ExpiresAt: *now}
	for _, e := range []journal.Entry{intent, entry(journal.KindAccepted, ""), entry(journal.KindState, exchange.StateFailed)} {
		if err := app.Journal().Append(e); err != nil {
			t.Fatal(err)
		}
	}
	r := reviewFor(t, app, now, fixedQuote(*now, "1.5"), 0, 120, 50, signer.Found{Place: signer.KeyDemo})
	*now = now.Add(kit.ShownGuard)
	view := squash(r.View())
	for _, want := range []string{"Note: An identical withdrawal of 25 USDT to " + sandbox.DestCompleted + " on ARBITRUM (q-failed), made 3m ago (",
		"ended FAILED: its funds stay debited until support returns them, and this one pays again."} {
		if !strings.Contains(view, squash(want)) {
			t.Errorf("review lacks %q:\n%s", want, ansi.Strip(r.View()))
		}
	}
	if strings.Index(view, squash("this one pays again")) > strings.Index(view, squash("Press enter")) || !screentest.Offers(r.KeyMap(), "enter") {
		t.Errorf("the note is not above an offered question (offers %v):\n%s", r.KeyMap().ShortHelp(), ansi.Strip(r.View()))
	}
}
