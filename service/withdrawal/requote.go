package withdrawal

import (
	"context"
	"errors"
	"fmt"
	"time"
	"unicode/utf8"

	"github.com/shopspring/decimal"

	"github.com/svcwallet/svcwallet/service/exchange"
)

// Requote returns o ready to send with the signature already made for its
// Transfer. While its quote has more than RequoteMargin left by the
// service's clock, and unless expired (the service refused the quote as
// expired), that is o itself. Otherwise (a person took their time
// approving in clef or on a device) it asks a fresh quote for exactly the signed amount, numTokens,
// and returns o with it: the Transfer and its signature stay as they
// are, which is safe because the signature was never sent. The fresh quote
// must pay exactly numTokens and keep its fee and what the user loses
// within the fee cap, or, with no cap, within the quote they reviewed
// (RequoteCap); the signature must still be valid past RequoteMargin.
// Nothing is sent when any of that fails; the error says why, and, when
// refused names the quote a first request of o was refused for as
// expired, that it left and nothing was paid (unsentWords).
func (w Withdrawer) Requote(ctx context.Context, o Order, expired bool, refused string) (Order, bool, error) {
	clock, err := w.client.MeasureClock(ctx)
	if err != nil {
		return o, false, err
	}
	if !expired && (PricedQuote{Quote: o.Quote, Offset: clock.Offset}).MayStillSign(w.now()) {
		return o, false, nil
	}
	serverNow := w.now().Add(clock.Offset)
	amount := exchange.FromRawUnits(o.Transfer.NumTokens)
	if exp := time.Unix(0, o.Transfer.Expiration); exp.Sub(serverNow) <= RequoteMargin {
		return o, false, exchange.UserError{Text: fmt.Sprintf("The signature expired (%s) before it could be sent%s: %s; start the withdrawal again", exp.UTC().Format(time.RFC3339), afterRefusal(refused), unsentWords(refused))}
	}
	req := o.Choice.QuoteRequest()
	req.Amount = amount.String()
	q, err := w.client.Quote(ctx, req)
	if err != nil {
		return o, false, exchange.UserError{Text: expiredWords(refused) + ", and a fresh one could not be had: " + exchange.Explain(err).Error() + "; " + unsentWords(refused), Cause: err}
	}
	if why := RequoteRefusal(o, q, serverNow); why != "" {
		return o, false, exchange.UserError{Text: expiredWords(refused) + ", and the fresh quote " + q.QuoteID + " cannot carry it: " + why + "; " + unsentWords(refused)}
	}
	o.Quote = q
	return o, true, nil
}

// expiredWords, afterRefusal and unsentWords say why a requote was looked
// for and what one that failed leaves: nothing sent, or, once a first
// request was refused as expired (refused, its quote), nothing paid.
func expiredWords(refused string) string {
	if refused == "" {
		return "The quote expired while the signature was awaited"
	}
	return "The service refused quote " + refused + " as expired"
}

func afterRefusal(refused string) string {
	if refused == "" {
		return ""
	}
	return " on a fresh quote after quote " + refused + " was refused as expired"
}

func unsentWords(refused string) string {
	if refused == "" {
		return "nothing was sent"
	}
	return "nothing was paid"
}

// RequoteCap is what a fresh quote may cost the user, in the fee and in
// what they lose: their fee cap, or without one the loss (Order.Loss, never
// below its fee) of the quote they reviewed and signed for.
func RequoteCap(o Order) decimal.Decimal {
	if o.Choice.FeeCap.Valid {
		return o.Choice.FeeCap.Decimal
	}
	return o.Loss().Lost
}

// RequoteRefusal says why quote q cannot carry o's signature, or "": it
// must pay exactly the signed numTokens, cost no more than RequoteCap,
// lose no more than the share accepted beforehand (Choice.AcceptedLoss),
// nor, none accepted, more than the severe loss a second yes was given to
// (lossNeedingYes), nor most of the amount where the reviewed quote did not
// (its second yes was never asked), and be one that may still be signed at
// serverNow (MayStillSign).
func RequoteRefusal(o Order, q exchange.Quote, serverNow time.Time) string {
	in, limit, l := o.Choice.TokenIn, RequoteCap(o), Order{Choice: o.Choice, Quote: q}.Loss()
	accepted := o.Choice.AcceptedLoss
	reviewed, answered := o.lossNeedingYes()
	raw, err := exchange.RawUnits(q.PayAmount)
	switch {
	case err != nil || raw != o.Transfer.NumTokens:
		return fmt.Sprintf("it asks for %s %s, not the %s signed", q.PayAmount, in, exchange.FromRawUnits(o.Transfer.NumTokens))
	case q.Fee.GreaterThan(limit):
		return fmt.Sprintf("its fee %s %s is above %s", q.Fee, in, capText(o, limit))
	case l.Lost.GreaterThan(limit):
		return fmt.Sprintf("you would lose %s, above %s", l.Reckoned(), capText(o, limit))
	case errors.As(AcceptsLoss(l, accepted), new(*LossAbove)):
		return fmt.Sprintf("you would lose %s, %s%% of the amount, above the %s%% accepted", l.Reckoned(), l.Percent(), accepted.Decimal)
	case answered && l.Lost.GreaterThan(reviewed.Lost):
		return fmt.Sprintf("you would lose %s, %s%% of the amount, more than the %s (%s%%) of the quote you said yes to", l.Reckoned(), l.Percent(), reviewed.Said(), reviewed.Percent())
	case errors.Is(AcceptsLoss(l, accepted), ErrSevereLoss) && !answered:
		// Its second yes was never asked: the yes given was to a smaller loss.
		return fmt.Sprintf("most of the amount would go to fees: you would lose %s, %s%% of the amount, where the quote you said yes to lost %s%%", l.Reckoned(), l.Percent(), o.Loss().Percent())
	case !(PricedQuote{Quote: q}).MayStillSign(serverNow):
		return "it expires at once (" + q.ExpiresAt.UTC().Format(time.RFC3339) + ")"
	}
	return ""
}

