package withdraw

import (
	"strings"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"svcwallet/screens/kit"
	"svcwallet/service"
	"svcwallet/service/withdrawal"
	"svcwallet/tui"
)

// recentDestinationsMsg carries the journal's past destinations on this chain.
type recentDestinationsMsg struct{ addrs []string }

var destKeys = struct {
	Next, Prev, Recent, Submit, Confirm, UseRecent, Edit key.Binding
}{
	Next:      key.NewBinding(key.WithKeys("tab", "down"), key.WithHelp("tab", "next field")),
	Prev:      key.NewBinding(key.WithKeys("shift+tab", "up"), key.WithHelp("shift+tab", "previous")),
	Recent:    key.NewBinding(key.WithKeys("ctrl+r"), key.WithHelp("ctrl+r", "recent destination")),
	Submit:    key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "get quote")),
	Confirm:   key.NewBinding(key.WithKeys("y"), key.WithHelp("y", "typed one is right")),
	UseRecent: key.NewBinding(key.WithKeys("u"), key.WithHelp("u", "use recent")),
	Edit:      key.NewBinding(key.WithKeys("n", "e"), key.WithHelp("n", "edit")),
}

// Destination field ids, in focus order.
const (
	destAddress = iota
	destAmount
	destFeeCap
	destFields
)

// destinationScreen is the second withdrawal step: destination address (checked as
// it is typed against the route's chain type), amount and an optional fee cap.
type destinationScreen struct {
	app     *kit.App
	w       withdrawal.Choice
	inputs  [destFields]kit.Input
	focus   int
	recent  []string
	loaded  bool         // recent destinations read: the look-alike check needs them
	queued  bool         // enter was pressed before they were read
	pick    int          // next recent destination ctrl+r offers
	alike   string       // a recent address the typed one resembles, under comparison
	ok      string       // an address the user confirmed despite the resemblance
	quote   *quoteScreen // the quote step last pushed, read back on Resume
	refused error        // why the service refused the amount, shown under it
	err     error
	wd, h   int
}

// newDestination builds the destination step for a chosen route.
func newDestination(app *kit.App, w withdrawal.Choice) *destinationScreen {
	c := app.Common
	d := &destinationScreen{app: app, w: w}
	d.inputs[destAddress] = kit.NewInput(c, service.ChainTypeLabel(w.Route.ChainType)+" address", false)
	d.inputs[destAmount] = kit.NewInput(c, "e.g. 25 or 25.5", false)
	d.inputs[destFeeCap] = kit.NewInput(c, "optional: refuse quotes with a higher fee", false)
	return d
}

func (d *destinationScreen) Init() tea.Cmd {
	journal, chain := d.app.Journal(), d.w.Route.Chain
	load := func() tea.Msg {
		if journal == nil {
			return recentDestinationsMsg{}
		}
		recs, err := journal.Records()
		if err != nil {
			return recentDestinationsMsg{}
		}
		seen := map[string]bool{}
		var addrs []string
		for _, r := range recs {
			if r.Intent.Chain == chain && r.Intent.ToAddress != "" && !seen[r.Intent.ToAddress] {
				seen[r.Intent.ToAddress] = true
				addrs = append(addrs, r.Intent.ToAddress)
			}
		}
		return recentDestinationsMsg{addrs: addrs}
	}
	return tea.Batch(load, d.inputs[d.focus].Focus())
}

func (d *destinationScreen) Title() string { return "Withdraw: destination" }

func (d *destinationScreen) SetSize(w, h int) {
	d.wd, d.h = w, h
	for i := range d.inputs {
		d.inputs[i].SetWidth(destInputWidth(w))
	}
}

// destLabelWidth is the width of the labels in front of the inputs.
const destLabelWidth = 14

// destInputWidth is the text width of an input on a w-column screen: what is
// left after the focus marker (2), the label and a space, less the cell the
// input's cursor takes after the text. At 60 columns that is 42, so a whole
// EVM address shows with its 0x.
func destInputWidth(w int) int { return max(w-(2+destLabelWidth+1)-1, 10) }

