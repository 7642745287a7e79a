// Package history lists the journal's withdrawals of this account in this
// environment, marks the unfinished ones, and opens one to follow or
// resume it.
package history

import (
	"cmp"
	"errors"
	"fmt"
	"strings"
	"sync"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/svcwallet/svcwallet/internal/exchange"
	"github.com/svcwallet/svcwallet/internal/follow"
	"github.com/svcwallet/svcwallet/internal/journal"
	"github.com/svcwallet/svcwallet/internal/screens/kit"
	"github.com/svcwallet/svcwallet/internal/screens/kit/layout"
	"github.com/svcwallet/svcwallet/internal/tui"
)

// historyLoadedMsg carries the journal's withdrawals of the current
// environment and account, newest first.
type historyLoadedMsg struct {
	recs []journal.Record
	err  error
}

// refreshTickMsg asks the refresh's scheduler what is due, for its tag.
type refreshTickMsg struct{ tag tui.Tag }

// refreshAnswerMsg answers the status request of one id of the refresh tag.
type refreshAnswerMsg struct {
	tag tui.Tag
	id  string
	w   exchange.Withdrawal
	err error
}

var historyKeys = struct {
	Open, Copy, Reload, Watch, Refresh key.Binding
}{
	Open:    key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "follow / resume")),
	Copy:    key.NewBinding(key.WithKeys("c"), key.WithHelp("c", "copy quote id")),
	Reload:  key.NewBinding(key.WithKeys("r"), key.WithHelp("r", "reload")),
	Watch:   key.NewBinding(key.WithKeys("w"), key.WithHelp("w", "watch all")),
	Refresh: key.NewBinding(key.WithKeys("u"), key.WithHelp("u", "refresh unfinished")),
}

// historyDetailLines is the height of the panel under the list.
const historyDetailLines = 7

// historyColumns: nothing in a row is copied (the detail under the list
// shows the quote id and destination whole), so the destination, the
// widest, gives way first, cut in the middle where addresses are told
// apart; the ! of an unfinished withdrawal sits before its state. At their
// least they fit 60 columns.
var historyColumns = []kit.Column{
	{Title: "STARTED", Width: 12},
	{Title: "", Width: 1},
	{Title: "STATE", Width: 10},
	{Title: "AMOUNT", Width: 14, Min: 9, Right: true},
	{Title: "CHAIN", Width: 8, Gap: 2},
	{Title: "DESTINATION", Width: 44, Min: 11, Gap: 2, Middle: true},
}

// historyScreen lists the withdrawals of the journal (D11) made from this account
// in this environment, unfinished ones marked, and opens one to follow it or
// to resume it; u asks the service about every unfinished one.
type historyScreen struct {
	kit.Visit // the refresh's requests end when it is left
	app       *kit.App
	list      kit.List[journal.Record] // this account's, newest first
	loaded    bool
	err       error
	w, h      int
	ref       *refreshing // nil unless a refresh is under way
}

// refreshing is one ask of every unfinished withdrawal: one scheduler
// (follow.Scheduler) within the environment's request budget, each id
// asked until it is answered once (a 429 is waited out), each state it
// learns journaled as every follower does.
type refreshing struct {
	sched    *follow.Scheduler
	tag      tui.Tag
	ticking  bool            // a tick of this refresh is pending
	inflight map[string]bool // handed out by Next, not answered yet
	total    int
	answered int
	failed   int
	err      error           // the last failure, said at the end
	writes   *sync.WaitGroup // journal writes not done yet
	// vanished says the last withdrawal the journal saw accepted that the
	// service no longer knows (follow.LabelVanished), at the end; "" for none.
	vanished string
}

// New builds the withdrawal history screen.
func New(app *kit.App) tui.Screen {
	h := &historyScreen{app: app}
	h.list = kit.NewList(app.Common, kit.ListSpec[journal.Record]{
		Noun: "withdrawal", Columns: historyColumns, Row: h.row, Select: "select",
		// The quote id, destination, chain or state.
		Fields: func(r journal.Record) []string {
			return []string{r.QuoteID, r.Intent.ToAddress, r.Intent.Chain, historyState(r)}
		},
		ID: func(r journal.Record) string { return r.QuoteID },
	})
	return h
}

func (h *historyScreen) Init() tea.Cmd { return h.load() }

