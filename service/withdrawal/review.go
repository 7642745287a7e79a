package withdrawal

import (
	"fmt"
	"strings"
	"time"

	"github.com/shopspring/decimal"

	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/intent"
	"github.com/svcwallet/svcwallet/service/journal"
)

// Review is what a review shows of o's Transfer: each field beside what it
// means, the bridge address's note saying why it is trusted
// (BridgeTrust.Note). Short meanings, for small screens, keep what the user
// confirms (the amount, the expiry, the bridge's trust) in fewer characters.
// No meaning holds parentheses: plain mode says each in its own.
func (o Order) Review(bridgeNote string, short bool) intent.Review {
	in := o.Choice.TokenIn
	amount := "= " + exchange.FromRawUnits(o.Transfer.NumTokens).String() + " " + in
	expires := time.Unix(0, o.Transfer.Expiration).UTC()
	r := intent.Review{Intent: intent.Intent{Domain: o.Domain, Message: o.Transfer, Signer: o.Transfer.FromAccount}}
	if short {
		r.Meanings = map[string]string{
			"toAccount":  o.Choice.Info.Provider + " · " + bridgeNote,
			"numTokens":  amount,
			"expiration": expires.Format("2006-01-02 15:04:05Z"),
		}
		return r
	}
	r.Meanings = map[string]string{
		"fromAccount":    "your funding account",
		"toAccount":      "bridge funding address of " + o.Choice.Info.Provider + " · " + bridgeNote,
		"tokenCurrency":  in,
		"numTokens":      amount + ", the quote's pay amount",
		"fromSubAccount": "main account",
		"toSubAccount":   "main account",
		"expiration":     expires.Format("2006-01-02 15:04:05 UTC"),
	}
	return r
}

// Facts are the withdrawal as every review lists it, before its typed
// data: the choice's (Choice.Facts), what is paid, received and lost, the
// speed, the fee cap and the quote.
func (o Order) Facts() []intent.Fact {
	q, in, out := o.Quote, o.Choice.TokenIn, o.Choice.TokenOut
	l := o.Loss()
	loss, speed := intent.Unmarked, intent.Unmarked
	if l.High() {
		loss = intent.Heed
	}
	if q.Speed == exchange.SpeedSlow {
		speed = intent.Heed
	}
	f := append(o.Choice.Facts(),
		intent.Fact{Label: "You pay", Value: q.PayAmount.String() + " " + in, Note: "from the funding account"},
		intent.Fact{Label: "You receive", Value: q.ReceiveAmount.String() + " " + out + " on " + o.Choice.Route.Chain, Note: l.Conversion(), Kept: l.Conversion()},
		intent.Fact{Label: "Bridge fee", Value: q.Fee.String() + " " + in, Note: "about " + q.FeeUSD.String() + " USD"},
		intent.Fact{Label: "You lose", Value: l.Stated(), Note: l.Basis(), Kept: l.Kept(), Mark: loss},
		intent.Fact{Label: "Speed", Value: SpeedWords(q.Speed), Short: speedShort(q.Speed), Mark: speed})
	if o.Choice.FeeCap.Valid {
		f = append(f, intent.Fact{Label: "Fee cap", Value: o.Choice.FeeCap.Decimal.String() + " " + in, Mark: intent.Detail})
	}
	return append(f, intent.Fact{Label: "Quote", Value: q.QuoteID, Note: "expires " + q.ExpiresAt.UTC().Format("2006-01-02 15:04:05 UTC"), Mark: intent.Detail})
}

// Facts are what the choice says before any quote: the route and where it
// pays out.
func (c Choice) Facts() []intent.Fact {
	return []intent.Fact{
		{Label: "Route", Value: c.TokenIn + " → " + c.TokenOut + " on " + c.Route.Chain + " (" + c.Route.ChainType + ")", Mark: intent.Detail},
		{Label: "Pays out to", Value: c.ToAddress, Mark: intent.Payee},
	}
}

// Note says why a bridge address may be signed: pinned (by the config's
// bridge_funding_address, or the embedded sandbox's own), trusted at first
// use, or seen since a date.
func (t BridgeTrust) Note() string {
	switch {
	case t.Pinned:
		return "pinned"
	case t.FirstUse:
		return "first use"
	case t.Replaces != "":
		return "replaces " + t.Replaces + ", accepted as announced"
	}
	return "seen since " + t.SeenSince.UTC().Format("2006-01-02")
}

// SpeedWords says what a quote's speed means for the user: "fast", or why
// slow settles later.
func SpeedWords(speed string) string {
	if speed == exchange.SpeedSlow {
		return "slow: the bridge is congested, settlement will take longer"
	}
	return "fast"
}

// speedShort is SpeedWords in the fewest words, beside another fact on a
// short review; "" for fast, already short.
func speedShort(speed string) string {
	if speed == exchange.SpeedSlow {
		return "slow: bridge congested"
	}
	return ""
}

