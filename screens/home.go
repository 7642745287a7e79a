package screens

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"svcwallet/tui"
)

var homeKeys = struct {
	Up, Down, Open, Logout key.Binding
}{
	Up:     key.NewBinding(key.WithKeys("up", "k"), key.WithHelp("↑/↓", "move")),
	Down:   key.NewBinding(key.WithKeys("down", "j")),
	Open:   key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "open")),
	Logout: key.NewBinding(key.WithKeys("L"), key.WithHelp("L", "log out")),
}

// menuItem is one way on from the home screen, opened by its key or enter.
type menuItem struct {
	key   string
	label string
	about string
	open  func(*App) tui.Screen
}

// homeMenu lists the ways on; log out is handled by the screen itself.
var homeMenu = []menuItem{
	{"d", "Deposit addresses", "chains, tokens, QR codes; provision on-demand chains", func(a *App) tui.Screen { return NewDeposit(a) }},
	{"w", "Withdraw USDT", "through the bridge: route, quote, review, sign, follow", func(a *App) tui.Screen { return NewRoute(a) }},
	{"h", "History", "this account's withdrawals; resume unfinished ones", func(a *App) tui.Screen { return NewHistory(a) }},
	{"s", "Status lookup", "follow any withdrawal by its quote id", func(a *App) tui.Screen { return NewLookup(a) }},
	{"b", "Builder authorization", "let a builder trade for this account, with fee caps and an optional API key", func(a *App) tui.Screen { return NewBuilder(a) }},
}

// Home shows who is logged in and the ways on.
type Home struct {
	app        *App
	cursor     int
	unfinished int // journaled withdrawals still needing the user (banner)
	w, h       int
}

// NewHome builds the home screen for the logged-in session.
func NewHome(app *App) *Home { return &Home{app: app} }

func (h *Home) Init() tea.Cmd { return h.readJournal() }

func (h *Home) Title() string { return "Home" }

func (h *Home) SetSize(w, hh int) { h.w, h.h = w, hh }

func (h *Home) KeyMap() help.KeyMap {
	// One entry for all the letters: the menu itself says what each opens.
	letters := make([]string, len(homeMenu))
	for i, it := range homeMenu {
		letters[i] = it.key
	}
	open := key.NewBinding(key.WithKeys(letters...), key.WithHelp(strings.Join(letters, "/"), "go to"))
	return keyMap{homeKeys.Up, homeKeys.Open, open, homeKeys.Logout}
}

func (h *Home) Update(msg tea.Msg) (tui.Screen, tea.Cmd) {
	if m, ok := msg.(homeJournalMsg); ok {
		h.unfinished = m.unfinished
		return h, nil
	}
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return h, nil
	}
	switch {
	case key.Matches(k, homeKeys.Up):
		h.cursor = (h.cursor - 1 + len(homeMenu) + 1) % (len(homeMenu) + 1)
	case key.Matches(k, homeKeys.Down):
		h.cursor = (h.cursor + 1) % (len(homeMenu) + 1)
	case key.Matches(k, homeKeys.Logout):
		return h, h.logout()
	case key.Matches(k, homeKeys.Open):
		if h.cursor == len(homeMenu) {
			return h, h.logout()
		}
		return h, tui.Push(homeMenu[h.cursor].open(h.app))
	default:
		for _, it := range homeMenu {
			if k.String() == it.key {
				return h, tui.Push(it.open(h.app))
			}
		}
	}
	return h, nil
}

// logout forgets the session and the wallet key and returns to the login.
func (h *Home) logout() tea.Cmd {
	h.app.Client().Logout()
	h.app.Signer = nil
	return tea.Batch(tui.SetStatus(tui.Status{Env: h.app.Target.Env.Name, ChainID: h.app.Target.Env.ChainID}),
		tui.Reset(NewLogin(h.app)), tui.ShowInfo("Logged out"))
}

func (h *Home) View() string {
	c := h.app.Common
	st := c.Styles
	s, _ := h.app.Client().Session()
	const lw = 18
	var b strings.Builder
	b.WriteString(st.Heading.Render("Funding account") + "\n\n")
	b.WriteString(field(c, "Funding address", lw, st.Value.Render(s.FundingAccountAddress)) + "\n")
	b.WriteString(field(c, "Account id", lw, st.Value.Render(orDash(s.AccountID))) + "\n")
	if s.SubAccountID != "" {
		b.WriteString(field(c, "Sub-account", lw, st.Value.Render(s.SubAccountID)+st.Muted.Render("  (trading key: cannot sign withdrawals)")) + "\n")
	}
	signedBy := s.Method
	if h.app.Signer != nil {
		signedBy += " · signer " + h.app.Signer.Address().Hex()
	}
	b.WriteString(field(c, "Logged in by", lw, st.Value.Render(signedBy)) + "\n")
	b.WriteString(field(c, "Environment", lw, st.Value.Render(h.app.Target.Env.Name+" · chain id "+uitoa(h.app.Target.Env.ChainID))) + "\n\n")
	b.WriteString(h.unfinishedBanner())
	b.WriteString(st.Heading.Render("Go to") + "\n\n")
	item := func(i int, k, label, about string) {
		line := " " + k + "  " + pad(label, 26)
		if i == h.cursor {
			line = st.Selected.Render(line)
		} else {
			line = st.Cursor.Render(" "+k) + "  " + st.Value.Render(pad(label, 26))
		}
		// The description gives way first on a narrow terminal, visibly.
		if room := h.w - ansi.StringWidth(line) - 1; room >= 8 {
			line += " " + st.Muted.Render(ansi.Truncate(about, room, "…"))
		}
		b.WriteString(line + "\n")
	}
	for i, it := range homeMenu {
		item(i, it.key, it.label, it.about)
	}
	item(len(homeMenu), "L", "Log out", "forget the session and the key")
	return clip(b.String(), h.w)
}

func orDash(s string) string {
	if s == "" {
		return "—"
	}
	return s
}

// --- unfinished withdrawals banner (D11: offered for resumption at start) ---

// homeJournalMsg carries how many journaled withdrawals are unfinished.
type homeJournalMsg struct{ unfinished int }

// readJournal counts the unfinished withdrawals in a Cmd: it reads a file.
func (h *Home) readJournal() tea.Cmd {
	app := h.app
	return func() tea.Msg { return homeJournalMsg{unfinished: len(UnfinishedWithdrawals(app))} }
}

// Resume counts again: the screens above may have finished some.
func (h *Home) Resume() tea.Cmd { return h.readJournal() }

func (h *Home) unfinishedBanner() string {
	if h.unfinished == 0 {
		return ""
	}
	text := fmt.Sprintf("%d unfinished withdrawal(s): press h to review and resume", h.unfinished)
	return h.app.Common.Styles.Warning.Render(ansi.Truncate(text, max(h.w, 1), "…")) + "\n\n"
}
