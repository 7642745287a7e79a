package withdraw

import (
	"cmp"
	"errors"
	"slices"
	"strings"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/svcwallet/svcwallet/screens/kit"
	"github.com/svcwallet/svcwallet/screens/kit/layout"
	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/follow"
	"github.com/svcwallet/svcwallet/service/target"
	"github.com/svcwallet/svcwallet/service/withdrawal"
	"github.com/svcwallet/svcwallet/tui"
)

// recentDestinationsMsg carries the account's past destinations on this
// chain (withdrawal.Destinations), and their addresses.
type recentDestinationsMsg struct {
	dests []withdrawal.Destination
	addrs []string
}

var destKeys = struct {
	Recent, Book, Submit, Confirm, UseRecent, Edit key.Binding
}{
	Recent:    key.NewBinding(key.WithKeys("ctrl+r"), tui.WithHelp("ctrl+r", "recent destination", "recent")),
	Book:      key.NewBinding(key.WithKeys("ctrl+r"), tui.WithHelp("ctrl+r", "fill in from the address book", "fill in")),
	Submit:    key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "get quote")),
	Confirm:   key.NewBinding(key.WithKeys("y"), tui.WithHelp("y", "right as typed", "typed one")),
	UseRecent: key.NewBinding(key.WithKeys("u"), tui.WithHelp("u", "use the recent one", "recent")),
	Edit:      key.NewBinding(key.WithKeys("n", "e"), key.WithHelp("n", "edit")),
}

// destinationScreen is the second withdrawal step: destination address (checked as
// it is typed against the route's chain type), amount and an optional fee cap.
type destinationScreen struct {
	app     *kit.App
	w       withdrawal.Choice
	form    *kit.Form
	address *kit.FormField
	amount  *kit.FormField
	feeCap  *kit.FormField
	fieldOf map[withdrawal.Field]*kit.FormField
	recent  []string // addresses of dests: what a typed one is compared with
	dests   []withdrawal.Destination
	book    []target.Payee // the embedded sandbox's address book, on this chain
	loaded  bool           // recent destinations read: the look-alike check needs them
	queued  bool           // enter was pressed before they were read
	pick    int            // next recent destination ctrl+r offers
	alike   string         // a recent address the typed one resembles, under comparison
	ok      string         // an address the user confirmed despite the resemblance
	quote   *quoteScreen   // the quote step last pushed, read back on Resume
	wd, h   int
}

// newDestination builds the destination step for a chosen route.
func newDestination(app *kit.App, w withdrawal.Choice) *destinationScreen {
	c := app.Common
	d := &destinationScreen{app: app, w: w}
	d.address = kit.TextField("Destination", kit.NewInput(c, exchange.ChainTypeLabel(w.Route.ChainType)+" address", false))
	d.address.Note, d.address.Paste = d.addressNote, w.TrimDestination
	d.address.Input.Want("the destination address")
	d.amount = kit.TextField("Amount "+w.TokenIn, kit.NewInput(c, "e.g. 25 or 25.5", false))
	d.amount.Note = d.amountNote
	d.amount.Input.Want("the amount")
	d.feeCap = kit.TextField("Fee cap "+w.TokenIn, kit.NewInput(c, "optional: refuse a higher fee or loss", false))
	d.feeCap.Note = d.feeCapNote
	d.feeCap.Input.Want("a fee cap, or nothing")
	d.fieldOf = map[withdrawal.Field]*kit.FormField{
		withdrawal.FieldDestination: d.address, withdrawal.FieldAmount: d.amount, withdrawal.FieldFeeCap: d.feeCap,
	}
	d.form = kit.NewForm(c, destLabelWidth, d.address, d.amount, d.feeCap)
	if demo := app.Target.Demo; demo != nil {
		for _, p := range demo.AddressBook {
			if p.ChainType == w.Route.ChainType {
				d.book = append(d.book, p)
			}
		}
	}
	return d
}

// Init reads the account's latest withdrawals (withdrawal.RecentWithdrawals
// of them, from the journal's end: a read that does not grow with it).
func (d *destinationScreen) Init() tea.Cmd {
	read, chain := d.app.RecentRecords(withdrawal.RecentWithdrawals), d.w.Route.Chain
	load := func() tea.Msg {
		recs, err := read()
		if err != nil {
			return recentDestinationsMsg{}
		}
		return recentDestinationsMsg{dests: withdrawal.Destinations(recs, chain), addrs: withdrawal.RecentDestinations(recs, chain)}
	}
	return tea.Batch(load, d.form.Focus(d.address))
}

// picks are what ctrl+r cycles through: the recent destinations, then the
// sandbox's address book.
func (d *destinationScreen) picks() []string {
	picks := append([]string{}, d.recent...)
	for _, p := range d.book {
		if !slices.Contains(picks, p.Address) {
			picks = append(picks, p.Address)
		}
	}
	return picks
}

