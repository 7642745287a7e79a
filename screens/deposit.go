package screens

import (
	"errors"
	"fmt"
	"strings"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/spinner"
	tea "charm.land/bubbletea/v2"
	"github.com/aymanbagabas/go-osc52/v2"
	"github.com/charmbracelet/x/ansi"

	"svcwallet/service"
	"svcwallet/tui"
)

// depositsLoadedMsg answers the deposit address listing.
type depositsLoadedMsg struct {
	chains []service.ChainInfo
	err    error
}

// addressGeneratedMsg answers generate-address for one chain.
type addressGeneratedMsg struct {
	chain string
	info  service.ChainInfo
	err   error
}

var depositKeys = struct {
	Up, Down, Generate, Copy, QR, Refresh key.Binding
}{
	Up:       key.NewBinding(key.WithKeys("up", "k"), key.WithHelp("↑/↓", "select chain")),
	Down:     key.NewBinding(key.WithKeys("down", "j")),
	Generate: key.NewBinding(key.WithKeys("g"), key.WithHelp("g", "generate address")),
	Copy:     key.NewBinding(key.WithKeys("c"), key.WithHelp("c", "copy address")),
	QR:       key.NewBinding(key.WithKeys("enter", "v"), key.WithHelp("enter", "QR code")),
	Refresh:  key.NewBinding(key.WithKeys("r"), key.WithHelp("r", "refresh")),
}

// Deposit lists every chain the account can deposit on, with its address and
// tokens; on-demand chains get an address with g.
type Deposit struct {
	app        *App
	chains     []service.ChainInfo
	loading    bool
	generating string // chain being provisioned, "" when none
	err        error
	cursor     int
	offset     int // first visible row
	showQR     bool
	qr         map[string]QRCode // rendered codes by address
	spin       spinner.Model
	w, h       int
}

// NewDeposit builds the deposit address screen.
func NewDeposit(app *App) *Deposit {
	return &Deposit{app: app, qr: map[string]QRCode{}, spin: spinner.New(spinner.WithSpinner(spinner.Dot))}
}

func (d *Deposit) Init() tea.Cmd { return d.load() }

func (d *Deposit) Title() string { return "Deposit addresses" }

func (d *Deposit) SetSize(w, h int) { d.w, d.h = w, h; d.scroll() }

func (d *Deposit) KeyMap() help.KeyMap {
	return keyMap{depositKeys.Up, depositKeys.QR, depositKeys.Copy, depositKeys.Generate, depositKeys.Refresh}
}

func (d *Deposit) load() tea.Cmd {
	d.loading, d.err = true, nil
	client := d.app.Client()
	return tea.Batch(d.spin.Tick, func() tea.Msg {
		cx, cancel := ctx()
		defer cancel()
		chains, err := client.DepositAddresses(cx)
		return depositsLoadedMsg{chains: chains, err: err}
	})
}

func (d *Deposit) generate(chain string) tea.Cmd {
	d.generating = chain
	client := d.app.Client()
	return tea.Batch(d.spin.Tick, func() tea.Msg {
		cx, cancel := ctx()
		defer cancel()
		info, err := client.GenerateAddress(cx, chain)
		return addressGeneratedMsg{chain: chain, info: info, err: err}
	})
}

func (d *Deposit) selected() (service.ChainInfo, bool) {
	if d.cursor < 0 || d.cursor >= len(d.chains) {
		return service.ChainInfo{}, false
	}
	return d.chains[d.cursor], true
}

func (d *Deposit) Update(msg tea.Msg) (tui.Screen, tea.Cmd) {
	switch msg := msg.(type) {
	case depositsLoadedMsg:
		d.loading = false
		d.err = depositError(msg.err)
		if msg.err == nil {
			d.chains = msg.chains
			d.cursor = min(d.cursor, max(len(d.chains)-1, 0))
			d.scroll()
		}
	case addressGeneratedMsg:
		d.generating = ""
		if msg.err != nil {
			return d, tui.ShowError(depositError(msg.err))
		}
		for i := range d.chains {
			if strings.EqualFold(d.chains[i].Chain, msg.info.Chain) {
				d.chains[i] = msg.info
			}
		}
		return d, tui.ShowInfo(msg.info.Chain + " deposit address ready: " + msg.info.DepositAddress)
	case spinner.TickMsg:
		if !d.loading && d.generating == "" {
			return d, nil
		}
		var cmd tea.Cmd
		d.spin, cmd = d.spin.Update(msg)
		return d, cmd
	case tea.KeyPressMsg:
		return d, d.key(msg)
	}
	return d, nil
}