// Resume reloads: the screen that was on top may have journaled new states.
// A refresh goes on with a new tag; the answers that reached the screen on
// top were lost, so their ids are asked again.
func (h *historyScreen) Resume() tea.Cmd {
	if h.ref == nil {
		return h.load()
	}
	h.ref.tag, h.ref.ticking = tui.NextTag(), false
	for id := range h.ref.inflight {
		h.ref.sched.Requeue(id, h.app.Common.Now())
	}
	clear(h.ref.inflight)
	return tea.Batch(h.load(), h.refreshStep())
}

func (h *historyScreen) Title() string { return "Withdrawal history" }

func (h *historyScreen) SetSize(w, hh int) {
	h.w, h.h = w, hh
	h.list.SetSize(w, max(hh-historyDetailLines-5, 3))
}

func (h *historyScreen) KeyMap() help.KeyMap { return h.list.Bindings(h.keys()).KeyMap() }

// keys: opening with a withdrawal selected, watching with some the service
// can tell about, refreshing with unfinished ones and none under way.
func (h *historyScreen) keys() kit.Bindings {
	r, some := h.list.Selected()
	return kit.Bindings{
		{Key: historyKeys.Open, On: some, Do: func() tea.Cmd { return tui.Push(h.open(r)) }},
		{Key: historyKeys.Copy, On: some, Do: func() tea.Cmd { return kit.CopyText(h.app, r.QuoteID, "Copied quote id "+r.QuoteID) }},
		{Key: historyKeys.Watch, On: len(h.watchable()) > 0, Do: h.watch},
		{Key: historyKeys.Refresh, On: h.ref == nil && len(h.refreshable()) > 0, Do: h.refresh},
		{Key: historyKeys.Reload, On: true, Do: h.load},
	}
}

// Inputting: while the filter is typed, letters are text.
func (h *historyScreen) Inputting() bool { return h.list.Typing() }

func (h *historyScreen) load() tea.Cmd {
	read := h.app.AccountRecords()
	return func() tea.Msg {
		recs, _, err := read()
		return historyLoadedMsg{recs: recs, err: err}
	}
}

func (h *historyScreen) Update(msg tea.Msg) (tui.Screen, tea.Cmd) {
	switch msg := msg.(type) {
	case historyLoadedMsg:
		h.loaded, h.err = true, nil
		if msg.err != nil {
			h.err = exchange.UserError{Text: "The journal cannot be read (" + msg.err.Error() + "): check the file's permissions, then press r", Cause: msg.err}
			msg.recs = nil // nothing is offered from a journal not read
		}
		h.list.SetItems(msg.recs)
	case refreshTickMsg:
		if h.ref != nil && msg.tag == h.ref.tag {
			h.ref.ticking = false
			return h, h.refreshStep()
		}
	case refreshAnswerMsg:
		if h.ref != nil && msg.tag == h.ref.tag {
			return h, h.refreshAnswered(msg)
		}
	case tea.PasteMsg, tea.KeyPressMsg:
		return h, h.list.Update(msg, h.keys())
	}
	return h, nil
}

// watchable is the quote ids of the account's withdrawals the service
// accepted: the ones it can tell a state of.
func (h *historyScreen) watchable() []string {
	var ids []string
	for _, r := range h.list.Items() {
		if r.Answered && r.State != "" {
			ids = append(ids, r.QuoteID)
		}
	}
	return ids
}

// watch adds the account's withdrawals to the watch board's file, in a
// Cmd; the board reads it when opened.
func (h *historyScreen) watch() tea.Cmd {
	path, env, ids := kit.WatchlistPath(h.app), h.app.Target.Env.Name, h.watchable()
	return func() tea.Msg {
		added, err := follow.AddToWatchlist(path, env, ids)
		switch {
		case err != nil:
			return tui.ErrorMsg{Err: exchange.UserError{Text: "The watch board could not be saved (" + err.Error() + "): check the state directory, then press w again", Cause: err}}
		case added == 0:
			return tui.InfoMsg{Text: "These withdrawals are all on the watch board already (s on Home)"}
		}
		if added == 1 {
			return tui.InfoMsg{Text: "Added 1 withdrawal to the watch board (s on Home)"}
		}
		return tui.InfoMsg{Text: fmt.Sprintf("Added %d withdrawals to the watch board (s on Home)", added)}
	}
}

