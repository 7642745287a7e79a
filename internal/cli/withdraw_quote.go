package cli

import (
	"context"
	"errors"
	"strings"
	"time"

	"github.com/svcwallet/svcwallet/internal/safetext"
	"github.com/svcwallet/svcwallet/service/config"
	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/withdrawal"
)

// Getting a withdrawal to its review: log in, check the choice, quote,
// check the bridge address and the journal's repeats.

// quoted is where withdraw and its offline preparation stand once logged
// in, the destination checked and the quote taken.
type quoted struct {
	client *exchange.Client
	target withdrawTarget
	order  withdrawal.Order
	trust  withdrawal.BridgeTrust
	// offset is the service's clock − ours, measured with the quote: the
	// quote's countdown (withdrawal.PricedQuote).
	offset time.Duration
}

// logInAndQuote logs in with sf (and key, when opened), checks the choice
// and quotes (choose, quote): the start withdraw and --signer offline
// share. When ok, the caller owns q.target's cleanup.
func (c withdrawCmd) logInAndQuote(ctx context.Context, e config.Environment, f withdrawFlags, sf signerFlags, key *keyChoice) (q quoted, err error) {
	client, err := c.app.logInWith(ctx, e, sf, key, exchange.Options{Now: c.now, Retry: c.retry})
	if err != nil {
		return q, loginFailed(err)
	}
	target, err := newWithdrawTarget(e)
	if err != nil {
		return q, failure(exitError, "%w", err)
	}
	choice, err := c.choose(ctx, client, f, e.Embedded())
	if err == nil {
		q.order, q.trust, q.offset, err = c.quote(ctx, client, e, target, choice, f.acceptBridge)
	}
	if err != nil {
		target.cleanup()
		return quoted{}, err
	}
	q.client, q.target = client, target
	return q, nil
}

// choose picks the USDT route for --chain and --token-out and checks the
// destination as the console's form does (withdrawal.Choice.CheckDestination).
// A --chain the routes lack is refused before anything is asked; on a
// terminal what is missing is asked then, the chain checked as typed.
func (c withdrawCmd) choose(ctx context.Context, client *exchange.Client, f withdrawFlags, embedded bool) (withdrawal.Choice, error) {
	cx, cancel := context.WithTimeout(ctx, exchange.CallTimeout)
	info, err := exchange.Patiently(cx, c.retry, client.WithdrawalInfo)
	cancel()
	if err != nil {
		return withdrawal.Choice{}, c.serviceFailed(ctx, "the withdrawal routes could not be read", err)
	}
	// A --chain the routes lack, or no route at all, is refused before
	// anything is asked.
	if _, err := c.route(info, f.chain); err != nil && (f.chain != "" || len(info.Route[exchange.TokenUSDT]) == 0) {
		return withdrawal.Choice{}, err
	}
	if f.ask {
		if err := c.askMissing(ctx, info, &f, embedded); err != nil {
			return withdrawal.Choice{}, err
		}
	}
	rt, err := c.route(info, f.chain)
	if err != nil {
		return withdrawal.Choice{}, err
	}
	ch := withdrawal.Choice{Info: info, TokenIn: exchange.TokenUSDT, Route: rt}
	for _, t := range rt.TokensOut {
		if strings.EqualFold(t, strings.TrimSpace(f.tokenOut)) {
			ch.TokenOut = t
		}
	}
	if ch.TokenOut == "" {
		return ch, usageError("--token-out %.20q is not paid out on %s; it pays: %s", safetext.Quoted(f.tokenOut), rt.Chain, strings.Join(rt.TokensOut, ", "))
	}
	if ch, err = ch.CheckDestination(f.to, f.amount, f.maxFee); err != nil {
		return ch, usageError("%w", err)
	}
	ch.AcceptedLoss, err = f.acceptedLoss()
	return ch, err
}

// route is info's USDT route to chain (withdrawal.RouteTo): a chain it
// lacks is a usage error naming its chains; none at all, a refusal.
func (c withdrawCmd) route(info exchange.WithdrawalInfo, chain string) (exchange.WithdrawalRoute, error) {
	rt, err := withdrawal.RouteTo(info, exchange.TokenUSDT, chain)
	var unknown *withdrawal.UnknownChainError
	switch {
	case !errors.As(err, &unknown):
		return rt, err
	case len(unknown.Chains) == 0:
		return rt, failure(exitFailed, "%w", err)
	}
	return rt, usageError("--chain %.40q is not a USDT withdrawal chain of %s; its chains are: %s", safetext.Quoted(chain), c.app.target.name, strings.Join(unknown.Chains, ", "))
}

