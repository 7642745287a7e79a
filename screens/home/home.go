// Package home is the logged-in session's home screen: the funding
// account, the unfinished withdrawals, and the way into every feature.
package home

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/svcwallet/svcwallet/screens/kit"
	"github.com/svcwallet/svcwallet/screens/kit/layout"
	"github.com/svcwallet/svcwallet/service/journal"
	"github.com/svcwallet/svcwallet/tui"
)

var homeKeys = struct {
	Open, Logout key.Binding
}{
	Open:   key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "open")),
	Logout: key.NewBinding(key.WithKeys("L"), key.WithHelp("L", "log out")),
}

// menuItem is one way on from the home screen, opened by its key or enter.
type menuItem struct {
	key   string
	label string
	about string
	// short says it in the 31 columns a 60-column terminal leaves, chosen
	// rather than about cut mid-word.
	short string
	open  func(*kit.App) tui.Screen
}

// homeMenu lists the ways on; log out is handled by the screen itself.
// Each description fits the 51 columns an 80-column terminal leaves it.
var homeMenu = []menuItem{
	{"d", "Deposit addresses", "chains and tokens, QR codes, on-demand chains", "addresses by chain, QR codes", func(a *kit.App) tui.Screen { return a.Makers.Deposit(a) }},
	{"w", "Withdraw USDT", "through the bridge: quote, review, sign, follow", "quote, review, sign, follow", func(a *kit.App) tui.Screen { return a.Makers.Withdraw(a) }},
	{"h", "History", "this account's withdrawals; resume unfinished ones", "withdrawals; resume unfinished", func(a *kit.App) tui.Screen { return a.Makers.History(a) }},
	{"s", "Watch board", "look up a withdrawal's status, or follow many", "look up withdrawals' status", func(a *kit.App) tui.Screen { return a.Makers.Board(a) }},
	{"b", "Builder authorization", "let a builder trade: fee caps, optional API key", "let a builder trade: fee caps", func(a *kit.App) tui.Screen { return a.Makers.Builder(a) }},
}

// homeScreen shows who is logged in and the ways on.
type homeScreen struct {
	app     *kit.App
	cursor  int
	journal homeJournalMsg // unfinished withdrawals and the journal's health (banner)
	// opened: the next read of the journal is the visit's first, which
	// starts a check of the unfinished withdrawals (kit.App.StartCheck).
	opened bool
	key    kit.SigningKeyMsg // whether a key here signs for the account
	w, h   int
}

// New builds the home screen for the logged-in session.
func New(app *kit.App) tui.Screen { return &homeScreen{app: app, opened: true} }

func (h *homeScreen) Init() tea.Cmd { return tea.Batch(h.readJournal(), kit.LookForSigningKey(h.app)) }

func (h *homeScreen) Title() string { return "Home" }

func (h *homeScreen) SetSize(w, hh int) { h.w, h.h = w, hh }

func (h *homeScreen) KeyMap() help.KeyMap { return h.bindings().KeyMap() }

// bindings: moving over the menu and log out (the last row), enter, each
// item's letter (one footer entry: the menu says what each opens), and L.
func (h *homeScreen) bindings() kit.Bindings {
	bs := kit.ListMoves(&h.cursor, len(homeMenu)+1, "move")
	bs = append(bs, kit.Binding{Key: homeKeys.Open, On: true, Do: func() tea.Cmd {
		if h.cursor == len(homeMenu) {
			return h.logout()
		}
		return tui.Push(homeMenu[h.cursor].open(h.app))
	}})
	letters := make([]string, len(homeMenu))
	for i, it := range homeMenu {
		letters[i] = it.key
	}
	goTo := key.NewBinding(key.WithKeys(letters...), key.WithHelp(strings.Join(letters, "/"), "go to"))
	for i, it := range homeMenu {
		b := kit.Binding{Key: key.NewBinding(key.WithKeys(it.key)), On: true, Do: func() tea.Cmd { return tui.Push(it.open(h.app)) }}
		if i == 0 {
			b.Key = goTo // the footer's one entry; it matches the first letter only
			b.Key.SetKeys(it.key)
		}
		bs = append(bs, b)
	}
	return append(bs, kit.Binding{Key: homeKeys.Logout, On: true, Do: h.logout})
}

