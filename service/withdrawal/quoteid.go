package withdrawal

import (
	"fmt"

	"github.com/svcwallet/svcwallet/service/journal"
)

// A quote id names one withdrawal: the journal folds every line of a quote
// id into one record, and keeps none after its acceptance. An order whose
// quote id the journal already holds for other money, or for a withdrawal
// the service accepted, would be signed, journaled and sent unseen, so a
// service that gives an id again (a fault, a hostile one) hid a payment
// from History, resume and the repeat check. Such an order is refused
// before anything is signed, and again under the journal's lock. The same
// quote signed again after it was not sent or refused, or while it got no
// answer (the repeat check's to decide), goes on as before.

// QuoteIDUsedError refuses an order whose quote id the journal holds for
// Earlier, another withdrawal or one the service accepted.
type QuoteIDUsedError struct {
	QuoteID string
	Earlier journal.Record
}

func (e *QuoteIDUsedError) Error() string {
	r := e.Earlier
	what := "another withdrawal"
	if r.Made {
		what = fmt.Sprintf("%s %s to %s on %s, made %s", r.Intent.PayAmount, r.Intent.TokenIn, r.Intent.ToAddress, r.Intent.Chain, r.Started.UTC().Format("2006-01-02 15:04 UTC"))
	}
	if state := r.State; state != "" || !r.AcceptedAt.IsZero() {
		if state == "" {
			state = "accepted"
		}
		what += ", " + state
	}
	return "The service gave quote id " + e.QuoteID + " again: the journal holds it for " + what +
		". A quote id names one withdrawal, so nothing was signed or sent; get a new quote, and tell support if it happens again"
}

// quoteIDFree refuses o (*QuoteIDUsedError) when the journal holds its
// quote id for another withdrawal than o, or for one the service accepted.
func (w Withdrawer) quoteIDFree(o Order) error {
	recs, err := w.journal.RecordsOf(w.owner(), o.Quote.QuoteID)
	if err != nil {
		return w.journalProblem("could not be read to tell whether this quote id was used before", err)
	}
	for _, r := range recs {
		if !r.Made || !sameQuote(r.Intent, o.Intent()) || !r.AcceptedAt.IsZero() || r.State != "" {
			return &QuoteIDUsedError{QuoteID: o.Quote.QuoteID, Earlier: r}
		}
	}
	return nil
}

// sameQuote: a journaled intent is the one in, read back: the same money,
// place and quote.
func sameQuote(a, b journal.Intent) bool {
	return sameDestination(a.ToAddress, b.ToAddress) && a.Chain == b.Chain && a.TokenIn == b.TokenIn && a.TokenOut == b.TokenOut &&
		a.PayAmount.Equal(b.PayAmount) && a.ReceiveAmount.Equal(b.ReceiveAmount) && a.ExpiresAt.Equal(b.ExpiresAt)
}
