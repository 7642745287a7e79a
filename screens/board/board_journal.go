package board

// The journal watched while nothing moves: another terminal's records (a
// withdraw refused or accepted, a state it journaled) are learned while
// the board is open, not only when it is opened again. Spans of asks read
// the journal while something moves (step); with nothing moving, a tick
// of the board's own reads it while the board is shown.

import (
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/svcwallet/svcwallet/service/journal"
	"github.com/svcwallet/svcwallet/tui"
)

// boardJournalEvery is how often a board shown with nothing moving looks
// at the journal: a stat and a read of its last line's end while it is
// unchanged, no request to the service, no frame drawn.
const boardJournalEvery = 2 * time.Second

// boardJournalTickMsg is the watch's tick and boardJournaledMsg what it
// read, for the watch's tag. Neither is tui.Owned: they reach the board
// only while it is on top, so the watch stops under a row's status screen
// and starts again on Resume.
type boardJournalTickMsg struct{ watch tui.Tag }

type boardJournaledMsg struct {
	watch tui.Tag
	recs  []journal.Record
	mark  journal.Mark
}

func (boardJournalTickMsg) Paced() {}
func (boardJournaledMsg) Paced()   {}

// watchJournal starts the watch anew: a tick of an earlier one is dropped.
func (b *boardScreen) watchJournal() tea.Cmd {
	b.watch = tui.NextTag()
	return b.app.After(boardJournalEvery, boardJournalTickMsg{watch: b.watch})
}

// journalWatched takes the watch's tick or what it read. While something
// moves the spans of asks read the journal, and the tick only waits.
func (b *boardScreen) journalWatched(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case boardJournalTickMsg:
		if msg.watch != b.watch {
			return nil
		}
		if b.asking != nil || b.sched.Moving() > 0 {
			return b.app.After(boardJournalEvery, msg)
		}
		since, mark, watch := b.journalSince(), b.journaled, b.watch
		return func() tea.Msg {
			recs, mark, _ := since(mark) // unreadable: read again at the next tick
			return boardJournaledMsg{watch: watch, recs: recs, mark: mark}
		}
	case boardJournaledMsg:
		if msg.watch != b.watch {
			return nil
		}
		b.journaled = msg.mark
		b.unseen = true // unless a row changes (learned)
		return tea.Batch(b.learned(msg.recs), b.app.After(boardJournalEvery, boardJournalTickMsg{watch: b.watch}))
	}
	return nil
}
