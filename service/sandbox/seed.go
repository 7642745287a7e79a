package sandbox

import (
	"crypto/rand"
	"fmt"
	"strings"

	"github.com/svcwallet/svcwallet/service/exchange"
)

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
	q, err := e.newQuote(a, to, chain, "USDT", "USDT", amount, now)
	if err != nil {
		return "", fmt.Errorf("sandbox: %s", err.msg)
	}
	fate := exchange.StateCompleted
	switch bookKey(to) {
	case bookKey(DestFailed):
		fate = exchange.StateFailed
	case bookKey(DestRefunded):
		fate = exchange.StateRefunded
	}
	q.exec = &execution{
		submitted: now, fate: fate, hash: payoutHash(q.chain.chainType),
		accepted: exchange.WithdrawAccepted{
			QuoteID: q.id, TxID: "tx-" + strings.ToLower(rand.Text()), State: exchange.StateSubmitted,
			ReceiveAmount: q.receive, Fee: bridgeFee, FeeUSD: bridgeFee,
		},
	}
	e.quotes[q.id] = q
	return q.id, nil
}
