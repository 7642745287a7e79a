package sandbox

import (
	"encoding/hex"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/mr-tron/base58"
	"github.com/shopspring/decimal"

	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/signer"
)

func dec(s string) decimal.Decimal { return decimal.RequireFromString(s) }

func wantBalance(t *testing.T, h *harness, account, want string) {
	t.Helper()
	if got := h.ex.Balance(account); !got.Equal(dec(want)) {
		t.Fatalf("balance %s, want %s", got, want)
	}
}

var evmHash = regexp.MustCompile(`^0x[0-9a-f]{64}$`)

func TestWithdrawCompletes(t *testing.T) {
	h := newHarness(t, Options{})
	s := h.login(DemoAPIKey)
	demo := key(t, DemoPrivateKey)
	q := s.quote(DestCompleted, "BASE", "100")
	r := s.withdraw(s.withdrawBody(q, demo, DemoAddress, 77))
	wantStatus(t, r, http.StatusAccepted)
	var acc exchange.WithdrawAccepted
	decode(t, r.body, &acc)
	if acc.QuoteID != q.QuoteID || acc.State != exchange.StateSubmitted || acc.TxID == "" ||
		!acc.ReceiveAmount.Equal(dec("98.5")) || !acc.Fee.Equal(dec("1.5")) || !acc.FeeUSD.Equal(dec("1.5")) {
		t.Fatalf("accepted %+v", acc)
	}
	wantBalance(t, h, DemoAccountID, "9900")

	steps := []struct {
		advance time.Duration
		state   string
		since   time.Duration
	}{
		{0, exchange.StateSubmitted, 0},
		{2999 * time.Millisecond, exchange.StateSubmitted, 0},
		{time.Millisecond, exchange.StateSending, 3 * time.Second},
		{2999 * time.Millisecond, exchange.StateSending, 3 * time.Second},
		{time.Millisecond, exchange.StateCompleted, 6 * time.Second},
		{time.Hour, exchange.StateCompleted, 6 * time.Second},
	}
	for _, st := range steps {
		h.clock.Advance(st.advance)
		w := s.status(q.QuoteID)
		if w.State != st.state || !w.UpdatedAt.Equal(t0.Add(st.since)) || w.TxID != acc.TxID {
			t.Fatalf("at +%s: %+v, want %s since +%s", h.clock.Now().Sub(t0), w, st.state, st.since)
		}
		if (w.WithdrawTxHash != "") != (st.state == exchange.StateCompleted) {
			t.Fatalf("%s with hash %q", w.State, w.WithdrawTxHash)
		}
		if w.State == exchange.StateCompleted && !evmHash.MatchString(w.WithdrawTxHash) {
			t.Fatalf("EVM payout hash %q", w.WithdrawTxHash)
		}
	}
	wantBalance(t, h, DemoAccountID, "9900")
}

func TestWithdrawNonEVMHashes(t *testing.T) {
	h := newHarness(t, Options{})
	s := h.login(DemoAPIKey)
	demo := key(t, DemoPrivateKey)
	qs := s.quote(DestSolana, "SOLANA", "10")
	qt := s.quote(DestTron, "TRON", "10")
	wantStatus(t, s.withdraw(s.withdrawBody(qs, demo, DemoAddress, 1)), http.StatusAccepted)
	wantStatus(t, s.withdraw(s.withdrawBody(qt, demo, DemoAddress, 2)), http.StatusAccepted)
	h.clock.Advance(DefaultSettle)
	if b, err := base58.Decode(s.status(qs.QuoteID).WithdrawTxHash); err != nil || len(b) != 64 {
		t.Errorf("Solana payout hash: %d bytes, %v", len(b), err)
	}
	th := s.status(qt.QuoteID).WithdrawTxHash
	if b, err := hex.DecodeString(th); err != nil || len(b) != 32 {
		t.Errorf("Tron payout hash %q", th)
	}
}

