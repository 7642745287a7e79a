package sandbox

import (
	"crypto/rand"
	"encoding/hex"
	"net/http"
	"strings"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/mr-tron/base58"

	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/signer"
)

// withdrawWindow caps a withdraw signature's expiration (SPEC.md §4.9).
const withdrawWindow = 30 * 24 * time.Hour

// Fault is what an injected fault makes a withdraw do instead of answering.
type Fault int

const (
	FaultNone       Fault = iota
	FaultBadGateway       // answer 502 with an HTML body, as a gateway would
	FaultHang             // answer nothing until the client gives up
	FaultDrop             // close the connection without an answer
)

// Phases at which InjectWithdrawFault's function is asked. Only a withdraw
// that passed every check reaches them; a repeated request (answered with
// its original 202) does not.
const (
	PhaseBeforeCommit = "before-commit" // nothing debited yet
	PhaseAfterCommit  = "after-commit"  // debited and recorded; only the answer is lost
)

// InjectWithdrawFault makes f decide, at each phase of each withdraw, whether
// it fails (D10 retry tests). f runs under the exchange's lock: it must not
// call the Exchange. nil removes the hook.
func (e *Exchange) InjectWithdrawFault(f func(phase string) Fault) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.withdrawFault = f
}

func (e *Exchange) fault(phase string) Fault {
	if e.withdrawFault == nil {
		return FaultNone
	}
	return e.withdrawFault(phase)
}

type withdrawRequest struct {
	QuoteID   *string  `json:"quote_id"`
	Signature *wireSig `json:"signature"`
}

// handleWithdraw is SPEC.md §4.9. The decision is taken under the lock; the
// answer, or the injected fault, happens after it is released.
func (e *Exchange) handleWithdraw(w http.ResponseWriter, r *http.Request) *apiError {
	accepted, f, err := e.withdraw(r, readBody(r))
	if err != nil {
		return err
	}
	switch f {
	case FaultBadGateway:
		w.Header().Set("Content-Type", "text/html")
		w.WriteHeader(http.StatusBadGateway)
		_, _ = w.Write([]byte("<html><body><h1>502 Bad Gateway</h1></body></html>\n"))
	case FaultHang:
		<-r.Context().Done()
	case FaultDrop:
		conn, _, herr := http.NewResponseController(w).Hijack()
		if herr != nil {
			panic(http.ErrAbortHandler) // HTTP/2: net/http's way to reset the stream
		}
		_ = conn.Close()
	default:
		writeJSON(w, http.StatusAccepted, accepted)
	}
	return nil
}

// withdraw checks and executes a withdraw. A repeat of an executed quote
// with the identical signature gets the original answer and moves no money
// (D10); any other signature for it is refused with 409.
func (e *Exchange) withdraw(r *http.Request, body requestBody) (exchange.WithdrawAccepted, Fault, *apiError) {
	var none exchange.WithdrawAccepted
	now := e.lock()
	defer e.mu.Unlock()
	a, err := e.bridgeAccount(r, now, true)
	if err != nil {
		return none, FaultNone, err
	}
	var req withdrawRequest
	if err := body.decode(&req); err != nil {
		return none, FaultNone, err
	}
	id, err := need(req.QuoteID, "quote_id")
	if err != nil {
		return none, FaultNone, err
	}
	key, err := req.Signature.present(false)
	if err != nil {
		return none, FaultNone, err
	}
	q := e.quotes[id]
	if q == nil || q.accountID != a.id {
		return none, FaultNone, fail(exchange.CodeNotFound, "no quote with this quote_id in this account")
	}
	if q.exec != nil {
		if q.exec.sig == key {
			return q.exec.accepted, FaultNone, nil
		}
		return none, FaultNone, fail(exchange.CodeQuoteUsed, "this quote was already executed with another signature; repeat the identical request, or get a new quote")
	}
	if now.After(q.expires) {
		return none, FaultNone, fail(exchange.CodeQuoteExpired, "the quote has expired; get a new quote and sign again")
	}
	s, err := e.check(req.Signature, false, now, withdrawWindow)
	if err != nil {
		return none, FaultNone, err
	}
	if err := e.authorizeTransfer(a, q, s, now); err != nil {
		return none, FaultNone, err
	}
	if err := e.executable(a, q, now); err != nil {
		return none, FaultNone, err
	}
	if f := e.fault(PhaseBeforeCommit); f != FaultNone {
		return none, f, nil
	}
	e.commit(a, q, s, now)
	return q.exec.accepted, e.fault(PhaseAfterCommit), nil
}

