// Package withdraw is the USDT withdrawal through the bridge: route,
// destination, quote, review and sign, and the bridge address check. The
// protocol itself is service's; these screens gather the user's choice and
// show what will be signed.
package withdraw

import (
	"fmt"
	"sort"
	"strings"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/spinner"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"github.com/svcwallet/svcwallet/screens/kit"
	"github.com/svcwallet/svcwallet/screens/kit/layout"
	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/withdrawal"
	"github.com/svcwallet/svcwallet/tui"
)

// withdrawalInfoMsg answers GET withdrawal-info.
type withdrawalInfoMsg struct {
	info exchange.WithdrawalInfo
	err  error
}

var routeKeys = struct {
	Left, Right, Source, Next, Refresh key.Binding
}{
	Left:    key.NewBinding(key.WithKeys("left", "h"), key.WithHelp("←/→", "payout token")),
	Right:   key.NewBinding(key.WithKeys("right", "l")),
	Source:  key.NewBinding(key.WithKeys("tab", "t"), key.WithHelp("tab", "source token")),
	Next:    key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "continue")),
	Refresh: key.NewBinding(key.WithKeys("r"), key.WithHelp("r", "refresh")),
}

// routeColumns: nothing here is copied, so no column is the key.
var routeColumns = []kit.Column{
	{Title: "DESTINATION", Width: 14, Min: 8},
	{Title: "CHAIN ID", Width: 10, Min: 5},
	{Title: "TYPE", Width: 8, Min: 4},
	{Title: "PAYOUT TOKENS", Width: 18, Min: 8}, // (•) USDT  ( ) USDC
}

// routeScreen is the first withdrawal step: source token, destination chain and
// payout token, from withdrawal info. Tokens with no route stay visible as
// unavailable.
type routeScreen struct {
	kit.Visit // its calls end when it is left
	app       *kit.App
	info      exchange.WithdrawalInfo
	sources   []string // token_in keys, USDT first
	source    int
	list      kit.List[exchange.WithdrawalRoute] // the source's destination chains
	payout    int
	loading   bool
	err       error
	key       kit.SigningKeyMsg // whether a key here signs for the account
	spin      spinner.Model
	w, h      int
}

// New starts a withdrawal at its first step, the route.
func New(app *kit.App) tui.Screen {
	r := &routeScreen{app: app, spin: spinner.New(spinner.WithSpinner(spinner.Dot))}
	r.list = kit.NewList(app.Common, kit.ListSpec[exchange.WithdrawalRoute]{
		Noun: "destination chain", Columns: routeColumns, Row: r.row, Select: "choose chain",
		Fields: func(rt exchange.WithdrawalRoute) []string {
			return append([]string{rt.Chain, rt.ChainID, rt.ChainType}, rt.TokensOut...)
		},
		ID: func(rt exchange.WithdrawalRoute) string { return rt.Chain },
	})
	return r
}

func (r *routeScreen) Init() tea.Cmd { return tea.Batch(r.load(), kit.LookForSigningKey(r.app)) }

func (r *routeScreen) Title() string { return "Withdraw: route" }

func (r *routeScreen) SetSize(w, h int) { r.w, r.h = w, h; r.sizeList() }

// KeyMap offers enter only on a usable route, ↑/↓ over the chains, ←/→
// with more than one payout token, tab with more than one source.
func (r *routeScreen) KeyMap() help.KeyMap { return r.list.Bindings(r.keys()).KeyMap() }

// keys offer what changes the route shown: the payout token while its
// chain has several, the source token, and enter only on a route that can
// be used.
func (r *routeScreen) keys() kit.Bindings {
	ready := !r.loading && r.err == nil
	rt, some := r.list.Selected()
	usable := ready && some && len(rt.TokensOut) > 0
	payout := func(delta int) func() tea.Cmd {
		return func() tea.Cmd {
			n := len(rt.TokensOut)
			r.payout = (r.payout + delta + n) % n
			return nil
		}
	}
	several := usable && len(rt.TokensOut) > 1
	return kit.Bindings{
		{Key: routeKeys.Next, On: usable, Do: r.next, Off: r.next},
		{Key: routeKeys.Left, On: several, Do: payout(-1)},
		{Key: routeKeys.Right, On: several, Do: payout(1)},
		{Key: routeKeys.Source, On: ready && len(r.sources) > 1, Do: func() tea.Cmd {
			r.source = (r.source + 1) % len(r.sources)
			r.list.SetItems(r.info.Route[r.sources[r.source]])
			r.payout = 0
			return nil
		}},
		{Key: routeKeys.Refresh, On: !r.loading, Do: r.load},
	}
}

