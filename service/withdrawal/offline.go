package withdrawal

import (
	"context"
	"errors"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/shopspring/decimal"

	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/intent"
	"github.com/svcwallet/svcwallet/service/journal"
)

// PreparedLife is how long a Transfer prepared for offline signing stays
// valid after it is written (D9): time to carry the file to a wallet,
// sign it and bring the signature back.
const PreparedLife = 30 * time.Minute

// Prepared is a Transfer this machine prepared for offline signing: the
// intent its journal line keeps, and the order it was made from (whose
// quote will be replaced by a fresh one at submission).
type Prepared struct {
	intent.Prepared
	Order Order
}

// Prepare makes o's Transfer one to sign offline by signerAddr: it expires
// PreparedLife after now (SigningNow), and the journal keeps (fsynced)
// everything Submit needs (intent.Prepare). Nothing is signed or sent;
// nothing is prepared when an identical withdrawal got no answer, as
// Execute refuses it, nor a loss no face recorded as answered
// (lossRefusal), nor a quote prepared already (preparedOnce). The error is
// written for the user.
func (w Withdrawer) Prepare(ctx context.Context, o Order, signerAddr common.Address) (Prepared, error) {
	if err := o.lossRefusal(); err != nil {
		return Prepared{}, err
	}
	if err := w.maySign(); err != nil {
		return Prepared{}, err
	}
	if _, err := w.checkRepeat(o); err != nil {
		return Prepared{}, err
	}
	if err := w.preparedOnce(o); err != nil {
		return Prepared{}, err
	}
	p, err := intent.Prepare(ctx, w.client, w.journal, func(now time.Time) journal.Entry {
		o.Transfer.Expiration = now.Add(PreparedLife).UnixNano()
		fee := o.Quote.Fee
		line := journal.Prepared{Kind: journal.PreparedWithdrawal, Signer: signerAddr, Fee: &fee}
		if o.Choice.FeeCap.Valid {
			// A cap finer than the token's units means the same as one cut to them.
			c := o.Choice.FeeCap.Decimal.Truncate(exchange.TokenDecimals)
			line.FeeCap, o.Choice.FeeCap = &c, decimal.NewNullDecimal(c)
		}
		// Only a share said beforehand: the loss a second yes was given to
		// is the reviewed quote's, which the line keeps (PreparedOf), so
		// Submit holds a fresh quote to its amount (lossNeedingYes).
		if o.Choice.AcceptedLoss.Valid {
			line.AcceptedLoss = &o.Choice.AcceptedLoss.Decimal
		}
		e, in := w.entry(journal.KindPrepared, o.Quote.QuoteID), o.Intent()
		e.Intent, e.Domain, e.Transfer, e.Prepared = &in, &o.Domain, &o.Transfer, &line
		return e
	})
	return Prepared{Prepared: p, Order: o}, err
}

// PreparedAlreadyError refuses to prepare a quote's Transfer again: one
// prepared At waits for its signature, and a second file of the same quote
// would be a second payment waiting beside it.
type PreparedAlreadyError struct {
	QuoteID string
	At      time.Time
}

func (e *PreparedAlreadyError) Error() string {
	return "nothing more was prepared: this quote's Transfer was prepared for offline signing at " +
		e.At.UTC().Format("15:04:05 UTC") + ", and a quote is prepared once"
}

// preparedOnce refuses o (*PreparedAlreadyError) when the journal holds
// its quote's Transfer prepared already.
func (w Withdrawer) preparedOnce(o Order) error {
	e, ok, err := w.journal.PreparedOf(w.owner(), o.Quote.QuoteID)
	switch {
	case err != nil:
		return w.journalProblem("could not be read to tell whether this quote was prepared before", err)
	case ok:
		return &PreparedAlreadyError{QuoteID: o.Quote.QuoteID, At: e.Time}
	}
	return nil
}

