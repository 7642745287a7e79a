// Package board is the support desk's watch board: many withdrawals
// followed by quote id within one request budget, kept per environment in
// the state directory.
package board

import (
	"cmp"
	"context"
	"slices"
	"strings"
	"time"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/svcwallet/svcwallet/screens/kit"
	"github.com/svcwallet/svcwallet/screens/kit/layout"
	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/follow"
	"github.com/svcwallet/svcwallet/service/journal"
	"github.com/svcwallet/svcwallet/tui"
)

var boardKeys = struct {
	Add, ToList, ToField, TypeID, Open, Copy, CopyHash, Remove key.Binding
	ClearDone, ClearFinal, ClearNotFound, Undo, Export         key.Binding
}{
	Add:           key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "add ids")),
	ToList:        key.NewBinding(key.WithKeys("tab"), key.WithHelp("tab", "to the board")),
	ToField:       key.NewBinding(key.WithKeys("tab", "a"), key.WithHelp("a", "add ids")),
	TypeID:        key.NewBinding(key.WithKeys("q", "0", "1", "2", "3", "4", "5", "6", "7", "8", "9"), key.WithHelp("q-…", "type a quote id")),
	Open:          key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "details")),
	Copy:          key.NewBinding(key.WithKeys("c"), key.WithHelp("c", "copy id")),
	CopyHash:      key.NewBinding(key.WithKeys("C"), key.WithHelp("C", "copy payout hash")),
	Remove:        key.NewBinding(key.WithKeys("x"), key.WithHelp("x", "remove")),
	ClearDone:     key.NewBinding(key.WithKeys("f"), key.WithHelp("f", "clear completed")),
	ClearFinal:    key.NewBinding(key.WithKeys("F"), key.WithHelp("F", "clear all ended")),
	ClearNotFound: key.NewBinding(key.WithKeys("n"), key.WithHelp("n", "clear not found")),
	Undo:          key.NewBinding(key.WithKeys("u"), key.WithHelp("u", "undo remove")),
	Export:        key.NewBinding(key.WithKeys("e"), key.WithHelp("e", "export CSV")),
}

// boardSaveEvery is the least time between two saves while answers change
// the board; ids added or removed are saved at once.
const boardSaveEvery = 2 * time.Second

// boardRow is one id on the board as of its last answer. A row is never
// changed but replaced, so the list finds it where its order put it
// (kit.List.Replace) and a save reads it while the board goes on.
type boardRow struct {
	seq   int    // the order added
	label string // its Outcome's name, for the order and the row
	rank  int    // of label (stateRank), for the order by state
	dest  string // the destination, when this account's journal has it
	follow.Followed
}

// boardTally counts the rows the footer and the keys speak of, kept as
// rows change so that no answer counts every row: per outcome name,
// moving (SUBMITTED, SENDING, asked by this login: a held row is not),
// final (never asked again), and unasked, those still to be answered (an
// ask a 429 refused is none): a record the journal holds (even of an end)
// is shown before the service confirms it, and the progress says it is
// still to come.
type boardTally struct {
	by                     map[string]int
	moving, final, unasked int
	// held are the rows other logins followed, never asked here
	// (follow.Followed.Held), and heldBy how many each account followed.
	held   int
	heldBy map[string]int
}

// count adds r, n times (-1 takes it away).
func (t *boardTally) count(r *boardRow, n int) {
	t.by[r.label] += n
	if r.Final {
		t.final += n
	}
	if !r.Final && !r.NotFound && !r.Held && !r.Answered() {
		t.unasked += n
	}
	if r.Known && !r.Final && !r.Held && (r.Last.State == exchange.StateSubmitted || r.Last.State == exchange.StateSending) {
		t.moving += n
	}
	if r.Held {
		t.held += n
		as := exchange.AccountKey(r.As) // one account in any letter case
		if t.heldBy[as] += n; t.heldBy[as] <= 0 {
			delete(t.heldBy, as)
		}
	}
}

// doneLabels are the ends f clears: those that need no follow-up.
var doneLabels = []string{exchange.StateCompleted, follow.LabelExpired}

