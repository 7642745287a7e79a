package withdrawal_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/shopspring/decimal"

	"github.com/svcwallet/svcwallet/internal/loopback"
	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/journal"
	"github.com/svcwallet/svcwallet/service/sandbox"
	"github.com/svcwallet/svcwallet/service/withdrawal"
	"github.com/svcwallet/svcwallet/signer"
)

// order prices a 25 USDT withdrawal and builds its Transfer as the console does.
func (w *world) order(c *exchange.Client) withdrawal.Order {
	w.T.Helper()
	info, err := c.WithdrawalInfo(context.Background())
	if err != nil {
		w.T.Fatal(err)
	}
	q, err := w.Quote(c, sandbox.DestCompleted, "ARBITRUM", "25")
	if err != nil {
		w.T.Fatal(err)
	}
	choice := withdrawal.Choice{Info: info, TokenIn: exchange.TokenUSDT, TokenOut: exchange.TokenUSDT, ToAddress: sandbox.DestCompleted,
		Route: exchange.WithdrawalRoute{Chain: "ARBITRUM"}, Amount: decimal.RequireFromString("25")}
	s, _ := c.Session()
	o, err := withdrawal.NewOrder(choice, withdrawal.PricedQuote{Quote: q}, s.FundingAccountAddress, w.Env.Domain(), 11, w.Clock.Now())
	if err != nil {
		w.T.Fatal(err)
	}
	return o
}

