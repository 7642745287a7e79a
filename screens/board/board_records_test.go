package board

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/svcwallet/svcwallet/screens/kit"
	"github.com/svcwallet/svcwallet/screens/screentest"
	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/follow"
	"github.com/svcwallet/svcwallet/service/journal"
	"github.com/svcwallet/svcwallet/service/sandbox"
)

// TestBoardRestartKeeps: the ids are kept per environment in a 0600 file
// next to the journal and are on a new board after a restart; x removes.
func TestBoardRestartKeeps(t *testing.T) {
	r := screentest.NewStatusRig(t)
	br := newBoardRig(t, r)
	a, b := screentest.Seed(t, r, sandbox.DestCompleted), screentest.Seed(t, r, sandbox.DestFailed)
	br.send(tea.PasteMsg{Content: a + " " + b})
	path := filepath.Join(filepath.Dir(r.App.Journal().Path()), follow.WatchlistFile)
	if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("board file: %v %v", fi, err)
	}
	again := newBoardRig(t, r)
	if got := strings.Join(boardIDs(again.b), " "); got != a+" "+b {
		t.Fatalf("after a restart the board holds %q", got)
	}
	again.toList()
	again.send(tea.KeyPressMsg{Code: 'x', Text: "x"})
	third := newBoardRig(t, r)
	if len(boardIDs(third.b)) != 1 {
		t.Fatalf("x not kept: %q", boardIDs(third.b))
	}
	// Another environment has a board of its own.
	r.App.Target.Env.Name = "other"
	if other := newBoardRig(t, r); len(boardIDs(other.b)) != 0 {
		t.Fatalf("another environment sees %q", boardIDs(other.b))
	}
}

// TestBoardJournalsOwnOnly (issue 18): the board journals each state it
// learns of the account's own withdrawal once (SUBMITTED is the
// acceptance), as the status screen does, and nothing of an id this
// account's journal does not hold: here one whose acceptance another
// account journaled on this machine.
func TestBoardJournalsOwnOnly(t *testing.T) {
	r := screentest.NewStatusRig(t)
	own := r.Made(sandbox.DestCompleted, "25")
	other := screentest.Seed(t, r, sandbox.DestCompleted)
	if err := r.App.Journal().Append(journal.Entry{Time: r.Clock.Now(), Kind: journal.KindAccepted,
		Env: r.App.Target.Env.Name, AccountID: sandbox.NoChainAccountID, QuoteID: other}); err != nil {
		t.Fatal(err)
	}
	br := newBoardRig(t, r)
	br.send(tea.PasteMsg{Content: own + "\n" + other})
	for i := 0; i < 1000 && br.fire(); i++ {
	}
	if !strings.Contains(br.rowOf(own), "COMPLETED") || !strings.Contains(br.rowOf(other), "COMPLETED") {
		t.Fatalf("not followed to the end:\n%s", br.plain())
	}
	if got, want := r.JournalStates(own), []string{"accepted", exchange.StateSending, exchange.StateCompleted}; !slices.Equal(got, want) {
		t.Errorf("own withdrawal journaled %v, want %v", got, want)
	}
	if got := r.JournalStates(other); !slices.Equal(got, []string{"accepted"}) {
		t.Errorf("another account's withdrawal journaled %v for this one", got)
	}
	if !r.Record(own).Finished() {
		t.Errorf("the own withdrawal's record is not finished: %+v", r.Record(own))
	}
}

// loadOnly builds a board as a restart does and hands it only what it read
// from the disk: no tick has run, no status is asked yet. It returns the
// Cmd that starts the asks.
func loadOnly(t *testing.T, r *screentest.StatusRig) (*boardRig, tea.Cmd) {
	t.Helper()
	br := unstartedBoardRig(r)
	for _, m := range screentest.RunAll(br.b.Init()) {
		if loaded, ok := m.(boardLoadedMsg); ok {
			_, kick := br.b.Update(loaded)
			return br, kick
		}
	}
	t.Fatal("the board read nothing")
	return nil, nil
}