// boardScreen is the support desk's watch board: many quote ids, pasted or
// typed, each followed by one shared scheduler (follow.Scheduler) within
// one request budget, one row each, in an order S chooses. What it knows
// of each id is kept per environment in the state directory and shown at
// once on the next visit; a final id is never asked again. The states of
// the account's own withdrawals are journaled, as the status screen does.
// An answer costs the same however many ids there are: its row is
// replaced in place (kit.List.Replace) and the counts adjusted.
type boardScreen struct {
	kit.Visit // its calls end when it is left
	app       *kit.App
	input     kit.Input
	list      kit.List[*boardRow]
	sched     *follow.Scheduler
	rows      map[string]*boardRow // by quote id, as the list holds them
	// known is the payout hashes and transfer ids seen, found when pasted.
	known  follow.Known
	seq    int // of the next row added
	tally  boardTally
	marked map[string]bool
	// undo holds the rows the last removal took (x, f, F, n); u puts them
	// back; cleared says what it was, for a board it left empty.
	undo    []*boardRow
	cleared string
	tag     tui.Tag
	ticking bool // a tick of this visit is pending
	// asking stops the span of asks out (step); nil when none is.
	asking context.CancelFunc
	// as is the session the board was opened for, the account every ask
	// goes as (follow.Loop.As); otherLogin, once the client is another
	// account's, says so and stops the asking.
	as         exchange.Session
	otherLogin error
	// journaled is where the journal ended when last read: each span of
	// asks reads what other processes wrote since (follow.Journaled), as
	// the watch does while nothing moves (watchJournal, of the tag watch).
	journaled journal.Mark
	watch     tui.Tag
	// file keeps the board; unsaved are the ids whose rows changed (or
	// went) since the last save began, at saved, and pending those of the
	// save out (saving); saveDue: a boardSaveMsg is on its way.
	file             *follow.WatchFile
	unsaved, pending map[string]bool
	saving, saveDue  bool
	saved            time.Time
	left             []*kit.Owed // Owed's writes, made once (flush)
	err              error
	// exportTo is the export's path (e); exportErr: b.err is about it.
	exportTo  kit.Input
	exportErr bool
	// exportedTo says where the last export went, under the field until the
	// next key: the toast saying it gives way to the next change. lasts is
	// what is said of its folder (exportLasts): words, wrapped at spaces,
	// where the path is wrapped whole.
	exportedTo, lasts string
	w, h              int
	drawn             drawn
	unseen            bool // the last answer changed nothing drawn
	// drawnAt is when the frame was drawn; stale: answers changed it
	// since, drawn at drawDue's boardDrawMsg (redraw).
	drawnAt        time.Time
	stale, drawDue bool
	// heading1 and heading2 are the first lines, drawn for a dark theme
	// or not (headingDark) at a width (headingW).
	heading1, heading2 string
	headingDark        bool
	headingW           int
}

// New builds the watch board.
func New(app *kit.App) tui.Screen {
	b := &boardScreen{
		app: app, input: kit.NewInput(app.Common, boardPlaceholders[0], false),
		exportTo: kit.NewInput(app.Common, "a path ending in .csv", false),
		sched:    follow.NewScheduler(app.Target.Env.EffectiveFollowRate()), rows: map[string]*boardRow{}, known: follow.Known{},
		marked: map[string]bool{}, unsaved: map[string]bool{}, tally: boardTally{by: map[string]int{}, heldBy: map[string]int{}},
		file: &follow.WatchFile{Path: kit.WatchlistPath(app), Env: app.Target.Env.Name},
	}
	b.as, _ = app.Client().Session()
	b.sched.Recall = true            // a row starts from what the journal knows
	b.sched.Account = b.as.AccountID // a row another login followed is held
	b.input.TakeHashes()             // a hash typed here is found here, never sent
	b.input.Want("quote ids, hashes or links")
	b.exportTo.Want("a path ending in .csv")
	b.list = kit.NewList(app.Common, kit.ListSpec[*boardRow]{
		Noun: "withdrawal", Columns: boardColumns, Row: b.row, Select: "select", Sorts: boardSorts,
		Empty: "No withdrawals on the board yet: paste quote ids above, or press w on History to add this account's.",
		// What customers quote: the quote id, transfer id or payout hash,
		// and the chain, destination and state.
		Fields: func(r *boardRow) []string {
			return []string{r.QuoteID, r.Last.TxID, r.Last.WithdrawTxHash, r.Last.Chain, r.dest, r.label}
		},
		ID:           func(r *boardRow) string { return r.QuoteID },
		FilterHashes: true,
	})
	return b
}

