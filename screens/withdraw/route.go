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

	"svcwallet/screens/kit"
	"svcwallet/service"
	"svcwallet/service/withdrawal"
	"svcwallet/tui"
)

// withdrawalInfoMsg answers GET withdrawal-info.
type withdrawalInfoMsg struct {
	info service.WithdrawalInfo
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

// routeScreen is the first withdrawal step: source token, destination chain and
// payout token, from withdrawal info. Tokens with no route stay visible as
// unavailable.
type routeScreen struct {
	kit.Visit // its calls end when it is left
	app       *kit.App
	info      service.WithdrawalInfo
	sources   []string // token_in keys, USDT first
	source    int
	chain     int
	payout    int
	loading   bool
	err       error
	filter    kit.ListFilter // narrows the destination chains
	spin      spinner.Model
	w, h      int
}

// New starts a withdrawal at its first step, the route.
func New(app *kit.App) tui.Screen {
	return &routeScreen{app: app, filter: kit.NewListFilter(app.Common), spin: spinner.New(spinner.WithSpinner(spinner.Dot))}
}

func (r *routeScreen) Init() tea.Cmd { return r.load() }

func (r *routeScreen) Title() string { return "Withdraw: route" }

func (r *routeScreen) SetSize(w, h int) { r.w, r.h = w, h }

// KeyMap offers enter only on a usable route, ↑/↓ with more than one
// chain, ←/→ with more than one payout token, tab with more than one source.
func (r *routeScreen) KeyMap() help.KeyMap { return r.bindings().KeyMap() }

// bindings offer what changes the route shown: the chain while there are
// several, the payout token while its chain has several, the source token,
// and enter only on a route that can be used.
func (r *routeScreen) bindings() kit.Bindings {
	if r.filter.Typing {
		return r.filter.Bindings()
	}
	ready := !r.loading && r.err == nil
	routes := r.routes()
	usable := ready && r.chain < len(routes) && len(routes[r.chain].TokensOut) > 0
	chains := 0
	if ready && len(routes) > 1 {
		chains = len(routes)
	}
	payout := func(delta int) func() tea.Cmd {
		return func() tea.Cmd {
			n := len(routes[r.chain].TokensOut)
			r.payout = (r.payout + delta + n) % n
			return nil
		}
	}
	several := usable && len(routes[r.chain].TokensOut) > 1
	return append(kit.Bindings{{Key: routeKeys.Next, On: usable, Do: r.next, Off: r.next}},
		append(kit.ListMoves(&r.chain, chains, "destination chain"),
			kit.Binding{Key: routeKeys.Left, On: several, Do: payout(-1)},
			kit.Binding{Key: routeKeys.Right, On: several, Do: payout(1)},
			kit.Binding{Key: routeKeys.Source, On: ready && len(r.sources) > 1, Do: func() tea.Cmd {
				r.source = (r.source + 1) % len(r.sources)
				r.chain, r.payout = 0, 0
				return nil
			}},
			kit.Binding{Key: routeKeys.Refresh, On: !r.loading, Do: r.load},
			kit.Binding{Key: kit.FilterKeys.Start, On: ready && len(r.info.Route[r.sourceName()]) > 0, Do: r.filter.Start},
		)...)
}

func (r *routeScreen) load() tea.Cmd {
	r.loading, r.err = true, nil
	client, parent := r.app.Client(), r.Context(r.app)
	return tea.Batch(r.spin.Tick, func() tea.Msg {
		cx, cancel := kit.Call(parent)
		defer cancel()
		info, err := client.WithdrawalInfo(cx)
		return withdrawalInfoMsg{info: info, err: err}
	})
}

// routes are the destination chains of the selected source token that the
// filter lets through (chain name, id, type or payout token).
func (r *routeScreen) routes() []service.WithdrawalRoute {
	if r.source >= len(r.sources) {
		return nil
	}
	var out []service.WithdrawalRoute
	for _, rt := range r.info.Route[r.sources[r.source]] {
		if r.filter.Match(append([]string{rt.Chain, rt.ChainID, rt.ChainType}, rt.TokensOut...)...) {
			out = append(out, rt)
		}
	}
	return out
}

// Inputting: while the filter is typed, letters are text.
func (r *routeScreen) Inputting() bool { return r.filter.Typing }

func (r *routeScreen) Update(msg tea.Msg) (tui.Screen, tea.Cmd) {
	switch msg := msg.(type) {
	case withdrawalInfoMsg:
		r.loading = false
		r.err = service.Explain(msg.err)
		if msg.err == nil {
			r.setInfo(msg.info)
		}
	case spinner.TickMsg:
		if !r.loading {
			return r, nil
		}
		var cmd tea.Cmd
		r.spin, cmd = r.spin.Update(msg)
		return r, cmd
	case tea.PasteMsg:
		if r.filter.Typing {
			return r, r.typeFilter(msg)
		}
	case tea.KeyPressMsg:
		return r, r.key(msg)
	}
	return r, nil
}

// setInfo orders the source tokens USDT first (the only one enabled today,
// SPEC.md §4.7), then the rest by name.
func (r *routeScreen) setInfo(info service.WithdrawalInfo) {
	r.info = info
	r.sources = r.sources[:0]
	for t := range info.Route {
		r.sources = append(r.sources, t)
	}
	sort.Slice(r.sources, func(i, j int) bool {
		if (r.sources[i] == service.TokenUSDT) != (r.sources[j] == service.TokenUSDT) {
			return r.sources[i] == service.TokenUSDT
		}
		return r.sources[i] < r.sources[j]
	})
	r.source, r.chain, r.payout = 0, 0, 0
}

// sourceName is the selected source token, "" before the routes are known.
func (r *routeScreen) sourceName() string {
	if r.source >= len(r.sources) {
		return ""
	}
	return r.sources[r.source]
}

// typeFilter hands a key or a paste to the filter being typed.
func (r *routeScreen) typeFilter(msg tea.Msg) tea.Cmd {
	cmd := r.filter.Update(msg)
	r.chain, r.payout = 0, 0
	return cmd
}

func (r *routeScreen) key(k tea.KeyPressMsg) tea.Cmd {
	if r.filter.Typing {
		return r.typeFilter(k)
	}
	chain := r.chain
	cmd, _ := r.bindings().Handle(k)
	if r.chain != chain {
		r.payout = 0 // another chain has its own payout tokens
	}
	return cmd
}

// next moves on to the destination step, refusing routes that cannot be used.
func (r *routeScreen) next() tea.Cmd {
	routes := r.routes()
	switch {
	case r.loading || r.err != nil:
		return nil
	case len(routes) == 0:
		return tui.ShowError(service.UserError{Text: r.sources[r.source] + " withdrawals are not available yet: press tab for another source token"})
	case len(routes[r.chain].TokensOut) == 0:
		return tui.ShowError(service.UserError{Text: "No payout token on " + routes[r.chain].Chain + " for now: pick another chain"})
	}
	rt := routes[r.chain]
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
		return kit.Clip(b.String(), r.w)
	case r.err != nil:
		b.WriteString(st.ErrorToast.Render("Error: ") + r.err.Error() + "\n")
		return kit.Clip(b.String(), r.w)
	}
	const lw = 14
	var src []string
	for i, t := range r.sources {
		label := t
		if len(r.info.Route[t]) == 0 {
			label = t + " (not yet available)"
		}
		if i == r.source {
			src = append(src, st.Selected.Render(label))
		} else {
			src = append(src, st.Muted.Render(label))
		}
	}
	b.WriteString(kit.Field(c, "Source token", lw, strings.Join(src, "  ")) + "\n")
	b.WriteString(kit.Field(c, "Provider", lw, st.Value.Render(r.info.Provider)) + "\n\n")
	routes := r.routes()
	if r.filter.Shown() {
		b.WriteString("  " + r.filter.View() + "\n")
	}
	if len(routes) == 0 && len(r.info.Route[r.sourceName()]) > 0 {
		b.WriteString(st.Muted.Render("No destination chain matches the filter: press / to change it.") + "\n")
		return kit.Clip(b.String(), r.w)
	}
	if len(routes) == 0 {
		b.WriteString(st.Warning.Render("No destination chain for "+r.sources[r.source]+" yet: it is not available for withdrawal.") + "\n")
		return kit.Clip(b.String(), r.w)
	}
	b.WriteString(st.Label.Render(fmt.Sprintf("  %-14s %-10s %-8s %s", "DESTINATION", "CHAIN ID", "TYPE", "PAYOUT TOKENS")) + "\n")
	first := max(0, min(r.chain-(r.h-12)/2, len(routes)-(r.h-10)))
	for i := first; i < len(routes) && i-first < max(r.h-10, 3); i++ {
		rt := routes[i]
		tokens := strings.Join(rt.TokensOut, " ")
		if tokens == "" {
			tokens = "unavailable"
		}
		line := fmt.Sprintf("%-14s %-10s %-8s ", rt.Chain, rt.ChainID, rt.ChainType)
		if i != r.chain {
			b.WriteString("  " + st.Value.Render(line) + st.Muted.Render(tokens) + "\n")
			continue
		}
		// The payout token being chosen is reversed; the columns stay where
		// the other rows have them.
		var outs []string
		for j, t := range rt.TokensOut {
			if j == r.payout {
				outs = append(outs, st.Selected.Render(t))
			} else {
				outs = append(outs, st.Value.Render(t))
			}
		}
		if len(outs) == 0 {
			outs = []string{st.Muted.Render("unavailable")}
		}
		b.WriteString(st.Cursor.Render("› ") + st.Selected.Render(line) + strings.Join(outs, " ") + "\n")
	}
	rt := routes[r.chain]
	if len(rt.TokensOut) > 0 {
		b.WriteString("\n" + st.Muted.Render(fmt.Sprintf("Send %s from the funding account, receive %s on %s.", r.sources[r.source], rt.TokensOut[r.payout], rt.Chain)) + "\n")
	}
	return kit.Clip(b.String(), r.w)
}
