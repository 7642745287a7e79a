package board

import (
	"slices"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/svcwallet/svcwallet/screens/kit"
	"github.com/svcwallet/svcwallet/screens/screentest"
	"github.com/svcwallet/svcwallet/service/follow"
	"github.com/svcwallet/svcwallet/service/sandbox"
)

// TestBoardSorts (issue 21 item 13): S cycles through an order a column,
// each turned round by the next S, the column marked in the titles, and
// keeps it as answers come.
func TestBoardSorts(t *testing.T) {
	r := screentest.NewStatusRig(t)
	br := newBoardRig(t, r)
	small, large := r.Made(sandbox.DestCompleted, "5"), r.Made(sandbox.DestFailed, "50")
	br.send(tea.PasteMsg{Content: "q-gone-404 " + small + " " + large})
	for br.b.sched.Moving() > 0 && (!br.b.rows[large].Known || !br.b.rows[small].Known || !br.b.rows["q-gone-404"].NotFound) {
		br.fire()
	}
	br.toList()
	order := func() []string {
		var ids []string
		for i := range br.b.list.Len() {
			ids = append(ids, br.b.list.Item(i).QuoteID)
		}
		return ids
	}
	if got := order(); got[2] != "q-gone-404" {
		t.Fatalf("moving first: %q", got)
	}
	for range 6 {
		br.send(tea.KeyPressMsg{Code: 'S', Text: "S"})
	}
	if got, title := order(), strings.Split(br.plain(), "\n")[5]; !slices.Equal(got, []string{large, small, "q-gone-404"}) || !strings.Contains(title, "RECEIVE↓") || strings.Contains(title, "STATE↑") {
		t.Fatalf("by amount, largest first: %q under %q", got, title)
	}
	for i := 0; i < 1000 && br.fire(); i++ {
	}
	if got := order(); !slices.Equal(got, []string{large, small, "q-gone-404"}) {
		t.Errorf("the order by amount was not kept as answers came: %q", got)
	}
}

// TestBoardSortGroupsStates (issue 28 item 7): by state the rows are
// grouped, the moving ones first, FAILED together, COMPLETED last, each
// group in the order added; S again turns it round, ↓ in the title.
func TestBoardSortGroupsStates(t *testing.T) {
	r := screentest.NewStatusRig(t)
	br := newBoardRig(t, r)
	var ids []string
	for _, to := range []string{sandbox.DestCompleted, sandbox.DestFailed, sandbox.DestCompleted, sandbox.DestFailed} {
		ids = append(ids, screentest.Seed(t, r, to))
	}
	br.send(tea.PasteMsg{Content: strings.Join(ids, " ")})
	for i := 0; i < 1000 && br.fire(); i++ {
	}
	// A larger amount on another chain: at 80 columns its receive amount
	// leaves out the last check rather than cut a chain's name.
	moving, err := r.Exchange.SeedWithdrawal(sandbox.DemoAccountID, sandbox.DestRefunded, "POLYGON", "1000")
	if err != nil {
		t.Fatal(err)
	}
	br.send(tea.PasteMsg{Content: moving})
	br.fire() // SUBMITTED
	br.toList()
	order := func() []string {
		var got []string
		for i := range br.b.list.Len() {
			got = append(got, br.b.list.Item(i).QuoteID)
		}
		return got
	}
	title := func() string { return strings.Split(br.plain(), "\n")[5] }
	want := []string{moving, ids[1], ids[3], ids[0], ids[2]}
	if got := order(); !slices.Equal(got, want) || !strings.Contains(title(), "STATE↑") {
		t.Fatalf("by state %q under %q, want %q", got, title(), want)
	}
	br.send(tea.KeyPressMsg{Code: 'S', Text: "S"})
	slices.Reverse(want)
	if got := order(); !slices.Equal(got, want) || !strings.Contains(title(), "STATE↓") {
		t.Fatalf("by state turned round %q under %q, want %q", got, title(), want)
	}
}

