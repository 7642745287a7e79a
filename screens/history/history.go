// Package history lists the journal's withdrawals of this account in this
// environment, marks the unfinished ones, and opens one to follow or
// resume it.
package history

import (
	"cmp"
	"fmt"
	"strings"

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

// historyLoadedMsg carries the journal's withdrawals of the current
// environment and account, newest first.
type historyLoadedMsg struct {
	recs []journal.Record
	err  error
}

var historyKeys = struct {
	Open, Copy, Reload, Watch, Refresh key.Binding
}{
	Open:    key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "follow")),
	Copy:    key.NewBinding(key.WithKeys("c"), key.WithHelp("c", "copy quote id")),
	Reload:  key.NewBinding(key.WithKeys("r"), key.WithHelp("r", "reload")),
	Watch:   key.NewBinding(key.WithKeys("w"), key.WithHelp("w", "watch all")),
	Refresh: key.NewBinding(key.WithKeys("u"), key.WithHelp("u", "check unfinished")),
}

// historyDetailLines is the height of the panel under the list.
const historyDetailLines = 7

// historyColumns: nothing in a row is copied (the detail under the list
// shows the quote id and destination whole), so the destination, the
// widest, gives way, cut in the middle where addresses are told apart; an
// amount is never cut, and two spaces keep it apart from the state
// before it and the chain after it; the chain's blank ninth cell keeps
// ARBITRUM two apart from the destination where there is room; the ! of an
// unfinished withdrawal sits before its state. At their least they fit 60
// columns.
var historyColumns = []kit.Column{
	{Title: "STARTED", Width: 12},
	{Title: "", Width: 1},
	{Title: "STATE", Width: 10},
	{Title: "AMOUNT", Width: 14, Gap: 2, Right: true},
	{Title: "CHAIN", Width: 9, Gap: 2},
	{Title: "DESTINATION", Short: "TO", Width: 44, Min: 9, Middle: true},
}

// historyScreen lists the withdrawals of the journal (D11) made from this account
// in this environment, unfinished ones marked, and opens one to follow it or
// to resume it. Opened, it checks the unfinished ones with the service in
// the background (kit.App.StartCheck); u checks them again.
type historyScreen struct {
	app    *kit.App
	list   kit.List[journal.Record] // this account's, newest first
	loaded bool
	err    error
	w, h   int
	// opened: the next read of the journal is the visit's first, which
	// starts a check; a read after a check does not start another.
	opened bool
	// watched says what w put on the watch board, under the list until
	// the next key: the toast saying it gives way to the next change.
	watched string
}

// historyWatchedMsg is what w did: said, or why not.
type historyWatchedMsg struct {
	said string
	err  error
}

