package screentest

import (
	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/svcwallet/svcwallet/screens/kit"
	"github.com/svcwallet/svcwallet/tui"
)

// Home stands in for the home screen in a feature's own tests. Features
// reach home through kit.Makers and package home imports them, so their
// tests cannot build the real one; NewApp and NewStatusRig hand this in.
type Home struct{ App *kit.App }

// HomeView is all the stand-in Home shows.
const HomeView = "the stand-in home screen"

// NewHome is a kit.Makers Home.
func NewHome(app *kit.App) tui.Screen { return &Home{App: app} }

func (h *Home) Init() tea.Cmd                        { return nil }
func (h *Home) Update(tea.Msg) (tui.Screen, tea.Cmd) { return h, nil }
func (h *Home) View() string                         { return HomeView }
func (h *Home) SetSize(int, int)                     {}
func (h *Home) Title() string                        { return "Home" }
func (h *Home) KeyMap() help.KeyMap                  { return h }
func (h *Home) ShortHelp() []key.Binding             { return nil }
func (h *Home) FullHelp() [][]key.Binding            { return nil }