func (d *Deposit) key(k tea.KeyPressMsg) tea.Cmd {
	switch {
	case key.Matches(k, depositKeys.Up):
		d.cursor = max(d.cursor-1, 0)
		d.scroll()
	case key.Matches(k, depositKeys.Down):
		d.cursor = min(d.cursor+1, max(len(d.chains)-1, 0))
		d.scroll()
	case key.Matches(k, depositKeys.Refresh):
		if !d.loading {
			return d.load()
		}
	case key.Matches(k, depositKeys.QR):
		d.showQR = !d.showQR
	case key.Matches(k, depositKeys.Generate):
		ch, ok := d.selected()
		switch {
		case !ok || d.generating != "":
		case ch.DepositAddress != "":
			return tui.ShowInfo(ch.Chain + " already has a deposit address")
		default:
			return d.generate(ch.Chain)
		}
	case key.Matches(k, depositKeys.Copy):
		ch, ok := d.selected()
		if !ok || ch.DepositAddress == "" {
			return tui.ShowInfo("No address to copy: press g to generate one first")
		}
		return tea.Batch(copyToClipboard(ch.DepositAddress, d.app.Getenv("TMUX") != ""),
			tui.ShowInfo("Copied "+ch.Chain+" address "+ch.DepositAddress))
	}
	return nil
}

// copyToClipboard sets the system clipboard with OSC 52. Inside tmux the
// sequence is also sent wrapped for passthrough, so it reaches the outer
// terminal whether tmux takes it (set-clipboard on) or passes it on
// (allow-passthrough on).
func copyToClipboard(text string, inTmux bool) tea.Cmd {
	if !inTmux {
		return tea.SetClipboard(text)
	}
	return tea.Batch(tea.SetClipboard(text), tea.Raw(osc52.New(text).Tmux().String()))
}

// depositError explains the two refusals particular to deposit endpoints.
func depositError(err error) error {
	switch {
	case err == nil:
		return nil
	case errors.Is(err, service.CodeNoChainAccount):
		return userError{"This account has no chain account address yet, so it has no deposit addresses: finish the chain account setup in the web UI, then press r"}
	case errors.Is(err, service.CodeBridgeDisabled):
		return userError{"Deposits through the bridge are turned off for this account: ask support to enable the bridge feature, then press r"}
	}
	return explain(err)
}

// listRows is how many chain rows fit: the list gets the height left after
// the detail panel.
func (d *Deposit) listRows() int {
	return max(d.h-d.detailHeight()-4, 3)
}

// scroll keeps the cursor inside the visible window of rows.
func (d *Deposit) scroll() {
	rows := d.listRows()
	if d.cursor < d.offset {
		d.offset = d.cursor
	}
	if d.cursor >= d.offset+rows {
		d.offset = d.cursor - rows + 1
	}
	d.offset = max(min(d.offset, len(d.chains)-rows), 0)
}

// tokenContract words an empty contract address: stablecoins always have a
// contract, so an empty one means the provider could not be asked.
func tokenContract(t service.TokenInfo) string {
	switch {
	case t.ContractAddress != "":
		return t.ContractAddress
	case t.Name == service.TokenUSDT || t.Name == service.TokenUSDC:
		return "unknown: provider unreachable"
	}
	return "native"
}