func TestWithdrawFailed(t *testing.T) {
	h := newHarness(t, Options{Settle: 10 * time.Second})
	s := h.login(DemoAPIKey)
	q := s.quote(DestFailed, "POLYGON", "50")
	wantStatus(t, s.withdraw(s.withdrawBody(q, key(t, DemoPrivateKey), DemoAddress, 1)), http.StatusAccepted)
	h.clock.Advance(5 * time.Second)
	if w := s.status(q.QuoteID); w.State != exchange.StateSending {
		t.Fatalf("state %s at half of Settle", w.State)
	}
	h.clock.Advance(5 * time.Second)
	w := s.status(q.QuoteID)
	if w.State != exchange.StateFailed || w.WithdrawTxHash != "" || !w.UpdatedAt.Equal(t0.Add(10*time.Second)) {
		t.Fatalf("status %+v", w)
	}
	wantBalance(t, h, DemoAccountID, "9950")
}

func TestWithdrawRefundedOnce(t *testing.T) {
	h := newHarness(t, Options{})
	s := h.login(DemoAPIKey)
	q := s.quote(DestRefunded, "ARBITRUM", "3000")
	wantStatus(t, s.withdraw(s.withdrawBody(q, key(t, DemoPrivateKey), DemoAddress, 1)), http.StatusAccepted)
	wantBalance(t, h, DemoAccountID, "7000")
	// The refund lands when the clock passes, before anyone reads the status.
	h.clock.Advance(DefaultSettle)
	wantBalance(t, h, DemoAccountID, "10000")
	for range 3 {
		if w := s.status(q.QuoteID); w.State != exchange.StateRefunded {
			t.Fatalf("state %s", w.State)
		}
		h.clock.Advance(time.Minute)
	}
	wantBalance(t, h, DemoAccountID, "10000")
	// A refunded withdrawal no longer counts against the daily limit.
	s.quote(DestCompleted, "BASE", "5000")
}

func TestWithdrawIdempotent(t *testing.T) {
	h := newHarness(t, Options{})
	s := h.login(DemoAPIKey)
	demo := key(t, DemoPrivateKey)
	q := s.quote(DestCompleted, "BASE", "10")
	body := s.withdrawBody(q, demo, DemoAddress, 5)
	first := s.withdraw(body)
	wantStatus(t, first, http.StatusAccepted)
	// Past the quote's expiry and into SENDING, the repeat still gets the original answer.
	h.clock.Advance(5 * time.Second)
	h.clock.Advance(time.Minute)
	again := s.withdraw(body)
	wantStatus(t, again, http.StatusAccepted)
	if string(again.body) != string(first.body) {
		t.Fatalf("repeat answered %s, first %s", again.body, first.body)
	}
	wantBalance(t, h, DemoAccountID, "9990")

	other := s.withdrawBody(q, demo, DemoAddress, 6)
	wantError(t, s.withdraw(other), exchange.CodeQuoteUsed)
	tampered := toMap(t, body)
	sigMap(tampered)["v"] = 55 - sigMap(tampered)["v"].(float64)
	wantError(t, s.withdraw(tampered), exchange.CodeQuoteUsed)
	wantBalance(t, h, DemoAccountID, "9990")
}

func TestWithdrawNonceReuse(t *testing.T) {
	h := newHarness(t, Options{})
	s := h.login(DemoAPIKey)
	demo := key(t, DemoPrivateKey)
	q1 := s.quote(DestCompleted, "BASE", "10")
	q2 := s.quote(DestCompleted, "BASE", "10")
	wantStatus(t, s.withdraw(s.withdrawBody(q1, demo, DemoAddress, 9)), http.StatusAccepted)
	// Same amount, same nonce: the signature verifies, the nonce is spent.
	wantError(t, s.withdraw(s.withdrawBody(q2, demo, DemoAddress, 9)), exchange.CodeDuplicateSignature)
	wantStatus(t, s.withdraw(s.withdrawBody(q2, demo, DemoAddress, 10)), http.StatusAccepted)
	wantBalance(t, h, DemoAccountID, "9980")
}