// sizeList gives the list's rows the lines left by the source, the
// provider and a blank line, the notice of a missing key, the filter, the
// list's title and count, and the sentence under it with its blank line,
// as many lines as each is wrapped to: the sentence was pushed off the
// screen under the notice, and by names wrapped to several lines.
func (r *routeScreen) sizeList() {
	taken, blank := 3+2, 1
	if r.list.FilterView() != "" {
		taken++
	}
	if k := r.missingKey(); k != "" {
		taken += strings.Count(k, "\n") + 1 // and the blank line after it
		blank++
	}
	if s := r.sentence(); s != "" {
		taken += lipgloss.Height(s) + 1
		blank++
	}
	rows := r.h - taken
	if rows < 3 {
		// Too short for the list's fewest rows: the blank lines give way
		// (View), and the list takes their rows.
		rows += blank
	}
	r.list.SetSize(r.w, max(rows, 3))
}

// sentence says what the route chosen sends and pays out, wrapped, not
// cut (the names are what the quote will ask for); "" with none chosen.
func (r *routeScreen) sentence() string {
	rt, ok := r.list.Selected()
	if !ok || len(rt.TokensOut) == 0 || r.loading || r.err != nil {
		return ""
	}
	in, out := r.sources[r.source], rt.TokensOut[r.payout]
	return r.app.Common.Styles.Muted.Render(layout.WrapTo(layout.Fitting(r.w,
		fmt.Sprintf("Send %s from the funding account, receive %s on %s.", in, out, rt.Chain),
		fmt.Sprintf("Send %s, receive %s on %s.", in, out, rt.Chain)), r.w))
}

// missingKey warns that no key here signs for the account, or is "".
func (r *routeScreen) missingKey() string { return kit.MissingKeyView(r.app, r.key, r.w) }

func (r *routeScreen) load() tea.Cmd {
	r.loading, r.err = true, nil
	r.list.SetItems(nil) // no chain is offered until the answer is shown
	client, parent := r.app.Client(), r.Context(r.app)
	return tea.Batch(r.spin.Tick, func() tea.Msg {
		cx, cancel := kit.Call(parent)
		defer cancel()
		info, err := client.WithdrawalInfo(cx)
		return withdrawalInfoMsg{info: info, err: err}
	})
}

// Inputting: while the filter is typed, letters are text.
func (r *routeScreen) Inputting() bool { return r.list.Typing() }

func (r *routeScreen) Update(msg tea.Msg) (tui.Screen, tea.Cmd) {
	switch msg := msg.(type) {
	case kit.SigningKeyMsg:
		r.key = msg
		r.sizeList()
	case withdrawalInfoMsg:
		r.loading = false
		if ended := r.app.SessionEnded(msg.err); ended != nil {
			return r, ended
		}
		r.err = exchange.Explain(msg.err)
		if msg.err == nil {
			r.setInfo(msg.info)
		}
		r.sizeList()
	case spinner.TickMsg:
		return r, kit.SpinWhile(&r.spin, msg, r.loading)
	case tea.PasteMsg, tea.KeyPressMsg:
		before, _ := r.list.Selected()
		cmd := r.list.Update(msg, r.keys())
		if after, _ := r.list.Selected(); after.Chain != before.Chain {
			r.payout = 0 // another chain has its own payout tokens
		}
		r.sizeList()
		return r, cmd
	}
	return r, nil
}

// setInfo orders the source tokens USDT first (the only one enabled today,
// SPEC.md §4.7), then the rest by name.
func (r *routeScreen) setInfo(info exchange.WithdrawalInfo) {
	r.info = info
	r.sources = r.sources[:0]
	for t := range info.Route {
		r.sources = append(r.sources, t)
	}
	sort.Slice(r.sources, func(i, j int) bool {
		if (r.sources[i] == exchange.TokenUSDT) != (r.sources[j] == exchange.TokenUSDT) {
			return r.sources[i] == exchange.TokenUSDT
		}
		return r.sources[i] < r.sources[j]
	})
	r.source, r.payout = 0, 0
	if len(r.sources) > 0 {
		r.list.SetItems(info.Route[r.sources[0]])
	}
}

