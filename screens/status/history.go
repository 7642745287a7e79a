package status

import (
	"errors"
	"fmt"
	"strings"
	"sync"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"svcwallet/screens/kit"
	"svcwallet/service"
	"svcwallet/service/follow"
	"svcwallet/service/journal"
	"svcwallet/tui"
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
	w   service.Withdrawal
	err error
}

var historyKeys = struct {
	Open, Reload, Watch, Refresh key.Binding
}{
	Open:    key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "follow / resume")),
	Reload:  key.NewBinding(key.WithKeys("r"), key.WithHelp("r", "reload")),
	Watch:   key.NewBinding(key.WithKeys("w"), key.WithHelp("w", "watch all")),
	Refresh: key.NewBinding(key.WithKeys("u"), key.WithHelp("u", "refresh unfinished")),
}

// historyDetailLines is the height of the panel under the list.
const historyDetailLines = 7

// historyScreen lists the withdrawals of the journal (D11) made from this account
// in this environment, unfinished ones marked, and opens one to follow it or
// to resume it; u asks the service about every unfinished one.
type historyScreen struct {
	kit.Visit // the refresh's requests end when it is left
	app       *kit.App
	all       []journal.Record // this account's, newest first
	recs      []journal.Record // those the filter lets through
	filter    kit.ListFilter
	loaded    bool
	err       error
	cursor    int
	offset    int
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
}

// NewHistory builds the withdrawal history screen.
func NewHistory(app *kit.App) tui.Screen {
	return &historyScreen{app: app, filter: kit.NewListFilter(app.Common)}
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

func (h *historyScreen) SetSize(w, hh int) { h.w, h.h = w, hh; h.scroll() }

func (h *historyScreen) KeyMap() help.KeyMap { return h.bindings().KeyMap() }

// bindings: selecting and opening only with withdrawals listed, the filter
// with any in the journal, watching with some the service can tell about,
// refreshing with unfinished ones and none under way.
func (h *historyScreen) bindings() kit.Bindings {
	if h.filter.Typing {
		return h.filter.Bindings()
	}
	n := len(h.recs)
	if h.err != nil {
		n = 0
	}
	bs := kit.ListMoves(&h.cursor, n, "select")
	return append(bs,
		kit.Binding{Key: historyKeys.Open, On: n > 0, Do: func() tea.Cmd { return tui.Push(h.open(h.recs[h.cursor])) }},
		kit.Binding{Key: kit.FilterKeys.Start, On: len(h.all) > 0 && h.err == nil, Do: h.filter.Start},
		kit.Binding{Key: historyKeys.Watch, On: len(h.watchable()) > 0, Do: h.watch},
		kit.Binding{Key: historyKeys.Refresh, On: h.ref == nil && len(h.refreshable()) > 0, Do: h.refresh},
		kit.Binding{Key: historyKeys.Reload, On: true, Do: h.load},
	)
}

// Inputting: while the filter is typed, letters are text.
func (h *historyScreen) Inputting() bool { return h.filter.Typing }

// applyFilter lists the withdrawals the filter lets through: quote id,
// destination, chain or state.
func (h *historyScreen) applyFilter() {
	h.recs = h.recs[:0:0]
	for _, r := range h.all {
		if h.filter.Match(r.QuoteID, r.Intent.ToAddress, r.Intent.Chain, historyState(r)) {
			h.recs = append(h.recs, r)
		}
	}
	h.cursor = min(h.cursor, max(len(h.recs)-1, 0))
	h.scroll()
}

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
		h.loaded, h.all = true, msg.recs
		h.err = nil
		if msg.err != nil {
			h.err = service.UserError{Text: "The journal cannot be read (" + msg.err.Error() + "): check the file's permissions, then press r", Cause: msg.err}
		}
		h.applyFilter()
	case refreshTickMsg:
		if h.ref != nil && msg.tag == h.ref.tag {
			h.ref.ticking = false
			return h, h.refreshStep()
		}
	case refreshAnswerMsg:
		if h.ref != nil && msg.tag == h.ref.tag {
			return h, h.refreshAnswered(msg)
		}
	case tea.PasteMsg:
		if h.filter.Typing {
			return h, h.typeFilter(msg)
		}
	case tea.KeyPressMsg:
		if h.filter.Typing {
			return h, h.typeFilter(msg)
		}
		cmd, _ := h.bindings().Handle(msg)
		h.scroll()
		return h, cmd
	}
	return h, nil
}