func TestWithdrawRejections(t *testing.T) {
	h := newHarness(t, Options{})
	s := h.login(DemoAPIKey)
	demo := key(t, DemoPrivateKey)
	q := s.quote(DestCompleted, "BASE", "100")
	valid := func() map[string]any { return toMap(t, s.withdrawBody(q, demo, DemoAddress, 3)) }
	signed := func(k signer.Key, m signer.Transfer) map[string]any {
		return toMap(t, exchange.WithdrawRequest{QuoteID: q.QuoteID, Signature: exchange.NewWithdrawSignature(h.sign(k, m))})
	}
	day := t0.Add(24 * time.Hour)
	cases := []struct {
		name  string
		body  func() map[string]any
		code  exchange.Code
		words []string
	}{
		{"unknown quote", func() map[string]any {
			b := valid()
			b["quote_id"] = "q-unknown"
			return b
		}, exchange.CodeNotFound, nil},
		{"no quote id", func() map[string]any {
			b := valid()
			delete(b, "quote_id")
			return b
		}, exchange.CodeMalformed, []string{"quote_id"}},
		{"no nonce", func() map[string]any {
			b := valid()
			delete(sigMap(b), "nonce")
			return b
		}, exchange.CodeMalformed, []string{"signature.nonce"}},
		{"v 29", func() map[string]any {
			b := valid()
			sigMap(b)["v"] = 29
			return b
		}, exchange.CodeBadV, nil},
		{"r too long", func() map[string]any {
			b := valid()
			sigMap(b)["r"] = sigMap(b)["r"].(string) + "00"
			return b
		}, exchange.CodeBadRS, nil},
		{"r without 0x", func() map[string]any {
			b := valid()
			sigMap(b)["r"] = "00" + sigMap(b)["r"].(string)[2:]
			return b
		}, exchange.CodeBadRS, nil},
		{"high s", func() map[string]any {
			b := valid()
			highS(sigMap(b))
			return b
		}, exchange.CodeHighS, []string{"lower half"}},
		{"expiration not a number", func() map[string]any {
			b := valid()
			sigMap(b)["expiration"] = "1e18"
			return b
		}, exchange.CodeMalformed, []string{"signature.expiration"}},
		// As strconv.FormatInt writes it: the signed value's one decimal
		// string, as D8 holds amounts to plain digits.
		{"expiration with a plus", func() map[string]any {
			b := valid()
			sigMap(b)["expiration"] = "+" + sigMap(b)["expiration"].(string)
			return b
		}, exchange.CodeMalformed, []string{"signature.expiration"}},
		{"expiration with a leading zero", func() map[string]any {
			b := valid()
			sigMap(b)["expiration"] = "0" + sigMap(b)["expiration"].(string)
			return b
		}, exchange.CodeMalformed, []string{"signature.expiration"}},
		{"expired", func() map[string]any {
			return signed(demo, transfer(t, DemoAddress, q.PayAmount, 3, t0.Add(-time.Nanosecond)))
		}, exchange.CodeSignatureExpired, nil},
		{"over 30 days", func() map[string]any {
			return signed(demo, transfer(t, DemoAddress, q.PayAmount, 3, t0.Add(30*24*time.Hour+time.Nanosecond)))
		}, exchange.CodeExpirationTooFar, []string{"30 days"}},
		{"other chain id", func() map[string]any {
			b := valid()
			sigMap(b)["chain_id"] = 325
			return b
		}, exchange.CodeBadChainID, []string{"325"}},
		{"tampered amount", func() map[string]any {
			return signed(demo, transfer(t, DemoAddress, dec("1"), 3, day))
		}, exchange.CodeSignatureMismatch, []string{"quoted amount"}},
		{"other from account", func() map[string]any {
			return signed(demo, transfer(t, NoChainAddress, q.PayAmount, 3, day))
		}, exchange.CodeSignatureMismatch, nil},
		{"claims the owner, signed by another key", func() map[string]any {
			sg := h.sign(key(t, NoChainPrivateKey), transfer(t, DemoAddress, q.PayAmount, 3, day))
			sg.Signer = demo.Address()
			return toMap(t, exchange.WithdrawRequest{QuoteID: q.QuoteID, Signature: exchange.NewWithdrawSignature(sg)})
		}, exchange.CodeSignatureMismatch, nil},
		{"trading signer", func() map[string]any {
			return signed(key(t, TradingSignerPrivateKey), transfer(t, DemoAddress, q.PayAmount, 3, day))
		}, exchange.CodeUnauthorizedSigner, []string{"sub-1"}},
		{"stranger", func() map[string]any {
			return signed(key(t, BuilderPrivateKey), transfer(t, DemoAddress, q.PayAmount, 3, day))
		}, exchange.CodeUnauthorizedSigner, nil},
		{"null body", func() map[string]any { return nil }, exchange.CodeMalformed, []string{"quote_id"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			wantError(t, s.withdraw(c.body()), c.code, c.words...)
		})
	}
	wantBalance(t, h, DemoAccountID, "10000")
	// chain_id 0 means the environment's; nonce 3 is still unused.
	b := valid()
	sigMap(b)["chain_id"] = 0
	wantStatus(t, s.withdraw(b), http.StatusAccepted)
}

