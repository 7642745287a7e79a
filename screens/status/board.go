package status

import (
	"path/filepath"
	"slices"
	"strings"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"svcwallet/clean"
	"svcwallet/screens/kit"
	"svcwallet/service"
	"svcwallet/service/follow"
	"svcwallet/service/journal"
	"svcwallet/tui"
)

// boardTickMsg asks the scheduler what is due, for the visit tag.
type boardTickMsg struct{ tag tui.Tag }

// boardAnswerMsg answers the status request of one id, for the visit tag.
type boardAnswerMsg struct {
	tag tui.Tag
	id  string
	w   service.Withdrawal
	err error
}

// boardLoadedMsg carries the ids kept for this environment and the
// account's own withdrawals, whose states the board journals.
type boardLoadedMsg struct {
	ids []string
	own follow.Own
	err error
}

// boardSavedMsg reports keeping the ids; only a failure is said.
type boardSavedMsg struct{ err error }

var boardKeys = struct {
	Add, ToList, ToField, Open, Copy, CopyHash, Remove key.Binding
}{
	Add:      key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "add ids")),
	ToList:   key.NewBinding(key.WithKeys("tab"), key.WithHelp("tab", "to the board")),
	ToField:  key.NewBinding(key.WithKeys("tab", "a"), key.WithHelp("a", "add ids")),
	Open:     key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "details")),
	Copy:     key.NewBinding(key.WithKeys("c"), key.WithHelp("c", "copy quote id")),
	CopyHash: key.NewBinding(key.WithKeys("C"), key.WithHelp("C", "copy payout hash")),
	Remove:   key.NewBinding(key.WithKeys("x"), key.WithHelp("x", "remove")),
}

// boardScreen is the support desk's watch board: many quote ids, pasted or typed,
// each followed by one shared scheduler (follow.Scheduler) within one
// request budget, one row each, the moving ones first. Its ids are kept per
// environment in the state directory. The states of the account's own
// withdrawals are journaled, as the status screen does.
type boardScreen struct {
	kit.Visit // its calls end when it is left
	app       *kit.App
	input     kit.Input
	list      kit.List[string] // the ids, moving first
	spare     []string         // the order before, refilled by sortRows
	sched     *follow.Scheduler
	ids       []string // in the order added
	marked    map[string]bool
	// inflight: handed out by Next, not answered yet.
	inflight map[string]bool
	tag      tui.Tag
	ticking  bool // a tick of this visit is pending
	err      error
	w, h     int
}

// NewBoard builds the watch board.
func NewBoard(app *kit.App) tui.Screen {
	b := &boardScreen{
		app: app, input: kit.NewInput(app.Common, "paste or type quote ids, e.g. q-…", false),
		sched:  follow.NewScheduler(app.Target.Env.EffectiveFollowRate()),
		marked: map[string]bool{}, inflight: map[string]bool{},
	}
	b.list = kit.NewList(app.Common, kit.ListSpec[string]{
		Noun: "withdrawal", Columns: boardColumns, Row: b.row, Select: "select",
		Empty: "No withdrawals on the board yet: paste quote ids above, or press w on History to add this account's.",
		Fields: func(id string) []string {
			f, _ := b.sched.Get(id)
			return []string{id, f.Last.Chain, boardState(f)}
		},
		ID: func(id string) string { return id },
	})
	return b
}

// watchlistPath is the board's file, next to the journal.
func watchlistPath(app *kit.App) string {
	dir := filepath.Dir(journal.DefaultPath())
	if app.Journal() != nil {
		dir = filepath.Dir(app.Journal().Path())
	}
	return filepath.Join(dir, follow.WatchlistFile)
}

func (b *boardScreen) Init() tea.Cmd {
	b.tag = tui.NextTag()
	path, env := watchlistPath(b.app), b.app.Target.Env.Name
	read := b.app.AccountRecords()
	load := func() tea.Msg {
		ids, err := follow.LoadWatchlist(path, env)
		// Unreadable, the journal owns nothing here: Home says it cannot
		// be read.
		recs, _, _ := read()
		return boardLoadedMsg{ids: ids, own: follow.OwnOf(recs), err: err}
	}
	return tea.Batch(b.typeIDs(true), load)
}

// typeIDs gives the id field the keys, or the board; the board's cursor
// is drawn only while it has them.
func (b *boardScreen) typeIDs(on bool) tea.Cmd {
	b.list.Blurred = on
	if on {
		return b.input.Focus()
	}
	b.input.Blur()
	return nil
}

// Resume restarts the ticks with a new tag; answers that reached the screen
// above were lost, so their ids are due again.
func (b *boardScreen) Resume() tea.Cmd {
	b.tag, b.ticking = tui.NextTag(), false
	now := b.app.Common.Now()
	for id := range b.inflight {
		b.sched.Requeue(id, now)
	}
	clear(b.inflight)
	return b.kick()
}

