package sandbox

import (
	"cmp"
	"fmt"
	"net/http"
	"time"

	"github.com/svcwallet/svcwallet/service/exchange"
)

// PathSeed is the sandbox's own route that seeds withdrawals (Options.Seeding):
// no real service has it.
const PathSeed = "/sandbox/seed"

// MaxSeed is the most withdrawals one request to PathSeed seeds.
const MaxSeed = 10_000

// SeedWithdrawal records an executed withdrawal of amount USDT from the
// account to a destination of its address book on chain, SUBMITTED now on
// the sandbox clock, and returns its quote id. It is for tests and demos
// that follow many withdrawals (the scheduler, the board, `status -`): it
// skips the signature and the balance and daily limits, and moves no
// balance. The fate follows the destination, as for a signed withdrawal.
func (e *Exchange) SeedWithdrawal(accountID, to, chain, amount string) (string, error) {
	now := e.lock()
	defer e.mu.Unlock()
	a := e.accounts[accountID]
	if a == nil {
		return "", fmt.Errorf("sandbox: no account %q", accountID)
	}
	id, err := e.seedOne(a, to, chain, amount, now)
	if err != nil {
		return "", fmt.Errorf("sandbox: %s", err.msg)
	}
	return id, nil
}

// seedOne is SeedWithdrawal under the lock.
func (e *Exchange) seedOne(a *account, to, chain, amount string, now time.Time) (string, *apiError) {
	q, err := e.newQuote(a, to, chain, "USDT", "USDT", amount, now)
	if err != nil {
		return "", err
	}
	q.startPayout(sigKey{}, now)
	e.quotes[q.id] = q
	return q.id, nil
}

// SeedRequest is the body of PathSeed: how many withdrawals to seed, and
// optionally their destination (of the address book; default the one that
// completes), chain (default ARBITRUM) and amount (default 10).
type SeedRequest struct {
	Count  int    `json:"count"`
	To     string `json:"to,omitempty"`
	Chain  string `json:"chain,omitempty"`
	Amount string `json:"amount,omitempty"`
}

// SeedAnswer is PathSeed's answer: the quote ids seeded, oldest first.
type SeedAnswer struct {
	QuoteIDs []string `json:"quote_ids"`
}

// handleSeed is PathSeed: it seeds count withdrawals of the account whose
// API key is in X-API-Key, SUBMITTED now, as SeedWithdrawal does, so a
// console or a script can be measured following many of them (a long
// --settle keeps them pending).
func (e *Exchange) handleSeed(w http.ResponseWriter, r *http.Request) *apiError {
	body := readBody(r)
	return e.respond(w, func(now time.Time) (reply, *apiError) {
		g, ok := e.keys[r.Header.Get(headerAPIKey)]
		if !ok {
			return reply{}, fail(exchange.CodeNotAuthenticated, "send X-API-Key with an API key of the account to seed")
		}
		var req SeedRequest
		if err := body.decode(&req); err != nil {
			return reply{}, err
		}
		if req.Count < 1 || req.Count > MaxSeed {
			return reply{}, malformed("field count must be 1 to %d", MaxSeed)
		}
		a := e.accounts[g.accountID]
		to, chain, amount := cmp.Or(req.To, DestCompleted), cmp.Or(req.Chain, "ARBITRUM"), cmp.Or(req.Amount, "10")
		out := SeedAnswer{QuoteIDs: make([]string, 0, req.Count)}
		for range req.Count {
			id, err := e.seedOne(a, to, chain, amount, now)
			if err != nil {
				return reply{}, err
			}
			out.QuoteIDs = append(out.QuoteIDs, id)
		}
		return reply{body: out}, nil
	})
}