func TestWithdrawQuoteRules(t *testing.T) {
	h := newHarness(t, Options{})
	s := h.login(DemoAPIKey)
	demo := key(t, DemoPrivateKey)

	expired := s.quote(DestCompleted, "BASE", "10")
	h.clock.Advance(DefaultQuoteTTL)
	// expires_at itself is still valid; one tick later it is not.
	live := s.withdrawBody(expired, demo, DemoAddress, 1)
	h.clock.Advance(time.Nanosecond)
	wantError(t, s.withdraw(live), exchange.CodeQuoteExpired)

	other := h.login(NoChainAPIKey)
	theirs := other.quote(DestCompleted, "BASE", "10")
	wantError(t, s.withdraw(s.withdrawBody(theirs, demo, DemoAddress, 2)), exchange.CodeNotFound)

	flagged := s.quote(DestFlagged, "BASE", "10")
	wantError(t, s.withdraw(s.withdrawBody(flagged, demo, DemoAddress, 3)), exchange.CodeAddressFlagged)

	removed := s.quote(DestFailed, "BASE", "10")
	h.ex.RemoveFromAddressBook(DemoAccountID, strings.ToLower(DestFailed))
	wantError(t, s.withdraw(s.withdrawBody(removed, demo, DemoAddress, 4)), exchange.CodeNotInAddressBook)
	wantError(t, s.do(http.MethodPost, exchange.PathWithdrawalQuote, exchange.QuoteRequest{ToAddress: DestFailed, Chain: "BASE", TokenIn: "USDT", TokenOut: "USDT", Amount: "10"}), exchange.CodeNotInAddressBook)

	h.ex.SetBridgeEnabled(DemoAccountID, false)
	wantError(t, s.withdraw(s.withdrawBody(s.quoteWithBridge(h), demo, DemoAddress, 5)), exchange.CodeBridgeDisabled)
	wantBalance(t, h, DemoAccountID, "10000")
}

// quoteWithBridge gets a quote while the bridge is briefly back on.
func (s *sess) quoteWithBridge(h *harness) exchange.Quote {
	h.ex.SetBridgeEnabled(s.accountID, true)
	defer h.ex.SetBridgeEnabled(s.accountID, false)
	return s.quote(DestCompleted, "BASE", "10")
}

func TestWithdrawInsufficientBalance(t *testing.T) {
	h := newHarness(t, Options{})
	s := h.login(NoChainAPIKey)
	q := s.quote(DestCompleted, "BASE", "100.000001")
	wantError(t, s.withdraw(s.withdrawBody(q, key(t, NoChainPrivateKey), NoChainAddress, 1)), exchange.CodeInsufficientBalance, "100")
	wantBalance(t, h, NoChainAccountID, "100")
	q = s.quote(DestCompleted, "BASE", "100")
	wantStatus(t, s.withdraw(s.withdrawBody(q, key(t, NoChainPrivateKey), NoChainAddress, 1)), http.StatusAccepted)
	wantBalance(t, h, NoChainAccountID, "0")
}

