package screens

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/teatest/v2"
	"github.com/shopspring/decimal"

	"svcwallet/service"
	"svcwallet/service/sandbox"
	"svcwallet/signer"
	"svcwallet/tui"
)

// withdrawFlow is the console in a real Bubble Tea program on a sandbox whose
// clock the test moves: quotes expire and withdrawals settle when the test
// says so, while the screens' own timers (countdown, polling) run for real.
type withdrawFlow struct {
	*flow
	clock *sandbox.FakeClock
}

func startWithdrawFlow(t *testing.T) *withdrawFlow {
	t.Helper()
	clock := sandbox.NewFakeClock(time.Date(2026, 3, 2, 10, 0, 0, 0, time.UTC))
	c := &console{t: t, env: map[string]string{}}
	srv, err := sandbox.Start("127.0.0.1:0", sandbox.Options{Now: clock.Now})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	c.srv = srv
	c.app = newTestApp(srv, true, clock.Now, c.getenv, t.TempDir())
	journal, err := service.OpenJournal(filepath.Join(t.TempDir(), "journal.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	c.app.Target.Journal, c.app.Targets[0].Journal = journal, journal
	c.app.PollInterval = 20 * time.Millisecond
	c.root = tui.New(NewLogin(c.app), tui.Options{Theme: "dark", Common: c.app.Common})
	tm := teatest.NewTestModel(t, c.root, teatest.WithInitialTermSize(120, 40))
	f := &withdrawFlow{flow: &flow{t: t, tm: tm, out: &recorder{r: tm.Output()}, c: c}, clock: clock}
	f.waitFor("the login screen", "Sandbox demo")
	f.press("ctrl+d", "enter")
	f.waitFor("the home screen", "Funding address", sandbox.DemoAddress)
	return f
}

// Waits look for text the screen draws in one piece: the renderer sends only
// the cells that changed, so text shared with the previous screen (a title
// prefix, a label) may never appear whole in the output.

// quoteTo walks route (first chain, ARBITRUM), destination and amount, and
// waits for the quote.
func (f *withdrawFlow) quoteTo(to, amount string) {
	f.t.Helper()
	f.press("w")
	f.waitFor("the routes", "DESTINATION", "ARBITRUM")
	f.press("enter")
	f.waitFor("the destination form", "withdrawal address book")
	f.tm.Type(to)
	f.press("tab")
	f.tm.Type(amount)
	f.press("enter")
	f.waitFor("the quote", "Expires in")
}

// review opens the review and lets the keystroke guard pass on the clock
// the guard reads.
func (f *withdrawFlow) review() {
	f.t.Helper()
	f.press("enter")
	f.waitFor("the review", "bridge funding address", "Digest")
	f.clock.Advance(time.Second)
	f.waitFor("the sign prompt", "Press enter to sign")
}

// mark is how much output there is now, for waitForSince.
func (f *withdrawFlow) mark() int {
	f.out.mu.Lock()
	defer f.out.mu.Unlock()
	return f.out.all.Len()
}

// waitForSince waits until the output written after mark shows every text.
func (f *withdrawFlow) waitForSince(mark int, what string, texts ...string) {
	f.t.Helper()
	teatest.WaitFor(f.t, f.out, func([]byte) bool {
		f.out.mu.Lock()
		drawn := ansi.Strip(f.out.all.String()[mark:])
		f.out.mu.Unlock()
		for _, s := range texts {
			if !strings.Contains(drawn, s) {
				return false
			}
		}
		return true
	}, teatest.WithDuration(10*time.Second), teatest.WithCheckInterval(10*time.Millisecond))
}

func (f *withdrawFlow) balance() decimal.Decimal {
	return f.c.srv.Exchange.Balance(sandbox.DemoAccountID)
}

func (f *withdrawFlow) wantBalance(want string) {
	f.t.Helper()
	if got := f.balance(); !got.Equal(decimal.RequireFromString(want)) {
		f.t.Errorf("balance %s, want %s", got, want)
	}
}

// TestFlowWithdrawCompleted: 25 USDT to the destination that pays out,
// followed SUBMITTED → SENDING → COMPLETED with a payout hash.
func TestFlowWithdrawCompleted(t *testing.T) {
	f := startWithdrawFlow(t)
	f.quoteTo(sandbox.DestCompleted, "25")
	f.waitFor("the locked amounts", "You pay", "25 USDT", "23.5 USDT", "1.5 USDT")
	f.review()
	f.press("enter")
	f.waitFor("the status screen", "Timeline", "SUBMITTED")
	f.wantBalance("9975")
	f.clock.Advance(sandbox.DefaultSettle / 2)
	f.waitFor("SENDING", "SENDING")
	f.clock.Advance(sandbox.DefaultSettle / 2)
	f.waitFor("completion", "✓ COMPLETED", "Payout hash")
	f.quit()
}

// TestFlowWithdrawRefunded: the destination that ends REFUNDED returns the
// funds, and the screen says so.
func TestFlowWithdrawRefunded(t *testing.T) {
	f := startWithdrawFlow(t)
	f.quoteTo(sandbox.DestRefunded, "40")
	f.review()
	f.press("enter")
	f.waitFor("the status screen", "Timeline", "SUBMITTED")
	f.wantBalance("9960")
	f.clock.Advance(sandbox.DefaultSettle)
	f.waitFor("the refund", "REFUNDED", "returned")
	f.wantBalance("10000")
	f.quit()
}

// TestFlowWithdrawFlagged: screening refuses the destination at execution;
// the refusal is explained and nothing is paid.
func TestFlowWithdrawFlagged(t *testing.T) {
	f := startWithdrawFlow(t)
	f.quoteTo(sandbox.DestFlagged, "25")
	f.review()
	f.press("enter")
	f.waitFor("the refusal", "Not withdrawn", "screening flagged")
	f.wantBalance("10000")
	f.quit()
}

// TestFlowQuoteExpiresThenRequote: a quote left to run out cannot be
// confirmed; r fetches a new one, which is then signed and executed.
func TestFlowQuoteExpiresThenRequote(t *testing.T) {
	f := startWithdrawFlow(t)
	f.quoteTo(sandbox.DestCompleted, "25")
	f.clock.Advance(sandbox.DefaultQuoteTTL + time.Second)
	f.waitFor("the expiry", "Quote expired: press r to get a new one")
	f.press("enter")
	f.wantBalance("10000")
	mark := f.mark()
	f.press("r")
	f.waitForSince(mark, "a fresh countdown", "60s  ████")
	f.review()
	f.press("enter")
	f.waitFor("the status screen", "Timeline", "SUBMITTED")
	f.wantBalance("9975")
	f.quit()
}

// TestFlowDailyLimitReached: a quote that fitted the daily limit is refused
// at execution because another withdrawal used the room meanwhile.
func TestFlowDailyLimitReached(t *testing.T) {
	f := startWithdrawFlow(t)
	f.quoteTo(sandbox.DestCompleted, "3000")
	spendElsewhere(t, f, "3000")
	f.review()
	f.press("enter")
	f.waitFor("the refusal", "Not withdrawn", "daily withdrawal limit")
	f.wantBalance("7000")
	f.quit()
}

// spendElsewhere withdraws through a second session, as another device would.
func spendElsewhere(t *testing.T, f *withdrawFlow, amount string) {
	t.Helper()
	ctx := context.Background()
	c := service.New(service.SandboxEnvironment(f.c.srv.URL, sandbox.DefaultChainID), service.Options{Now: f.clock.Now})
	if _, err := c.Login(ctx, service.APIKey(sandbox.DemoAPIKey)); err != nil {
		t.Fatal(err)
	}
	q, err := c.Quote(ctx, service.QuoteRequest{ToAddress: sandbox.DestCompleted, Chain: "BASE", TokenIn: "USDT", TokenOut: "USDT", Amount: amount})
	if err != nil {
		t.Fatal(err)
	}
	info, err := c.WithdrawalInfo(ctx)
	if err != nil {
		t.Fatal(err)
	}
	r := NewReview(&App{Common: f.c.app.Common, Target: Target{Env: f.c.app.Target.Env, Client: c}},
		Withdrawal{Info: info, TokenIn: "USDT", TokenOut: "USDT", ToAddress: sandbox.DestCompleted, Route: service.WithdrawalRoute{Chain: "BASE"}}, q, 0)
	key, err := signer.ParsePrivateKeyHex(sandbox.DemoPrivateKey)
	if err != nil {
		t.Fatal(err)
	}
	msg := execute(r.app, r.w, q, r.transfer, r.domain, func() (signer.Key, error) { return key, nil })
	if m := msg.(executedMsg); m.err != nil {
		t.Fatalf("withdraw elsewhere: %v", m.err)
	}
}