func (b *boardScreen) Init() tea.Cmd {
	b.tag = tui.NextTag()
	file, read, tag, j := b.file, b.app.AccountRecords(), b.tag, b.app.Journal()
	// What a board of this file left unwritten is written before this one
	// reads it; this one's is owed from now on.
	before := b.app.Flushes.Swap(file.Path+"\x00"+file.Env, b.flush)
	load := func() tea.Msg {
		var owed error
		if before != nil {
			owed = before()
		}
		kept, err := file.LoadClean()
		// Unreadable, the journal owns nothing here: Home says it cannot
		// be read. Marked first, so a line written meanwhile is read again.
		mark, _ := j.Mark()
		recs, _, _ := read()
		return boardLoadedMsg{tag: tag, kept: kept, own: follow.OwnOf(recs), mark: mark, err: err, owed: owed}
	}
	return tea.Batch(b.typeIDs(true), load)
}

// typeIDs gives the id field the keys, or the board; the board's cursor
// is drawn only while it has them. Leaving the field takes away the error
// about it being empty.
func (b *boardScreen) typeIDs(on bool) tea.Cmd {
	b.list.Blurred = on
	if on {
		return b.input.Focus()
	}
	if b.err == errNoIDs {
		b.err = nil
	}
	b.input.Blur()
	return nil
}

// Resume takes back the budget lent to the row's status screen.
func (b *boardScreen) Resume() tea.Cmd {
	b.sched.Lend(0)
	b.replan()
	return b.watchJournal()
}

// Holds: the board's messages reach it under the status screen of a row
// (tui.Follower), so it never stops following while one is open.
func (b *boardScreen) Holds(tag tui.Tag) bool { return tag == b.tag }

func (b *boardScreen) Title() string { return "Watch board" }

func (b *boardScreen) SetSize(w, h int) {
	b.w, b.h = w, h
	b.drawn = drawn{}
	b.input.SetWidth(max(w-boardLabelWidth-2, 10))
	// The cursor takes a cell of the field's width.
	b.input.Placeholder = layout.Fitting(b.input.Width()-1, boardPlaceholders...)
	b.sizeList()
}

// Wheel: the mouse wheel moves the board's cursor while the board has the
// keys.
func (b *boardScreen) Wheel() bool { return !b.typingIDs() && !b.exporting() && len(b.rows) > 0 }

// Inputting: while ids or the filter are typed, letters are text.
func (b *boardScreen) Inputting() bool {
	return b.input.Focused() || b.list.Typing() || b.exporting()
}

// KeyMap is the footer, from the same bindings that handle the keys; the
// full help (?) adds the legend of the rows' marks.
func (b *boardScreen) KeyMap() help.KeyMap {
	if b.drawn.keys == nil {
		b.drawn.keys = kit.WithLegend(b.bindings().KeyMap(), boardLegend())
	}
	return b.drawn.keys
}

// drawn is what the board last drew, kept until a message changes what it
// shows: a frame is drawn after every message, and most of the board's
// (the ticks that hand an id out, the saves) change nothing on it.
type drawn struct {
	frame string
	keys  help.KeyMap
}

// quiet reports whether msg, handled, left the board as it was drawn: a
// tick (unless the rate limit's countdown shows), a save.
func (b *boardScreen) quiet(msg tea.Msg) bool {
	switch msg := msg.(type) {
	case boardTickMsg:
		return b.sched.PausedFor(b.app.Common.Now()) == 0
	case boardSaveMsg, boardJournalTickMsg:
		return true
	case boardJournaledMsg:
		return b.unseen
	case boardSavedMsg:
		return msg.err == nil
	case boardAskedMsg:
		return b.unseen
	case boardToldMsg:
		return b.unseen
	}
	return false
}