func (h *homeScreen) Update(msg tea.Msg) (tui.Screen, tea.Cmd) {
	switch m := msg.(type) {
	case homeJournalMsg:
		h.journal = m
		if h.opened {
			h.opened = false
			return h, h.app.StartCheck(m.recs)
		}
		return h, nil
	case kit.SigningKeyMsg:
		h.key = m
		return h, nil
	case kit.CheckedMsg:
		return h, tea.Batch(h.readJournal(), m.Said)
	case kit.LoginFactsMsg:
		return h, tui.Reset(h.app.Makers.Login(h.app, m.Facts))
	case kit.CheckTickMsg, kit.CheckAnswerMsg:
		cmd, _ := h.app.UpdateCheck(msg)
		return h, cmd
	}
	if k, ok := msg.(tea.KeyPressMsg); ok {
		cmd, _ := h.bindings().Handle(k)
		return h, cmd
	}
	return h, nil
}

// logout ends the session whole (App.EndSession) and returns to the login,
// once its facts are read off the event loop (LoginFactsMsg).
// A session svcwallet auth login kept is forgotten here only: the next
// run opens on it again, which the message says.
func (h *homeScreen) logout() tea.Cmd {
	h.app.Client().Logout()
	said := "Logged out"
	if h.app.Target.Kept {
		said = "Logged out here; " + h.app.Command("auth", "logout") + " forgets the kept session"
	}
	h.app.EndSession()
	return tea.Batch(h.app.ReadLoginFacts(), tui.ShowInfo(said))
}

func (h *homeScreen) View() string {
	c := h.app.Common
	k := layout.InksFor(c)
	s, _ := h.app.Client().Session()
	// Labels are 16 wide so a 42-character address fits whole in 60 columns.
	const lw = 16
	var b strings.Builder
	b.WriteString(k.Heading.On("Funding account") + "\n\n")
	b.WriteString(layout.Field(c, "Funding address", lw, k.Value.On(s.FundingAccountAddress)) + "\n")
	b.WriteString(layout.Field(c, "Account id", lw, k.Value.On(layout.OrDash(s.AccountID))) + "\n")
	if s.SubAccountID != "" {
		// What it cannot do goes under the id where it does not fit beside.
		id, why := k.Value.On(s.SubAccountID), "withdrawals need a main-account key"
		if lw+1+layout.Width(s.SubAccountID)+len("  (trading key: )")+len(why) <= h.w {
			b.WriteString(layout.Field(c, "Sub-account", lw, id+k.Muted.On("  (trading key: "+why+")")) + "\n")
		} else {
			b.WriteString(layout.Field(c, "Sub-account", lw, id+k.Muted.On("  (a trading key)")) + "\n" + layout.Pad("", lw+1) + k.Muted.On(why) + "\n")
		}
	}
	b.WriteString(layout.Field(c, "Logged in by", lw, k.Value.On(s.Method)) + "\n")
	if access := accessLabel(s.Location); access != "" {
		b.WriteString(layout.Field(c, "Access", lw, k.Value.On(layout.Truncate(access, max(h.w-lw-1, 1), "…"))) + "\n")
	}
	if h.app.Signer != nil {
		b.WriteString(layout.Field(c, "Signer", lw, k.Value.On(h.app.Signer.Address().Hex())) + "\n")
	}
	b.WriteString(layout.Field(c, "Environment", lw, k.Value.On(h.app.Target.Env.Name+" · chain id "+layout.Uitoa(h.app.Target.Env.ChainID))) + "\n\n")
	banner := h.unfinishedBanner()
	if warn := kit.MissingKeyView(h.app, h.key, h.w); warn != "" {
		// On a short terminal the ways to add a key, which w shows, give
		// way to the menu ("Go to", a blank line, the items and Log out).
		lines := func(s string) int { return strings.Count(s, "\n") }
		if lines(b.String())+lines(warn)+1+lines(banner)+len(homeMenu)+3 > h.h {
			warn = c.Styles.Warning.Render(layout.WrapTo("No key here signs for this account: w shows how to add one.", h.w)) + "\n"
		}
		b.WriteString(warn + "\n")
	}
	b.WriteString(banner)
	b.WriteString(k.Heading.On("Go to") + "\n\n")
	labelW := len("Log out")
	for _, it := range homeMenu {
		labelW = max(labelW, layout.Width(it.label))
	}
	labelW += 2
	item := func(i int, letter, label, about, short string) {
		// The cursor's row is marked › and, where attributes show, reversed.
		line := layout.Focus(c, i == h.cursor)
		if i == h.cursor {
			line += k.Selected.On(letter + "  " + layout.Pad(label, labelW))
		} else {
			line += k.Cursor.On(letter) + "  " + k.Value.On(layout.Pad(label, labelW))
		}
		// The description gives way first on a narrow terminal: its short
		// words, then visibly cut.
		if room := h.w - 5 - labelW - 1; room >= 8 {
			if layout.Width(about) > room {
				about = short
			}
			line += " " + k.Muted.On(layout.Truncate(about, room, "…"))
		}
		b.WriteString(line + "\n")
	}
	for i, it := range homeMenu {
		item(i, it.key, it.label, it.about, it.short)
	}
	item(len(homeMenu), "L", "Log out", "forget the session and the key", "forget the session and the key")
	return layout.Clip(b.String(), h.w)
}

