package board

import (
	"context"
	"slices"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/svcwallet/svcwallet/screens/screentest"
	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/follow"
	"github.com/svcwallet/svcwallet/service/journal"
	"github.com/svcwallet/svcwallet/service/sandbox"
	"github.com/svcwallet/svcwallet/tui"
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

// TestBoardLearnsWithNothingMoving: with nothing moving the board asks
// nothing, so no span of asks reads the journal; the watch's tick reads
// it while the board is shown, and a refusal another terminal journaled
// shows without the board being opened again, and without a request.
func TestBoardLearnsWithNothingMoving(t *testing.T) {
	r := screentest.NewStatusRig(t)
	br := newBoardRig(t, r)
	req, in := r.Signed(r.App.Client(), sandbox.DemoPrivateKey, sandbox.DestFlagged, "25")
	br.run(br.b.addText(req.QuoteID))
	for i := 0; i < 1000 && br.fire(); i++ {
	}
	before := br.b.rows[req.QuoteID]
	if br.b.sched.Moving() != 0 || before.label == follow.LabelRefused {
		t.Fatalf("the board before the refusal: %d moving, the row %s", br.b.sched.Moving(), before.label)
	}
	other, err := journal.Open(r.App.Journal().Path())
	if err != nil {
		t.Fatal(err)
	}
	sess, _ := r.App.Client().Session()
	for _, e := range []journal.Entry{
		{Time: r.Clock.Now(), Kind: journal.KindIntent, Env: r.App.Target.Env.Name, AccountID: sess.AccountID, QuoteID: req.QuoteID, Request: &req, Intent: &in},
		{Time: r.Clock.Now(), Kind: journal.KindRejected, Env: r.App.Target.Env.Name, AccountID: sess.AccountID, QuoteID: req.QuoteID, Error: "refused: the destination is flagged"},
	} {
		if err := other.Append(e); err != nil {
			t.Fatal(err)
		}
	}
	calls := r.StatusCalls.Load()
	if br.fire() {
		t.Fatal("the board ticks with nothing moving")
	}
	br.toasts = nil
	if !br.fireWatch() {
		t.Fatal("no watch of the journal while the board is shown")
	}
	if row := br.b.rows[req.QuoteID]; row.label != follow.LabelRefused || !slices.ContainsFunc(br.toasts, func(s string) bool { return strings.HasSuffix(s, "→ "+follow.LabelRefused) }) {
		t.Fatalf("the row after another terminal journaled its refusal: %s, said %q", row.label, br.toasts)
	}
	if n := r.StatusCalls.Load() - calls; n != 0 {
		t.Errorf("%d status requests to learn the journal, want none", n)
	}
	if !br.fireWatch() {
		t.Error("the watch stopped after it learned")
	}
}

// TestBoardWatchesTheJournalOnlyWhileShown: the watch's messages are no
// visit's (tui.Owned), so they reach the board only on top: under a row's
// status screen it reads nothing, and Resume starts it again, once.
func TestBoardWatchesTheJournalOnlyWhileShown(t *testing.T) {
	for _, m := range []tea.Msg{boardJournalTickMsg{}, boardJournaledMsg{}} {
		if _, owned := m.(tui.Owned); owned {
			t.Errorf("%T reaches the board under another screen", m)
		}
	}
	br := newBoardRig(t, screentest.NewStatusRig(t))
	// Under a row's status screen the watch's tick reaches that screen,
	// which drops it: the watch stopped.
	*br.timers = slices.DeleteFunc(*br.timers, func(tm dueTimer) bool { _, watch := tm.msg.(boardJournalTickMsg); return watch })
	br.run(br.b.Resume())
	watches := 0
	for _, tm := range *br.timers {
		if m, ok := tm.msg.(boardJournalTickMsg); ok && m.watch == br.b.watch {
			watches++
		}
	}
	if watches != 1 {
		t.Errorf("%d watches of the journal after Resume, want one", watches)
	}
}
