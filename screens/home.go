package screens

import (
	"strings"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

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
}

// Home shows who is logged in and the ways on.
type Home struct {
	app    *App
	cursor int
	w, h   int
}

// NewHome builds the home screen for the logged-in session.
func NewHome(app *App) *Home { return &Home{app: app} }

func (h *Home) Init() tea.Cmd { return nil }

func (h *Home) Title() string { return "Home" }

func (h *Home) SetSize(w, hh int) { h.w, h.h = w, hh }

func (h *Home) KeyMap() help.KeyMap {
	km := keyMap{homeKeys.Up, homeKeys.Open}
	for _, it := range homeMenu {
		km = append(km, key.NewBinding(key.WithKeys(it.key), key.WithHelp(it.key, strings.ToLower(it.label))))
	}
	return append(km, homeKeys.Logout)
}

func (h *Home) Update(msg tea.Msg) (tui.Screen, tea.Cmd) {
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
	b.WriteString(st.Heading.Render("Go to") + "\n\n")
	item := func(i int, k, label, about string) {
		line := " " + k + "  " + pad(label, 26)
		if i == h.cursor {
			line = st.Selected.Render(line)
		} else {
			line = st.Cursor.Render(" "+k) + "  " + st.Value.Render(pad(label, 26))
		}
		b.WriteString(line + " " + st.Muted.Render(about) + "\n")
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