func (d *Deposit) View() string {
	st := d.app.Common.Styles
	var b strings.Builder
	b.WriteString(st.Heading.Render("Deposit addresses") + "\n")
	switch {
	case d.loading && len(d.chains) == 0:
		b.WriteString("\n" + d.spin.View() + " Loading deposit addresses…\n")
		return clip(b.String(), d.w)
	case d.err != nil:
		b.WriteString("\n" + st.ErrorToast.Render("Error: ") + d.err.Error() + "\n")
		return clip(b.String(), d.w)
	case len(d.chains) == 0:
		b.WriteString("\nNo chains are open for deposit on this account.\n")
		return clip(b.String(), d.w)
	}
	b.WriteString(st.Label.Render(fmt.Sprintf("  %-14s %-10s %s", "CHAIN", "CHAIN ID", "DEPOSIT ADDRESS")) + "\n")
	rows := d.listRows()
	end := min(d.offset+rows, len(d.chains))
	for i := d.offset; i < end; i++ {
		b.WriteString(d.row(i) + "\n")
	}
	if len(d.chains) > rows {
		b.WriteString(st.Muted.Render(fmt.Sprintf("  %d–%d of %d chains", d.offset+1, end, len(d.chains))) + "\n")
	}
	b.WriteString("\n" + d.detail())
	return clip(b.String(), d.w)
}

func (d *Deposit) row(i int) string {
	st := d.app.Common.Styles
	ch := d.chains[i]
	addr := ch.DepositAddress
	switch {
	case d.generating != "" && strings.EqualFold(d.generating, ch.Chain):
		addr = d.spin.View() + " generating…"
	case addr == "":
		addr = "not provisioned (on-demand: press g)"
	}
	line := fmt.Sprintf("%-14s %-10s %s", ansi.Truncate(ch.Chain, 14, "…"), ansi.Truncate(ch.ChainID, 10, "…"), addr)
	if i == d.cursor {
		return st.Cursor.Render("› ") + st.Selected.Render(line)
	}
	if ch.DepositAddress == "" {
		return "  " + st.Muted.Render(line)
	}
	return "  " + st.Value.Render(line)
}

// detailHeight is the height the detail panel of the selected chain takes.
func (d *Deposit) detailHeight() int {
	ch, ok := d.selected()
	if !ok {
		return 0
	}
	h := 3 + len(ch.SupportedTokens)
	if code, ok := d.qrFor(ch); ok && d.showQR {
		h += len(code.Lines) + 1
	}
	return h
}

func (d *Deposit) qrFor(ch service.ChainInfo) (QRCode, bool) {
	if ch.DepositAddress == "" {
		return QRCode{}, false
	}
	code, ok := d.qr[ch.DepositAddress]
	if !ok {
		var err error
		if code, err = renderQR(ch.DepositAddress); err != nil {
			return QRCode{}, false
		}
		d.qr[ch.DepositAddress] = code
	}
	return code, true
}

func (d *Deposit) detail() string {
	c := d.app.Common
	st := c.Styles
	ch, _ := d.selected()
	const lw = 10
	var b strings.Builder
	addr := st.Danger.Render(ch.DepositAddress)
	if ch.DepositAddress == "" {
		addr = st.Muted.Render("not provisioned: press g to generate")
	}
	b.WriteString(st.Heading.Render(ch.Chain) + st.Muted.Render("  chain id "+ch.ChainID) + "\n")
	b.WriteString(field(c, "Address", lw, addr) + "\n")
	b.WriteString(st.Label.Render("Tokens") + "\n")
	for _, t := range ch.SupportedTokens {
		b.WriteString("  " + pad(t.Name, 8) + st.Muted.Render(tokenContract(t)) + "\n")
	}
	if !d.showQR {
		return b.String()
	}
	code, ok := d.qrFor(ch)
	switch {
	case !ok:
		b.WriteString(st.Muted.Render("No QR code until the address is generated.") + "\n")
	case code.Width > d.w || len(code.Lines)+len(ch.SupportedTokens)+8 > d.h:
		b.WriteString(st.Warning.Render(fmt.Sprintf("Enlarge the terminal to show the QR code (it needs %dx%d).", code.Width, len(code.Lines))) + "\n")
	default:
		b.WriteString("\n" + strings.Join(code.Lines, "\n") + "\n")
	}
	return b.String()
}