func (b *boardScreen) Title() string { return "Watch board" }

func (b *boardScreen) SetSize(w, h int) {
	b.w, b.h = w, h
	b.input.SetWidth(max(w-statusLabelWidth-2, 10))
	b.sizeList()
}

// Inputting: while ids or the filter are typed, letters are text.
func (b *boardScreen) Inputting() bool { return b.input.Focused() || b.list.Typing() }

func (b *boardScreen) KeyMap() help.KeyMap { return b.bindings().KeyMap() }

// bindings: while ids are typed, enter adds them and tab goes to the board
// (once it has ids); on the board, the list's keys and what acts on the
// selected row, and a to type ids.
func (b *boardScreen) bindings() kit.Bindings {
	if b.typingIDs() {
		return kit.Bindings{
			{Key: boardKeys.Add, On: true, Do: b.addTyped},
			{Key: boardKeys.ToList, On: len(b.ids) > 0, Do: func() tea.Cmd { return b.typeIDs(false) }},
		}
	}
	return b.list.Bindings(b.keys())
}

// typingIDs: the id field has the keys, unless the filter is typed.
func (b *boardScreen) typingIDs() bool { return b.input.Focused() && !b.list.Typing() }

// keys act on the selected row.
func (b *boardScreen) keys() kit.Bindings {
	id, some := b.list.Selected()
	return kit.Bindings{
		{Key: boardKeys.Open, On: some, Do: func() tea.Cmd {
			delete(b.marked, id)
			return tui.Push(newStatus(b.app, id))
		}},
		{Key: boardKeys.Copy, On: some, Do: func() tea.Cmd { return kit.CopyText(b.app, id, "Copied quote id "+id) }},
		{Key: boardKeys.CopyHash, On: b.selectedHash() != "", Do: func() tea.Cmd {
			return kit.CopyText(b.app, b.selectedHash(), "Copied payout hash of "+id)
		}},
		{Key: boardKeys.Remove, On: some, Do: func() tea.Cmd { return b.remove(id) }},
		{Key: boardKeys.ToField, On: true, Do: func() tea.Cmd { return b.typeIDs(true) }},
	}
}

func (b *boardScreen) Update(msg tea.Msg) (tui.Screen, tea.Cmd) {
	cmd := b.update(msg)
	b.sizeList() // an error shown or gone moves the rows
	return b, cmd
}

func (b *boardScreen) update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case boardLoadedMsg:
		if msg.err != nil {
			b.err = service.UserError{Text: "The board's saved ids cannot be read (" + msg.err.Error() + "): paste them again", Cause: msg.err}
		}
		b.sched.Know(msg.own)
		return b.add(msg.ids, false)
	case boardSavedMsg:
		if msg.err != nil {
			return tui.ShowError(service.UserError{Text: "The board could not be saved (" + msg.err.Error() + "): it will be empty after a restart; check the state directory", Cause: msg.err})
		}
	case boardTickMsg:
		if msg.tag == b.tag {
			b.ticking = false
			return b.step()
		}
	case boardAnswerMsg:
		if msg.tag == b.tag {
			return b.answered(msg)
		}
	case tea.PasteMsg:
		if b.list.Typing() {
			return b.list.Update(msg, nil)
		}
		text := b.input.Value() + msg.Content // the paste goes where the cursor is
		b.input.SetValue("")
		if clean.HoldsKeyShape(text) {
			// Ids go on the board without entering the field, so the
			// field's key guard is applied here.
			return tui.ShowError(kit.KeyCleared)
		}
		return b.addText(text)
	case tea.KeyPressMsg:
		return b.key(msg)
	}
	return nil
}

// key goes to the id field while it has the keys, else to the list; a
// changed row is seen once selected.
func (b *boardScreen) key(k tea.KeyPressMsg) tea.Cmd {
	if !b.typingIDs() {
		before, _ := b.list.Selected()
		cmd := b.list.Update(k, b.keys())
		if after, ok := b.list.Selected(); ok && after != before {
			delete(b.marked, after)
		}
		return cmd
	}
	if cmd, ok := b.bindings().Handle(k); ok {
		return cmd
	}
	b.err = nil
	var cmd tea.Cmd
	b.input, cmd = b.input.Update(k)
	return cmd
}

// addTyped follows the ids typed or pasted in the field.
func (b *boardScreen) addTyped() tea.Cmd {
	text := b.input.Value()
	if strings.TrimSpace(text) == "" {
		b.err = service.UserError{Text: "Type or paste a quote id first: it is in the withdrawal's confirmation, or ask the user for it"}
		return nil
	}
	b.input.SetValue("")
	return b.addText(text)
}

// selectedHash is the payout hash of the selected row, "" when none.
func (b *boardScreen) selectedHash() string {
	id, ok := b.list.Selected()
	if b.input.Focused() || !ok {
		return ""
	}
	f, _ := b.sched.Get(id)
	return f.Last.WithdrawTxHash
}