// New builds the withdrawal history screen.
func New(app *kit.App) tui.Screen {
	h := &historyScreen{app: app, opened: true}
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
// A check under way goes on (its answers that reached the screen on top
// were lost, so their ids are asked again); else one starts.
func (h *historyScreen) Resume() tea.Cmd {
	h.opened = true
	return tea.Batch(h.load(), h.app.ResumeCheck())
}

func (h *historyScreen) Title() string { return "Withdrawal history" }

func (h *historyScreen) SetSize(w, hh int) {
	h.w, h.h = w, hh
	h.list.SetSize(w, max(hh-historyDetailLines-5, 3))
}

// KeyMap is the footer; the full help (?) adds what the marks and states
// on the rows mean.
func (h *historyScreen) KeyMap() help.KeyMap {
	return kit.WithLegend(h.list.Bindings(h.keys()).KeyMap(), historyLegend)
}

// historyLegend says what History's rows show.
var historyLegend = [][2]string{
	{"!", "unfinished"},
	{"checking", "asking the service"},
	{"UNANSWERED", "enter settles it"},
	{"REFUSED", "nothing was paid"},
	{"EXPIRED", "never executed"},
	{"FAILED", "not paid out"},
	{"REFUNDED", "funds returned"},
}

// keys: opening with a withdrawal selected, watching with some the service
// can tell about, refreshing with unfinished ones and none under way.
func (h *historyScreen) keys() kit.Bindings {
	r, some := h.list.Selected()
	return kit.Bindings{
		{Key: openKey(r), On: some, Do: func() tea.Cmd { return tui.Push(h.open(r)) }},
		{Key: historyKeys.Copy, On: some, Do: func() tea.Cmd { return kit.CopyText(h.app, r.QuoteID, "Copied quote id "+r.QuoteID) }},
		{Key: historyKeys.Watch, On: len(h.watchable()) > 0, Do: h.watch},
		{Key: historyKeys.Refresh, On: h.app.Checking() == 0 && len(h.refreshable()) > 0, Do: func() tea.Cmd {
			return h.app.StartCheck(h.list.Items())
		}},
		{Key: historyKeys.Reload, On: true, Do: h.load},
	}
}

// openKey words enter for the selected withdrawal: an unanswered one is
// resumed, one under way followed, a finished one's details shown.
func openKey(r journal.Record) key.Binding {
	switch {
	case r.Unanswered():
		return key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "resume"))
	case r.Finished():
		return key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "details"))
	}
	return historyKeys.Open
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
		if h.opened {
			h.opened = false
			return h, h.app.StartCheck(msg.recs)
		}
	case kit.CheckedMsg:
		return h, tea.Batch(h.load(), msg.Said)
	case kit.CheckTickMsg, kit.CheckAnswerMsg:
		cmd, _ := h.app.UpdateCheck(msg)
		return h, cmd
	case historyWatchedMsg:
		if msg.err != nil {
			return h, tui.ShowError(msg.err)
		}
		h.watched = msg.said
		return h, tui.ShowInfo(msg.said)
	case tea.PasteMsg, tea.KeyPressMsg:
		h.watched = ""
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
// Cmd, as followed as this account; the board reads it when opened.
func (h *historyScreen) watch() tea.Cmd {
	path, env, ids := kit.WatchlistPath(h.app), h.app.Target.Env.Name, h.watchable()
	as, _ := h.app.Client().Session()
	return func() tea.Msg {
		added, err := follow.AddToWatchlist(path, env, as.AccountID, ids)
		switch {
		case err != nil:
			return historyWatchedMsg{err: exchange.UserError{Text: "The watch board could not be saved (" + err.Error() + "): check the state directory, then press w again", Cause: err}}
		case added == 0:
			return historyWatchedMsg{said: fmt.Sprintf("These %d withdrawals are all on the watch board already: s on Home opens it", len(ids))}
		}
		return historyWatchedMsg{said: fmt.Sprintf("Added %d %s to the watch board (%d were there): s on Home opens it",
			added, kit.Plural(added, "withdrawal", "withdrawals"), len(ids)-added)}
	}
}

// refreshable is the quote ids of the account's unfinished withdrawals that
// it made (follow.Own): the ones a refresh asks about.
func (h *historyScreen) refreshable() []string {
	return journal.UnfinishedOwn(h.list.Items())
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
		b.WriteString(layout.WrapTo("The ones made on this machine are listed here: esc goes back to Home, where w starts one.", h.w) + "\n")
		// Named: a bare path said nothing of what it is; wrapped, not cut.
		b.WriteString(layout.WrapField(c, "Journal", 8, st.Muted.Render(h.app.Journal().Path()), "", h.w) + "\n")
		return layout.Clip(b.String(), h.w)
	}
	// Until the check is over the journal's unfinished ones may have
	// ended: they are said being checked, not counted.
	unfinished := ""
	if n := h.app.Checking(); n > 0 {
		unfinished = fmt.Sprintf("checking %d…", n)
	} else if n := h.unfinished(); n > 0 {
		unfinished = fmt.Sprintf("%d unfinished (!)", n)
	}
	b.WriteString(h.list.View(unfinished))
	if h.watched != "" {
		b.WriteString(st.Muted.Render("  "+h.watched) + "\n")
	}
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
	row := kit.Row{Cells: []string{kit.Clock(r.Started, h.app.Common.Now()), " ", historyState(r),
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
	case r.Finished():
		// As the footer words enter for it (openKey).
		next = "enter: see its details"
	default:
		next = "enter: follow its status"
	}
	b.WriteString(st.Muted.Render(next) + "\n")
	return b.String()
}
