// Package deposit lists the deposit addresses per chain and token,
// provisions on-demand chains, and shows an address as a QR code.
package deposit

import (
	"strings"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/spinner"
	tea "charm.land/bubbletea/v2"

	"github.com/svcwallet/svcwallet/screens/kit"
	"github.com/svcwallet/svcwallet/screens/kit/layout"
	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/tui"
)

// depositsLoadedMsg answers the deposit address listing.
type depositsLoadedMsg struct {
	chains []exchange.ChainInfo
	err    error
}

// addressGeneratedMsg answers generate-address for one chain.
type addressGeneratedMsg struct {
	chain string
	info  exchange.ChainInfo
	err   error
}

var depositKeys = struct {
	Generate, Copy, QR, Refresh key.Binding
}{
	Generate: key.NewBinding(key.WithKeys("g"), key.WithHelp("g", "generate address")),
	Copy:     key.NewBinding(key.WithKeys("c"), key.WithHelp("c", "copy")),
	QR:       key.NewBinding(key.WithKeys("enter", "v"), key.WithHelp("enter", "QR code")),
	Refresh:  key.NewBinding(key.WithKeys("r"), key.WithHelp("r", "refresh")),
}

// depositColumns: the address, copied, and the chain's name (a cut one,
// "POLYG…", can read as another) are never cut; on a narrow terminal the
// chain id is left out instead (the detail under the list shows it).
var depositColumns = []kit.Column{
	{Title: "CHAIN", Width: 14},
	{Title: "CHAIN ID", Width: 10, Optional: true},
	{Title: "DEPOSIT ADDRESS", Width: 42, Min: 13, Key: true},
}

// depositScreen lists every chain the account can deposit on, with its address and
// tokens; on-demand chains get an address with g.
type depositScreen struct {
	kit.Visit  // its calls end when it is left
	app        *kit.App
	list       kit.List[exchange.ChainInfo] // as listed by the service
	loading    bool
	generating string // chain being provisioned, "" when none
	err        error  // the listing failed and there is nothing to show
	showQR     bool
	qr         map[string]qrCode // rendered codes by address and style
	spin       spinner.Model
	w, h       int
}

// New builds the deposit address screen.
func New(app *kit.App) tui.Screen {
	d := &depositScreen{app: app, qr: map[string]qrCode{},
		spin: spinner.New(spinner.WithSpinner(spinner.Dot), spinner.WithStyle(app.Common.Styles.Spinner))}
	d.list = kit.NewList(app.Common, kit.ListSpec[exchange.ChainInfo]{
		Noun: "chain", Columns: depositColumns, Row: d.row, Select: "select",
		Empty:  "No chains are open for deposit on this account.",
		Fields: func(ch exchange.ChainInfo) []string { return []string{ch.Chain, ch.ChainID, ch.DepositAddress} },
		ID:     func(ch exchange.ChainInfo) string { return ch.Chain },
	})
	return d
}

func (d *depositScreen) Init() tea.Cmd { return d.load() }

func (d *depositScreen) Title() string { return "Deposit addresses" }

func (d *depositScreen) SetSize(w, h int) { d.w, d.h = w, h; d.sizeList() }

func (d *depositScreen) KeyMap() help.KeyMap { return d.list.Bindings(d.keys()).KeyMap() }

