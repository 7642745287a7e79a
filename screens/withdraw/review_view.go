package withdraw

import (
	"strings"

	"github.com/charmbracelet/x/ansi"

	"svcwallet/screens/kit"
	"svcwallet/service"
	"svcwallet/service/withdrawal"
	"svcwallet/signer"
)

// typedDataView shows the EIP-712 message field by field, each with what it
// means, then the digest and the destination the quote pays out to. The
// levels make it shorter for small terminals, so every signed value and the
// prompt stay on screen: 1 drops blank lines and the closing sentence, 2 also
// the notes that would take a line of their own, 3 (60 columns) also writes
// the domain and the destination without decoration so each fits one line,
// and 4 drops the quote line under the destination (nothing in it is signed,
// and the quote screen showed it) and puts the short fields two to a line.
func (r *reviewScreen) typedDataView(level int) string {
	compact := level > 0
	c := r.app.Common
	st := c.Styles
	const lw = 16
	var b strings.Builder
	line := func(label, value, note string) {
		if level > 1 && ansi.StringWidth(kit.Field(c, label, lw, value)+"  "+note) > r.wd {
			note = ""
		}
		b.WriteString(kit.WrapField(c, label, lw, value, note, r.wd) + "\n")
	}
	d := r.order.Domain
	domain := `name "` + d.Name + `" · version "` + signer.DomainVersion + `" · chainId ` + kit.Uitoa(d.ChainID)
	if level > 2 {
		domain = `"` + d.Name + `" · v"` + signer.DomainVersion + `" · chainId ` + kit.Uitoa(d.ChainID)
	}
	line("Domain", st.Value.Render(domain), "")
	line("Message", st.Value.Render(r.order.Transfer.PrimaryType()), "")
	notes := r.order.FieldMeanings(r.bridgeNote())
	values := map[string]string{}
	for _, f := range r.order.Transfer.Fields() {
		v := st.Value.Render(f.Display())
		if f.Name == "numTokens" || f.Name == "toAccount" {
			v = st.Danger.Render(f.Display())
		}
		values[f.Name] = v
	}
	// At level 4 the short fields share a line with their partner.
	pairs := map[string]string{"fromSubAccount": "toSubAccount", "tokenCurrency": "numTokens"}
	paired := map[string]bool{}
	for _, f := range r.order.Transfer.Fields() {
		if paired[f.Name] {
			continue
		}
		if other, ok := pairs[f.Name]; ok && level > 3 {
			paired[other] = true
			line("  "+f.Name, values[f.Name]+"  "+kit.InksFor(c).Label.On(other)+" "+values[other], "")
			continue
		}
		line("  "+f.Name, values[f.Name], notes[f.Name])
	}
	line("Digest", st.Value.Render(signer.Digest(r.order.Domain, r.order.Transfer).Hex()), "")
	if !compact {
		b.WriteString("\n")
	}
	to := kit.GroupChars(r.order.Choice.ToAddress, 4)
	if level > 2 {
		to = r.order.Choice.ToAddress
	}
	line("Pays out to", st.Danger.Render(to), "")
	if level < 4 {
		q, in := r.order.Quote, r.order.Choice.TokenIn
		line("", st.Value.Render(q.ReceiveAmount.String()+" "+r.order.Choice.TokenOut+" on "+r.order.Choice.Route.Chain), "quote "+q.QuoteID)
		line("You lose", st.Value.Render(q.Cost().String()+" "+in), "fee "+q.Fee.String()+" "+in+"; pay − receive")
	}
	if !compact {
		b.WriteString(st.Muted.Render(withdrawal.ReviewSentence) + "\n")
	}
	return b.String()
}

// bridgeNote says why toAccount is trusted: pinned by the config, recorded at
// first use, or seen since a date.
func (r *reviewScreen) bridgeNote() string {
	switch {
	case r.bridgeErr != nil:
		return "NOT the expected one"
	case r.bridge == nil:
		return "checking…"
	}
	return r.bridge.Note()
}

// bridgeStop explains why the withdrawal stopped before signing, naming both
// addresses, and what the user can do.
func (r *reviewScreen) bridgeStop() error {
	msg := r.bridgeErr.Error()
	if r.canConfirmBridge() && !r.gate.Key.Typing() {
		msg += ". Press c to review the change on its own screen, or " + r.requoteKey().Help().Key + " for a new quote"
	}
	return service.UserError{Text: msg}
}
