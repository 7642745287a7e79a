package sandbox

import (
	"crypto/rand"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/shopspring/decimal"

	"github.com/svcwallet/svcwallet/service/exchange"
)

// quote is a withdrawal from quote to payout. Its price is locked at
// creation; exec is set once it is executed.
type quote struct {
	id, accountID string
	chain         *chainDef
	tokenOut, to  string
	pay, receive  decimal.Decimal
	speed         string
	created       time.Time
	expires       time.Time
	exec          *execution
	status        encodedStatus // the last status answer
}

// encodedStatus is a status answer encoded once for the state it shows: the
// answer changes only with the state, and status is the call clients repeat.
type encodedStatus struct {
	state string
	body  []byte // never changed once set: answers in flight may share it
}

// execution is an accepted withdraw: the funds left the account at
// submitted; the bridge's outcome (fate) is fixed by the destination.
type execution struct {
	sig       sigKey // the exact signature, to answer a repeat with the same 202
	accepted  exchange.WithdrawAccepted
	submitted time.Time
	fate      string // COMPLETED, FAILED or REFUNDED
	hash      string // payout hash, shown once COMPLETED
}

// state is the withdrawal's state on the sandbox clock and when it began:
// SUBMITTED for the first half of Settle, SENDING for the second, then its fate.
func (q *quote) state(settle time.Duration, now time.Time) (string, time.Time) {
	x := q.exec
	switch {
	case x == nil:
		return exchange.StateCreated, q.created
	case now.Before(x.submitted.Add(settle / 2)):
		return exchange.StateSubmitted, x.submitted
	case now.Before(x.submitted.Add(settle)):
		return exchange.StateSending, x.submitted.Add(settle / 2)
	}
	return x.fate, x.submitted.Add(settle)
}

// settleDue applies the effects of withdrawals that reached their end: each
// gives back the bridge liquidity it held; a REFUNDED one returns its
// funds, exactly once, and stops counting against its day's limit.
func (e *Exchange) settleDue(now time.Time) {
	for e.pending.due(now.UnixNano()) {
		q := e.pending.pop()
		e.inFlight[q.chain.name] = e.inFlight[q.chain.name].Sub(q.pay)
		if q.exec.fate == exchange.StateRefunded {
			a := e.accounts[q.accountID]
			a.balance = a.balance.Add(q.pay)
			a.countUsed(q, q.pay.Neg())
		}
	}
}

// handleWithdrawalInfo is SPEC.md §4.7: USDT routes to every production
// chain; USDC present with no route.
func (e *Exchange) handleWithdrawalInfo(w http.ResponseWriter, r *http.Request) *apiError {
	return e.respond(w, func(now time.Time) (reply, *apiError) {
		if _, err := e.bridgeAccount(r, now, true); err != nil {
			return reply{}, err
		}
		routes := make([]exchange.WithdrawalRoute, len(productionChains))
		for i, c := range productionChains {
			routes[i] = exchange.WithdrawalRoute{Chain: c.name, ChainID: c.chainID, ChainType: c.chainType, TokensOut: c.tokensOut}
		}
		return reply{body: exchange.WithdrawalInfo{
			Provider: Provider, FundingAddress: BridgeFundingAddress,
			Route: map[string][]exchange.WithdrawalRoute{exchange.TokenUSDT: routes, exchange.TokenUSDC: {}},
		}}, nil
	})
}

type quoteRequest struct {
	ToAddress *string `json:"to_address"`
	Chain     *string `json:"chain"`
	TokenIn   *string `json:"token_in"`
	TokenOut  *string `json:"token_out"`
	Amount    *string `json:"amount"`
}

// handleQuote is SPEC.md §4.8. It has no side effects but the stored quote.
func (e *Exchange) handleQuote(w http.ResponseWriter, r *http.Request) *apiError {
	body := readBody(r)
	return e.respond(w, func(now time.Time) (reply, *apiError) {
		a, err := e.bridgeAccount(r, now, true)
		if err != nil {
			return reply{}, err
		}
		var req quoteRequest
		if err := body.decode(&req); err != nil {
			return reply{}, err
		}
		var to, chain, tokenIn, tokenOut, amount string
		for _, f := range []struct {
			dst   *string
			src   *string
			field string
		}{{&to, req.ToAddress, "to_address"}, {&chain, req.Chain, "chain"}, {&tokenIn, req.TokenIn, "token_in"}, {&tokenOut, req.TokenOut, "token_out"}, {&amount, req.Amount, "amount"}} {
			if *f.dst, err = need(f.src, f.field); err != nil {
				return reply{}, err
			}
		}
		q, err := e.newQuote(a, to, chain, tokenIn, tokenOut, amount, now)
		if err != nil {
			return reply{}, err
		}
		if err := e.holdQuote(w, a, q, now); err != nil {
			return reply{}, err
		}
		return reply{body: exchange.Quote{
			QuoteID: q.id, PayAmount: q.pay, ReceiveAmount: q.receive, Fee: bridgeFee, FeeUSD: bridgeFee,
			Speed: q.speed, ExpiresAt: q.expires,
		}}, nil
	})
}

