package board

// The board's messages: what its Cmds and timers hand back to its visit.

import (
	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/follow"
	"github.com/svcwallet/svcwallet/service/journal"
	"github.com/svcwallet/svcwallet/tui"
)

// The board's messages are its visit's (tui.Owned): they reach it while a
// row's status screen is on top of it, so it goes on following (tui.Follower).

// boardTickMsg asks the scheduler what is due, for the visit tag.
type boardTickMsg struct{ tag tui.Tag }

// boardAskedMsg hands over the answers of a span of asks (step), and the
// slots it gave back unasked, for the visit tag.
type boardAskedMsg struct {
	tag   tui.Tag
	asked []follow.Asked
	rest  []follow.Slot
	// journaled is what the journal gained since it was last read, as of
	// mark (follow.Journaled).
	journaled []journal.Record
	mark      journal.Mark
	// changed: the login became another account's; the rest was given
	// back unasked (follow.Loop.AskPlan).
	changed *follow.LoginChangedError
}

// boardToldMsg is an answer the status screen of a row got (kit.Tell),
// for the visit tag: the board learns it as its own answer.
type boardToldMsg struct {
	tag tui.Tag
	id  string
	w   exchange.Withdrawal
	err error
}

// boardLoadedMsg carries what is kept of the board of this environment
// and the account's own withdrawals, whose states the board journals.
type boardLoadedMsg struct {
	tag  tui.Tag
	kept []follow.Kept
	own  follow.Own
	mark journal.Mark // where the journal ended before own was read
	err  error
	// owed: what the last board of this file left unwritten could not be
	// written.
	owed error
}

// boardSaveMsg ends the wait between two saves, for the visit tag.
type boardSaveMsg struct{ tag tui.Tag }

// boardSavedMsg reports keeping the rows of ids; only a failure is said.
type boardSavedMsg struct {
	tag tui.Tag
	ids []string
	err error
}

// boardExportedMsg reports the export: the file and its rows, or why not.
type boardExportedMsg struct {
	tag  tui.Tag
	path string
	rows int
	err  error
}

func (m boardTickMsg) Owner() tui.Tag     { return m.tag }
func (m boardAskedMsg) Owner() tui.Tag    { return m.tag }
func (m boardToldMsg) Owner() tui.Tag     { return m.tag }
func (m boardLoadedMsg) Owner() tui.Tag   { return m.tag }
func (m boardSaveMsg) Owner() tui.Tag     { return m.tag }
func (m boardSavedMsg) Owner() tui.Tag    { return m.tag }
func (m boardExportedMsg) Owner() tui.Tag { return m.tag }
func (m boardDrawMsg) Owner() tui.Tag     { return m.tag }

// The asking, an opened row's answers and the saves come five times a
// second or more: the frame they change waits for the next one drawn, up
// to a second (tui.Paced); the board's own draw (boardDrawMsg) and a
// span's answers, about once a second (boardHandOver, boardDrawHandOver),
// are drawn at once: in the wake-up that brought them, not on a timer of
// their own.
func (boardTickMsg) Paced()  {}
func (boardToldMsg) Paced()  {}
func (boardSaveMsg) Paced()  {}
func (boardSavedMsg) Paced() {}