// addText adds the ids in text; malformed ones are said, not added.
func (b *boardScreen) addText(text string) tea.Cmd {
	ids, bad := follow.ParseQuoteIDs(text)
	b.err = nil
	if len(bad) > 0 {
		b.err = service.UserError{Text: "Not a quote id, not added: " + kit.Truncate(strings.Join(bad, ", "), 60, "…") +
			". Quote ids are 1 to 128 printable characters without spaces; paste them again"}
	}
	return b.add(ids, true)
}

// add follows ids not on the board yet and starts the ticks; save keeps
// the board when something was added.
func (b *boardScreen) add(ids []string, save bool) tea.Cmd {
	now := b.app.Common.Now()
	added := 0
	for _, id := range ids {
		if _, ok := b.sched.Get(id); ok {
			continue
		}
		b.sched.Add(id, now)
		b.ids = append(b.ids, id)
		added++
	}
	b.sortRows()
	if added == 0 {
		return nil
	}
	if save {
		return tea.Batch(b.save(), b.kick())
	}
	return b.kick()
}

func (b *boardScreen) remove(id string) tea.Cmd {
	b.sched.Remove(id)
	b.ids = slices.DeleteFunc(b.ids, func(s string) bool { return s == id })
	delete(b.marked, id)
	delete(b.inflight, id)
	b.sortRows()
	return tea.Batch(b.save(), tui.ShowInfo("Removed "+id+" from the board"))
}

// save keeps the board's ids, in a Cmd.
func (b *boardScreen) save() tea.Cmd {
	path, env, ids := watchlistPath(b.app), b.app.Target.Env.Name, slices.Clone(b.ids)
	return func() tea.Msg { return boardSavedMsg{err: follow.SaveWatchlist(path, env, ids)} }
}

// kick starts ticking unless a tick is pending or nothing moves.
func (b *boardScreen) kick() tea.Cmd {
	if b.ticking || b.sched.Moving() == 0 {
		return nil
	}
	b.ticking = true
	tag := b.tag
	return func() tea.Msg { return boardTickMsg{tag: tag} }
}

// step asks every id the scheduler hands out now, and waits for the next
// one; with nothing moving it stops (an answer starts it again).
func (b *boardScreen) step() tea.Cmd {
	now := b.app.Common.Now()
	var cmds []tea.Cmd
	for {
		id, wait, ok := b.sched.Next(now)
		if !ok {
			if wait > 0 {
				b.ticking = true
				cmds = append(cmds, b.app.After(wait, boardTickMsg{tag: b.tag}))
			}
			return tea.Batch(cmds...)
		}
		b.inflight[id] = true
		cmds = append(cmds, b.fetch(id))
	}
}

func (b *boardScreen) fetch(id string) tea.Cmd {
	client, tag, parent := b.app.Client(), b.tag, b.Context(b.app)
	return func() tea.Msg {
		cx, cancel := kit.Call(parent)
		defer cancel()
		w, err := client.WithdrawalStatus(cx, id)
		return boardAnswerMsg{tag: tag, id: id, w: w, err: err}
	}
}

// answered records an answer; a change of state is marked on its row and
// announced once, and journaled for an own withdrawal.
func (b *boardScreen) answered(msg boardAnswerMsg) tea.Cmd {
	delete(b.inflight, msg.id)
	before, known := b.sched.Get(msg.id)
	if !known {
		return b.kick() // removed while asked
	}
	step := b.sched.Answer(msg.id, msg.w, msg.err, b.app.Common.Now())
	b.sortRows()
	var write tea.Cmd
	if step.JournalState != "" {
		write = journalState(b.app, msg.id, msg.w, nil)
	}
	var say tea.Cmd
	if step.Changed && before.Known {
		after, _ := b.sched.Get(msg.id)
		b.marked[msg.id] = true
		say = tui.ShowInfo(msg.id + ": " + before.Last.State + " → " + boardState(after))
		if after.Final {
			say = tea.Batch(say, kit.Announce(b.app, "Withdrawal "+after.Last.State, msg.id+": "+after.Meaning(b.app.Common.Now())))
		} else if b.app.Bell {
			say = tea.Batch(say, tea.Raw("\a"))
		}
	}
	return tea.Batch(write, say, b.kick())
}

// sortRows hands the list the ids, moving ones first, each group in the
// order added (the list keeps the cursor on its id). The order before
// is kept to be refilled next time, so an answer allocates nothing.
func (b *boardScreen) sortRows() {
	rows := b.spare[:0]
	for _, final := range []bool{false, true} {
		for _, id := range b.ids {
			if f, _ := b.sched.Get(id); f.Final == final {
				rows = append(rows, id)
			}
		}
	}
	b.spare = b.list.Items()
	b.list.SetItems(rows)
}