// newQuote applies the quote rules: a route for the chain and tokens (9100),
// an address valid for the chain type (9109), a well-formed amount (1003),
// a destination in the address book (9105), an amount above the fee (9101)
// and within the daily limit left and the bridge's liquidity (9102).
func (e *Exchange) newQuote(a *account, to, chain, tokenIn, tokenOut, amountText string, now time.Time) (*quote, *apiError) {
	c := routeChain(chain)
	if c == nil {
		return nil, failf(exchange.CodeRouteUnsupported, "no withdrawal route to chain %.32q", chain)
	}
	if !sameName(exchange.TokenUSDT, tokenIn) {
		return nil, failf(exchange.CodeRouteUnsupported, "no withdrawal route for token_in %.16q; only USDT can be withdrawn for now", tokenIn)
	}
	i := slices.IndexFunc(c.tokensOut, func(t string) bool { return sameName(t, tokenOut) })
	if i < 0 {
		return nil, failf(exchange.CodeRouteUnsupported, "token_out %.16q is not paid out on %s; choose from %s", tokenOut, c.name, strings.Join(c.tokensOut, ", "))
	}
	if err := checkAddress(c.chainType, to); err != nil {
		return nil, failf(exchange.CodeBadAddress, "to_address is not a valid %s address: %s", c.chainType, err)
	}
	amount, perr := parseAmount(amountText)
	if perr != nil {
		return nil, malformed("field amount: %s", perr)
	}
	if !a.addressBook[bookKey(to)] {
		return nil, fail(exchange.CodeNotInAddressBook, "to_address is not in the withdrawal address book")
	}
	if !amount.GreaterThan(bridgeFee) {
		return nil, failf(exchange.CodeBelowFee, "amount must be more than the bridge fee of %s USDT", bridgeFee)
	}
	if left := dailyLimit.Sub(a.usedToday(now)); amount.GreaterThan(left) {
		return nil, failf(exchange.CodeLimitReached, "amount is over the daily withdrawal limit: %s USDT left today", left)
	}
	if left := e.liquidityLeft(c); amount.GreaterThan(left) {
		return nil, failf(exchange.CodeLimitReached, "the bridge can pay out at most %s USDT on %s right now", left, c.name)
	}
	receive := amount.Sub(bridgeFee)
	if c.tokensOut[i] == exchange.TokenUSDC {
		receive = receive.Mul(usdcPerUSDT).Truncate(tokenDecimals)
	}
	return &quote{
		id: "q-" + strings.ToLower(rand.Text()), accountID: a.id, chain: c, tokenOut: c.tokensOut[i], to: to,
		pay: amount, receive: receive, speed: c.speed,
		created: now, expires: now.Add(e.quoteTTL).UTC(),
	}, nil
}

// liquidityLeft is what the bridge can still pay out on c: its liquidity
// less what the payouts executed and not yet settled there hold.
func (e *Exchange) liquidityLeft(c *chainDef) decimal.Decimal {
	return c.liquidity.Sub(e.inFlight[c.name])
}

// handleStatus is SPEC.md §4.10. Another account's quote is as unknown as a
// made-up one.
func (e *Exchange) handleStatus(w http.ResponseWriter, r *http.Request) *apiError {
	return e.respond(w, func(now time.Time) (reply, *apiError) {
		a, err := e.bridgeAccount(r, now, false)
		if err != nil {
			return reply{}, err
		}
		id := queryValue(r.URL.RawQuery, "quote_id")
		if id == "" {
			return reply{}, malformed("query parameter quote_id is required")
		}
		q := e.quotes[id]
		if q == nil || q.accountID != a.id {
			return reply{}, fail(exchange.CodeNotFound, "no withdrawal with this quote_id in this account")
		}
		if state, since := q.state(e.settle, now); q.status.state != state {
			q.status = encodedStatus{state, encodeJSON(q.statusAt(state, since))}
		}
		return reply{encoded: q.status.body}, nil
	})
}

// statusAt is the quote's status record (SPEC.md §2.10) in a state.
func (q *quote) statusAt(state string, since time.Time) exchange.Withdrawal {
	out := exchange.Withdrawal{
		QuoteID: q.id, State: state, Chain: q.chain.name, TokenOut: q.tokenOut,
		ReceiveAmount: q.receive, UpdatedAt: since.UTC(),
	}
	if q.exec != nil {
		out.TxID = q.exec.accepted.TxID
		if state == exchange.StateCompleted {
			out.WithdrawTxHash = q.exec.hash
		}
	}
	return out
}