// PreparedOf is the Transfer a prepared line keeps (intent.Find), with the
// order Submit needs rebuilt from it.
func PreparedOf(p intent.Prepared) Prepared {
	e := p.Line
	in, line := e.Intent, e.Prepared
	c := Choice{
		Info:    exchange.WithdrawalInfo{FundingAddress: e.Transfer.ToAccount.Hex()},
		TokenIn: in.TokenIn, TokenOut: in.TokenOut, ToAddress: in.ToAddress, Amount: in.PayAmount,
		Route: exchange.WithdrawalRoute{Chain: in.Chain, ChainType: exchange.ChainTypeOfChain(in.Chain)},
	}
	if line.FeeCap != nil {
		c.FeeCap = decimal.NewNullDecimal(*line.FeeCap)
	}
	if line.AcceptedLoss != nil {
		c.AcceptedLoss = decimal.NewNullDecimal(*line.AcceptedLoss)
	}
	q := exchange.Quote{QuoteID: e.QuoteID, PayAmount: in.PayAmount, ReceiveAmount: in.ReceiveAmount, Fee: *line.Fee, ExpiresAt: in.ExpiresAt}
	return Prepared{Prepared: p, Order: Order{Choice: c, Quote: q, Domain: *e.Domain, Transfer: *e.Transfer}}
}

// madeSincePrepared starts before's "made meanwhile" (checkAgain) at p's
// prepared line and checks it: an identical withdrawal made while the file
// was away being signed overtakes p (*OvertakenError), as one made while a
// run awaits its signature does, whichever face or machine's run it was.
func (w Withdrawer) madeSincePrepared(p Prepared, before *Repeat) error {
	const what = "could not be read to tell whether an identical withdrawal was made since this Transfer was prepared"
	m, ok, err := w.journal.PreparedMark(w.owner(), p.Line.QuoteID)
	switch {
	case err != nil:
		return w.journalProblem(what, err)
	case !ok:
		return w.journalProblem(what, errors.New("its prepared line is not in it"))
	}
	before.since = m
	// Its own submission is no other withdrawal: it is said as submitted.
	if err := p.Unsent(w.journal)(); err != nil {
		return err
	}
	return w.checkAgain(p.Order, *before)
}

// Submit sends a prepared Transfer with its offline signature the way
// Execute does, on a fresh quote for exactly the signed amount within the
// recorded fee cap (Requote), once it passes intent.Prepared.Check and pays
// from this session's funding account. Nothing is sent when an identical
// withdrawal got no answer, nor when one was made since p was prepared
// (*OvertakenError, madeSincePrepared), nor when this Transfer was
// submitted already (*intent.SubmittedError, answered or not): each
// decided again under the journal's lock with the intent's line.
func (w Withdrawer) Submit(ctx context.Context, p Prepared, sig [65]byte) (sent Sent) {
	// It comes signed, whatever stops it (Sent.Signed).
	defer func() { sent.Signed = true }()
	if err := w.maySign(); err != nil {
		return Sent{Err: err}
	}
	o := p.Order
	before, err := w.checkRepeat(o)
	if ue := AsUnanswered(err); ue != nil {
		ue.Signed = true // offline, before this submit
	}
	if err != nil {
		return Sent{Err: err}
	}
	checked, now, err := p.Check(ctx, w.client, sig, intent.Limits{Margin: RequoteMargin, Life: PreparedLife})
	if err != nil {
		return Sent{Err: err}
	}
	// Early, so no fresh quote is asked needlessly; decided again with the
	// intent's line (send). After Check: a line of another chain or
	// service is said as such, and one older than PreparedLife is never
	// read on from.
	if err := w.signedFor(o); err != nil {
		return Sent{Err: err}
	}
	if err := w.madeSincePrepared(p, &before); err != nil {
		return Sent{Err: err}
	}
	sx, cancel := context.WithTimeout(context.WithoutCancel(ctx), exchange.WithdrawTimeout)
	defer cancel()
	if o, _, err = w.Requote(sx, o, true, ""); err != nil {
		return Sent{Err: err}
	}
	sent = w.sendSigned(sx, o, checked, now, true, false, before, stoppedBeforeSending(ctx, true, p.Unsent(w.journal)))
	sent.Requoted = true
	return sent
}