// bindings: while ids are typed, enter adds them and tab goes to the board
// (once it has ids); on the board, the list's keys and what acts on the
// selected row or on all of them, and a to type ids.
func (b *boardScreen) bindings() kit.Bindings {
	if b.exporting() {
		return b.exportBindings()
	}
	if b.typingIDs() {
		return kit.Bindings{
			{Key: boardKeys.Add, On: true, Do: b.addTyped},
			{Key: boardKeys.ToList, On: len(b.rows) > 0, Do: func() tea.Cmd { return b.typeIDs(false) }},
		}
	}
	return b.list.Bindings(b.keys())
}

// typingIDs: the id field has the keys, unless the filter is typed.
func (b *boardScreen) typingIDs() bool { return b.input.Focused() && !b.list.Typing() }

// keys act on the selected row, or on every row.
func (b *boardScreen) keys() kit.Bindings {
	r, some := b.list.Selected()
	return kit.Bindings{
		{Key: boardKeys.Open, On: some, Do: func() tea.Cmd {
			delete(b.marked, r.QuoteID)
			// The row's status screen asks its id from the same budget.
			b.sched.Lend(cmp.Or(b.app.PollInterval, follow.DefaultPollInterval))
			b.replan()
			tell := func(id string, w exchange.Withdrawal, err error) tea.Msg { return boardToldMsg{b.tag, id, w, err} }
			return tui.Push(b.app.Makers.BoardStatus(b.app, b.rows[r.QuoteID].Followed, b.sched.PausedFor(b.app.Common.Now()), tell))
		}},
		{Key: boardKeys.Copy, On: some, Do: func() tea.Cmd { return kit.CopyText(b.app, r.QuoteID, "Copied quote id "+r.QuoteID) }},
		{Key: boardKeys.CopyHash, On: b.selectedHash() != "", Do: func() tea.Cmd {
			return kit.CopyText(b.app, b.selectedHash(), "Copied payout hash of "+r.QuoteID)
		}},
		{Key: boardKeys.Remove, On: some, Do: func() tea.Cmd { return b.drop([]*boardRow{r}, "Removed "+r.QuoteID+" from the board") }},
		{Key: boardKeys.ToField, On: true, Do: func() tea.Cmd { return b.typeIDs(true) }},
		{Key: boardKeys.TypeID, On: true, Do: func() tea.Cmd { return nil }}, // key takes it, with its character
		{Key: boardKeys.Export, On: some, Do: b.askExport},
		// What needs a follow-up (FAILED, REFUNDED, NOT FOUND) stays on f;
		// F clears every row that ended.
		{Key: boardKeys.ClearDone, On: b.tally.by[exchange.StateCompleted]+b.tally.by[follow.LabelExpired] > 0, Do: func() tea.Cmd {
			return b.clearWhere(func(r *boardRow) bool { return r.Final && slices.Contains(doneLabels, r.label) })
		}},
		{Key: boardKeys.ClearFinal, On: b.tally.final > 0, Do: func() tea.Cmd {
			return b.clearWhere(func(r *boardRow) bool { return r.Final })
		}},
		{Key: boardKeys.ClearNotFound, On: b.tally.by[follow.LabelNotFound] > 0, Do: func() tea.Cmd {
			return b.clearWhere(func(r *boardRow) bool { return r.NotFound && !r.NeverExecuted() })
		}},
		{Key: boardKeys.Undo, On: len(b.undo) > 0 && b.roomToPutBack() == nil, Do: b.putBack, Off: b.noRoomToPutBack()},
	}
}

func (b *boardScreen) Update(msg tea.Msg) (tui.Screen, tea.Cmd) {
	cmd := tea.Batch(b.update(msg), b.redraw(msg))
	b.sizeList() // an error shown or gone moves the rows
	return b, cmd
}