// lastNotPaid is the recent destination addr, when its last withdrawal
// ended FAILED or REFUNDED.
func (d *destinationScreen) lastNotPaid(addr string) (withdrawal.Destination, bool) {
	for _, r := range d.dests {
		if r.Address == addr {
			return r, r.NotPaid()
		}
	}
	return withdrawal.Destination{}, false
}

func (d *destinationScreen) Title() string { return "Withdraw: destination" }

// SetSize: the inputs take the rest of the line after their labels; at 60
// columns that is 42 cells, so a whole EVM address shows with its 0x.
func (d *destinationScreen) SetSize(w, h int) {
	d.wd, d.h = w, h
	d.form.SetWidth(w)
}

// destLabelWidth is the width of the labels in front of the inputs.
const destLabelWidth = 14

func (d *destinationScreen) KeyMap() help.KeyMap { return d.bindings().KeyMap() }

// bindings: at the look-alike stop, the three answers; in the form, enter,
// the form's keys and ctrl+r while there are recent destinations to cycle
// through. Other keys are text.
func (d *destinationScreen) bindings() kit.Bindings {
	if d.alike != "" {
		return kit.Bindings{
			{Key: destKeys.Confirm, On: true, Do: func() tea.Cmd {
				d.ok, d.alike = d.address.Input.Value(), ""
				return d.submit()
			}},
			{Key: destKeys.UseRecent, On: true, Do: func() tea.Cmd {
				d.address.Input.Prefill(d.alike)
				d.alike = ""
				return nil
			}},
			{Key: destKeys.Edit, On: true, Do: func() tea.Cmd {
				d.alike = ""
				return d.form.Focus(d.address)
			}},
		}
	}
	bs := kit.Bindings{{Key: destKeys.Submit, On: true, Do: d.submit}}
	picks := d.picks()
	// Named for what it offers first: the sandbox's address book when
	// there is no recent destination yet.
	pick := destKeys.Recent
	if len(d.recent) == 0 {
		pick = destKeys.Book
	}
	return append(append(bs, d.form.Bindings()...), kit.Binding{Key: pick, On: len(picks) > 0, Do: func() tea.Cmd {
		d.address.Input.Prefill(picks[d.pick%len(picks)])
		d.form.Changed(d.address)
		d.pick++
		return nil
	}})
}

// Inputting: the fields take q and ? as text, except while comparing.
func (d *destinationScreen) Inputting() bool { return d.alike == "" && d.form.Inputting() }

func (d *destinationScreen) Update(msg tea.Msg) (tui.Screen, tea.Cmd) {
	switch msg := msg.(type) {
	case recentDestinationsMsg:
		d.recent, d.dests, d.loaded = msg.addrs, msg.dests, true
		if d.queued {
			d.queued = false
			return d, d.submit()
		}
		return d, nil
	case tea.KeyPressMsg:
		guard := d.form.Guard(msg) // the field's rule before the screen's keys
		cmd, ok := d.bindings().Handle(msg)
		if ok || d.alike != "" {
			return d, tea.Batch(guard, cmd) // while comparing, no key is text
		}
		return d, tea.Batch(guard, d.form.Update(msg))
	}
	return d, d.form.Update(msg)
}

