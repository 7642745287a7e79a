package board

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/svcwallet/svcwallet/screens/kit"
	"github.com/svcwallet/svcwallet/screens/screentest"
	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/follow"
	"github.com/svcwallet/svcwallet/service/sandbox"
)

// TestBoardAsksOnlyAsItsAccount: the board asks only as the account it was
// opened for. A login as another account landing on the same client stops
// its asking, and it says whose withdrawals it followed and who to log in
// as: asked as the other account, whose service does not know them, each
// row ended NOT FOUND, for good, and was kept so in the board's file.
func TestBoardAsksOnlyAsItsAccount(t *testing.T) {
	r, br, id := followingOne(t)
	logInAsAnother(t, r)
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
	// One row: said of it alone.
	if !strings.Contains(said, "This withdrawal was followed as account "+sandbox.DemoAccountID+", and the login is now account "+sandbox.NoChainAccountID+"'s") ||
		!strings.Contains(said, "log in as account "+sandbox.DemoAccountID+" to follow it again.") {
		t.Errorf("the board does not say it stopped, nor who to log in as:\n%s", br.plain())
	}
}

// TestBoardHoldsAnotherLoginsRows: a board kept in its file by one login
// and opened by another holds the first one's rows: shown as they were,
// never asked, and said with who to log in as, while ids added now are
// followed as this login. The file is one per environment: opened as
// another account, each of the first one's withdrawals on its way was
// asked as that account, ended NOT FOUND, for good, and was kept so for
// the first account too.
func TestBoardHoldsAnotherLoginsRows(t *testing.T) {
	r, br, id := followingOne(t)
	if err := br.b.flush(); err != nil {
		t.Fatal(err)
	}
	logInAsAnother(t, r)
	calls := r.StatusCalls.Load()
	other := newBoardRig(t, r)
	for i := 0; i < 100 && other.fire(); i++ {
	}
	if row := other.rowOf(id); !strings.Contains(row, "SUBMITTED") {
		t.Fatalf("another login's row reads %q; want it as it was kept", row)
	}
	if n := r.StatusCalls.Load() - calls; n != 0 {
		t.Errorf("%d status requests of the other login's row", n)
	}
	said := strings.Join(strings.Fields(other.plain()), " ")
	if !strings.Contains(said, "1 withdrawal was followed as account "+sandbox.DemoAccountID+" (an earlier login) and is not asked by this login: log in as account "+
		sandbox.DemoAccountID+" to follow it.") {
		t.Errorf("the held row is not said:\n%s", other.plain())
	}
	// Held, it moves for no one here: never asked, so not counted moving.
	if tot := other.b.totals(); tot != "0 moving" {
		t.Errorf("totals %q with the held SUBMITTED row alone; want 0 moving", tot)
	}
}

// TestBoardSaysWhoseRowsItHolds: rows other logins followed, of which
// nothing is known, read OTHER LOGIN and are not counted among those
// still to ask (they never are); the line under the field names each
// account to log in as, with how many are its, never one for all, and an
// account's address in two letter cases once.
func TestBoardSaysWhoseRowsItHolds(t *testing.T) {
	r := screentest.NewStatusRig(t)
	const third = "acct-third"
	// One account's rows, kept in two letter cases of its address: one
	// account to log in as (exchange.AccountKey).
	demoUpper := "0x" + strings.ToUpper(sandbox.DemoAccountID[2:])
	held := []follow.Kept{{QuoteID: "q-demo-1", As: sandbox.DemoAccountID}, {QuoteID: "q-demo-2", As: demoUpper}, {QuoteID: "q-third", As: third}}
	if err := (&follow.WatchFile{Path: kit.WatchlistPath(r.App), Env: r.App.Target.Env.Name}).Append(held, nil); err != nil {
		t.Fatal(err)
	}
	logInAsAnother(t, r)
	br := newBoardRig(t, r)
	for i := 0; i < 100 && br.fire(); i++ {
	}
	if row := br.rowOf("q-third"); !strings.Contains(row, follow.LabelOtherLogin) {
		t.Errorf("a held row of which nothing is known reads %q; want %s", row, follow.LabelOtherLogin)
	}
	if p := br.b.progress(); p != "" {
		t.Errorf("progress %q; held rows are never asked, so none is still to ask", p)
	}
	said := strings.Join(strings.Fields(br.plain()), " ")
	if !strings.Contains(said, "3 withdrawals were followed as other accounts (earlier logins) and are not asked by this login: log in as account "+
		sandbox.DemoAccountID+" to follow 2 of them, log in as account "+third+" to follow 1.") {
		t.Errorf("the held rows are not said with each account:\n%s", br.plain())
	}
}

// followingOne is a board that pasted a withdrawal's id and saw it
// SUBMITTED, as the demo account.
func followingOne(t *testing.T) (*screentest.StatusRig, *boardRig, string) {
	t.Helper()
	r := screentest.NewStatusRig(t)
	br := newBoardRig(t, r)
	id := screentest.Seed(t, r, sandbox.DestCompleted)
	br.send(tea.PasteMsg{Content: id})
	for i := 0; i < 10 && !strings.Contains(br.rowOf(id), "SUBMITTED"); i++ {
		br.fire()
	}
	return r, br, id
}

// logInAsAnother logs r's client in as another account than the demo's.
func logInAsAnother(t *testing.T, r *screentest.StatusRig) {
	t.Helper()
	if _, err := r.App.Client().Login(t.Context(), exchange.APIKey(sandbox.NoChainAPIKey)); err != nil {
		t.Fatal(err)
	}
}
