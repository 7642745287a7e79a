package withdraw

import (
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/svcwallet/svcwallet/internal/exchange"
	"github.com/svcwallet/svcwallet/internal/screens/kit/layout"
	"github.com/svcwallet/svcwallet/internal/signer"
	"github.com/svcwallet/svcwallet/internal/withdrawal"
)

// essentialNotes are the field meanings a user confirms by signing: the
// amount in tokens, when the signature expires, and why the bridge address
// is trusted. No level drops them.
var essentialNotes = map[string]bool{"numTokens": true, "expiration": true, "toAccount": true}

// typedDataView shows the EIP-712 message field by field, each with what it
// means, after a one-line summary with the quote's speed, then the digest,
// the destination the quote pays out to, what it receives and what the
// user loses. The levels make it shorter for small
// terminals: 1 drops blank lines and the closing sentence, 2 also the
// inessential notes that would take a line of their own, 3 (60 columns)
// also writes the domain and the destination without decoration so each
// fits one line, and 4 drops the line under the destination (the summary
// says what it receives) and puts the short fields two to a line. Every level to 4 keeps everything the
// user confirms; when even level 4 does not fit, nothing is signed
// (fitted). Level 5, for a review that cannot be signed anyway, drops the
// summary and what is received and lost, so why it cannot stays on screen.
func (r *reviewScreen) typedDataView(level int) string {
	compact := level > 0
	c := r.app.Common
	st := c.Styles
	const lw = 16
	var b strings.Builder
	line := func(label, value, note string, essential bool) {
		if level > 1 && !essential && ansi.StringWidth(layout.Field(c, label, lw, value)+"  "+note) > r.wd {
			note = ""
		}
		b.WriteString(layout.WrapField(c, label, lw, value, note, r.wd) + "\n")
	}
	speed := st.Muted.Render(withdrawal.SpeedWords(r.order.Quote.Speed))
	if r.order.Quote.Speed == exchange.SpeedSlow {
		speed = st.Warning.Render(withdrawal.SpeedWords(r.order.Quote.Speed))
	}
	if level <= 4 {
		line("Withdraw", st.Value.Render(r.order.Summary()), speed, true)
	}
	if !compact {
		b.WriteString("\n")
	}
	d := r.order.Domain
	domain := `name "` + d.Name + `" · version "` + signer.DomainVersion + `" · chainId ` + layout.Uitoa(d.ChainID)
	if level > 2 {
		domain = `"` + d.Name + `" · v"` + signer.DomainVersion + `" · chainId ` + layout.Uitoa(d.ChainID)
	}
	line("Domain", st.Value.Render(domain), "", true)
	line("Message", st.Value.Render(r.order.Transfer.PrimaryType()), "", true)
	notes := r.order.FieldMeanings(r.bridgeNote(), level > 2)
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
			line("  "+f.Name, values[f.Name]+"  "+layout.InksFor(c).Label.On(other)+" "+values[other], notes[other], essentialNotes[other])
			continue
		}
		line("  "+f.Name, values[f.Name], notes[f.Name], essentialNotes[f.Name])
	}
	line("Digest", st.Value.Render(signer.Digest(r.order.Domain, r.order.Transfer).Hex()), "", true)
	if !compact {
		b.WriteString("\n")
	}
	to := layout.GroupChars(r.order.Choice.ToAddress, 4)
	if level > 2 {
		to = r.order.Choice.ToAddress
	}
	line("Pays out to", st.Danger.Render(to), "", true)
	q, in := r.order.Quote, r.order.Choice.TokenIn
	quoteNote := "quote " + q.QuoteID
	if level > 3 {
		quoteNote = "" // not signed, and the quote screen showed it
	}
	if level <= 3 {
		line("", st.Value.Render(q.ReceiveAmount.String()+" "+r.order.Choice.TokenOut+" on "+r.order.Choice.Route.Chain), quoteNote, false)
	}
	if level <= 4 {
		line("You lose", st.Value.Render(q.Cost().String()+" "+in), "fee "+q.Fee.String()+" "+in+"; pay − receive", false)
	}
	if !compact {
		b.WriteString(st.Muted.Render(withdrawal.ReviewSentence) + "\n")
		if r.gate.Key.Waits() {
			// A person approves: the quote may expire meanwhile.
			b.WriteString(st.Muted.Render(ansi.Wrap(withdrawal.RequoteNote(r.order), max(r.wd, 20), "")) + "\n")
		}
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
	return exchange.UserError{Text: msg}
}