// keys offer only what applies to the selected chain: QR and copy when it
// has an address, generate when it has none; a refused address is shown,
// never copied, drawn or re-generated (pressed, c and g say why). g
// generates here, so the list jumps with home and end only.
func (d *depositScreen) keys() kit.Bindings {
	ch, some := d.list.Selected()
	usable := some && ch.Verdict() == exchange.DepositOnIt
	qrKey, lacking := depositKeys.QR, d.qrLacking()
	if d.showQR {
		qrKey.SetHelp("enter", "hide QR")
		// Where the notice stands for a code too big, hiding a QR is
		// untrue of what is drawn: enter takes the notice down.
		if l, _ := d.layout(); l == qrNoRoom {
			qrKey.SetHelp("enter", "hide notice")
		}
	}
	refused := func() tea.Cmd {
		if ch.Verdict() == exchange.DepositRefused {
			return tui.ShowError(exchange.UserError{Text: ch.Refusal()})
		}
		return nil
	}
	return kit.Bindings{
		// enter is offered only where the code fits, or to take down what
		// is shown: at 60x20 it offered a code, then said it lacked 2 rows.
		// Pressed anyway, the notice says what the code lacks (the toast a
		// key takes down may have been the rows it lacked).
		kit.Binding{Key: qrKey, On: usable && (d.showQR || !lacking), Do: d.toggleQR, Off: func() tea.Cmd {
			if usable || ch.Verdict() == exchange.DepositRefused {
				return d.toggleQR() // the panel says why there is no QR code
			}
			return nil
		}},
		kit.Binding{Key: depositKeys.Copy, On: usable, Do: func() tea.Cmd {
			copied := "Copied " + ch.Chain + " address " + ch.DepositAddress
			if d.embedded() {
				copied += " (" + qrSandboxWords + ")"
			}
			return kit.CopyText(d.app, ch.DepositAddress, copied)
		}, Off: func() tea.Cmd {
			switch cmd := refused(); {
			case cmd != nil || !some:
				return cmd
			case d.generating != "":
				// g is off until that generation answers: not named.
				return tui.ShowInfo("No address to copy: " + ch.Chain + " has none yet (" + d.generating + "'s is being generated)")
			}
			return tui.ShowInfo("No address to copy: press g to generate one first")
		}},
		kit.Binding{Key: depositKeys.Generate, On: some && ch.Verdict() == exchange.DepositGenerate && d.generating == "",
			Do: func() tea.Cmd { return d.generate(ch) }, Off: func() tea.Cmd {
				if cmd := refused(); cmd != nil || !some || d.generating != "" {
					return cmd
				}
				return tui.ShowInfo(ch.Chain + " already has a deposit address")
			}},
		kit.Binding{Key: depositKeys.Refresh, On: !d.loading, Do: d.load},
	}
}

// Inputting: while the filter is typed, letters are text.
func (d *depositScreen) Inputting() bool { return d.list.Typing() }

func (d *depositScreen) load() tea.Cmd {
	d.loading = true
	client, parent := d.app.Client(), d.Context(d.app)
	return tea.Batch(d.spin.Tick, func() tea.Msg {
		cx, cancel := kit.Call(parent)
		defer cancel()
		chains, err := client.DepositAddresses(cx)
		return depositsLoadedMsg{chains: chains, err: err}
	})
}

// generate provisions the address of a listed chain, held to the listing.
func (d *depositScreen) generate(listed exchange.ChainInfo) tea.Cmd {
	d.generating = listed.Chain
	client, parent := d.app.Client(), d.Context(d.app)
	return tea.Batch(d.spin.Tick, func() tea.Msg {
		cx, cancel := kit.Call(parent)
		defer cancel()
		info, err := client.GenerateFor(cx, listed)
		return addressGeneratedMsg{chain: listed.Chain, info: info, err: err}
	})
}

func (d *depositScreen) Update(msg tea.Msg) (tui.Screen, tea.Cmd) {
	var cmd tea.Cmd
	switch msg := msg.(type) {
	case depositsLoadedMsg:
		d.loading = false
		if ended := d.app.SessionEnded(msg.err); ended != nil {
			return d, ended
		}
		switch {
		case msg.err != nil && len(d.list.Items()) > 0:
			// A refresh failed: keep what is shown, say why in a toast.
			cmd = tui.ShowError(exchange.Explain(msg.err))
		case msg.err != nil:
			d.err = exchange.Explain(msg.err)
		default:
			d.err = nil
			d.list.SetItems(msg.chains)
		}
	case addressGeneratedMsg:
		d.generating = ""
		if ended := d.app.SessionEnded(msg.err); ended != nil {
			return d, ended
		}
		if msg.err != nil {
			return d, tui.ShowError(exchange.Explain(msg.err))
		}
		chains := d.list.Items()
		for i := range chains {
			if strings.EqualFold(chains[i].Chain, msg.info.Chain) {
				chains[i] = msg.info
			}
		}
		d.list.SetItems(chains)
		if msg.info.Verdict() == exchange.DepositRefused {
			return d, tui.ShowError(exchange.UserError{Text: msg.info.Refusal()})
		}
		ready := msg.info.Chain + " deposit address ready: " + msg.info.DepositAddress
		if d.embedded() {
			ready += " (" + qrSandboxWords + ")"
		}
		cmd = tui.ShowInfo(ready)
	case spinner.TickMsg:
		return d, kit.SpinWhile(&d.spin, msg, d.loading || d.generating != "")
	case tea.BackgroundColorMsg:
		d.spin.Style = d.app.Common.Styles.Spinner
	case tea.PasteMsg, tea.KeyPressMsg:
		cmd = d.list.Update(msg, d.keys())
	}
	d.sizeList()
	return d, cmd
}