// authorizeTransfer requires a main-account signer with ExternalTransfer or
// Admin (2000), a signature over exactly the quote's Transfer (2002) and a
// nonce the signer has not used for another withdrawal (4007).
func (e *Exchange) authorizeTransfer(a *account, q *quote, s sig, now time.Time) *apiError {
	perms := a.signers[s.signer]
	if !perms.has(permExternalTransfer) && !perms.has(permAdmin) {
		if sub, ok := a.subSigners[s.signer]; ok {
			return failf(exchange.CodeUnauthorizedSigner, "signer belongs to trading sub-account %s; withdrawals need a main-account signer with ExternalTransfer or Admin", sub)
		}
		return fail(exchange.CodeUnauthorizedSigner, "signer is not a main-account signer with ExternalTransfer or Admin permission")
	}
	msg := signer.Transfer{
		FromAccount: a.funding, ToAccount: common.HexToAddress(BridgeFundingAddress),
		TokenCurrency: signer.USDTCurrency, NumTokens: numTokens(q.pay), Nonce: s.nonce, Expiration: s.expiration,
	}
	if err := e.verify(s, msg, "the quoted amount and account"); err != nil {
		return err
	}
	if e.nonceUsed(nonceKey{kindTransfer, s.signer, s.nonce}, now) {
		return fail(exchange.CodeDuplicateSignature, "this nonce was already used for another withdrawal; sign with a new nonce")
	}
	return nil
}

// executable applies the execution-time checks of SPEC.md §4.9 and §8:
// address book (9105, it may have changed since the quote), screening
// (9106), balance (4000), the daily limit (9107) and the bridge's
// liquidity (9102).
func (e *Exchange) executable(a *account, q *quote, now time.Time) *apiError {
	switch {
	case !a.addressBook[bookKey(q.to)]:
		return fail(exchange.CodeNotInAddressBook, "the destination is no longer in this account's withdrawal address book")
	case bookKey(q.to) == bookKey(DestFlagged):
		return fail(exchange.CodeAddressFlagged, "address screening flagged the destination; the withdrawal is refused")
	case a.balance.LessThan(q.pay):
		return failf(exchange.CodeInsufficientBalance, "balance of %s USDT does not cover %s USDT", a.balance, q.pay)
	}
	if left := dailyLimit.Sub(a.usedToday(now)); q.pay.GreaterThan(left) {
		return failf(exchange.CodeDailyLimit, "the daily withdrawal limit of %s USDT would be exceeded: %s USDT left today", dailyLimit, left)
	}
	// SPEC.md §8: the bridge's liquidity binds at execution too; payouts
	// executed since the quote may have taken what it was priced on.
	if left := e.liquidityLeft(q.chain); q.pay.GreaterThan(left) {
		return failf(exchange.CodeLimitReached, "the bridge can pay out at most %s USDT on %s right now, payouts in flight holding the rest; get a new quote for a smaller amount, or try later", left, q.chain.name)
	}
	return nil
}

// commit debits the account and starts the payout: SUBMITTED now, its fate
// fixed by the destination.
func (e *Exchange) commit(a *account, q *quote, s sig, now time.Time) {
	a.balance = a.balance.Sub(q.pay)
	q.startPayout(s.key, now)
	a.openQuotes--
	a.countUsed(q, q.pay)
	e.pending.push(now.Add(e.settle).UnixNano(), q)
	e.inFlight[q.chain.name] = e.inFlight[q.chain.name].Add(q.pay)
	e.useNonce(nonceKey{kindTransfer, s.signer, s.nonce}, s.expiration)
}

// startPayout starts q's payout, signed as key (zero for a seeded one):
// SUBMITTED now under a new transfer id, its fate fixed by the destination.
func (q *quote) startPayout(key sigKey, now time.Time) {
	fate := exchange.StateCompleted
	switch bookKey(q.to) {
	case bookKey(DestFailed):
		fate = exchange.StateFailed
	case bookKey(DestRefunded):
		fate = exchange.StateRefunded
	}
	q.exec = &execution{
		sig: key, submitted: now, fate: fate, hash: payoutHash(q.chain.chainType),
		accepted: exchange.WithdrawAccepted{
			QuoteID: q.id, TxID: "tx-" + strings.ToLower(rand.Text()), State: exchange.StateSubmitted,
			ReceiveAmount: q.receive, Fee: bridgeFee, FeeUSD: bridgeFee,
		},
	}
}

// payoutHash makes a destination transaction hash in the chain's own form:
// 0x + 64 hex (EVM), 64 hex (Tron), base58 of a 64-byte signature (Solana).
func payoutHash(chainType string) string {
	switch chainType {
	case exchange.ChainTypeSolana:
		b := make([]byte, 64)
		_, _ = rand.Read(b)
		return base58.Encode(b)
	case exchange.ChainTypeTron:
		b := make([]byte, 32)
		_, _ = rand.Read(b)
		return hex.EncodeToString(b)
	}
	b := make([]byte, 32)
	_, _ = rand.Read(b)
	return "0x" + hex.EncodeToString(b)
}
