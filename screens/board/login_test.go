package board

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/svcwallet/svcwallet/screens/screentest"
	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/sandbox"
)

// TestBoardAsksOnlyAsItsAccount: the board asks only as the account it was
// opened for. A login as another account landing on the same client stops
// its asking, and it says whose withdrawals it followed and who to log in
// as: asked as the other account, whose service does not know them, each
// row ended NOT FOUND, for good, and was kept so in the board's file.
func TestBoardAsksOnlyAsItsAccount(t *testing.T) {
	r := screentest.NewStatusRig(t)
	br := newBoardRig(t, r)
	id := screentest.Seed(t, r, sandbox.DestCompleted)
	br.send(tea.PasteMsg{Content: id})
	for i := 0; i < 10 && !strings.Contains(br.rowOf(id), "SUBMITTED"); i++ {
		br.fire()
	}
	if _, err := r.App.Client().Login(t.Context(), exchange.APIKey(sandbox.NoChainAPIKey)); err != nil {
		t.Fatal(err)
	}
	calls := r.StatusCalls.Load()
	for i := 0; i < 100 && br.fire(); i++ {
	}
	if row := br.rowOf(id); strings.Contains(row, "NOT FOUND") {
		t.Fatalf("asked as the account logged in meanwhile: %q", row)
	}
	if n := r.StatusCalls.Load() - calls; n != 0 {
		t.Errorf("%d status requests after the login changed", n)
	}
	said := strings.Join(strings.Fields(br.plain()), " ")
	if !strings.Contains(said, "This board followed account "+sandbox.DemoAccountID+"'s withdrawals") ||
		!strings.Contains(said, "Log in as account "+sandbox.DemoAccountID+" again to follow them") {
		t.Errorf("the board does not say it stopped, nor who to log in as:\n%s", br.plain())
	}
}