func TestWithdrawDailyLimit(t *testing.T) {
	h := newHarness(t, Options{})
	s := h.login(DemoAPIKey)
	demo := key(t, DemoPrivateKey)
	q1 := s.quote(DestCompleted, "BASE", "3000")
	q2 := s.quote(DestCompleted, "BASE", "3000")
	wantStatus(t, s.withdraw(s.withdrawBody(q1, demo, DemoAddress, 1)), http.StatusAccepted)
	wantError(t, s.withdraw(s.withdrawBody(q2, demo, DemoAddress, 2)), exchange.CodeDailyLimit, "2000 USDT left")
	// At quote time the spent part counts too; FAILED and COMPLETED both count.
	wantError(t, s.do(http.MethodPost, exchange.PathWithdrawalQuote, exchange.QuoteRequest{ToAddress: DestCompleted, Chain: "BASE", TokenIn: "USDT", TokenOut: "USDT", Amount: "2000.01"}), exchange.CodeLimitReached, "2000 USDT left")
	h.clock.Advance(DefaultSettle)
	s.quote(DestCompleted, "BASE", "2000")
	// A new UTC day starts afresh.
	h.clock.Set(time.Date(2026, 3, 3, 0, 0, 0, 0, time.UTC))
	s.quote(DestCompleted, "BASE", "5000")
	wantBalance(t, h, DemoAccountID, "7000")
}

// TestWithdrawLiquidityAtExecution: the bridge's liquidity binds at
// execution as at quote time (SPEC.md §8, both): two quotes KAIA's pool
// could each fill, the first executed, the second finds the rest held by
// the payout in flight (9102), and executes once that payout settled.
func TestWithdrawLiquidityAtExecution(t *testing.T) {
	h := newHarness(t, Options{})
	s := h.login(DemoAPIKey)
	demo := key(t, DemoPrivateKey)
	q1 := s.quote(DestCompleted, "KAIA", "600")
	q2 := s.quote(DestCompleted, "KAIA", "600")
	wantStatus(t, s.withdraw(s.withdrawBody(q1, demo, DemoAddress, 1)), http.StatusAccepted)
	wantError(t, s.withdraw(s.withdrawBody(q2, demo, DemoAddress, 2)), exchange.CodeLimitReached, "at most 400 USDT on KAIA")
	wantError(t, s.do(http.MethodPost, exchange.PathWithdrawalQuote, exchange.QuoteRequest{ToAddress: DestCompleted, Chain: "KAIA", TokenIn: "USDT", TokenOut: "USDT", Amount: "400.01"}), exchange.CodeLimitReached, "at most 400 USDT on KAIA")
	s.quote(DestCompleted, "BASE", "600") // another chain's pool is its own
	wantBalance(t, h, DemoAccountID, "9400")
	h.clock.Advance(DefaultSettle)
	wantStatus(t, s.withdraw(s.withdrawBody(q2, demo, DemoAddress, 3)), http.StatusAccepted)
	wantBalance(t, h, DemoAccountID, "8800")
}

// TestWithdrawLiquidityReleasedWhateverTheFate: a payout gives its hold on
// the pool back when it settles, whether it completed, failed or was
// refunded: KAIA's whole pool can be quoted again after each.
func TestWithdrawLiquidityReleasedWhateverTheFate(t *testing.T) {
	h := newHarness(t, Options{})
	s := h.login(DemoAPIKey)
	demo := key(t, DemoPrivateKey)
	for i, to := range []string{DestCompleted, DestFailed, DestRefunded} {
		q := s.quote(to, "KAIA", "1000")
		wantStatus(t, s.withdraw(s.withdrawBody(q, demo, DemoAddress, uint32(i+1))), http.StatusAccepted)
		h.clock.Advance(DefaultSettle)
		s.quote(DestCompleted, "KAIA", "1000")
	}
}