// refreshable is the quote ids of the account's unfinished withdrawals that
// it made (follow.Own): the ones a refresh asks about.
func (h *historyScreen) refreshable() []string {
	return journal.UnfinishedOwn(h.list.Items())
}

// refresh asks the service about every unfinished withdrawal.
func (h *historyScreen) refresh() tea.Cmd {
	s := follow.NewScheduler(h.app.Target.Env.EffectiveFollowRate())
	s.Know(follow.OwnOf(h.list.Items()))
	ids := h.refreshable()
	for _, id := range ids {
		s.Add(id, h.app.Common.Now())
	}
	h.ref = &refreshing{sched: s, tag: tui.NextTag(), total: len(ids), inflight: map[string]bool{}, writes: &sync.WaitGroup{}}
	return h.refreshStep()
}

// refreshStep asks every id the scheduler hands out now, and sets one tick
// for the next one due.
func (h *historyScreen) refreshStep() tea.Cmd {
	r := h.ref
	var cmds []tea.Cmd
	for {
		id, wait, ok := r.sched.Next(h.app.Common.Now())
		if !ok {
			if wait > 0 && !r.ticking {
				r.ticking = true
				cmds = append(cmds, h.app.After(wait, refreshTickMsg{tag: r.tag}))
			}
			return tea.Batch(cmds...)
		}
		r.inflight[id] = true
		client, tag, parent := h.app.Client(), r.tag, h.Context(h.app)
		cmds = append(cmds, func() tea.Msg {
			cx, cancel := kit.Call(parent)
			defer cancel()
			w, err := client.WithdrawalStatus(cx, id)
			return refreshAnswerMsg{tag: tag, id: id, w: w, err: err}
		})
	}
}

// refreshAnswered journals what one answer taught (follow.Scheduler
// decides) and, once every id is answered, reads the journal back.
func (h *historyScreen) refreshAnswered(m refreshAnswerMsg) tea.Cmd {
	r := h.ref
	delete(r.inflight, m.id)
	step := r.sched.Answer(m.id, m.w, m.err, h.app.Common.Now())
	var write tea.Cmd
	if step.JournalState != "" {
		write = kit.JournalState(h.app, m.id, m.w, r.writes)
	}
	if step.RateLimited {
		return tea.Batch(write, h.refreshStep()) // asked again after the pause
	}
	if f, _ := r.sched.Get(m.id); f.Vanished {
		o := f.Outcome()
		r.vanished = m.id + " " + o.Name + ": " + o.Sentence()
	}
	r.sched.Remove(m.id)
	r.answered++
	if m.err != nil && !errors.Is(m.err, exchange.ErrNotFound) {
		r.failed, r.err = r.failed+1, m.err
	}
	if r.answered < r.total {
		return tea.Batch(write, h.refreshStep())
	}
	h.ref = nil
	return tea.Batch(write, h.refreshed(r))
}

// refreshed says how the refresh went and reloads the list once every
// state it learned is in the journal.
func (h *historyScreen) refreshed(r *refreshing) tea.Cmd {
	read, writes := h.app.AccountRecords(), r.writes
	reload := func() tea.Msg {
		writes.Wait()
		recs, _, err := read()
		return historyLoadedMsg{recs: recs, err: err}
	}
	if r.vanished != "" {
		return tea.Batch(reload, tui.ShowError(exchange.UserError{Text: r.vanished}))
	}
	if r.failed > 0 {
		return tea.Batch(reload, tui.ShowError(exchange.UserError{Text: fmt.Sprintf("%d of %d unfinished withdrawals could not be asked about (%s): press u to try again",
			r.failed, r.total, exchange.Explain(r.err)), Cause: r.err}))
	}
	return tea.Batch(reload, tui.ShowInfo(fmt.Sprintf("Asked the service about %d unfinished withdrawal(s); the list shows what it said", r.total)))
}

// open follows a withdrawal that reached its end, and resumes any other: a
// request without an answer is re-sent or settled, a refused one explained.
func (h *historyScreen) open(r journal.Record) tui.Screen {
	if exchange.Terminal(r.State) {
		return h.app.Makers.Status(h.app, r.QuoteID)
	}
	return h.app.Makers.Resume(h.app, r)
}

