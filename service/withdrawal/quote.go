package withdrawal

import (
	"context"
	"time"

	"github.com/svcwallet/svcwallet/service/exchange"
)

// The quote step every face takes (the console's quote screen, plain mode,
// `svcwallet withdraw`), and the one rule of when a quote may still be
// signed.

// RequoteMargin is the least a quote must have left, by the service's
// clock, to be signed (MayStillSign): closer to its end the send and its
// retries would race the expiry. At the margin the console's countdown asks
// for a fresh quote, and a late signature is carried on one (Requote).
const RequoteMargin = 5 * time.Second

// MayStillSign reports whether p may still be signed at localNow: it has
// more than RequoteMargin left by the service's clock (Offset, measured
// when it was asked). Every face checks it before signing, after the
// user's yes too: a person may answer long after the review.
func (p PricedQuote) MayStillSign(localNow time.Time) bool {
	return p.Remaining(localNow) > RequoteMargin
}

// QuoteRefusedError is a quote the choice refuses (Choice.QuoteRefusal):
// it pays another amount, or its fee or loss is above the fee cap. Quote
// is the refused quote, for a face that shows it.
type QuoteRefusedError struct {
	Quote  PricedQuote
	Reason string // Choice.QuoteRefusal's
}

func (e *QuoteRefusedError) Error() string { return "this quote cannot be signed: " + e.Reason }

// TakeQuote is the one quote step: it measures the service's clock (the
// quote's countdown and the Transfer's expiry run on it) and refuses a
// skew over exchange.MaxClockSkew (*exchange.ClockSkewError), asks the
// quote for ch (a 429 waited out by the one backoff: Client.Quote), and
// refuses one ch refuses (*QuoteRefusedError, which holds it). Asking for
// a quote changes nothing (SPEC.md §3), so any face may take it again.
func TakeQuote(ctx context.Context, client *exchange.Client, ch Choice) (PricedQuote, error) {
	clock, err := client.MeasureClock(ctx)
	if err == nil {
		err = clock.CheckSkew()
	}
	if err != nil {
		return PricedQuote{}, err
	}
	q, err := client.Quote(ctx, ch.QuoteRequest())
	if err != nil {
		return PricedQuote{}, err
	}
	p := PricedQuote{Quote: q, Offset: clock.Offset}
	if why := ch.QuoteRefusal(q); why != "" {
		return p, &QuoteRefusedError{Quote: p, Reason: why}
	}
	return p, nil
}
