package board

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/svcwallet/svcwallet/screens/kit"
	"github.com/svcwallet/svcwallet/screens/screentest"
	"github.com/svcwallet/svcwallet/service/follow"
	"github.com/svcwallet/svcwallet/service/sandbox"
)

// TestBoardSavesWhenLeft (seen in tmux): an answer waiting for the next
// save (boardSaveEvery) is written when the board leaves the stack
// (tui.Owing), the clock not moved: its timer finds no board then, and the
// file, which a board opened after another login and the command line
// read, kept the row without its state and SINCE until the console ended.
// It is written once (kit.Owed): by the console's end if that comes
// first, never again by the next board's flush. A write that fails is said,
// as it leaves and at the end.
func TestBoardSavesWhenLeft(t *testing.T) {
	r, br, id, f, file := answerUnsaved(t)
	owed := br.b.Owed()
	if err := r.App.Flushes.Run(); err != nil { // the console ends before the write has run
		t.Fatal(err)
	}
	kept, _ := file.Load()
	if len(kept) != 1 || kept[0].Record == nil || kept[0].Record.State != f.Last.State || kept[0].Since.IsZero() {
		t.Fatalf("left, the board's file keeps %+v; want %s and since when", kept, f.Last.State)
	}
	// Written once: neither the write on leaving nor the next board's
	// flush appends it again.
	lines := watchLines(t, file.Path)
	br.run(owed)
	if err := br.b.flush(); err != nil {
		t.Fatal(err)
	}
	if again := watchLines(t, file.Path); again != lines {
		t.Fatalf("the board's last changes were written again: %d lines, then %d", lines, again)
	}

	// A file that cannot be written: said, not lost in silence.
	blocker := filepath.Join(t.TempDir(), "a-file")
	if err := os.WriteFile(blocker, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	br.b.file = &follow.WatchFile{Path: filepath.Join(blocker, follow.WatchlistFile), Env: file.Env}
	br.toasts = nil
	br.b.unsaved[id] = true // a row changed since
	br.run(br.b.Owed())
	if len(br.toasts) != 1 || !strings.Contains(br.toasts[0], "The watch board's last changes could not be saved") {
		t.Fatalf("a failed write on leaving says %q", br.toasts)
	}
	// The console's end tries it again, as does the board's flush (owed
	// again, as a board's Init owes it; the Run above took it): one
	// failure, said once, with what to do.
	r.App.Flushes.Swap(file.Path, br.b.flush)
	if _, board, _ := r.App.Ended(time.Second); board == nil || strings.Count(board.Error(), "watch board file") != 1 || !strings.Contains(board.Error(), "check the state directory") {
		t.Fatalf("the end says the failed write as %q; want it once, with what to do", board)
	}
}

// watchLines counts the lines of the board's file.
func watchLines(t *testing.T, path string) int {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return strings.Count(string(data), "\n")
}

// TestBoardLeftSavesAtTheEndWhenTheNextHasNotLoaded: a board of the same
// file opened after one left hands what that one owed to its load (Init),
// which never runs if the console ends first: the save as it left is
// still one the console's end makes (kit.Writes).
func TestBoardLeftSavesAtTheEndWhenTheNextHasNotLoaded(t *testing.T) {
	r, br, _, f, file := answerUnsaved(t)
	br.b.Owed()
	unstartedBoardRig(r).b.Init() // q comes before its load runs
	if journal, board, _ := r.App.Ended(time.Second); journal != nil || board != nil {
		t.Fatal(journal, board)
	}
	kept, _ := file.Load()
	if len(kept) != 1 || kept[0].Record == nil || kept[0].Record.State != f.Last.State {
		t.Fatalf("after the console's end the file keeps %+v; want %s", kept, f.Last.State)
	}
}

// answerUnsaved is a board that learned an answer waiting for the next
// save (boardSaveEvery), and its file, which lacks it.
func answerUnsaved(t *testing.T) (*screentest.StatusRig, *boardRig, string, follow.Followed, *follow.WatchFile) {
	t.Helper()
	r := screentest.NewStatusRig(t)
	r.App.Flushes, r.App.Writes = &kit.Flushes{}, &kit.Writes{}
	br := newBoardRig(t, r)
	id := screentest.Seed(t, r, sandbox.DestCompleted)
	br.send(tea.PasteMsg{Content: id})
	for i := 0; i < 100 && !br.b.saveDue; i++ {
		br.fire() // answers until one waits for the next save
	}
	f, _ := br.b.sched.Get(id)
	file := &follow.WatchFile{Path: kit.WatchlistPath(r.App), Env: r.App.Target.Env.Name}
	kept, _ := file.Load()
	if !br.b.saveDue || len(kept) != 1 || kept[0].Record != nil && kept[0].Record.State == f.Last.State {
		t.Fatalf("the test needs an answer not saved yet: save due %v, file %+v, row %s", br.b.saveDue, kept, f.Last.State)
	}
	return r, br, id, f, file
}