// accessLabel turns the login's location ("builder:0x7099…", given when the
// API key was created by a builder) into words for the home screen, or ""
// for a plain login. The service cleaned it to one line (exchange.Clean).
func accessLabel(location string) string {
	if kind, who, ok := strings.Cut(location, ":"); ok && kind != "" && who != "" {
		return kind + " " + who
	}
	return location
}

// --- unfinished withdrawals banner (D11: offered for resumption at start) ---

// homeJournalMsg carries the account's records and how many are
// unfinished, how many journal lines could not be read, and why the
// journal could not be.
type homeJournalMsg struct {
	recs                []journal.Record
	unfinished, skipped int
	err                 error
}

// readJournal counts the unfinished withdrawals in a Cmd: it reads a file.
func (h *homeScreen) readJournal() tea.Cmd {
	read := h.app.UnfinishedRecords()
	return func() tea.Msg {
		recs, skipped, err := read()
		return homeJournalMsg{recs: recs, unfinished: len(recs), skipped: skipped, err: err}
	}
}

// Resume counts again: the screens above may have finished some. A check
// under way goes on, its lost answers asked again; else one starts.
func (h *homeScreen) Resume() tea.Cmd {
	h.opened = true
	return tea.Batch(h.readJournal(), h.app.ResumeCheck())
}

func (h *homeScreen) unfinishedBanner() string {
	var lines []string
	switch {
	case h.journal.err != nil:
		lines = append(lines, "The withdrawal journal cannot be read (run "+h.app.Command("doctor")+"); unfinished withdrawals may be missing: "+
			h.journal.err.Error())
	case h.journal.skipped > 0:
		lines = append(lines, fmt.Sprintf("%d %s of the withdrawal journal could not be read and %s skipped; "+
			"keep %s for support", h.journal.skipped, kit.Plural(h.journal.skipped, "line", "lines"), kit.Plural(h.journal.skipped, "was", "were"), h.app.Journal().Path()))
	}
	// The notice at start is hidden by then: Home keeps saying that what
	// the earlier journal holds is not checked for repeats, in words whole
	// at 60 columns (a banner line is cut to one).
	if len(h.app.EarlierJournals) > 0 {
		lines = append(lines, "An earlier journal's withdrawals are not checked for repeats")
	}
	// Until the check is over, the journal's unfinished ones may have
	// ended: they are said being checked, not counted.
	switch n := h.app.Checking(); {
	case n > 0:
		lines = append(lines, fmt.Sprintf("checking %d unfinished %s with the service…", n, kit.Plural(n, "withdrawal", "withdrawals")))
	case h.journal.unfinished == 1:
		lines = append(lines, "1 unfinished withdrawal: press h to review and resume it")
	case h.journal.unfinished > 1:
		lines = append(lines, fmt.Sprintf("%d unfinished withdrawals: press h to review and resume them", h.journal.unfinished))
	}
	var b strings.Builder
	for _, l := range lines {
		b.WriteString(h.app.Common.Styles.Warning.Render(ansi.Truncate(l, max(h.w, 1), "…")) + "\n\n")
	}
	return b.String()
}