// TestBoardRestartShowsRecords (issue 21 bug 2): what the board learned is
// kept with it; after a restart every row shows its last record at once,
// before any request, opened at the top; a final id is never asked again,
// and the footer counts as moving only what is in motion.
func TestBoardRestartShowsRecords(t *testing.T) {
	r := screentest.NewStatusRig(t)
	br := newBoardRig(t, r)
	want := seedEnds(t, r)
	var paste []string
	for id := range want {
		paste = append(paste, id)
	}
	for i := range 40 {
		id := fmt.Sprintf("q-gone-%02d", i)
		paste, want[id] = append(paste, id), "? NOT FOUND"
	}
	br.send(tea.PasteMsg{Content: strings.Join(paste, "\n")})
	for i := 0; i < 1000 && br.fire(); i++ {
	}
	if v := br.plain(); !strings.Contains(v, "  1–32 of 43 withdrawals\n") || !strings.Contains(v, " · 0 moving") {
		t.Fatalf("the board is not at the top, or counts what does not move:\n%s", v)
	}
	calls := r.StatusCalls.Load()
	again, kick := loadOnly(t, r)
	for i := range min(again.b.list.Len(), 32) { // the rows drawn
		id := again.b.list.Item(i).QuoteID
		if row := again.rowOf(id); !strings.Contains(row, want[id]) {
			t.Errorf("after a restart %s shows %q, want %s at once", id, row, want[id])
		}
	}
	for id, w := range want {
		if r := again.b.rows[id]; !strings.Contains(boardGlyph(r.label)+" "+r.label, w) {
			t.Errorf("after a restart %s is %s, want %s at once", id, r.label, w)
		}
	}
	if v := again.plain(); !strings.Contains(v, "  1–32 of 43 withdrawals\n") || !strings.Contains(v, " · 0 moving") {
		t.Errorf("the restarted board is not at the top, or counts what does not move:\n%s", v)
	}
	again.run(kick)
	for i := 0; i < 1000 && again.fire(); i++ {
	}
	if n := r.StatusCalls.Load() - calls; n != 0 {
		t.Fatalf("after a restart %d requests asked about final withdrawals", n)
	}
	// A moving one is shown as last seen, counted, and asked again.
	moving := screentest.Seed(t, r, sandbox.DestCompleted)
	again.send(tea.PasteMsg{Content: moving})
	again.fire()
	if row := again.rowOf(moving); !strings.Contains(row, "▶ SUBMITTED") {
		t.Fatalf("the moving withdrawal: %q", row)
	}
	third, kick := loadOnly(t, r)
	if row, v := third.rowOf(moving), third.plain(); !strings.Contains(row, "▶ SUBMITTED") || !strings.Contains(v, "· 1 moving") {
		t.Errorf("after a restart the moving one shows %q:\n%s", row, v)
	}
	third.run(kick)
	for i := 0; i < 1000 && third.fire(); i++ {
	}
	if got := third.b.rows[moving].Outcome().Name; got != exchange.StateCompleted {
		t.Errorf("the moving one was not followed on: %s", got)
	}
}

// TestBoardKeepsWhatIsSeen: a change is kept within boardSaveEvery, a
// restart in between never asks an id the file holds as final, and what
// the file says of an id is checked as an answer would be: a record of
// another id, or of the wrong shape, is dropped and its id asked again.
func TestBoardKeepsWhatIsSeen(t *testing.T) {
	r := screentest.NewStatusRig(t)
	id := screentest.Seed(t, r, sandbox.DestCompleted)
	path := kit.WatchlistPath(r.App)
	other := screentest.Seed(t, r, sandbox.DestFailed)
	planted := []follow.Kept{
		{QuoteID: id, Record: &exchange.Withdrawal{QuoteID: other, State: exchange.StateCompleted, Chain: "ARBITRUM", TokenOut: "USDT", WithdrawTxHash: "0x" + strings.Repeat("ab", 32)}},
		{QuoteID: other, Record: &exchange.Withdrawal{QuoteID: other, State: "PAID\x1b[2J", Chain: "ARBITRUM", TokenOut: "USDT"}},
	}
	if err := (&follow.WatchFile{Path: path, Env: r.App.Target.Env.Name}).Append(planted, nil); err != nil {
		t.Fatal(err)
	}
	br, kick := loadOnly(t, r)
	for _, id := range []string{id, other} {
		if row := br.rowOf(id); !strings.Contains(row, "· ASKING") {
			t.Errorf("a planted record was believed: %q", row)
		}
	}
	br.run(kick)
	for i := 0; i < 1000 && br.fire(); i++ {
	}
	kept, err := (&follow.WatchFile{Path: path, Env: r.App.Target.Env.Name}).Load()
	if err != nil || len(kept) != 2 || kept[0].Record == nil || kept[0].Record.State != exchange.StateCompleted || kept[1].Record.State != exchange.StateFailed {
		t.Fatalf("the file keeps %+v (%v)", kept, err)
	}
}

// TestExpiredQuoteHasOneName: a quote of this account that expired without
// being executed is EXPIRED on the board and in its CSV export, as on the
// status screen and in History; never REJECTED, REFUSED or CREATED.
func TestExpiredQuoteHasOneName(t *testing.T) {
	r := screentest.NewStatusRig(t)
	req, in := r.Signed(r.App.Client(), sandbox.DemoPrivateKey, sandbox.DestCompleted, "25")
	r.Intent(req, in) // journaled, its answer lost
	r.Clock.Set(in.ExpiresAt.Add(follow.ExecutableMargin + time.Second))
	id := req.QuoteID

	br := newBoardRig(t, r)
	br.send(tea.PasteMsg{Content: id})
	for i := 0; i < 100 && br.fire(); i++ {
	}
	if row := br.rowOf(id); !strings.Contains(row, "○ EXPIRED") {
		t.Errorf("board row %q, want ○ EXPIRED", row)
	}
	f, ok := br.b.sched.Get(id)
	if rec := f.Record("sandbox", journal.Record{}); !ok || rec.Outcome != follow.LabelExpired {
		t.Errorf("record %+v, want EXPIRED", rec)
	}
}

