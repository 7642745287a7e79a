package board

import (
	"slices"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/svcwallet/svcwallet/screens/screentest"
	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/follow"
	"github.com/svcwallet/svcwallet/service/sandbox"
	"github.com/svcwallet/svcwallet/tui"
)

// TestTitleAppearsOnce: the board's title is in the top bar, and the body
// does not repeat it as a heading.
func TestTitleAppearsOnce(t *testing.T) {
	r := screentest.NewStatusRig(t)
	br := newBoardRig(t, r)
	br.send(tea.PasteMsg{Content: screentest.Seed(t, r, sandbox.DestCompleted)})
	br.fire()
	screentest.RequireTitleOnce(t, screentest.RootFrame(br.b, r.App), "Watch board")
}

// TestBoardPacesItsAsking: the board's asking, an opened row's answers
// and saves (five a second or more) are paced, drawn with the next frame;
// its own draw, a span's answers (about once a second, drawn in the
// wake-up that brought them) and what the user asked for (a load, an
// export) are drawn at once.
func TestBoardPacesItsAsking(t *testing.T) {
	for _, msg := range []tea.Msg{boardTickMsg{}, boardToldMsg{}, boardSaveMsg{}, boardSavedMsg{}} {
		if _, ok := msg.(tui.Paced); !ok {
			t.Errorf("%T is drawn at once: the board's answers would draw five frames a second", msg)
		}
	}
	for _, msg := range []tea.Msg{boardDrawMsg{}, boardAskedMsg{}, boardLoadedMsg{}, boardExportedMsg{}} {
		if _, ok := msg.(tui.Paced); ok {
			t.Errorf("%T is paced: what it shows would wait up to a second", msg)
		}
	}
}

// TestBoardDrawsASpanWithItsAnswers (issue 35 item 2): a span's answers
// are drawn as they come once the frame is half a second old, in the
// wake-up that brought them, not on a timer of their own; sooner, they
// wait for the frame a second after the last.
func TestBoardDrawsASpanWithItsAnswers(t *testing.T) {
	r := screentest.NewStatusRig(t)
	br := newBoardRig(t, r)
	one, two := screentest.Seed(t, r, sandbox.DestCompleted), screentest.Seed(t, r, sandbox.DestCompleted)
	br.send(tea.PasteMsg{Content: one + "\n" + two})
	frame, drawnAt := br.b.View(), br.Clock.Now()
	answer := func(id, state string) tea.Msg {
		w, err := r.App.Client().WithdrawalStatus(t.Context(), id)
		if err != nil {
			t.Fatal(err)
		}
		w.State = state
		return boardAskedMsg{tag: br.b.tag, asked: []follow.Asked{{ID: id, At: br.Clock.Now(), W: w}}}
	}
	*br.timers = nil
	br.Clock.Advance(boardDrawHandOver)
	br.send(answer(two, exchange.StateSubmitted))
	if v := br.b.View(); v == frame {
		t.Fatalf("a span's answers %s after the last frame were not drawn at once:\n%s", boardDrawHandOver, v)
	}
	for _, tm := range *br.timers {
		if _, ok := tm.msg.(boardDrawMsg); ok {
			t.Errorf("a span drawn at once set a timer to draw it (%s)", tm.at.Sub(drawnAt))
		}
	}
	frame, drawnAt = br.b.View(), br.Clock.Now()
	br.Clock.Advance(boardDrawHandOver / 2)
	br.send(answer(one, exchange.StateFailed))
	if v := br.b.View(); v != frame {
		t.Fatalf("a span's answers %s after the last frame were drawn at once", boardDrawHandOver/2)
	}
	due := slices.IndexFunc(*br.timers, func(tm dueTimer) bool { _, ok := tm.msg.(boardDrawMsg); return ok })
	if due < 0 || !(*br.timers)[due].at.Equal(drawnAt.Add(boardDrawEvery)) {
		t.Fatalf("the span's answers are not drawn %s after the last frame: timers %v", boardDrawEvery, *br.timers)
	}
}

// TestBoardSavesAtTheHandOver (issue 35 item 2): while a span of asks is
// out, what answers changed is saved when the span's answers are handed
// over, boardSaveEvery after the last save at the earliest, in that
// wake-up, not on a timer of its own.
func TestBoardSavesAtTheHandOver(t *testing.T) {
	r := screentest.NewStatusRig(t)
	br := newBoardRig(t, r)
	one, two := screentest.Seed(t, r, sandbox.DestCompleted), screentest.Seed(t, r, sandbox.DestCompleted)
	br.send(tea.PasteMsg{Content: one + "\n" + two})
	// The first answer is saved on a timer: no span is out.
	for br.fire() {
		if _, ok := br.last.(boardSaveMsg); ok {
			break
		}
	}
	w, err := r.App.Client().WithdrawalStatus(t.Context(), one)
	if err != nil {
		t.Fatal(err)
	}
	w.State = exchange.StateSending
	*br.timers = nil
	br.b.asking = func() {} // a span is out
	br.send(boardToldMsg{tag: br.b.tag, id: one, w: w})
	for _, tm := range *br.timers {
		if _, ok := tm.msg.(boardSaveMsg); ok {
			t.Fatal("a change was saved on a timer while a span of asks was out")
		}
	}
	if !br.b.unsaved[one] {
		t.Fatalf("%s's change is not owed a save", one)
	}
	br.Clock.Advance(boardSaveEvery)
	br.send(boardAskedMsg{tag: br.b.tag})
	kept, err := br.b.file.Load()
	if err != nil {
		t.Fatal(err)
	}
	i := slices.IndexFunc(kept, func(k follow.Kept) bool { return k.QuoteID == one })
	if i < 0 || kept[i].Record == nil || kept[i].Record.State != exchange.StateSending {
		t.Fatalf("the hand-over %s after the last save did not save %s's change: %+v", boardSaveEvery, one, kept)
	}
}
