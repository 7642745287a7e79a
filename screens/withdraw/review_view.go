package withdraw

import (
	"github.com/charmbracelet/x/ansi"

	"github.com/svcwallet/svcwallet/screens/kit"
	"github.com/svcwallet/svcwallet/screens/kit/layout"
	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/withdrawal"
)

// typedDataView shows the Transfer (kit.TypedDataView) between a summary
// and what the quote pays out, receives and loses. Every level to 4 keeps
// what the user confirms; 4 also drops what is received (the summary says
// it), and 5, for a review that cannot be signed anyway, the summary and
// what is lost, so why it cannot stays on screen.
func (r *reviewScreen) typedDataView(level int) string {
	c := r.app.Common
	st := c.Styles
	v := r.view(level)
	speed := st.Muted.Render(withdrawal.SpeedWords(r.order.Quote.Speed))
	if r.order.Quote.Speed == exchange.SpeedSlow {
		speed = st.Warning.Render(withdrawal.SpeedWords(r.order.Quote.Speed))
	}
	if level <= 4 {
		v.Before = []kit.ReviewRow{{Label: "Withdraw", Value: st.Value.Render(r.order.Summary()), Note: speed, Keep: true}, kit.ReviewGap}
	}
	to := layout.GroupChars(r.order.Choice.ToAddress, 4)
	if level > 2 {
		to = r.order.Choice.ToAddress
	}
	v.After = []kit.ReviewRow{kit.ReviewGap, {Label: "Pays out to", Value: st.Danger.Render(to), Keep: true}}
	q, in := r.order.Quote, r.order.Choice.TokenIn
	if level <= 3 {
		received := q.ReceiveAmount.String() + " " + r.order.Choice.TokenOut + " on " + r.order.Choice.Route.Chain
		v.After = append(v.After, kit.ReviewRow{Value: st.Value.Render(received), Note: "quote " + q.QuoteID})
	}
	if level <= 4 {
		lost := st.Value.Render(q.Cost().String() + " " + in)
		if l := withdrawal.QuoteLoss(q); l.High() {
			lost = st.Warning.Render(q.Cost().String() + " " + in + " (" + l.Percent().String() + "%)")
		}
		v.After = append(v.After, kit.ReviewRow{Label: "You lose", Value: lost, Note: "fee " + q.Fee.String() + " " + in + "; pay − receive"})
	}
	out := v.Render(c, r.wd, level)
	if level == 0 {
		out += st.Muted.Render(withdrawal.ReviewSentence) + "\n"
		if r.gate.Key.Waits() {
			// A person approves: the quote may expire meanwhile.
			out += st.Muted.Render(ansi.Wrap(withdrawal.RequoteNote(r.order), max(r.wd, 20), "")) + "\n"
		}
	}
	return out
}

// view is the Transfer as the review shows it at level: the amount and the
// bridge address drawn apart, and their meanings and the expiry's kept.
func (r *reviewScreen) view(level int) kit.TypedDataView {
	return kit.TypedDataView{
		Review: r.order.Review(r.bridgeNote(), level > 2),
		Danger: map[string]bool{"numTokens": true, "toAccount": true},
		Keep:   map[string]bool{"numTokens": true, "expiration": true, "toAccount": true},
		Pairs:  map[string]string{"fromSubAccount": "toSubAccount", "tokenCurrency": "numTokens"},
		Where:  kit.WhereRows(r.app),
	}
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