// Accepted is what every face says of o once the service accepted it (a,
// as Locked shows it): a sentence, then its quote and transfer ids and its
// fee, and what of the answer did not add up.
func (o Order) Accepted(a exchange.WithdrawAccepted) (string, []intent.Fact) {
	a, unlike := o.Locked(a)
	given := o.Figures(a)
	facts := []intent.Fact{{Label: "Quote id", Value: o.Quote.QuoteID}, {Label: "Transfer id", Value: a.TxID}}
	if given.Fee != "" {
		facts = append(facts, intent.Fact{Label: "Fee", Value: given.Fee + " " + o.Choice.TokenIn})
	}
	if unlike != nil {
		facts = append(facts, intent.Fact{Label: "Check", Value: unlike.Error(), Mark: intent.Heed})
	}
	return "Withdrawal accepted (" + a.State + "): " + strings.TrimPrefix(given.Receive+" "+o.Choice.TokenOut, " ") + " on its way to " + o.Choice.ToAddress + " on " + o.Choice.Route.Chain, facts
}

// Figures are acceptance a's amounts (as Locked shows it) as every face
// writes them, each "" where nothing gave it: a resumed order's fee is the
// answer's, and one it left out reads as zero, as does an amount neither
// the journal nor the answer holds; "0" would say the bridge took or pays
// nothing.
type Figures struct{ Receive, Fee, FeeUSD string }

// Figures is a's Figures; a as Locked gives it.
func (o Order) Figures(a exchange.WithdrawAccepted) Figures {
	given := func(d decimal.Decimal, known bool) string {
		if !known && d.IsZero() {
			return ""
		}
		return d.String()
	}
	return Figures{Receive: given(a.ReceiveAmount, false), Fee: given(a.Fee, !o.feeUnknown), FeeUSD: given(a.FeeUSD, !o.feeUnknown)}
}

// Locked is acceptance a as the faces show it: with the receive amount and
// fee o's quote locked, which the 202 echoes (SPEC.md §4.9), never others
// the answer names (the error says them) nor the zeros of one it left out.
// A resumed order (Resumed) holds the journal's receive amount and no fee:
// the answer's fee stays; one rebuilt without a pay amount keeps a's.
func (o Order) Locked(a exchange.WithdrawAccepted) (exchange.WithdrawAccepted, *UnlikeAcceptanceError) {
	q := o.Quote
	if !q.PayAmount.IsPositive() {
		return a, nil
	}
	var off []string
	if !a.ReceiveAmount.IsZero() && !q.ReceiveAmount.IsZero() && !a.ReceiveAmount.Equal(q.ReceiveAmount) {
		off = append(off, fmt.Sprintf("a receive amount of %s %s, not the %s the quote locked", a.ReceiveAmount, o.Choice.TokenOut, q.ReceiveAmount))
	}
	if !o.feeUnknown && !a.Fee.IsZero() && !a.Fee.Equal(q.Fee) {
		off = append(off, fmt.Sprintf("a fee of %s %s, not the %s the quote locked", a.Fee, o.Choice.TokenIn, q.Fee))
	}
	if !q.ReceiveAmount.IsZero() {
		a.ReceiveAmount = q.ReceiveAmount
	}
	if !o.feeUnknown {
		a.Fee, a.FeeUSD = q.Fee, q.FeeUSD
	}
	if off == nil {
		return a, nil
	}
	return a, &UnlikeAcceptanceError{QuoteID: q.QuoteID, Unlike: off}
}

// Resumed is the order of rec's withdrawal as a resume re-sends it: its
// quote is not kept, but the journal's intent holds what it locked (the
// pay and receive amounts; not the fee), which the 202 is held to.
func Resumed(rec journal.Record) Order {
	in := rec.Intent
	return Order{Quote: exchange.Quote{QuoteID: rec.QuoteID, PayAmount: in.PayAmount, ReceiveAmount: in.ReceiveAmount}, feeUnknown: true,
		Choice: Choice{TokenIn: in.TokenIn, TokenOut: in.TokenOut, ToAddress: in.ToAddress, Route: exchange.WithdrawalRoute{Chain: in.Chain}}}
}

// UnlikeAcceptanceError: the service accepted a withdrawal naming another
// receive amount or fee than its quote locked (Order.Locked). The
// withdrawal stands: the funds may have left.
type UnlikeAcceptanceError struct {
	QuoteID string
	Unlike  []string // what it names, beside what the quote locked
}

func (e *UnlikeAcceptanceError) Error() string {
	return "the service's acceptance does not add up: it names " + strings.Join(e.Unlike, " and ") +
		"; the quote's amounts are shown. The withdrawal was accepted: follow it, check what arrives, and tell support (quote id " + e.QuoteID + ")"
}

// ReviewSentence closes every review: what the signature does and what the
// quote does.
const ReviewSentence = "The signature pays the bridge; the quote sends it on to this destination."
