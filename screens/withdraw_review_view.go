package screens

import (
	"strings"
	"time"

	"github.com/charmbracelet/x/ansi"

	"svcwallet/service"
	"svcwallet/signer"
	"svcwallet/tui"
)

// typedDataView shows the EIP-712 message field by field, each with what it
// means, then the digest and the destination the quote pays out to. The
// levels make it shorter for small terminals, so every signed value and the
// prompt stay on screen: 1 drops blank lines and the closing sentence, 2 also
// the notes that would take a line of their own.
func (r *Review) typedDataView(level int) string {
	compact := level > 0
	c := r.app.Common
	st := c.Styles
	const lw = 16
	var b strings.Builder
	line := func(label, value, note string) {
		if level > 1 && ansi.StringWidth(field(c, label, lw, value)+"  "+note) > r.wd {
			note = ""
		}
		b.WriteString(wrapField(c, label, lw, value, note, r.wd) + "\n")
	}
	d := r.domain
	line("Domain", st.Value.Render(`name "`+d.Name+`" · version "`+signer.DomainVersion+`" · chainId `+uitoa(d.ChainID)), "")
	line("Message", st.Value.Render(r.transfer.PrimaryType()), "")
	notes := map[string]string{
		"fromAccount":    "your funding account",
		"toAccount":      "bridge funding address (" + r.w.Info.Provider + ")",
		"tokenCurrency":  r.w.TokenIn,
		"numTokens":      "= " + service.FromRawUnits(r.transfer.NumTokens).String() + " " + r.w.TokenIn + " (the quote's pay amount)",
		"fromSubAccount": "main account",
		"toSubAccount":   "main account",
		"expiration":     time.Unix(0, r.transfer.Expiration).UTC().Format("2006-01-02 15:04:05 UTC"),
	}
	for _, f := range r.transfer.Fields() {
		v := st.Value.Render(f.Display())
		if f.Name == "numTokens" || f.Name == "toAccount" {
			v = st.Danger.Render(f.Display())
		}
		line("  "+f.Name, v, notes[f.Name])
	}
	line("Digest", st.Value.Render(signer.Digest(r.domain, r.transfer).Hex()), "")
	if !compact {
		b.WriteString("\n")
	}
	line("Pays out to", st.Danger.Render(groupChars(r.w.ToAddress, 4)), "")
	line("", st.Value.Render(r.quote.ReceiveAmount.String()+" "+r.w.TokenOut+" on "+r.w.Route.Chain), "quote "+r.quote.QuoteID)
	if !compact {
		b.WriteString(st.Muted.Render("The signature pays the bridge; the quote sends it on to this destination.") + "\n")
	}
	return b.String()
}

// wrapField renders "label value note" on one line when it fits in width,
// otherwise puts the value (and then the note) on lines of their own, so long
// hashes and addresses are never cut.
func wrapField(c *tui.Common, label string, lw int, value, note string, width int) string {
	st := c.Styles
	if note != "" {
		note = st.Muted.Render("  " + note)
	}
	one := field(c, label, lw, value) + note
	if width <= 0 || ansi.StringWidth(one) <= width {
		return one
	}
	two := field(c, label, lw, value)
	if ansi.StringWidth(two) <= width {
		if note == "" {
			return two
		}
		return two + "\n" + pad("", lw+1) + note
	}
	out := st.Label.Render(label) + "\n  " + value
	if note != "" {
		out += "\n" + note
	}
	return out
}