// submit checks the form in the domain (withdrawal.Choice.CheckDestination):
// the first field it refuses gets the focus with the reason under it.
func (d *destinationScreen) submit() tea.Cmd {
	w, err := d.w.CheckDestination(d.address.Input.Value(), d.amount.Input.Value(), d.feeCap.Input.Value())
	if err != nil {
		fd, fe := d.address, (*withdrawal.FieldError)(nil)
		if errors.As(err, &fe) {
			fd, err = d.fieldOf[fe.Field], fe.Err
		}
		return d.form.Fail(fd, err)
	}
	if !d.loaded {
		d.queued = true
		return nil
	}
	if w.ToAddress != d.ok {
		if r := withdrawal.LookAlike(w.ToAddress, d.recent); r != "" {
			d.alike = r // the form keeps its focus, for after the comparison
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
	return d.form.Fail(d.amount, q.err)
}

func (d *destinationScreen) View() string {
	c := d.app.Common
	st := c.Styles
	const lw = destLabelWidth
	var b strings.Builder
	b.WriteString(layout.Field(c, "Route", lw, st.Value.Render(d.w.TokenIn+" → "+d.w.TokenOut+" on "+d.w.Route.Chain+" ("+d.w.Route.ChainType+")")) + "\n\n")
	if d.alike != "" {
		b.WriteString(d.compareView())
		return layout.Clip(b.String(), d.wd)
	}
	b.WriteString(d.form.View())
	if len(d.dests) > 0 {
		b.WriteString("\n" + st.Label.Render("Recent destinations on "+d.w.Route.Chain+" (ctrl+r)") + "\n")
		for _, r := range shownDestinations(d.dests) {
			line := d.address.Mark(c, r.Address) + st.Muted.Render(r.Address)
			if r.NotPaid() {
				line += "  " + st.Warning.Render("last "+r.LastState)
			}
			b.WriteString(line + "\n")
		}
	}
	b.WriteString("\n" + st.Muted.Render(layout.WrapTo("The destination must already be in the account's withdrawal address book.", d.wd)) + "\n")
	if len(d.book) > 0 {
		keys := " (ctrl+r)"
		if len(d.dests) > 0 {
			keys = ""
		}
		b.WriteString("\n" + st.Label.Render("The sandbox's address book"+keys) + "\n")
		for _, p := range d.book {
			line := p.Address + "  " + p.Fate
			if layout.Width(line)+2 > d.wd {
				line = p.Address + "  " + p.Short // short words, not cut ones
			}
			b.WriteString(d.address.Mark(c, p.Address) + st.Muted.Render(line) + "\n")
		}
	}
	return layout.Clip(b.String(), d.wd)
}

// shownRecent is how many recent destinations the form lists.
const shownRecent = 3

// shownDestinations are the recent destinations the form lists: those whose
// last withdrawal did not pay out first (they need a look before another,
// and must be seen at any size), then the newest others, shownRecent in
// all, or more when more need a look.
func shownDestinations(dests []withdrawal.Destination) []withdrawal.Destination {
	out := slices.Clone(dests)
	paid := func(d withdrawal.Destination) int {
		if d.NotPaid() {
			return 0
		}
		return 1
	}
	slices.SortStableFunc(out, func(a, b withdrawal.Destination) int { return cmp.Compare(paid(a), paid(b)) })
	n := 0
	for n < len(out) && (n < shownRecent || out[n].NotPaid()) {
		n++
	}
	return out[:n]
}

// addressNote checks the address as it is typed (withdrawal.Choice.CheckAddress).
func (d *destinationScreen) addressNote() kit.Note {
	label := exchange.ChainTypeLabel(d.w.Route.ChainType)
	if strings.TrimSpace(d.address.Input.Value()) == "" {
		return kit.HintNote(exchange.AddressShape(d.w.Route.ChainType))
	}
	addr, err := d.w.CheckAddress(d.address.Input.Value())
	if err != nil {
		return kit.BadNote(err)
	}
	if r, notPaid := d.lastNotPaid(addr); notPaid {
		ended := "ended " + r.LastState
		if r.LastState == follow.LabelRefused {
			ended = "was REFUSED (History says why)"
		}
		return kit.Note{Text: "valid " + label + " address; its last withdrawal " + ended, Kind: kit.NoteWarn}
	}
	return kit.Note{Text: "valid " + label + " address", Kind: kit.NoteOK}
}

// amountNote checks the amount as it is typed.
func (d *destinationScreen) amountNote() kit.Note {
	if strings.TrimSpace(d.amount.Input.Value()) == "" {
		return kit.Note{}
	}
	if _, err := withdrawal.ParseAmount(d.amount.Input.Value()); err != nil {
		return kit.BadNote(err)
	}
	return kit.Note{}
}

// feeCapNote checks the fee cap as it is typed and, against a valid amount,
// says what share of it the cap lets a quote take: a warning over 5%.
func (d *destinationScreen) feeCapNote() kit.Note {
	fc, err := withdrawal.ParseFeeCap(d.feeCap.Input.Value())
	if err != nil {
		return kit.BadNote(err)
	}
	amount, aerr := withdrawal.ParseAmount(d.amount.Input.Value())
	if !fc.Valid || aerr != nil {
		return kit.Note{}
	}
	share, high := withdrawal.FeeCapShare(amount, fc.Decimal)
	pct := share.Shift(2).Round(2).String() + "% of the amount"
	if high {
		return kit.Note{Text: pct + ": a quote may take that much in fees", Kind: kit.NoteWarn}
	}
	return kit.HintNote(pct)
}

// compareView shows both addresses in full with the differing characters
// marked, and ^ under them (reverse video does not show under TERM=dumb).
func (d *destinationScreen) compareView() string {
	st := d.app.Common.Styles
	typed := d.address.Input.Value()
	var b strings.Builder
	b.WriteString(st.Warning.Render(layout.WrapTo(withdrawal.LookAlikeStop, d.wd)) + "\n")
	b.WriteString(st.Muted.Render(layout.WrapTo(withdrawal.LookAlikeWhy, d.wd)) + "\n\n")
	a, r := layout.MarkDiff(st.Mark, typed, d.alike)
	b.WriteString(st.Label.Render("  Typed   ") + a + "\n")
	b.WriteString(st.Label.Render("  Recent  ") + r + "\n")
	b.WriteString("          " + st.Warning.Render(layout.DiffCarets(typed, d.alike)) + "\n\n")
	b.WriteString(layout.WrapTo("Press y if the typed address is right, u to use the recent one, n to edit.", d.wd) + "\n")
	return b.String()
}