// typeFilter hands a key or a paste to the filter being typed.
func (h *historyScreen) typeFilter(msg tea.Msg) tea.Cmd {
	cmd := h.filter.Update(msg)
	h.cursor = 0
	h.applyFilter()
	return cmd
}

// watchable is the quote ids of the account's withdrawals the service
// accepted: the ones it can tell a state of.
func (h *historyScreen) watchable() []string {
	var ids []string
	if h.err != nil {
		return nil
	}
	for _, r := range h.all {
		if r.Answered && r.State != "" {
			ids = append(ids, r.QuoteID)
		}
	}
	return ids
}

// watch adds the account's withdrawals to the watch board's file, in a
// Cmd; the board reads it when opened.
func (h *historyScreen) watch() tea.Cmd {
	path, env, ids := watchlistPath(h.app), h.app.Target.Env.Name, h.watchable()
	return func() tea.Msg {
		added, err := follow.AddToWatchlist(path, env, ids)
		switch {
		case err != nil:
			return tui.ErrorMsg{Err: service.UserError{Text: "The watch board could not be saved (" + err.Error() + "): check the state directory, then press w again", Cause: err}}
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
	if h.err != nil {
		return nil
	}
	return journal.UnfinishedOwn(h.all)
}

// refresh asks the service about every unfinished withdrawal.
func (h *historyScreen) refresh() tea.Cmd {
	s := follow.NewScheduler(h.app.Target.Env.EffectiveFollowRate())
	s.Know(follow.OwnOf(h.all))
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
		write = journalState(h.app, m.id, m.w, r.writes)
	}
	if step.RateLimited {
		return tea.Batch(write, h.refreshStep()) // asked again after the pause
	}
	r.sched.Remove(m.id)
	r.answered++
	if m.err != nil && !errors.Is(m.err, service.ErrNotFound) {
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
	if r.failed > 0 {
		return tea.Batch(reload, tui.ShowError(service.UserError{Text: fmt.Sprintf("%d of %d unfinished withdrawals could not be asked about (%s): press u to try again",
			r.failed, r.total, service.Explain(r.err)), Cause: r.err}))
	}
	return tea.Batch(reload, tui.ShowInfo(fmt.Sprintf("Asked the service about %d unfinished withdrawal(s); the list shows what it said", r.total)))
}

// open follows a withdrawal that reached its end, and resumes any other: a
// request without an answer is re-sent or settled, a refused one explained.
func (h *historyScreen) open(r journal.Record) tui.Screen {
	if service.Terminal(r.State) {
		return newStatus(h.app, r.QuoteID)
	}
	return NewResume(h.app, r)
}

// historyState names a record's last known state for the list.
func historyState(r journal.Record) string {
	switch {
	case !r.Answered:
		return "NO ANSWER"
	case r.State == "":
		return "REJECTED"
	}
	return r.State
}

func (h *historyScreen) listRows() int { return max(h.h-historyDetailLines-5, 3) }

// scroll keeps the cursor inside the visible rows.
func (h *historyScreen) scroll() {
	h.offset = kit.ScrollOffset(h.cursor, h.offset, h.listRows(), len(h.recs))
}

func (h *historyScreen) View() string {
	c := h.app.Common
	st := c.Styles
	var b strings.Builder
	b.WriteString(st.Muted.Render(h.app.Target.Env.Name + " · this account, newest first"))
	if h.ref != nil {
		b.WriteString("  " + st.Warning.Render(fmt.Sprintf("Refreshing: %d of %d unfinished answered…", h.ref.answered, h.ref.total)))
	}
	if h.filter.Shown() {
		b.WriteString("  " + h.filter.View())
	}
	b.WriteString("\n\n")
	switch {
	case h.err != nil:
		b.WriteString(kit.ErrorBlock(c, "Error", h.err, h.w))
		return kit.Clip(b.String(), h.w)
	case !h.loaded:
		b.WriteString("Reading the journal…\n")
		return kit.Clip(b.String(), h.w)
	case h.app.Journal() == nil:
		b.WriteString("No journal is open, so withdrawals are not recorded here.\n")
		return kit.Clip(b.String(), h.w)
	case len(h.recs) == 0 && len(h.all) > 0:
		b.WriteString("No withdrawal matches the filter: press / to change it.\n")
		return kit.Clip(b.String(), h.w)
	case len(h.recs) == 0:
		b.WriteString("No withdrawals from this account in the journal yet.\n")
		b.WriteString(st.Muted.Render(h.app.Journal().Path()) + "\n")
		return kit.Clip(b.String(), h.w)
	}
	b.WriteString(st.Label.Render(fmt.Sprintf("  %-12s   %-9s %14s  %-9s %s", "STARTED", "STATE", "AMOUNT", "CHAIN", "DESTINATION")) + "\n")
	rows := h.listRows()
	end := min(h.offset+rows, len(h.recs))
	for i := h.offset; i < end; i++ {
		b.WriteString(h.row(i) + "\n")
	}
	unfinished := 0
	for _, r := range h.recs {
		if !r.Finished() {
			unfinished++
		}
	}
	count := fmt.Sprintf("  %d–%d of %d withdrawals", h.offset+1, end, len(h.recs))
	if unfinished > 0 {
		count += fmt.Sprintf(" · %d unfinished (!)", unfinished)
	}
	b.WriteString(st.Muted.Render(count) + "\n\n")
	b.WriteString(h.detail(h.recs[h.cursor]))
	return kit.Clip(b.String(), h.w)
}

func (h *historyScreen) row(i int) string {
	st := h.app.Common.Styles
	r := h.recs[i]
	mark := " "
	if !r.Finished() {
		mark = "!"
	}
	amount := ""
	if r.Intent.TokenIn != "" {
		amount = r.Intent.PayAmount.String() + " " + r.Intent.TokenIn
	}
	line := fmt.Sprintf("%-12s %s %-9s %14s  %-9s %s",
		r.Started.In(h.app.Common.Now().Location()).Format("Jan 02 15:04"), mark, historyState(r),
		ansi.Truncate(amount, 14, "…"), ansi.Truncate(r.Intent.Chain, 9, "…"), tui.ShortAddress(r.Intent.ToAddress))
	switch {
	case i == h.cursor:
		return st.Cursor.Render("› ") + st.Selected.Render(line)
	case !r.Finished():
		return "  " + st.Warning.Render(line)
	}
	return "  " + st.Value.Render(line)
}

// detail shows the selected withdrawal in full and what enter will do.
func (h *historyScreen) detail(r journal.Record) string {
	c := h.app.Common
	st := c.Styles
	const lw = 12
	var b strings.Builder
	b.WriteString(kit.Field(c, "Quote id", lw, st.Value.Render(r.QuoteID)) + "\n")
	b.WriteString(kit.Field(c, "Destination", lw, st.Value.Render(kit.OrDash(r.Intent.ToAddress))) + "\n")
	if r.Intent.TokenOut != "" {
		b.WriteString(kit.Field(c, "Receive", lw, st.Value.Render(r.Intent.ReceiveAmount.String()+" "+r.Intent.TokenOut+" on "+r.Intent.Chain)) + "\n")
	}
	if r.Error != "" {
		b.WriteString(kit.ErrorBlock(c, "Refused", service.UserError{Text: r.Error}, h.w))
	}
	var next string
	switch {
	case !r.Answered && c.Now().Before(r.Intent.ExpiresAt):
		next = "enter: re-send the same signed request (it cannot pay twice), then follow it"
	case !r.Answered:
		next = "enter: the quote expired unanswered; ask the service whether it arrived"
	case r.State == "":
		next = "enter: see why it was refused; nothing was paid"
	default:
		next = "enter: follow its status"
	}
	b.WriteString(st.Muted.Render(next) + "\n")
	return b.String()
}
