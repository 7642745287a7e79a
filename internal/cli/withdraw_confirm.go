package cli

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/shopspring/decimal"

	"github.com/svcwallet/svcwallet/internal/safetext"
	"github.com/svcwallet/svcwallet/service/config"
	"github.com/svcwallet/svcwallet/service/withdrawal"
)

// From the review to the yes: the review, the questions (or --yes and
// --accept-loss), and a quote that ran out meanwhile replaced on request.

// confirmed prints the review of q's order and takes the user's yes to it
// (none asked with --yes); done: a dry run ended there. A quote that ran
// out while the user answered, or is about to, is said plainly, and on a
// terminal a new one is offered: taken, it is reviewed and asked about
// again, and q holds it.
func (c withdrawCmd) confirmed(ctx context.Context, e config.Environment, q *quoted, key *keyChoice, f withdrawFlags, rep withdrawal.Repeat, accepted decimal.NullDecimal) (done bool, err error) {
	for {
		if err := c.printReview(e, q.order, q.trust, key, f.dryRun, f.json, !f.yes && !f.dryRun); err != nil {
			return false, err
		}
		c.warnRepeat(f, rep)
		if f.dryRun {
			return true, nil
		}
		if err := c.yes(ctx, e, &q.order, f, accepted); err != nil {
			return false, err
		}
		// The answer may come long after the review: a quote that may no
		// longer be signed (MayStillSign) is not. Its replacement needs a
		// review.
		priced := withdrawal.PricedQuote{Quote: q.order.Quote, Offset: q.offset}
		if priced.MayStillSign(c.now()) {
			return false, nil
		}
		ran := c.ranOut(priced, f.yes)
		if f.yes {
			return false, failure(exitFailed, "%s; run the command again for a new quote", ran).about(q.order.Quote.QuoteID)
		}
		fmt.Fprintf(c.env.Stderr, "%s: %s.\n", c.app.name, ran)
		if err := confirm(ctx, c.env, "Get a new quote?"); err != nil {
			if ctx.Err() != nil {
				return false, err
			}
			return false, failure(exitFailed, "no new quote: nothing was signed or sent; run the command again for one").about(q.order.Quote.QuoteID)
		}
		if q.order, q.trust, q.offset, err = c.quote(ctx, q.client, e, q.target, q.order.Choice, f.acceptBridge); err != nil {
			return false, err
		}
		fmt.Fprintln(c.env.Stderr) // before the new quote's review
	}
}

// yes takes the user's yes to order: a loss --yes does not cover is
// refused before anything is asked; otherwise, without --yes, the
// question (Order.SignQuestion, naming e when it is not production), and
// a second one for a loss of most of the amount, whose yes is order's
// (Order.AnswerLoss).
func (c withdrawCmd) yes(ctx context.Context, e config.Environment, order *withdrawal.Order, f withdrawFlags, accepted decimal.NullDecimal) error {
	loss := order.Loss()
	if err := c.lossRefused(*order, loss, accepted, !f.yes, "--yes alone does not sign"); err != nil || f.yes {
		return err
	}
	if err := confirm(ctx, c.env, order.SignQuestion(e)); err != nil {
		return err
	}
	if errors.Is(withdrawal.AcceptsLoss(loss, accepted), withdrawal.ErrSevereLoss) {
		if err := confirm(ctx, c.env, loss.Question()); err != nil {
			return err
		}
		order.AnswerLoss()
	}
	return nil
}

// ranOut says plainly that the quote cannot be signed any more: it
// expired, or has too little left to sign and send it, while the user
// answered (or, with --yes, before it could be signed).
func (c withdrawCmd) ranOut(p withdrawal.PricedQuote, yes bool) string {
	when := "while you answered"
	if yes {
		when = "before it could be signed"
	}
	until := p.ExpiresAt.UTC().Format("15:04:05 UTC")
	if left := p.Remaining(c.now()); left > 0 {
		return fmt.Sprintf("quote %s was about to expire %s (%s left, until %s by the service's clock): too little to sign and send it, so nothing was signed or sent",
			p.QuoteID, when, left.Round(time.Second), until)
	}
	return fmt.Sprintf("quote %s expired %s (it was valid until %s by the service's clock): nothing was signed or sent", p.QuoteID, when, until)
}

// acceptedLoss is --accept-loss read; not Valid when not given.
func (f withdrawFlags) acceptedLoss() (decimal.NullDecimal, error) {
	if f.acceptLoss == "" {
		return decimal.NullDecimal{}, nil
	}
	pct, err := withdrawal.ParseAcceptedLoss(f.acceptLoss)
	if err != nil {
		return decimal.NullDecimal{}, usageError("--accept-loss %.20q: %w", safetext.Quoted(f.acceptLoss), err)
	}
	return decimal.NewNullDecimal(pct), nil
}

// lossRefused refuses a loss that withdrawal.AcceptsLoss does not let
// through: above --accept-loss, or most of the amount with --accept-loss
// not given and no one to ask (ask: the second question is asked after
// the first; unasked says what then does not go on). Nothing was signed or
// sent.
func (c withdrawCmd) lossRefused(o withdrawal.Order, l withdrawal.Loss, accepted decimal.NullDecimal, ask bool, unasked string) error {
	in, id := o.Choice.TokenIn, o.Quote.QuoteID
	lost := fmt.Sprintf("you would lose %s of the %s %s paid (%s%%)", l.Said(), l.Paid, in, l.Percent())
	var above *withdrawal.LossAbove
	switch err := withdrawal.AcceptsLoss(l, accepted); {
	case errors.As(err, &above):
		return failure(exitFailed, "not signed: %s, above the %s%% of --accept-loss; nothing was signed or sent", lost, above.Accepted).about(id)
	case err != nil && !ask:
		return failure(exitFailed, "not signed: %s: most of the amount goes to fees, which %s; add --accept-loss %s to sign it all the same, or get a new quote later; nothing was signed or sent", lost, unasked, l.Percent()).about(id)
	}
	return nil
}