func (b *boardScreen) update(msg tea.Msg) tea.Cmd {
	b.unseen = false
	switch msg := msg.(type) {
	case boardLoadedMsg:
		secrets := secretsDroppedSaid(&msg)
		if msg.err != nil {
			b.err = exchange.UserError{Text: "The board's saved ids cannot all be read (" + msg.err.Error() + "): paste the missing ones again", Cause: msg.err}
		}
		var said tea.Cmd
		if msg.owed != nil {
			said = tui.ShowError(exchange.UserError{Text: "The last changes of the board could not be saved (" + msg.owed.Error() + "); check the state directory", Cause: msg.owed})
		}
		b.sched.Know(msg.own)
		b.journaled = msg.mark
		for _, r := range msg.own {
			b.known.AddRecord(r)
		}
		// A board that holds ids opens on them: typing goes to the field
		// only once asked for (a, tab).
		added, tooMany := b.put(msg.kept)
		if len(added) > 0 {
			b.typeIDs(false)
		}
		if tooMany != nil { // a file an earlier version wrote, or another console's
			text := strings.TrimSpace(sentence(tooMany))
			if b.err != nil {
				text = b.err.Error() + " " + text
			}
			b.err = exchange.UserError{Text: text, Cause: tooMany}
		}
		return tea.Batch(said, secrets, b.kick(), b.watchJournal())
	case boardJournalTickMsg, boardJournaledMsg:
		return b.journalWatched(msg)
	case boardSaveMsg:
		if msg.tag == b.tag {
			b.saveDue = false
			return b.saveSoon()
		}
	case boardSavedMsg:
		b.savedAll(msg)
		if msg.err != nil {
			return tui.ShowError(exchange.UserError{Text: "The board could not be saved (" + msg.err.Error() + "): it will be empty after a restart; check the state directory", Cause: msg.err})
		}
		return b.saveSoon()
	case boardExportedMsg:
		return b.exportDone(msg)
	case boardTickMsg:
		if msg.tag == b.tag {
			b.ticking = false
			return b.step()
		}
	case boardAskedMsg:
		if msg.tag == b.tag {
			return b.took(msg)
		}
	case boardToldMsg:
		if msg.tag == b.tag {
			return tea.Batch(b.answered(follow.Asked{ID: msg.id, At: b.app.Common.Now(), W: msg.w, Err: msg.err}), b.saveSoon(), b.kick())
		}
	case kit.IDsTypedMsg:
		return b.addText(msg.Text)
	case tea.PasteMsg:
		if b.list.Typing() {
			return b.list.Update(msg, nil)
		}
		if b.exporting() {
			var cmd tea.Cmd
			b.exportTo, cmd = b.exportTo.Update(msg)
			return cmd
		}
		// Ids go on the board without entering the field: a line with a
		// private key's shape is dropped there (follow.ParseQuoteIDs), the
		// others kept.
		text := b.input.Value() + msg.Content // the paste goes where the cursor is
		b.input.SetValue("")
		return b.addText(text)
	case tea.KeyPressMsg:
		return b.key(msg)
	case tea.MouseWheelMsg:
		if b.Wheel() {
			return b.onList(msg)
		}
	}
	return nil
}

// key goes to the id field while it has the keys, else to the list.
func (b *boardScreen) key(k tea.KeyPressMsg) tea.Cmd {
	b.exportedTo, b.lasts = "", ""
	if b.exporting() {
		guard := b.exportTo.Guard(k) // the field's rule before the screen's keys
		if cmd, ok := b.bindings().Handle(k); ok {
			return tea.Batch(guard, cmd)
		}
		var cmd tea.Cmd
		b.exportTo, cmd = b.exportTo.Update(k)
		return tea.Batch(guard, cmd)
	}
	if !b.typingIDs() {
		if !b.list.Typing() && key.Matches(k, boardKeys.TypeID) {
			// A quote id starts with q (q-…), a hash with a digit: as on a
			// row's status screen, it starts the field and never quits.
			cmd := b.typeIDs(true)
			b.input.SetValue(k.Text)
			b.input.CursorEnd()
			return cmd
		}
		return b.onList(k)
	}
	guard := b.input.Guard(k) // the field's rule before the screen's keys
	if cmd, ok := b.bindings().Handle(k); ok {
		return tea.Batch(guard, cmd)
	}
	b.err = nil
	var cmd tea.Cmd
	b.input, cmd = b.input.Update(k)
	return tea.Batch(guard, cmd)
}

// onList hands a key or the wheel to the list; a changed row is seen once
// selected.
func (b *boardScreen) onList(msg tea.Msg) tea.Cmd {
	before, _ := b.list.Selected()
	cmd := b.list.Update(msg, b.keys())
	if after, ok := b.list.Selected(); ok && after != before {
		delete(b.marked, after.QuoteID)
	}
	return cmd
}