// historyState names what became of a withdrawal, as every view does
// (follow.RecordOutcome).
func historyState(r journal.Record) string { return follow.RecordOutcome(r).Name }

func (h *historyScreen) View() string {
	c := h.app.Common
	st := c.Styles
	var b strings.Builder
	b.WriteString(st.Muted.Render(h.app.Target.Env.Name + " · this account, newest first"))
	if h.ref != nil {
		b.WriteString("  " + st.Warning.Render(fmt.Sprintf("Refreshing: %d of %d unfinished answered…", h.ref.answered, h.ref.total)))
	}
	if f := h.list.FilterView(); f != "" {
		b.WriteString("  " + f)
	}
	b.WriteString("\n\n")
	switch {
	case h.err != nil:
		b.WriteString(layout.ErrorBlock(c, "Error", h.err, h.w))
		return layout.Clip(b.String(), h.w)
	case !h.loaded:
		b.WriteString("Reading the journal…\n")
		return layout.Clip(b.String(), h.w)
	case h.app.Journal() == nil:
		b.WriteString("No journal is open, so withdrawals are not recorded here.\n")
		return layout.Clip(b.String(), h.w)
	case len(h.list.Items()) == 0:
		b.WriteString("No withdrawals from this account in the journal yet.\n")
		b.WriteString(st.Muted.Render(h.app.Journal().Path()) + "\n")
		return layout.Clip(b.String(), h.w)
	}
	unfinished := ""
	if n := h.unfinished(); n > 0 {
		unfinished = fmt.Sprintf("%d unfinished (!)", n)
	}
	b.WriteString(h.list.View(unfinished))
	if r, ok := h.list.Selected(); ok {
		b.WriteString("\n" + h.detail(r))
	}
	return layout.Clip(b.String(), h.w)
}

// unfinished counts the unfinished withdrawals the filter lets through.
func (h *historyScreen) unfinished() int {
	n := 0
	for i := range h.list.Len() {
		if !h.list.Item(i).Finished() {
			n++
		}
	}
	return n
}

// row is one withdrawal, marked ! while unfinished.
func (h *historyScreen) row(r journal.Record) kit.Row {
	k := layout.InksFor(h.app.Common)
	amount := ""
	if r.Intent.TokenIn != "" {
		amount = r.Intent.PayAmount.String() + " " + r.Intent.TokenIn
	}
	row := kit.Row{Cells: []string{r.Started.In(h.app.Common.Now().Location()).Format("Jan 02 15:04"), " ", historyState(r),
		amount, r.Intent.Chain, r.Intent.ToAddress}, Ink: k.Value}
	if !r.Finished() {
		row.Cells[1], row.Ink = "!", k.Warning
	}
	return row
}

// detail shows the selected withdrawal in full and what enter will do.
func (h *historyScreen) detail(r journal.Record) string {
	c := h.app.Common
	st := c.Styles
	const lw = 12
	var b strings.Builder
	b.WriteString(layout.Field(c, "Quote id", lw, st.Value.Render(r.QuoteID)) + "\n")
	b.WriteString(layout.Field(c, "Destination", lw, st.Value.Render(layout.OrDash(r.Intent.ToAddress))) + "\n")
	if r.Intent.TokenOut != "" {
		b.WriteString(layout.Field(c, "Receive", lw, st.Value.Render(r.Intent.ReceiveAmount.String()+" "+r.Intent.TokenOut+" on "+r.Intent.Chain)) + "\n")
	}
	o := follow.RecordOutcome(r)
	switch o.Name {
	case follow.LabelRefused:
		b.WriteString(layout.ErrorBlock(c, o.Name, exchange.UserError{Text: cmp.Or(o.Reason, o.Words)}, h.w))
	case follow.LabelExpired:
		b.WriteString(layout.ErrorBlock(c, o.Name, exchange.UserError{Text: o.Words}, h.w))
	}
	var next string
	switch {
	case !r.Answered:
		// Which of the two is the service's clock's to say (Settle).
		next = "enter: re-send it (it cannot pay twice) or ask whether it arrived"
	case o.Name == follow.LabelRefused:
		next = "enter: see why it was refused; nothing was paid"
	case o.Name == follow.LabelExpired:
		next = "enter: see its details"
	default:
		next = "enter: follow its status"
	}
	b.WriteString(st.Muted.Render(next) + "\n")
	return b.String()
}