// baseDetailHeight is the detail panel without any QR code: heading,
// address, the sandbox's words, "Tokens" and the tokens.
func (d *depositScreen) baseDetailHeight() int {
	ch, ok := d.list.Selected()
	if !ok {
		return 0
	}
	return strings.Count(d.heading(ch), "\n") + 2 + strings.Count(d.sandboxLine(), "\n") + strings.Count(d.tokens(ch), "\n")
}

// sandboxWords and qrSandboxWords say on the embedded sandbox, the
// environment svcwallet falls back to, what deposit and plain mode say:
// its addresses are valid on the real chains, and no one holds their key.
const (
	sandboxWords   = "Embedded sandbox: its addresses receive nothing real"
	qrSandboxWords = "embedded sandbox: this address receives nothing real"
)

// embedded: the screen lists the embedded sandbox's addresses.
func (d *depositScreen) embedded() bool { return d.app.Target.Env.Embedded() }

// sandboxLine is sandboxWords under the address, wrapped, on the embedded
// sandbox; "" elsewhere.
func (d *depositScreen) sandboxLine() string {
	if !d.embedded() {
		return ""
	}
	return layout.WrapTo(d.app.Common.Styles.Warning.Render(sandboxWords), d.w) + "\n"
}

// detailLabelWidth is the detail's label column: "chain id" lines up with
// the address below it, however short the name.
const detailLabelWidth = 9

// heading is the chain's name and id, wrapped, never cut: the names the
// service may send are longer than a narrow screen.
func (d *depositScreen) heading(ch exchange.ChainInfo) string {
	k := layout.InksFor(d.app.Common)
	gap := strings.Repeat(" ", max(detailLabelWidth+1-layout.Width(ch.Chain), 2))
	return layout.WrapTo(k.Heading.On(ch.Chain)+k.Muted.On(gap+"chain id "+ch.ChainID), d.w)
}

// tokens is "Tokens" and a line per token, each wrapped, never cut.
func (d *depositScreen) tokens(ch exchange.ChainInfo) string {
	k := layout.InksFor(d.app.Common)
	b := k.Label.On("Tokens") + "\n"
	for _, t := range ch.SupportedTokens {
		b += layout.WrapTo("  "+layout.Pad(t.Name, 8)+k.Muted.On(t.ContractText()), d.w) + "\n"
	}
	return b
}

// listRows is how many chain rows fit: the list gets what the heading, the
// column titles, the count, the gap and the detail panel leave.
func (d *depositScreen) listRows() int {
	h := d.baseDetailHeight()
	switch l, code := d.layout(); {
	case l == qrBelow:
		h += 1 + d.qrHeight(code)
	case d.showQR:
		h++ // the notice
	}
	return max(d.h-h-4, 3)
}

// sizeList gives the list its rows, which the selected chain's detail
// (and QR code) decide.
func (d *depositScreen) sizeList() { d.list.SetSize(d.w, d.listRows()) }

func (d *depositScreen) View() string {
	c := d.app.Common
	k := layout.InksFor(c)
	var b strings.Builder
	// The first line holds the filter and the refresh spinner; the status
	// bar names the screen.
	if f := d.list.FilterView(); f != "" {
		b.WriteString(f + "  ")
	}
	if d.loading && len(d.list.Items()) > 0 {
		b.WriteString(d.spin.View() + k.Muted.On(" refreshing…"))
	}
	b.WriteString("\n")
	switch {
	case d.loading && len(d.list.Items()) == 0:
		b.WriteString("\n" + d.spin.View() + " Loading deposit addresses…\n")
		return layout.Clip(b.String(), d.w)
	case d.err != nil:
		b.WriteString("\n" + layout.ErrorBlock(c, "Error", d.err, d.w))
		return layout.Clip(b.String(), d.w)
	}
	l, code := d.layout()
	if l == qrAlone {
		return d.qrAloneView(code)
	}
	b.WriteString(d.list.View(""))
	if _, ok := d.list.Selected(); ok {
		b.WriteString("\n" + d.detail(l, code))
	}
	return layout.Clip(b.String(), d.w)
}

