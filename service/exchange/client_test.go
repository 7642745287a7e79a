package exchange_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/shopspring/decimal"

	"github.com/svcwallet/svcwallet/service/config"
	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/sandbox"
)

// The success path of every endpoint, client → sandbox over loopback. The
// rejections are in rules_test.go.

func dec(s string) decimal.Decimal { return decimal.RequireFromString(s) }

func TestClientServerTime(t *testing.T) {
	w := newWorld(t, sandbox.Options{})
	w.Clock.Advance(1234567 * time.Microsecond)
	got, err := w.Client(exchange.Options{}).ServerTime(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if want := w.Clock.Now().Truncate(time.Millisecond); !got.Equal(want) {
		t.Fatalf("server time %s, want %s", got, want)
	}
}

func TestClientLoginAPIKey(t *testing.T) {
	w := newWorld(t, sandbox.Options{})
	rec := &recorder{}
	c := w.Client(exchange.Options{HTTPClient: rec.HTTPClient()})
	if _, ok := c.Session(); ok {
		t.Fatal("a new client has a session")
	}
	s, err := c.Login(ctx, exchange.APIKey(sandbox.DemoAPIKey))
	if err != nil {
		t.Fatal(err)
	}
	want := exchange.Session{
		LoginResult: exchange.LoginResult{Status: "success", FundingAccountAddress: sandbox.DemoAddress},
		AccountID:   sandbox.DemoAccountID, Expires: t0.Add(sandbox.DefaultSessionTTL), Method: "API key",
	}
	if !s.Expires.Equal(want.Expires) {
		t.Fatalf("expires %s, want %s", s.Expires, want.Expires)
	}
	s.Expires = want.Expires
	if s != want {
		t.Fatalf("session %+v, want %+v", s, want)
	}
	if got, ok := c.Session(); !ok || got.AccountID != sandbox.DemoAccountID {
		t.Fatalf("Session() = %+v, %v", got, ok)
	}
	// The login sends "Cookie: rm=true" as the spec's sample does.
	if ck, err := rec.Requests()[0].Cookie("rm"); err != nil || ck.Value != "true" {
		t.Fatalf("login request without rm=true: %v", err)
	}

	// The trading key's login names its sub-account.
	tr, err := w.Client(exchange.Options{}).Login(ctx, exchange.APIKey(sandbox.TradingAPIKey))
	if err != nil || tr.SubAccountID != sandbox.TradingSubAccountID || tr.AccountID != sandbox.DemoAccountID {
		t.Fatalf("trading login %+v, %v", tr, err)
	}

	// Logout forgets the session: nothing more is sent with it.
	c.Logout()
	if _, ok := c.Session(); ok {
		t.Fatal("session kept after logout")
	}
	_, err = c.WithdrawalInfo(ctx)
	wantAPIError(t, err, exchange.CodeNotAuthenticated, http.StatusUnauthorized)
}

func TestClientLoginWallet(t *testing.T) {
	w := newWorld(t, sandbox.Options{})
	for _, k := range []struct{ key, account, funding string }{
		{sandbox.DemoPrivateKey, sandbox.DemoAccountID, sandbox.DemoAddress},
		{sandbox.NoChainPrivateKey, sandbox.NoChainAccountID, sandbox.NoChainAddress},
	} {
		c := w.Client(exchange.Options{})
		s, err := c.Login(ctx, exchange.Wallet(mustKey(t, k.key)))
		if err != nil {
			t.Fatal(err)
		}
		if s.AccountID != k.account || s.FundingAccountAddress != k.funding || s.Method != "wallet" || s.Status != "success" {
			t.Fatalf("wallet login %+v", s)
		}
		if _, err := c.WithdrawalInfo(ctx); err != nil {
			t.Fatalf("the wallet session does not open the bridge: %v", err)
		}
	}
}

// TestClientDepositAPIKeyMode: Options.APIKey alone opens the deposit
// endpoints: no login, no cookie, the key in X-API-Key.
func TestClientDepositAPIKeyMode(t *testing.T) {
	w := newWorld(t, sandbox.Options{})
	rec := &recorder{}
	c := w.Client(exchange.Options{APIKey: sandbox.DemoAPIKey, HTTPClient: rec.HTTPClient()})
	chains, err := c.DepositAddresses(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, ch := range chains {
		names = append(names, ch.Chain)
		if len(ch.SupportedTokens) != 2 || ch.SupportedTokens[0].ContractAddress == "" {
			t.Errorf("%s tokens %+v", ch.Chain, ch.SupportedTokens)
		}
		if (ch.DepositAddress == "") != (ch.Chain == "SOLANA") {
			t.Errorf("%s deposit address %q (only the on-demand SOLANA is empty)", ch.Chain, ch.DepositAddress)
		}
	}
	if got := strings.Join(names, ","); got != "ARBITRUM,BASE,BSC,KAIA,POLYGON,TRON,SOLANA" {
		t.Fatalf("chains %s", got)
	}

	// Generation is idempotent and case-insensitive.
	first, err := c.GenerateAddress(ctx, "solana")
	if err != nil {
		t.Fatal(err)
	}
	if first.Chain != "SOLANA" || first.ChainID != "solana" || exchange.ValidateAddress(exchange.ChainTypeSolana, first.DepositAddress) != nil {
		t.Fatalf("generated %+v", first)
	}
	for _, name := range []string{"solana", "Solana", "SOLANA"} {
		again, err := c.GenerateAddress(ctx, name)
		if err != nil || again.DepositAddress != first.DepositAddress {
			t.Fatalf("generate %q again: %+v, %v; want %s", name, again, err, first.DepositAddress)
		}
	}
	chains, err = c.DepositAddresses(ctx)
	if err != nil || chains[6].DepositAddress != first.DepositAddress {
		t.Fatalf("listing after generation: %+v, %v", chains[6], err)
	}
	// A ready chain answers with its existing address.
	bsc, err := c.GenerateAddress(ctx, "bsc")
	if err != nil || bsc.DepositAddress != chains[2].DepositAddress {
		t.Fatalf("generate bsc: %+v, %v", bsc, err)
	}

	for _, req := range rec.Requests() {
		if req.Header.Get(exchange.HeaderAPIKey) != sandbox.DemoAPIKey || req.Header.Get("Cookie") != "" || req.Header.Get(config.HeaderAccountID) != "" {
			t.Fatalf("%s %s sent X-API-Key %q, Cookie %q, account id %q; want the key only",
				req.Method, req.URL.Path, req.Header.Get(exchange.HeaderAPIKey), req.Header.Get("Cookie"), req.Header.Get(config.HeaderAccountID))
		}
	}
	if rec.Logins() != 0 {
		t.Fatal("API-key mode logged in")
	}
}

// TestClientDepositSessionMode: after a login the deposit endpoints go with
// the session cookie and account id, not an API key.
func TestClientDepositSessionMode(t *testing.T) {
	w := newWorld(t, sandbox.Options{})
	rec := &recorder{}
	c := w.Login(sandbox.DemoAPIKey, exchange.Options{HTTPClient: rec.HTTPClient()})
	chains, err := c.DepositAddresses(ctx)
	if err != nil || len(chains) != 7 {
		t.Fatalf("%d chains, %v", len(chains), err)
	}
	sol, err := c.GenerateAddress(ctx, "SOLANA")
	if err != nil || sol.DepositAddress == "" {
		t.Fatalf("generate: %+v, %v", sol, err)
	}
	for _, req := range rec.Requests()[1:] {
		if ck, err := req.Cookie(config.SessionCookie); err != nil || ck.Value != rec.Cookies()[0] ||
			req.Header.Get(config.HeaderAccountID) != sandbox.DemoAccountID || req.Header.Get(exchange.HeaderAPIKey) != "" {
			t.Fatalf("%s %s: headers %v", req.Method, req.URL.Path, req.Header)
		}
	}
}

// TestClientDepositProviderUnreachable: contract addresses come from the
// bridge provider; while it is down they are empty, the rest is served.
func TestClientDepositProviderUnreachable(t *testing.T) {
	w := newWorld(t, sandbox.Options{})
	c := w.Client(exchange.Options{APIKey: sandbox.DemoAPIKey})
	w.Ex.SetProviderReachable(false)
	chains, err := c.DepositAddresses(ctx)
	if err != nil || len(chains) != 7 {
		t.Fatalf("%d chains, %v", len(chains), err)
	}
	for _, ch := range chains {
		for _, tok := range ch.SupportedTokens {
			if tok.ContractAddress != "" || tok.ContractText() != "unknown: provider unreachable" {
				t.Fatalf("%s %s contract %q while the provider is down", ch.Chain, tok.Name, tok.ContractAddress)
			}
		}
	}
	sol, err := c.GenerateAddress(ctx, "solana")
	if err != nil || sol.DepositAddress == "" || sol.SupportedTokens[0].ContractAddress != "" {
		t.Fatalf("generate while the provider is down: %+v, %v", sol, err)
	}
	w.Ex.SetProviderReachable(true)
	if chains, err := c.DepositAddresses(ctx); err != nil || chains[0].SupportedTokens[0].ContractAddress == "" {
		t.Fatalf("contracts still empty once the provider is back: %v", err)
	}
}

func TestClientWithdrawalInfo(t *testing.T) {
	w := newWorld(t, sandbox.Options{})
	info, err := w.Login(sandbox.DemoAPIKey, exchange.Options{}).WithdrawalInfo(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if info.Provider != sandbox.Provider || info.FundingAddress != sandbox.BridgeFundingAddress {
		t.Fatalf("info %+v", info)
	}
	if usdc, ok := info.Route[exchange.TokenUSDC]; !ok || len(usdc) != 0 {
		t.Fatalf("USDC routes %v (present: %v), want an empty list", usdc, ok)
	}
	types := map[string]string{}
	for _, r := range info.Route[exchange.TokenUSDT] {
		types[r.Chain] = r.ChainType
		if r.ChainID == "" || len(r.TokensOut) == 0 || r.TokensOut[0] != exchange.TokenUSDT {
			t.Errorf("route %+v", r)
		}
	}
	if len(types) != 7 || types["SOLANA"] != exchange.ChainTypeSolana || types["TRON"] != exchange.ChainTypeTron || types["BASE"] != exchange.ChainTypeEVM {
		t.Fatalf("route chain types %v", types)
	}
}

func TestClientQuote(t *testing.T) {
	w := newWorld(t, sandbox.Options{})
	c := w.Login(sandbox.DemoAPIKey, exchange.Options{})
	for _, tc := range []struct {
		to, chain, tokenOut, amount, receive, speed string
	}{
		{sandbox.DestCompleted, "BASE", "USDT", "100", "98.5", exchange.SpeedFast},
		// USDC is paid at the bridge's rate (sandbox.USDCPerUSDT): 9 × 1.0002,
		// above pay − fee, as an honest converting quote may be.
		{sandbox.DestCompleted, "bsc", "USDC", "10.5", "9.0018", exchange.SpeedSlow},
		{sandbox.DestSolana, "SOLANA", "USDT", "25", "23.5", exchange.SpeedFast},
		{sandbox.DestTron, "TRON", "USDT", "2", "0.5", exchange.SpeedFast},
	} {
		q, err := c.Quote(ctx, exchange.QuoteRequest{ToAddress: tc.to, Chain: tc.chain, TokenIn: "USDT", TokenOut: tc.tokenOut, Amount: tc.amount})
		if err != nil {
			t.Fatalf("quote %+v: %v", tc, err)
		}
		pay := dec(tc.amount)
		if q.QuoteID == "" || !q.PayAmount.Equal(pay) || !q.ReceiveAmount.Equal(dec(tc.receive)) || !q.Fee.Equal(dec("1.5")) ||
			!q.FeeUSD.Equal(dec("1.5")) || q.Speed != tc.speed || !q.ExpiresAt.Equal(t0.Add(sandbox.DefaultQuoteTTL)) {
			t.Fatalf("quote %+v for %+v", q, tc)
		}
		// Creating a quote moves no money; the quote is CREATED.
		st, err := c.WithdrawalStatus(ctx, q.QuoteID)
		if err != nil || st.State != exchange.StateCreated || st.TxID != "" {
			t.Fatalf("status of a fresh quote: %+v, %v", st, err)
		}
	}
	w.wantBalance(sandbox.DemoAccountID, sandbox.DemoBalance)
}

// TestClientWithdrawCompletes: execute, then SUBMITTED → SENDING →
// COMPLETED on the sandbox clock, the payout hash appearing at the end.
func TestClientWithdrawCompletes(t *testing.T) {
	w := newWorld(t, sandbox.Options{})
	c := w.Login(sandbox.DemoAPIKey, exchange.Options{})
	q, err := w.Quote(c, sandbox.DestCompleted, "ARBITRUM", "100")
	if err != nil {
		t.Fatal(err)
	}
	acc, err := c.Withdraw(ctx, w.signWithdraw(c, q, mustKey(t, sandbox.DemoPrivateKey), nil))
	if err != nil {
		t.Fatal(err)
	}
	if acc.QuoteID != q.QuoteID || acc.State != exchange.StateSubmitted || acc.TxID == "" ||
		!acc.ReceiveAmount.Equal(dec("98.5")) || !acc.Fee.Equal(dec("1.5")) || !acc.FeeUSD.Equal(dec("1.5")) {
		t.Fatalf("accepted %+v", acc)
	}
	w.wantBalance(sandbox.DemoAccountID, "9900")
	for _, step := range []struct {
		advance time.Duration
		state   string
		since   time.Duration
	}{
		{0, exchange.StateSubmitted, 0},
		{sandbox.DefaultSettle/2 - time.Millisecond, exchange.StateSubmitted, 0},
		{time.Millisecond, exchange.StateSending, sandbox.DefaultSettle / 2},
		{sandbox.DefaultSettle/2 - time.Millisecond, exchange.StateSending, sandbox.DefaultSettle / 2},
		{time.Millisecond, exchange.StateCompleted, sandbox.DefaultSettle},
		{time.Hour, exchange.StateCompleted, sandbox.DefaultSettle},
	} {
		w.Clock.Advance(step.advance)
		st, err := c.WithdrawalStatus(ctx, q.QuoteID)
		if err != nil {
			t.Fatal(err)
		}
		if st.State != step.state || !st.UpdatedAt.Equal(t0.Add(step.since)) || st.TxID != acc.TxID ||
			st.Chain != "ARBITRUM" || st.TokenOut != "USDT" || !st.ReceiveAmount.Equal(dec("98.5")) {
			t.Fatalf("at +%s: %+v, want %s since +%s", w.Clock.Now().Sub(t0), st, step.state, step.since)
		}
		if (st.WithdrawTxHash != "") != (st.State == exchange.StateCompleted) {
			t.Fatalf("%s with payout hash %q", st.State, st.WithdrawTxHash)
		}
		if exchange.Terminal(st.State) != (st.State == exchange.StateCompleted) {
			t.Fatalf("Terminal(%s) wrong", st.State)
		}
	}
	w.wantBalance(sandbox.DemoAccountID, "9900")
}

// TestClientWithdrawRefunded: a REFUNDED withdrawal returns the funds once,
// however often the status is read afterwards.
func TestClientWithdrawRefunded(t *testing.T) {
	w := newWorld(t, sandbox.Options{})
	c := w.Login(sandbox.DemoAPIKey, exchange.Options{})
	q, err := w.Quote(c, sandbox.DestRefunded, "BASE", "3000")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Withdraw(ctx, w.signWithdraw(c, q, mustKey(t, sandbox.DemoPrivateKey), nil)); err != nil {
		t.Fatal(err)
	}
	w.wantBalance(sandbox.DemoAccountID, "7000")
	w.Clock.Advance(sandbox.DefaultSettle / 2)
	if st, err := c.WithdrawalStatus(ctx, q.QuoteID); err != nil || st.State != exchange.StateSending {
		t.Fatalf("status %+v, %v; want SENDING", st, err)
	}
	w.wantBalance(sandbox.DemoAccountID, "7000")
	w.Clock.Advance(sandbox.DefaultSettle / 2)
	for range 3 {
		st, err := c.WithdrawalStatus(ctx, q.QuoteID)
		if err != nil || st.State != exchange.StateRefunded || st.WithdrawTxHash != "" || !exchange.Terminal(st.State) {
			t.Fatalf("status %+v, %v; want REFUNDED", st, err)
		}
		w.wantBalance(sandbox.DemoAccountID, "10000")
		w.Clock.Advance(time.Minute)
	}
	// The refunded amount does not count against the daily limit.
	if _, err := w.Quote(c, sandbox.DestCompleted, "BASE", "5000"); err != nil {
		t.Fatalf("full daily limit after a refund: %v", err)
	}
}

// TestClientWithdrawFailed: FAILED is terminal and keeps the funds debited.
func TestClientWithdrawFailed(t *testing.T) {
	w := newWorld(t, sandbox.Options{})
	c := w.Login(sandbox.DemoAPIKey, exchange.Options{})
	q, err := w.Quote(c, sandbox.DestFailed, "POLYGON", "50")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Withdraw(ctx, w.signWithdraw(c, q, mustKey(t, sandbox.DemoPrivateKey), nil)); err != nil {
		t.Fatal(err)
	}
	w.Clock.Advance(sandbox.DefaultSettle)
	st, err := c.WithdrawalStatus(ctx, q.QuoteID)
	if err != nil || st.State != exchange.StateFailed || st.WithdrawTxHash != "" || !exchange.Terminal(st.State) {
		t.Fatalf("status %+v, %v; want FAILED", st, err)
	}
	w.wantBalance(sandbox.DemoAccountID, "9950")
}

// TestClientWithdrawRepeatSameNonce: the identical request again (a retry
// after a lost answer) gets the original 202 and moves the money once.
func TestClientWithdrawRepeatSameNonce(t *testing.T) {
	w := newWorld(t, sandbox.Options{})
	c := w.Login(sandbox.DemoAPIKey, exchange.Options{})
	q, err := w.Quote(c, sandbox.DestCompleted, "BASE", "10")
	if err != nil {
		t.Fatal(err)
	}
	req := w.signWithdraw(c, q, mustKey(t, sandbox.DemoPrivateKey), nil)
	first, err := c.Withdraw(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	w.Clock.Advance(sandbox.DefaultSettle) // even after settlement and past the quote's expiry
	w.Clock.Advance(sandbox.DefaultQuoteTTL)
	again, err := c.Withdraw(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	if again.QuoteID != first.QuoteID || again.TxID != first.TxID || again.State != exchange.StateSubmitted ||
		!again.ReceiveAmount.Equal(first.ReceiveAmount) || !again.Fee.Equal(first.Fee) {
		t.Fatalf("repeat answered %+v, first %+v", again, first)
	}
	w.wantBalance(sandbox.DemoAccountID, "9990")
}

// TestClientWithdrawChainIDOmitted: chain_id 0 is left out of the withdraw
// body and means the environment's chain id.
func TestClientWithdrawChainIDOmitted(t *testing.T) {
	w := newWorld(t, sandbox.Options{})
	c := w.Login(sandbox.DemoAPIKey, exchange.Options{})
	q, err := w.Quote(c, sandbox.DestCompleted, "BASE", "10")
	if err != nil {
		t.Fatal(err)
	}
	req := w.signWithdraw(c, q, mustKey(t, sandbox.DemoPrivateKey), nil)
	req.Signature.ChainID = 0
	if b, _ := json.Marshal(req); strings.Contains(string(b), "chain_id") {
		t.Fatalf("chain_id 0 is sent: %s", b)
	}
	if _, err := c.Withdraw(ctx, req); err != nil {
		t.Fatal(err)
	}
	w.wantBalance(sandbox.DemoAccountID, "9990")
}

// TestClientWithdrawNonEVM: Solana and Tron destinations pay out too.
func TestClientWithdrawNonEVM(t *testing.T) {
	w := newWorld(t, sandbox.Options{})
	c := w.Login(sandbox.DemoAPIKey, exchange.Options{})
	key := mustKey(t, sandbox.DemoPrivateKey)
	var ids []string
	for _, d := range []struct{ to, chain string }{{sandbox.DestSolana, "SOLANA"}, {sandbox.DestTron, "TRON"}} {
		q, err := w.Quote(c, d.to, d.chain, "20")
		if err != nil {
			t.Fatal(err)
		}
		if _, err := c.Withdraw(ctx, w.signWithdraw(c, q, key, nil)); err != nil {
			t.Fatal(err)
		}
		ids = append(ids, q.QuoteID)
	}
	w.Clock.Advance(sandbox.DefaultSettle)
	for _, id := range ids {
		if st, err := c.WithdrawalStatus(ctx, id); err != nil || st.State != exchange.StateCompleted || st.WithdrawTxHash == "" {
			t.Fatalf("status %+v, %v", st, err)
		}
	}
	w.wantBalance(sandbox.DemoAccountID, "9960")
}

// TestClientBuilderAuthorize: both modes through the client. The API-key
// mode's key then logs in, its login naming the builder's access, and the
// builder's signer can sign withdrawals of the account.
func TestClientBuilderAuthorize(t *testing.T) {
	w := newWorld(t, sandbox.Options{})
	c := w.Client(exchange.Options{})
	demo := mustKey(t, sandbox.DemoPrivateKey)
	res, err := c.AuthorizeBuilder(ctx, w.builderRequest(demo, common.Address{}, "", 1, t0.Add(7*24*time.Hour)))
	if err != nil || res.APIKey != "" {
		t.Fatalf("authorize without a key: %+v, %v", res, err)
	}

	bot := mustKey(t, sandbox.NoChainPrivateKey) // any key pair the builder made for the user
	res, err = c.AuthorizeBuilder(ctx, w.builderRequest(demo, bot.Address(), "ExternalTransfer&Trade", 2, t0.Add(30*24*time.Hour)))
	if err != nil || res.APIKey == "" {
		t.Fatalf("authorize with a key: %+v, %v", res, err)
	}
	bc := w.Client(exchange.Options{})
	s, err := bc.Login(ctx, exchange.APIKey(res.APIKey))
	if err != nil {
		t.Fatal(err)
	}
	if s.AccountID != sandbox.DemoAccountID || s.FundingAccountAddress != sandbox.DemoAddress || s.Location != "builder:"+sandbox.BuilderAddress {
		t.Fatalf("builder key login %+v", s)
	}
	q, err := w.Quote(bc, sandbox.DestCompleted, "BASE", "10")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := bc.Withdraw(ctx, w.signWithdraw(bc, q, bot, nil)); err != nil {
		t.Fatalf("withdraw signed by the builder's ExternalTransfer signer: %v", err)
	}
}