func capText(o Order, limit decimal.Decimal) string {
	if o.Choice.FeeCap.Valid {
		return "your fee cap of " + limit.String() + " " + o.Choice.TokenIn
	}
	return "the " + limit.String() + " " + o.Choice.TokenIn + " of the quote you reviewed (no fee cap was given)"
}

// RequoteNote is what a review says before a signature that may wait for
// a person (clef, a device, a signing command): what happens if the quote
// expires meanwhile, in RequoteRefusal's terms: the cap, and the loss the
// person answers for.
func RequoteNote(o Order) string {
	amount, limit, loss := o.requoteBounds()
	if loss != "" {
		loss = ", losing no more than " + loss + ","
	}
	return fmt.Sprintf("The signature pays exactly %s. If the quote expires while you approve, svcwallet gets a fresh quote for exactly %s whose fee and loss stay within %s%s and sends it with the same signature, which was never sent; if none does, nothing is sent.",
		amount, amount, limit, loss)
}

// RequoteNoteShort is RequoteNote in fewer words, for a review with no
// room for it whole: the same amount, cap and loss.
func RequoteNoteShort(o Order) string {
	amount, _, loss := o.requoteBounds()
	if loss != "" {
		loss = ", losing at most " + loss + ","
	}
	return fmt.Sprintf("If the quote expires while you approve, a fresh one for exactly %s whose fee and loss stay within %s%s takes this signature; if none does, nothing is sent.",
		amount, capShort(o), loss)
}

// RequoteNoteTight is RequoteNote in a few words for the smallest review,
// where they follow its question to sign on one line, in room columns: the
// cap by its amount where it fits, else which cap binds. Never a question
// itself, so the line asks one thing.
func RequoteNoteTight(o Order, room int) string {
	limit := RequoteCap(o).String() + " " + o.Choice.TokenIn
	for _, said := range []string{
		"requoted if it expires as you approve: fee and loss ≤ " + limit + ".",
		"requoted if it expires: fee and loss ≤ " + limit + ".",
		"requote on expiry: fee/loss ≤ " + limit + ".",
	} {
		if utf8.RuneCountInString(said) <= room {
			return said
		}
	}
	if o.Choice.FeeCap.Valid {
		return "requote on expiry: within your fee cap."
	}
	return "requote on expiry: no higher fee/loss."
}

// capShort is the cap by its amount, and where it comes from.
func capShort(o Order) string {
	limit := RequoteCap(o).String() + " " + o.Choice.TokenIn
	if o.Choice.FeeCap.Valid {
		return limit + " (your fee cap)"
	}
	return limit + " (this quote's loss)"
}

// requoteBounds are what binds a fresh quote carrying the signature: the
// amount paid, the cap in words, and the loss answered for ("" when the
// cap binds first).
func (o Order) requoteBounds() (amount, limit, loss string) {
	paid := exchange.FromRawUnits(o.Transfer.NumTokens)
	// Said where it binds before the cap does: as a share of the amount.
	capShare := hundred
	if paid.IsPositive() {
		capShare = RequoteCap(o).Div(paid).Mul(hundred)
	}
	reviewed, answered := o.lossNeedingYes()
	switch accepted := o.Choice.AcceptedLoss; {
	case accepted.Valid && accepted.Decimal.LessThan(capShare):
		loss = "the " + accepted.Decimal.String() + "% of the amount you accepted"
	case answered && reviewed.Lost.LessThan(RequoteCap(o)):
		loss = "this quote's " + reviewed.Said()
	case !accepted.Valid && !answered && LossConfirmShare.Mul(hundred).LessThan(capShare):
		loss = "half the amount"
	}
	return paid.String() + " " + o.Choice.TokenIn, capText(o, RequoteCap(o)), loss
}