func (d *destinationScreen) KeyMap() help.KeyMap { return d.bindings().KeyMap() }

// bindings: at the look-alike stop, the three answers; in the form, enter,
// focus moves (shift+tab is not in the footer, tab is) and ctrl+r while
// there are recent destinations to cycle through. Other keys are text.
func (d *destinationScreen) bindings() kit.Bindings {
	if d.alike != "" {
		return kit.Bindings{
			{Key: destKeys.Confirm, On: true, Do: func() tea.Cmd {
				// The field under the marker takes keys again when the user
				// comes back from the quote.
				d.ok, d.alike = d.inputs[destAddress].Value(), ""
				return tea.Batch(d.inputs[d.focus].Focus(), d.submit())
			}},
			{Key: destKeys.UseRecent, On: true, Do: func() tea.Cmd {
				d.inputs[destAddress].SetValue(d.alike)
				d.alike = ""
				return d.inputs[d.focus].Focus()
			}},
			{Key: destKeys.Edit, On: true, Do: func() tea.Cmd {
				d.alike = ""
				return d.setFocus(destAddress)
			}},
		}
	}
	prev := destKeys.Prev
	prev.SetHelp("", "")
	return kit.Bindings{
		{Key: destKeys.Submit, On: true, Do: d.submit},
		{Key: destKeys.Next, On: true, Do: func() tea.Cmd { return d.setFocus((d.focus + 1) % destFields) }},
		{Key: prev, On: true, Do: func() tea.Cmd { return d.setFocus((d.focus + destFields - 1) % destFields) }},
		{Key: destKeys.Recent, On: len(d.recent) > 0, Do: func() tea.Cmd {
			d.inputs[destAddress].SetValue(d.recent[d.pick%len(d.recent)])
			d.pick++
			return nil
		}},
	}
}

// Inputting: the fields take q and ? as text, except while comparing.
func (d *destinationScreen) Inputting() bool { return d.alike == "" }

func (d *destinationScreen) Update(msg tea.Msg) (tui.Screen, tea.Cmd) {
	switch msg := msg.(type) {
	case recentDestinationsMsg:
		d.recent, d.loaded = msg.addrs, true
		if d.queued {
			d.queued = false
			return d, d.submit()
		}
		return d, nil
	case tea.KeyPressMsg:
		cmd, ok := d.bindings().Handle(msg)
		if ok || d.alike != "" {
			return d, cmd // while comparing, no key is text
		}
	}
	var cmd tea.Cmd
	d.inputs[d.focus], cmd = d.inputs[d.focus].Update(msg)
	d.err = nil
	if d.focus == destAmount {
		d.refused = nil // it was about the amount being changed
	}
	return d, cmd
}

func (d *destinationScreen) setFocus(i int) tea.Cmd {
	d.inputs[d.focus].Blur()
	d.focus = i
	return d.inputs[i].Focus()
}

// check validates the form; the returned error is written for the user.
func (d *destinationScreen) check() (withdrawal.Choice, error) {
	return d.w.CheckDestination(d.inputs[destAddress].Value(), d.inputs[destAmount].Value(), d.inputs[destFeeCap].Value())
}

func (d *destinationScreen) submit() tea.Cmd {
	w, err := d.check()
	if err != nil {
		d.err = err
		return nil
	}
	if !d.loaded {
		d.queued = true
		return nil
	}
	if w.ToAddress != d.ok {
		if r := lookAlike(w.ToAddress, d.recent); r != "" {
			d.alike = r
			d.inputs[d.focus].Blur()
			return nil
		}
	}
	d.quote = newQuote(d.app, w)
	return tui.Push(d.quote)
}

// Resume: back from a quote the service refused for its amount (too small,
// too high, a limit), the amount has the focus and the reason is shown.
func (d *destinationScreen) Resume() tea.Cmd {
	q := d.quote
	d.quote = nil
	if q == nil || !q.amountErr || q.err == nil {
		return nil
	}
	d.refused = q.err
	return d.setFocus(destAmount)
}