// TestBoardClearAndUndo (issue 21 item 13, issue 28 item 9): f clears the
// COMPLETED and EXPIRED rows and keeps those that need a follow-up
// (FAILED, REFUNDED, NOT FOUND), F every row that ended, n the ids not
// found, each offered only when there are some; u puts the last ones
// cleared back as they were, without asking them again; a board a clear
// left empty says what was cleared; the board file follows.
func TestBoardClearAndUndo(t *testing.T) {
	r := screentest.NewStatusRig(t)
	br := newBoardRig(t, r)
	done, failed := screentest.Seed(t, r, sandbox.DestCompleted), screentest.Seed(t, r, sandbox.DestFailed)
	br.send(tea.PasteMsg{Content: done + " " + failed + " q-gone-1 q-gone-2"})
	for i := 0; i < 1000 && br.fire(); i++ {
	}
	// A larger amount on another chain: at 80 columns its receive amount
	// leaves out the last check rather than cut a chain's name.
	moving, err := r.Exchange.SeedWithdrawal(sandbox.DemoAccountID, sandbox.DestRefunded, "POLYGON", "1000")
	if err != nil {
		t.Fatal(err)
	}
	br.send(tea.PasteMsg{Content: moving})
	br.fire()
	br.toList()
	if screentest.Offered(br.b, "undo remove") || !screentest.Offered(br.b, "clear completed") || !screentest.Offered(br.b, "clear all ended") ||
		!screentest.Offered(br.b, "clear not found") {
		t.Fatal("the clears are not offered, or undo is before anything was removed")
	}
	if v := br.plain(); !strings.Contains(v, "1 completed · 1 failed · 2 not found · 1 moving") {
		t.Errorf("the totals:\n%s", v)
	}
	br.send(tea.KeyPressMsg{Code: 'f', Text: "f"})
	if got := boardIDs(br.b); !slices.Equal(got, []string{failed, "q-gone-1", "q-gone-2", moving}) || br.toasts[len(br.toasts)-1] != "Cleared 1 completed withdrawal: u puts it back" {
		t.Fatalf("f left %q, said %q", got, br.toasts)
	}
	if screentest.Offered(br.b, "clear completed") || !screentest.Offered(br.b, "undo remove") {
		t.Fatal("f still offered with nothing completed, or u not offered")
	}
	calls := r.StatusCalls.Load()
	br.send(tea.KeyPressMsg{Code: 'u', Text: "u"})
	if got := boardIDs(br.b); !slices.Equal(got, []string{done, failed, "q-gone-1", "q-gone-2", moving}) || !strings.Contains(br.rowOf(done), "✓ COMPLETED") {
		t.Fatalf("u put back %q:\n%s", got, br.plain())
	}
	if r.StatusCalls.Load() != calls || screentest.Offered(br.b, "undo remove") {
		t.Fatal("u asked about final withdrawals again, or offers a second undo")
	}
	br.send(tea.KeyPressMsg{Code: 'F', Text: "F"})
	if got := boardIDs(br.b); !slices.Equal(got, []string{moving}) || br.toasts[len(br.toasts)-1] != "Cleared 1 failed, 2 not found, 1 completed withdrawals: u puts them back" {
		t.Fatalf("F left %q, said %q", got, br.toasts[len(br.toasts)-1])
	}
	br.send(tea.KeyPressMsg{Code: 'u', Text: "u"})
	br.send(tea.KeyPressMsg{Code: 'n', Text: "n"})
	if got := boardIDs(br.b); !slices.Equal(got, []string{done, failed, moving}) {
		t.Fatalf("n left %q", got)
	}
	kept, _ := (&follow.WatchFile{Path: kit.WatchlistPath(r.App), Env: r.App.Target.Env.Name}).Load()
	if len(kept) != 3 {
		t.Errorf("the file keeps %d ids after n, want 3", len(kept))
	}
	for i := 0; i < 1000 && br.fire(); i++ { // the moving one ends
	}
	br.toasts = nil
	br.send(tea.KeyPressMsg{Code: 'F', Text: "F"})
	if v := br.plain(); len(boardIDs(br.b)) != 0 || !strings.Contains(v, "Cleared 1 failed, 1 refunded, 1 completed withdrawals: u puts them back.") ||
		strings.Contains(v, "No withdrawals on the board yet") {
		t.Errorf("the board a clear left empty:\n%s", v)
	}
	// The empty board's body says it: a toast said it twice.
	if len(br.toasts) != 0 {
		t.Errorf("the clear that left the board empty is said again: %q", br.toasts)
	}
}