// row is a chain's line: its address, or what stands in for one.
func (d *depositScreen) row(ch exchange.ChainInfo) kit.Row {
	k := layout.InksFor(d.app.Common)
	r := kit.Row{Cells: []string{ch.Chain, ch.ChainID, ch.DepositAddress}, Ink: k.Value}
	switch {
	case d.generating != "" && strings.EqualFold(d.generating, ch.Chain):
		r.Cells[2] = "generating…"
		r.Rich = []string{"", "", d.spin.View() + k.Muted.On(" generating…")}
	case ch.AddressProblem != "" && ch.RefusedAddress == "":
		r.Cells[2] = "refused: chain failed its check"
	case ch.AddressProblem != "":
		r.Cells[2] = "refused: failed its check, not copied"
	case ch.DepositAddress == "" && (d.generating != "" || !d.isSelected(ch)):
		// g is off until that answers, or another chain's.
		r.Cells[2] = exchange.NotProvisioned + " (on-demand)"
	case ch.DepositAddress == "":
		r.Cells[2] = exchange.NotProvisioned + " (on-demand: press g)"
	}
	if ch.DepositAddress == "" {
		r.Ink = k.Muted
	}
	return r
}

// isSelected: ch is the chain the list has selected, whose keys act.
func (d *depositScreen) isSelected(ch exchange.ChainInfo) bool {
	sel, ok := d.list.Selected()
	return ok && sel.Chain == ch.Chain
}

func (d *depositScreen) detail(l qrLayout, code qrCode) string {
	c := d.app.Common
	st, k := c.Styles, layout.InksFor(c)
	ch, _ := d.list.Selected()
	var b strings.Builder
	addr := k.Bold.On(ch.DepositAddress)
	switch {
	case ch.AddressProblem != "" && ch.RefusedAddress == "":
		addr = st.Warning.Render("refused: the chain failed its check, so no address is generated") + "\n" +
			strings.Repeat(" ", 10) + k.Muted.On(ch.AddressProblem)
	case ch.AddressProblem != "":
		sp := strings.Repeat(" ", 10)
		addr = st.Warning.Render("refused: it failed its check, so it is not copied nor drawn") + "\n" +
			sp + k.Muted.On(ch.AddressProblem) + "\n" + sp + k.Muted.On("the service sent: "+ch.RefusedAddress)
	case ch.DepositAddress == "" && d.generating != "":
		// g is off until that generation answers: not named.
		addr = k.Muted.On(exchange.NotProvisioned + ": " + d.generating + "'s address is being generated")
	case ch.DepositAddress == "":
		addr = k.Muted.On(exchange.NotProvisioned + ": press g to generate")
	}
	b.WriteString(d.heading(ch) + "\n")
	b.WriteString(layout.Field(c, "Address", detailLabelWidth, addr) + "\n")
	b.WriteString(d.sandboxLine())
	b.WriteString(d.tokens(ch))
	switch {
	case !d.showQR:
	case l == qrNone && ch.Verdict() == exchange.DepositRefused:
		b.WriteString(k.Muted.On("No QR code for a refused address.") + "\n")
	case l == qrNone && d.generating != "":
		b.WriteString(k.Muted.On("No QR code until the address is generated.") + "\n")
	case l == qrNone:
		b.WriteString(k.Muted.On("No QR code until the address is generated: press g.") + "\n")
	case l == qrNoRoom:
		b.WriteString(st.Warning.Render("The QR code needs "+d.qrLacks(code)+": enlarge the terminal.") + "\n")
	default:
		b.WriteString("\n" + d.qrView(code, d.qrHeight(code)))
	}
	return b.String()
}