// TestWithdrawerJournalsBeforeSending: the intent, with the whole typed
// message, is in the journal before the request leaves, and the answer
// after it; a journal that cannot be written sends nothing.
func TestWithdrawerJournalsBeforeSending(t *testing.T) {
	w := newWorld(t, sandbox.Options{})
	c := w.Login(sandbox.DemoAPIKey, exchange.Options{})
	j, err := journal.Open(filepath.Join(t.TempDir(), "journal.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	key := func() (signer.Key, error) { return loopback.MustKey(t, sandbox.DemoPrivateKey), nil }
	o := w.order(c)
	sent := mustWithdrawer(t, withdrawal.Setup{Client: c, Journal: j, Now: w.Clock.Now}).Execute(context.Background(), o, key)
	if sent.Err != nil || sent.Accepted.State != exchange.StateSubmitted {
		t.Fatalf("execute: %+v", sent)
	}
	entries, err := j.Entries()
	if err != nil || len(entries) != 2 || entries[0].Kind != journal.KindIntent || entries[1].Kind != journal.KindAccepted {
		t.Fatalf("journal %+v (%v), want the intent then the acceptance", entries, err)
	}
	// The intent line holds exactly what was signed: the request's signer is
	// recovered from the journaled domain and transfer.
	in := entries[0]
	if in.Transfer == nil || in.Domain == nil || *in.Transfer != o.Transfer || in.Intent.PayAmount.String() != "25" {
		t.Fatalf("intent line %+v lacks the signed transfer", in)
	}
	sig := in.Request.Signature
	if got, err := signer.Recover(*in.Domain, *in.Transfer, common.HexToHash(sig.R), common.HexToHash(sig.S), sig.V); err != nil || got != loopback.MustKey(t, sandbox.DemoPrivateKey).Address() {
		t.Fatalf("the journaled typed data recovers %s (%v), want the demo signer", got, err)
	}

	// A directory where the journal file should be: no write can succeed,
	// not even as root.
	path := filepath.Join(t.TempDir(), "journal.jsonl")
	broken, err := journal.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(path, 0o700); err != nil {
		t.Fatal(err)
	}
	second := w.order(c)
	if sent := mustWithdrawer(t, withdrawal.Setup{Client: c, Journal: broken, Now: w.Clock.Now}).Execute(context.Background(), second, key); sent.Err == nil {
		t.Fatal("sent with a journal that cannot be written")
	}
	if st, err := c.WithdrawalStatus(context.Background(), second.Quote.QuoteID); err != nil || st.State != exchange.StateCreated {
		t.Fatalf("quote %s is %s (%v): the request left without its journal line", second.Quote.QuoteID, st.State, err)
	}
}

// TestNewOrderRefusesWhatTheUserDidNotChoose: a quote paying another amount
// than the one chosen, or a fee over the cap, is not turned into a Transfer.
func TestNewOrderRefusesWhatTheUserDidNotChoose(t *testing.T) {
	w := newWorld(t, sandbox.Options{})
	c := w.Login(sandbox.DemoAPIKey, exchange.Options{})
	o := w.order(c)
	s, _ := c.Session()
	p := withdrawal.PricedQuote{Quote: o.Quote}
	other := o.Choice
	other.Amount = decimal.RequireFromString("20")
	capped := o.Choice
	capped.FeeCap = decimal.NewNullDecimal(o.Quote.Fee.Sub(decimal.RequireFromString("0.01")))
	for name, choice := range map[string]withdrawal.Choice{"another amount": other, "fee over the cap": capped} {
		if _, err := withdrawal.NewOrder(choice, p, s.FundingAccountAddress, w.Env.Domain(), 1, w.Clock.Now()); err == nil {
			t.Errorf("%s: signed anyway", name)
		}
	}
}

// TestWithdrawerChecksTheBridgeAgainAtSigning: without a pin, the first
// bridge address is recorded once a Transfer to it is accepted; an address
// recorded meanwhile (another console) stops the withdrawal before the
// journal or the service sees it, and says it was signed.
func TestWithdrawerChecksTheBridgeAgainAtSigning(t *testing.T) {
	w := newWorld(t, sandbox.Options{})
	env := w.Env
	env.BridgeFundingAddress = "" // trust on first use
	c := exchange.New(env, exchange.Options{Now: w.Clock.Now})
	if _, err := c.Login(context.Background(), exchange.APIKey(sandbox.DemoAPIKey)); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	pins := withdrawal.BridgePinsPath(dir)
	j, err := journal.Open(filepath.Join(dir, "journal.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	key := func() (signer.Key, error) { return loopback.MustKey(t, sandbox.DemoPrivateKey), nil }
	wd := mustWithdrawer(t, withdrawal.Setup{Client: c, Journal: j, Now: w.Clock.Now, BridgePins: pins})

	if err := withdrawal.RecordBridge(env, pins, "0x5FbDB2315678afecb367f032d93F642f64180aa3", w.Clock.Now()); err != nil {
		t.Fatal(err)
	}
	stopped := w.order(c)
	sent := wd.Execute(context.Background(), stopped, key)
	var changed *withdrawal.BridgeChangedError
	if !errors.As(sent.Err, &changed) {
		t.Fatalf("signed to a bridge address other than the recorded one: %+v", sent)
	}
	// Found once signed: its words do not say nothing was.
	if said := sent.Err.Error(); !strings.Contains(said, "this one was signed and not sent, so its signature was never used") || strings.Contains(said, "nothing was signed") {
		t.Errorf("the change found once signed says %q", said)
	}
	if entries, _ := j.Entries(); len(entries) != 0 {
		t.Fatalf("journaled %+v for a stopped withdrawal", entries)
	}
	if st, err := c.WithdrawalStatus(context.Background(), stopped.Quote.QuoteID); err != nil || st.State != exchange.StateCreated {
		t.Fatalf("the stopped withdrawal is %s (%v)", st.State, err)
	}

	if err := os.Remove(pins); err != nil {
		t.Fatal(err)
	}
	if sent := wd.Execute(context.Background(), w.order(c), key); sent.Err != nil {
		t.Fatal(sent.Err)
	}
	if tr, err := withdrawal.CheckBridge(env, pins, sandbox.BridgeFundingAddress, w.Clock.Now()); err != nil || tr.FirstUse {
		t.Fatalf("the address signed was not recorded: %+v %v", tr, err)
	}
}

// TestCheckDestinationNamesTheField: each refusal names the input it is
// about, so the form can focus it; a payment link's "ethereum:" is dropped
// on an EVM route, but a link with more than an address is refused, as its
// address may be a token contract.
func TestCheckDestinationNamesTheField(t *testing.T) {
	evm := withdrawal.Choice{TokenIn: exchange.TokenUSDT, Route: exchange.WithdrawalRoute{Chain: "ARBITRUM", ChainType: exchange.ChainTypeEVM}}
	cases := []struct {
		to, amount, feeCap string
		field              withdrawal.Field
		says               string
	}{
		{"", "25", "", withdrawal.FieldDestination, "enter the destination address"},
		{"ethereum:" + sandbox.DestCompleted + "/transfer?address=" + sandbox.DestFailed, "25", "", withdrawal.FieldDestination, "payment link"},
		{sandbox.DestCompleted, "", "", withdrawal.FieldAmount, "amount is empty"},
		{sandbox.DestCompleted, "25", "-1", withdrawal.FieldFeeCap, "fee cap"},
	}
	for _, c := range cases {
		_, err := evm.CheckDestination(c.to, c.amount, c.feeCap)
		var fe *withdrawal.FieldError
		if !errors.As(err, &fe) || fe.Field != c.field || !strings.Contains(err.Error(), c.says) {
			t.Errorf("%q %q %q: %v, want an error about field %d saying %q", c.to, c.amount, c.feeCap, err, c.field, c.says)
		}
	}
	ch, err := evm.CheckDestination("  Ethereum:"+sandbox.DestCompleted, "25", "")
	if err != nil || ch.ToAddress != sandbox.DestCompleted {
		t.Errorf("a payment link: %q, %v", ch.ToAddress, err)
	}
	tron := evm
	tron.Route.ChainType = exchange.ChainTypeTron
	if got := tron.TrimDestination("ethereum:T"); got != "ethereum:T" {
		t.Errorf("on a Tron route the prefix went: %q", got)
	}
}

// TestFeeCapShare: a cap is high above 5% of the amount, not at it.
func TestFeeCapShare(t *testing.T) {
	d := decimal.RequireFromString
	for _, c := range []struct {
		amount, feeCap, share string
		high                  bool
	}{{"25", "1.25", "0.05", false}, {"25", "1.26", "0.0504", true}, {"100", "0", "0", false}, {"0", "1", "0", false}} {
		share, high := withdrawal.FeeCapShare(d(c.amount), d(c.feeCap))
		if !share.Equal(d(c.share)) || high != c.high {
			t.Errorf("cap %s of %s: %s, %v; want %s, %v", c.feeCap, c.amount, share, high, c.share, c.high)
		}
	}
}

// TestFeeCapReadAsAnAmount: a fee cap is read as an amount is (plain
// digits, at most 6 places and 12 digits before the point), zero allowed:
// an exponent took 1e9999, a cap of 10,000 digits the review showed whole,
// and a cap of more than 18 digits (1e30, or typed out) the journal cannot
// hold, so an offline preparation failed once quoted, saying only that
// the journal could not record it.
func TestFeeCapReadAsAnAmount(t *testing.T) {
	for _, s := range []string{"1e9999", "1e3", "2.5e0", "+2", "-0", "-1", "0x10", "10000000000000000000", "1000000000000", "0.0000001", "2,5", "٣", "2 5"} {
		if c, err := withdrawal.ParseFeeCap(s); err == nil {
			t.Errorf("fee cap %q taken (%d characters)", s, len(c.Decimal.String()))
		} else if strings.Contains(err.Error(), s) && len(s) > 3 {
			t.Errorf("fee cap %q refused repeating it: %v", s, err)
		}
	}
	// Too large is said with the bound, so the person knows what to type.
	if _, err := withdrawal.ParseFeeCap("10000000000000"); err == nil || !strings.Contains(err.Error(), "at most 12 digits") {
		t.Errorf("fee cap of 14 digits: %v, want the bound said", err)
	}
	for s, want := range map[string]string{"0": "0", " 2.5 ": "2.5", "999999999999.999999": "999999999999.999999", "0.000001": "0.000001", "007": "7"} {
		if c, err := withdrawal.ParseFeeCap(s); err != nil || !c.Valid || c.Decimal.String() != want {
			t.Errorf("fee cap %q: %v, %v; want %s", s, c, err, want)
		}
	}
	for _, s := range []string{"", "none", " None "} {
		if c, err := withdrawal.ParseFeeCap(s); err != nil || c.Valid {
			t.Errorf("fee cap %q: %v, %v; want no cap", s, c, err)
		}
	}
}

// TestFeeCapOnWhatTheUserLoses: a quote that declares no fee but pays out
// almost nothing is over a 2 USDT cap; within the cap it can be signed.
func TestFeeCapOnWhatTheUserLoses(t *testing.T) {
	c := withdrawal.Choice{TokenIn: exchange.TokenUSDT, TokenOut: exchange.TokenUSDT, Amount: decimal.RequireFromString("100"), FeeCap: decimal.NewNullDecimal(decimal.RequireFromString("2"))}
	q := exchange.Quote{PayAmount: decimal.RequireFromString("100"), ReceiveAmount: decimal.RequireFromString("0.000001"), Fee: decimal.Zero}
	if got := c.QuoteRefusal(q); !strings.Contains(got, "you would lose 99.999999 USDT (pay 100, receive 0.000001), above your fee cap of 2 USDT") {
		t.Fatalf("refusal = %q", got)
	}
	q.ReceiveAmount = decimal.RequireFromString("98")
	if got := c.QuoteRefusal(q); got != "" {
		t.Fatalf("a 2 USDT loss within a 2 USDT cap refused: %q", got)
	}
	q.ReceiveAmount = decimal.RequireFromString("97.999999")
	if got := c.QuoteRefusal(q); got == "" {
		t.Fatal("a 2.000001 USDT loss passed a 2 USDT cap")
	}
	if got := q.Cost().String(); got != "2.000001" {
		t.Fatalf("Cost = %s", got)
	}
}

// TestNewOrderRefusesWhatIsNotAnAddress: the funding account and the
// bridge's funding address become the Transfer's from and to accounts; text
// that is not an EVM address (here one hex byte too long, which
// common.HexToAddress would cut to another, usable-looking address) is
// refused rather than signed as some other account.
func TestNewOrderRefusesWhatIsNotAnAddress(t *testing.T) {
	now := time.Date(2026, 3, 2, 10, 0, 0, 0, time.UTC)
	d := decimal.RequireFromString
	funding, bridge := sandbox.DemoAddress, sandbox.BridgeFundingAddress
	choice := func(bridge string) withdrawal.Choice {
		return withdrawal.Choice{Info: exchange.WithdrawalInfo{FundingAddress: bridge}, TokenIn: exchange.TokenUSDT, TokenOut: exchange.TokenUSDT,
			ToAddress: sandbox.DestCompleted, Route: exchange.WithdrawalRoute{Chain: "ARBITRUM", ChainType: exchange.ChainTypeEVM}, Amount: d("25")}
	}
	p := withdrawal.PricedQuote{Quote: exchange.Quote{QuoteID: "q-1", PayAmount: d("25"), ReceiveAmount: d("24"), Fee: d("1"), ExpiresAt: now.Add(time.Minute)}}
	domain := signer.Domain{Name: signer.DefaultDomainName, ChainID: sandbox.DefaultChainID}
	o, err := withdrawal.NewOrder(choice(bridge), p, funding, domain, 1, now)
	if err != nil || o.Transfer.FromAccount != common.HexToAddress(funding) || o.Transfer.ToAccount != common.HexToAddress(bridge) {
		t.Fatalf("good addresses: %+v, %v", o.Transfer, err)
	}
	for name, tc := range map[string]struct{ funding, bridge string }{
		"a funding account a byte too long": {funding + "00", bridge},
		"a bridge address a byte too long":  {funding, bridge + "00"},
		"a funding account without 0x":      {"zz" + funding[2:], bridge},
	} {
		if o, err := withdrawal.NewOrder(choice(tc.bridge), p, tc.funding, domain, 1, now); err == nil {
			t.Errorf("%s: a Transfer from %s to %s", name, o.Transfer.FromAccount, o.Transfer.ToAccount)
		}
	}
}

// TestNewOrderSignsOnlyUSDT: a route of another source token (USDC, whose
// currency id is not published) is never turned into a Transfer, which
// would pay USDT's currency id: nothing is signed as USDT that is not.
func TestNewOrderSignsOnlyUSDT(t *testing.T) {
	w := newWorld(t, sandbox.Options{})
	c := w.Login(sandbox.DemoAPIKey, exchange.Options{})
	o := w.order(c)
	s, _ := c.Session()
	usdc := o.Choice
	usdc.TokenIn = exchange.TokenUSDC
	q := o.Quote
	got, err := withdrawal.NewOrder(usdc, withdrawal.PricedQuote{Quote: q}, s.FundingAccountAddress, w.Env.Domain(), 1, w.Clock.Now())
	if err == nil || !strings.Contains(err.Error(), "Only USDT withdrawals can be signed") || got.Transfer != (signer.Transfer{}) {
		t.Fatalf("a USDC route: %+v, %v; want it refused, nothing to sign", got.Transfer, err)
	}
}