// serviceFailed is a failed request, said after what (not quoted, as
// not signed and not withdrawn are): a refusal by the service is 1,
// anything else (network, an unreadable answer) 5; ctrl+c meanwhile ends
// the command there.
func (c withdrawCmd) serviceFailed(ctx context.Context, what string, err error) error {
	switch {
	case ctx.Err() != nil:
		return interrupted(ctx, nothingSent)
	case errors.As(err, new(*exchange.APIError)):
		return failure(exitFailed, "%s: %w; nothing was sent", what, exchange.Explain(err))
	}
	return failure(exitError, "%s: %w", what, exchange.Explain(err))
}

// quote takes the one quote step (withdrawal.TakeQuote: the clock, its
// skew, the quote, a refusal), builds the Order (NewOrder) and checks its
// bridge address (checkBridge, with --accept-bridge), as the console's
// quote and review do.
func (c withdrawCmd) quote(ctx context.Context, client *exchange.Client, e config.Environment, t withdrawTarget, ch withdrawal.Choice, acceptBridge string) (withdrawal.Order, withdrawal.BridgeTrust, time.Duration, error) {
	cx, cancel := context.WithTimeout(ctx, exchange.CallTimeout)
	defer cancel()
	p, err := withdrawal.TakeQuote(cx, client, ch)
	var refused *withdrawal.QuoteRefusedError
	switch {
	case errors.As(err, &refused):
		return withdrawal.Order{}, withdrawal.BridgeTrust{}, 0, failure(exitFailed, "not signed: %s; nothing was sent", refused.Reason)
	case errors.As(err, new(*exchange.ClockSkewError)):
		return withdrawal.Order{}, withdrawal.BridgeTrust{}, 0, failure(exitFailed, "%w", err)
	case err != nil && e.Embedded() && errors.Is(err, exchange.CodeNotInAddressBook):
		return withdrawal.Order{}, withdrawal.BridgeTrust{}, 0, failure(exitFailed, "not quoted: %w; nothing was sent",
			exchange.Worded(err, config.SandboxBookWords+", which `"+invocation{}.command("sandbox")+"` prints"))
	case err != nil:
		return withdrawal.Order{}, withdrawal.BridgeTrust{}, 0, c.serviceFailed(ctx, "not quoted", err)
	}
	s, _ := client.Session()
	o, err := withdrawal.NewOrder(ch, p, s.FundingAccountAddress, e.Domain(), c.nonce(), c.now())
	if err != nil {
		return o, withdrawal.BridgeTrust{}, 0, failure(exitFailed, "%w", exchange.Explain(err))
	}
	trust, err := c.checkBridge(e, t.pinsPath, o.Transfer.ToAccount.Hex(), acceptBridge)
	return o, trust, p.Offset, err
}

// repeatRefused refuses a withdrawal identical to the earlier one that got
// no answer (withdrawal.UnansweredError): exit 1, naming the earlier one
// (its quote id in --json), how to resume it, and what became of this one.
func (c withdrawCmd) repeatRefused(ue *withdrawal.UnansweredError) error {
	earlier := ue.Earlier
	return failure(exitFailed, "%s: run %s first (it sends the identical request, which cannot pay twice, or asks whether it arrived); %s. To pay again all the same, add --allow-repeat",
		ue.Fact(), c.app.invocation().resume(earlier.QuoteID), ue.Unsent()).about(earlier.QuoteID)
}

// warnRepeat says on stderr, after the review, what the journal holds of
// identical withdrawals that do not stop this one: one accepted a moment
// ago and not finished, one that ended FAILED within a day, or, with
// --allow-repeat or --dry-run, one that got no answer.
func (c withdrawCmd) warnRepeat(f withdrawFlags, rep withdrawal.Repeat) {
	if r := rep.Unanswered; r != nil {
		ue := withdrawal.UnansweredError{Earlier: *r}
		next := "--allow-repeat: this one is another payment (" + c.app.invocation().resume(r.QuoteID) + " tells whether it was paid)"
		if f.dryRun && !f.allowRepeat {
			next = "without --dry-run this withdrawal is refused until you run " + c.app.invocation().resume(r.QuoteID) + " (or add --allow-repeat)"
		}
		warn(c.env.Stderr, c.app.name, "%s; %s", ue.Fact(), next)
	}
	if r := rep.Recent; r != nil {
		warn(c.env.Stderr, c.app.name, "%s (%s follows it)", rep.RecentWords(c.now()), c.app.invocation().follow(r.QuoteID))
	}
	if rep.Failed != nil {
		warn(c.env.Stderr, c.app.name, "%s", rep.FailedWords(c.now()))
	}
}