// lookAlike returns a recent address that shares the typed one's first and
// last characters but differs in the middle: the shape of an address-poisoning
// attack, where a look-alike is planted in the user's history.
func lookAlike(addr string, recent []string) string {
	const head, tail = 6, 4
	for _, r := range recent {
		if len(r) != len(addr) || len(r) < head+tail || strings.EqualFold(r, addr) {
			continue
		}
		if strings.EqualFold(r[:head], addr[:head]) && strings.EqualFold(r[len(r)-tail:], addr[len(addr)-tail:]) {
			return r
		}
	}
	return ""
}

func (d *destinationScreen) View() string {
	c := d.app.Common
	st := c.Styles
	const lw = destLabelWidth
	var b strings.Builder
	b.WriteString(kit.Field(c, "Route", lw, st.Value.Render(d.w.TokenIn+" → "+d.w.TokenOut+" on "+d.w.Route.Chain+" ("+d.w.Route.ChainType+")")) + "\n\n")
	if d.alike != "" {
		b.WriteString(d.compareView())
		return kit.Clip(b.String(), d.wd)
	}
	labels := [destFields]string{"Destination", "Amount " + d.w.TokenIn, "Fee cap " + d.w.TokenIn}
	for i, label := range labels {
		marker := "  "
		if i == d.focus {
			marker = st.Cursor.Render("› ")
		}
		b.WriteString(marker + kit.Field(c, label, lw, d.inputs[i].View()) + "\n")
		if i == destAddress {
			b.WriteString("  " + kit.Field(c, "", lw, d.addressHint()) + "\n")
		}
		if i == destAmount && d.refused != nil {
			b.WriteString(kit.Indent(strings.Split(strings.TrimSuffix(kit.ErrorBlock(c, "Refused", d.refused, max(d.wd-lw-3, 20)), "\n"), "\n"), lw+3))
		}
	}
	if len(d.recent) > 0 {
		b.WriteString("\n" + st.Label.Render("Recent destinations on "+d.w.Route.Chain+" (ctrl+r)") + "\n")
		for i, r := range d.recent {
			if i == 3 {
				break
			}
			b.WriteString("  " + st.Muted.Render(r) + "\n")
		}
	}
	if d.err != nil {
		b.WriteString("\n" + kit.ErrorBlock(c, "Error", d.err, d.wd))
	}
	b.WriteString("\n" + st.Muted.Render(kit.WrapTo("The destination must already be in the account's withdrawal address book.", d.wd)) + "\n")
	return kit.Clip(b.String(), d.wd)
}

// addressHint checks the address as it is typed.
func (d *destinationScreen) addressHint() string {
	st := d.app.Common.Styles
	v := strings.TrimSpace(d.inputs[destAddress].Value())
	if v == "" {
		return st.Muted.Render(kit.WithArticle(service.ChainTypeLabel(d.w.Route.ChainType)) + " address")
	}
	if err := service.ValidateAddress(d.w.Route.ChainType, v); err != nil {
		return st.Warning.Render("✗ " + err.Error())
	}
	return st.InfoToast.Render("✓ valid " + service.ChainTypeLabel(d.w.Route.ChainType) + " address")
}

// compareView shows both addresses in full with the differing characters marked.
func (d *destinationScreen) compareView() string {
	st := d.app.Common.Styles
	typed := d.inputs[destAddress].Value()
	var b strings.Builder
	b.WriteString(st.Warning.Render(kit.WrapTo("Stop: this address looks like one you used before, but it is different.", d.wd)) + "\n")
	b.WriteString(st.Muted.Render(kit.WrapTo("Look-alike addresses are planted in wallet histories: compare every character.", d.wd)) + "\n\n")
	a, r := kit.MarkDiff(st.Mark, typed, d.alike)
	b.WriteString(st.Label.Render("  Typed   ") + a + "\n")
	b.WriteString(st.Label.Render("  Recent  ") + r + "\n\n")
	b.WriteString(kit.WrapTo("Press y if the typed address is right, u to use the recent one, n to edit.", d.wd) + "\n")
	return b.String()
}
