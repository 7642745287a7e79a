package board

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/svcwallet/svcwallet/screens/screentest"
	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/journal"
	"github.com/svcwallet/svcwallet/service/sandbox"
	"github.com/svcwallet/svcwallet/tui"
)

// TestBoardFilterAndCopy: / narrows the rows; c copies the quote id, C the
// payout hash, offered only when there is one.
func TestBoardFilterAndCopy(t *testing.T) {
	r := screentest.NewStatusRig(t)
	br := newBoardRig(t, r)
	done, failed := screentest.Seed(t, r, sandbox.DestCompleted), screentest.Seed(t, r, sandbox.DestFailed)
	br.send(tea.PasteMsg{Content: done + "," + failed})
	br.toList()
	if screentest.Offered(br.b, "copy payout hash") {
		t.Fatal("C offered before any payout hash")
	}
	for i := 0; i < 1000 && br.fire(); i++ {
	}
	br.send(tea.KeyPressMsg{Code: '/', Text: "/"})
	for _, c := range "complet" {
		br.send(tea.KeyPressMsg{Code: c, Text: string(c)})
	}
	br.send(tea.KeyPressMsg{Code: tea.KeyEnter})
	if br.b.list.Len() != 1 || br.b.list.Item(0).QuoteID != done || br.rowOf(failed) != "" {
		t.Fatalf("filter shows %d rows:\n%s", br.b.list.Len(), br.plain())
	}
	br.clips = nil
	br.send(tea.KeyPressMsg{Code: 'c', Text: "c"})
	if len(br.clips) != 1 || br.clips[0] != tea.Raw(ansi.SetSystemClipboard(done))() {
		t.Fatalf("c copied %#v, want %s", br.clips, done)
	}
	f, _ := br.b.sched.Get(done)
	if f.Last.WithdrawTxHash == "" || !screentest.Offered(br.b, "copy payout hash") {
		t.Fatal("no payout hash to copy on a completed withdrawal")
	}
	br.clips = nil
	br.send(tea.KeyPressMsg{Code: 'C', Text: "C"})
	if len(br.clips) != 1 || br.clips[0] != tea.Raw(ansi.SetSystemClipboard(f.Last.WithdrawTxHash))() {
		t.Fatalf("C copied %#v", br.clips)
	}
}

// TestFilterTakesPastes: while the board's filter is typed, a bracketed
// paste goes into it like typed keys (it used to be dropped).
func TestFilterTakesPastes(t *testing.T) {
	r := screentest.NewStatusRig(t)
	b := New(r.App).(*boardScreen)
	screentest.FilterTakesPaste(t, "board", b, &b.list)
}

// TestListEscClearsFilterFirst (issue 21 bug 5): on the watch board, / and
// text then esc clears the filter and stays; only an esc with no filter
// goes back.
func TestListEscClearsFilterFirst(t *testing.T) {
	r := screentest.NewStatusRig(t)
	screentest.HistoryEntries(t, r)
	screentest.RecordTimers(r.App)
	root := tui.New(screentest.NewHome(r.App), tui.Options{Theme: "dark", Common: r.App.Common})
	screentest.Feed(root, tea.WindowSizeMsg{Width: 120, Height: 40})
	screentest.Feed(root, tui.PushMsg{Screen: New(r.App)})
	screentest.Feed(root, tea.PasteMsg{Content: "q-sending q-completed"}) // the board has the keys after it
	screentest.RequireEscClearsFilterFirst(t, root, func(m tea.Msg) { screentest.Feed(root, m) }, "sending")
}

// TestBoardFindsWhatCustomersQuote (issue 35 items 3 and 4): a payout hash
// or transfer id pasted into the field adds the withdrawal this machine
// has seen with it (a row's answer, or the journal's record of an own
// one) and says so; never asked of the service as a quote id. The filter
// takes a whole payout hash as text to match.
func TestBoardFindsWhatCustomersQuote(t *testing.T) {
	r := screentest.NewStatusRig(t)
	// An own withdrawal the journal saw paid out, with its payout hash.
	sess, _ := r.App.Client().Session()
	own := journal.Record{QuoteID: "q-ownpaid1", TxHash: "0x" + strings.Repeat("9a", 32)}
	for _, e := range []journal.Entry{
		{Kind: journal.KindAccepted, TxID: "tx-ownpaid1"},
		{Kind: journal.KindState, State: exchange.StateCompleted, TxHash: own.TxHash},
	} {
		e.Time, e.Env, e.AccountID, e.QuoteID = r.Clock.Now(), r.App.Target.Env.Name, sess.AccountID, own.QuoteID
		if err := r.App.Journal().Append(e); err != nil {
			t.Fatal(err)
		}
	}
	br := newBoardRig(t, r)
	done := screentest.Seed(t, r, sandbox.DestCompleted)
	br.send(tea.PasteMsg{Content: done})
	for i := 0; i < 1000 && br.fire(); i++ {
	}
	row := br.b.rows[done]
	if row.Last.WithdrawTxHash == "" || row.Last.TxID == "" {
		t.Fatalf("no payout hash or transfer id on %s: %+v", done, row.Last)
	}
	calls := r.StatusCalls.Load()
	br.toasts = nil
	br.send(tea.PasteMsg{Content: strings.ToUpper(row.Last.TxID) + "\n" + own.TxHash})
	if ids := boardIDs(br.b); len(ids) != 2 || ids[1] != own.QuoteID {
		t.Fatalf("after pasting a transfer id on the board and an own payout hash: %q", ids)
	}
	if len(br.toasts) != 1 || !strings.Contains(br.toasts[0], "is withdrawal "+done) || !strings.Contains(br.toasts[0], "is withdrawal "+own.QuoteID) {
		t.Errorf("finding not said: %q", br.toasts)
	}
	if n := r.StatusCalls.Load() - calls; n > 1 {
		t.Errorf("%d status requests after the paste, want the own withdrawal's only", n)
	}
	br.send(tea.PasteMsg{Content: "tx-neverseen1"})
	if v := screentest.OneLine(br.b.View()); !strings.Contains(v, "Transfer id tx-neverseen1 was not found") || !strings.Contains(v, "ask for the quote id") || !strings.Contains(v, "History on the machine that made it") {
		t.Errorf("an unseen transfer id:\n%s", br.plain())
	}
	br.toList()
	br.send(tea.KeyPressMsg{Code: '/', Text: "/"})
	br.send(tea.PasteMsg{Content: row.Last.WithdrawTxHash})
	if br.b.list.Len() != 1 || br.b.list.Item(0).QuoteID != done {
		t.Errorf("the filter with a whole payout hash shows %d rows:\n%s", br.b.list.Len(), br.plain())
	}
}