// TestBoardFlushes (issue 28 item 3): what the board learned since its
// last save is written when the console ends (kit.Flushes, run after the
// program on q, SIGHUP or SIGTERM), not lost with the wait between saves;
// a board opened again writes what the last one of its file owed before
// it reads the file.
func TestBoardFlushes(t *testing.T) {
	r, _, _, f, file := answerUnsaved(t)
	if _, err, _ := r.App.Ended(time.Second); err != nil { // as the console ends
		t.Fatal(err)
	}
	kept, _ := file.Load()
	if len(kept) != 1 || kept[0].Record == nil || kept[0].Record.State != f.Last.State {
		t.Fatalf("after the console's end the file keeps %+v, want %s", kept, f.Last.State)
	}

	// Left with an answer owed, the board's next visit writes it first.
	r, br, id, f, _ := answerUnsaved(t)
	again, _ := loadOnly(t, r) // what it read, before it asks anything
	if row := again.rowOf(id); !br.b.saveDue || !strings.Contains(row, f.Outcome().Name) {
		t.Fatalf("a board opened again shows %q, want the last board's %s", row, f.Outcome().Name)
	}
}

// TestBoardStartsFromTheJournal (issue 28 item 4): after a restart with
// the service failing, a withdrawal of this account followed to its end
// elsewhere (the status screen, the command line) shows the journal's
// record on the board, never NO ANSWER; and its destination, which only
// the journal knows, finds it.
func TestBoardStartsFromTheJournal(t *testing.T) {
	r := screentest.NewStatusRig(t)
	id := r.Made(sandbox.DestCompleted, "25")
	r.Clock.Advance(sandbox.DefaultSettle)
	w, err := r.App.Client().WithdrawalStatus(t.Context(), id)
	if err != nil || w.State != exchange.StateCompleted {
		t.Fatalf("%s is %s (%v)", id, w.State, err)
	}
	if err := r.App.Withdrawer().JournalState(id, w); err != nil {
		t.Fatal(err)
	}
	if _, err := follow.AddToWatchlist(kit.WatchlistPath(r.App), r.App.Target.Env.Name, "", []string{id}); err != nil {
		t.Fatal(err)
	}
	r.FailStatus.Store(true)
	br := newBoardRig(t, r)
	for i := 0; i < 10 && br.fire(); i++ {
	}
	if row := br.rowOf(id); !strings.Contains(row, "✓ COMPLETED") || strings.Contains(row, "NO ANSWER") {
		t.Fatalf("with the service failing the row reads %q, want the journal's COMPLETED", row)
	}
	br.send(tea.KeyPressMsg{Code: '/', Text: "/"})
	br.send(tea.PasteMsg{Content: sandbox.DestCompleted[:12]})
	if br.b.list.Len() != 1 {
		t.Errorf("its destination finds %d rows", br.b.list.Len())
	}
}

// TestBoardLearnsWhatItsRowSaw: an answer the status screen of a row gets
// is the board's too (kit.Tell): back on the board the row shows it, never
// "ASKING never" for an id its own screen just showed.
func TestBoardLearnsWhatItsRowSaw(t *testing.T) {
	r := screentest.NewStatusRig(t)
	br := newBoardRig(t, r)
	id := screentest.Seed(t, r, sandbox.DestCompleted)
	br.send(tea.PasteMsg{Content: id})
	br.toList()
	br.send(tea.KeyPressMsg{Code: tea.KeyEnter})
	if br.opened == nil || br.opened.tell == nil {
		t.Fatal("enter opened no status screen that tells the board")
	}
	w, err := r.Client(sandbox.DemoAPIKey).WithdrawalStatus(t.Context(), id)
	if err != nil {
		t.Fatal(err)
	}
	w.State, w.UpdatedAt = exchange.StateSending, r.Clock.Now()
	br.send(br.opened.tell(id, w, nil))
	if row := br.rowOf(id); !strings.Contains(row, "SENDING") {
		t.Fatalf("the row's screen saw SENDING; the board's row: %q", row)
	}
}

// TestBoardFileOwnAPIKeyNotShown: a row of the board's file whose id is
// the session's API key (saved before it was refused) is neither shown
// nor asked.
func TestBoardFileOwnAPIKeyNotShown(t *testing.T) {
	r := screentest.NewStatusRig(t)
	id := screentest.Seed(t, r, sandbox.DestCompleted)
	planted := []follow.Kept{{QuoteID: sandbox.DemoAPIKey + "1"}, {QuoteID: id}}
	if err := (&follow.WatchFile{Path: kit.WatchlistPath(r.App), Env: r.App.Target.Env.Name}).Append(planted, nil); err != nil {
		t.Fatal(err)
	}
	br, kick := loadOnly(t, r)
	br.run(kick)
	for i := 0; i < 100 && br.fire(); i++ {
	}
	// Not on the board, so never in its scheduler: never asked.
	if got := boardIDs(br.b); len(got) != 1 || got[0] != id || strings.Contains(br.plain(), sandbox.DemoAPIKey) {
		t.Fatalf("the board holds %q:\n%s", got, br.plain())
	}
}