// noRoutes says that the source token shown has no route, naming tab
// only while there is another source to choose; a service may give none.
func (r *routeScreen) noRoutes() string {
	if len(r.sources) == 0 {
		return "The service gives no source token to withdraw yet"
	}
	text := r.sources[r.source] + " withdrawals are not available yet"
	if len(r.sources) > 1 {
		text += ": press tab for another source token"
	}
	return text
}

// next moves on to the destination step, refusing routes that cannot be used.
func (r *routeScreen) next() tea.Cmd {
	rt, some := r.list.Selected()
	switch {
	case r.loading || r.err != nil:
		return nil
	case len(r.list.Items()) == 0:
		return tui.ShowError(exchange.UserError{Text: r.noRoutes()})
	case !some:
		return nil // the filter lets no chain through: the list says so
	case len(rt.TokensOut) == 0:
		return tui.ShowError(exchange.UserError{Text: "No payout token on " + rt.Chain + " for now: pick another chain"})
	}
	w := withdrawal.Choice{Info: r.info, TokenIn: r.sources[r.source], Route: rt, TokenOut: rt.TokensOut[r.payout]}
	return tui.Push(newDestination(r.app, w))
}

func (r *routeScreen) View() string {
	c := r.app.Common
	st := c.Styles
	var b strings.Builder
	switch {
	case r.loading:
		b.WriteString(r.spin.View() + " Loading withdrawal routes…\n")
		return layout.Clip(b.String(), r.w)
	case r.err != nil:
		// Wrapped: what to do next is at its end.
		b.WriteString(layout.ErrorBlock(c, "Error", r.err, r.w))
		return layout.Clip(b.String(), r.w)
	}
	const lw = 14
	var src []string
	for i, t := range r.sources {
		label := t
		if len(r.info.Route[t]) == 0 {
			label = t + " (not yet available)"
		}
		src = append(src, layout.Choice(c, label, i == r.source))
	}
	b.WriteString(layout.Field(c, "Source token", lw, strings.Join(src, "   ")) + "\n")
	b.WriteString(layout.Field(c, "Provider", lw, st.Value.Render(r.info.Provider)) + "\n\n")
	if warn := r.missingKey(); warn != "" {
		b.WriteString(warn + "\n")
	}
	if f := r.list.FilterView(); f != "" {
		b.WriteString("  " + f + "\n")
	}
	if len(r.list.Items()) == 0 && len(r.sources) == 0 {
		b.WriteString(st.Warning.Render(r.noRoutes()+".") + "\n")
		return layout.Clip(b.String(), r.w)
	}
	if len(r.list.Items()) == 0 {
		b.WriteString(st.Warning.Render("No destination chain for "+r.sources[r.source]+" yet: it is not available for withdrawal.") + "\n")
		return layout.Clip(b.String(), r.w)
	}
	b.WriteString(r.list.View(""))
	if s := r.sentence(); s != "" {
		b.WriteString("\n" + s + "\n")
	}
	v := b.String()
	if r.h > 0 && strings.Count(v, "\n") > r.h {
		// The list is at its fewest rows: the blank lines give way before
		// the sentence is cut (the key's notice and long names at 60x20).
		v = strings.ReplaceAll(v, "\n\n", "\n")
	}
	return layout.Clip(v, r.w)
}

// row is a destination chain; on the selected one with several payout
// tokens, the one being chosen is marked (•) (layout.Choice), the columns
// where the other rows have them.
func (r *routeScreen) row(rt exchange.WithdrawalRoute) kit.Row {
	k := layout.InksFor(r.app.Common)
	tokens := strings.Join(rt.TokensOut, " ")
	if tokens == "" {
		tokens = "unavailable"
	}
	rich := k.Muted.On(tokens)
	if sel, _ := r.list.Selected(); sel.Chain == rt.Chain && len(rt.TokensOut) > 1 {
		plain, outs := make([]string, len(rt.TokensOut)), make([]string, len(rt.TokensOut))
		for j, t := range rt.TokensOut {
			plain[j] = "( ) " + t
			outs[j] = layout.Choice(r.app.Common, t, j == r.payout)
			if j == r.payout {
				plain[j] = "(•) " + t
			}
		}
		tokens, rich = strings.Join(plain, "  "), strings.Join(outs, "  ")
	}
	return kit.Row{Cells: []string{rt.Chain, rt.ChainID, rt.ChainType, tokens}, Rich: []string{"", "", "", rich}, Ink: k.Value}
}
