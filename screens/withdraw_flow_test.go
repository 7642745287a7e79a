package screens

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/teatest/v2"
	"github.com/shopspring/decimal"

	"github.com/svcwallet/svcwallet/internal/exchangetest"
	"github.com/svcwallet/svcwallet/internal/osguard"
	"github.com/svcwallet/svcwallet/screens/kit"
	"github.com/svcwallet/svcwallet/screens/screentest"
	"github.com/svcwallet/svcwallet/service/config"
	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/journal"
	"github.com/svcwallet/svcwallet/service/sandbox"
	"github.com/svcwallet/svcwallet/service/withdrawal"
	"github.com/svcwallet/svcwallet/signer"
	"github.com/svcwallet/svcwallet/tui"
)

// withdrawFlow is the console in a real Bubble Tea program on a sandbox whose
// clock the test moves: quotes expire, withdrawals settle and the screens'
// own timers (the countdowns, the quote's settling, the status polls) fire
// when the test says so (advance), never by real time.
// Waits read the root's latest frame, not the byte stream, because the
// renderer sends only changed cells and text shared with an earlier screen
// never appears whole in the stream.
type withdrawFlow struct {
	*flow  // press and quit; waitFor is this type's own
	snap   *snapshotModel
	clock  *exchangetest.FakeClock
	timers *clockTimers
}

// clockTimers is kit.Hooks.Timer on the test's clock: a timer asked for d
// fires once advance has moved the clock d past when it was asked.
type clockTimers struct {
	clock *exchangetest.FakeClock
	mu    sync.Mutex
	moved chan struct{} // closed, and replaced, at each advance
	done  chan struct{} // closed at the test's end: a timer still out fires nothing
}

func (c *clockTimers) advance(d time.Duration) {
	c.clock.Advance(d)
	c.mu.Lock()
	close(c.moved)
	c.moved = make(chan struct{})
	c.mu.Unlock()
}

func (c *clockTimers) timer(d time.Duration, msg tea.Msg) tea.Cmd {
	due := c.clock.Now().Add(d)
	return func() tea.Msg {
		for {
			// moved is taken before the clock is read: an advance between
			// the two has closed it.
			c.mu.Lock()
			moved := c.moved
			c.mu.Unlock()
			if !c.clock.Now().Before(due) {
				return msg
			}
			select {
			case <-moved:
			case <-c.done:
				return nil
			}
		}
	}
}

// snapshotModel keeps the text of the frame after every update, for waits.
type snapshotModel struct {
	inner tea.Model
	mu    sync.Mutex
	frame string
}

func (m *snapshotModel) Init() tea.Cmd { return m.inner.Init() }

// Update answers as the terminal does what a key's settling asks.
func (m *snapshotModel) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	_, cmd := m.inner.Update(msg)
	frame := ansi.Strip(m.inner.View().Content)
	m.mu.Lock()
	m.frame = frame
	m.mu.Unlock()
	return m, tea.Batch(cmd, screentest.Answer(msg))
}

func (m *snapshotModel) View() tea.View { return m.inner.View() }

func (m *snapshotModel) text() string {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.frame
}

func startWithdrawFlow(t *testing.T) *withdrawFlow {
	t.Helper()
	clock := exchangetest.NewFakeClock(time.Date(2026, 3, 2, 10, 0, 0, 0, time.UTC))
	c := &screentest.Console{T: t}
	srv, err := sandbox.Start("127.0.0.1:0", sandbox.Options{Now: clock.Now})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	c.Srv = srv
	c.App = screentest.NewApp(srv, true, clock.Now, func(string) string { return "" }, t.TempDir())
	screentest.OpenJournal(t, c.App)
	c.App.PollInterval = 20 * time.Millisecond
	timers := &clockTimers{clock: clock, moved: make(chan struct{}), done: make(chan struct{})}
	t.Cleanup(func() { close(timers.done) })
	c.App.Timer = timers.timer
	c.Root = tui.New(Console(c.App), tui.Options{Theme: "dark", Common: c.App.Common})
	snap := &snapshotModel{inner: c.Root}
	tm := teatest.NewTestModel(t, snap, teatest.WithInitialTermSize(120, 40))
	f := &withdrawFlow{flow: &flow{t: t, tm: tm, out: &recorder{r: tm.Output()}, c: c}, snap: snap, clock: clock, timers: timers}
	f.waitFor("Sandbox demo")
	f.press("ctrl+d", "enter")
	f.waitFor("Funding address", sandbox.DemoAddress)
	return f
}

// waitFor waits until the current frame shows every text.
func (f *withdrawFlow) waitFor(texts ...string) {
	f.t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		frame := f.snap.text()
		missing := ""
		for _, s := range texts {
			if !strings.Contains(frame, s) {
				missing = s
				break
			}
		}
		if missing == "" {
			return
		}
		if time.Now().After(deadline) {
			f.t.Fatalf("timed out waiting for %q; the screen shows:\n%s", missing, frame)
		}
		time.Sleep(5 * time.Millisecond) // polling an observable state, not ordering
	}
}

// quoteTo walks route (first chain, ARBITRUM), destination and amount, and
// waits for the quote.
func (f *withdrawFlow) quoteTo(to, amount string) {
	f.t.Helper()
	f.press("w")
	f.waitFor("DESTINATION", "ARBITRUM")
	f.press("enter")
	f.waitFor("Withdraw: destination")
	f.tm.Type(to)
	f.press("tab")
	f.tm.Type(amount)
	f.waitFor("valid EVM address", amount)
	f.press("enter")
	f.waitFor("Expires in")
}

// review opens the review and lets the keystroke guard pass on the clock
// the guard reads.
func (f *withdrawFlow) review() {
	f.t.Helper()
	f.press("enter")
	// The bridge check ("pinned") and the key landed (the guard holds from
	// them), then the guard passes.
	f.waitFor("Withdraw: review and sign", "Digest", "pinned", "sandbox demo key")
	f.timers.advance(kit.ShownGuard)
	f.waitFor("Press enter to sign")
}

func (f *withdrawFlow) balance() decimal.Decimal {
	return f.c.Srv.Exchange.Balance(sandbox.DemoAccountID)
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
	f.waitFor("You pay", "25 USDT", "23.5 USDT", "1.5 USDT")
	f.review()
	f.press("enter")
	f.waitFor("Timeline", "SUBMITTED")
	f.wantBalance("9975")
	f.timers.advance(sandbox.DefaultSettle / 2)
	f.waitFor("▶ SENDING")
	f.timers.advance(sandbox.DefaultSettle / 2)
	f.waitFor("✓ COMPLETED", "Payout hash")
	f.quit()
}

// TestFlowQuitKeepsTheLastState: q pressed as COMPLETED shows, while
// another process holds the journal's write lock, still leaves the
// COMPLETED line in the journal once the console has ended: Bubble Tea
// neither waits for the commands still out when its program ends nor runs
// those not started, so the console waits for its journal writes.
func TestFlowQuitKeepsTheLastState(t *testing.T) {
	f := startWithdrawFlow(t)
	f.quoteTo(sandbox.DestCompleted, "25")
	f.review()
	f.press("enter")
	f.waitFor("Timeline", "SUBMITTED")
	f.timers.advance(sandbox.DefaultSettle / 2)
	f.waitFor("▶ SENDING")
	j := f.c.App.Journal()
	unlock, err := osguard.LockFile(journal.WrittenPath(j.Path())+".lock", osguard.Wait{Doing: "holding the journal's writes"})
	if err != nil {
		t.Fatal(err)
	}
	f.timers.advance(sandbox.DefaultSettle / 2)
	f.waitFor("✓ COMPLETED")
	f.press("q")
	f.tm.WaitFinished(t, teatest.WithFinalTimeout(5*time.Second))
	unlock()
	f.ended()
	// Read as another process would: Entries waits for this one's write.
	b, err := os.ReadFile(j.Path())
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), `"state":"COMPLETED"`) {
		t.Errorf("the journal once the console ended has no COMPLETED line (%d lines)", strings.Count(string(b), "\n"))
	}
}

// TestFlowWithdrawRefunded: the destination that ends REFUNDED returns the
// funds, and the screen says so.
func TestFlowWithdrawRefunded(t *testing.T) {
	f := startWithdrawFlow(t)
	f.quoteTo(sandbox.DestRefunded, "40")
	f.review()
	f.press("enter")
	f.waitFor("Timeline", "SUBMITTED")
	f.wantBalance("9960")
	f.timers.advance(sandbox.DefaultSettle)
	f.waitFor("REFUNDED", "returned")
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
	f.waitFor("Not withdrawn", "screening flagged")
	f.wantBalance("10000")
	f.quit()
}

// TestFlowQuoteExpiresThenRequote: a quote left to run out, with no key for
// longer than the screen re-quotes by itself (3 minutes), cannot be
// confirmed; r fetches a new one, which is then signed and executed. Only
// past the idle bound is the outcome one: a clock jumped past the expiry
// alone shows "Quote expired" until the next tick re-quotes.
func TestFlowQuoteExpiresThenRequote(t *testing.T) {
	f := startWithdrawFlow(t)
	f.quoteTo(sandbox.DestCompleted, "25")
	f.timers.advance(4 * time.Minute)
	f.waitFor("No fresh quote was asked for after 3 minutes without a key: press r for a new quote")
	f.press("enter")
	f.wantBalance("10000")
	f.press("r")
	f.waitFor("Expires in", "60s  ████")
	f.review()
	f.press("enter")
	f.waitFor("Timeline", "SUBMITTED")
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
	f.waitFor("Not withdrawn", "daily withdrawal limit")
	f.wantBalance("7000")
	f.quit()
}

// spendElsewhere withdraws through a second session, as another device would.
func spendElsewhere(t *testing.T, f *withdrawFlow, amount string) {
	t.Helper()
	ctx := context.Background()
	c := exchange.New(config.SandboxEnvironment(f.c.Srv.URL, sandbox.DefaultChainID), exchange.Options{Now: f.clock.Now})
	if _, err := c.Login(ctx, exchange.APIKey(sandbox.DemoAPIKey)); err != nil {
		t.Fatal(err)
	}
	q, err := c.Quote(ctx, exchange.QuoteRequest{ToAddress: sandbox.DestCompleted, Chain: "BASE", TokenIn: "USDT", TokenOut: "USDT", Amount: amount})
	if err != nil {
		t.Fatal(err)
	}
	info, err := c.WithdrawalInfo(ctx)
	if err != nil {
		t.Fatal(err)
	}
	choice := withdrawal.Choice{Info: info, TokenIn: "USDT", TokenOut: "USDT", ToAddress: sandbox.DestCompleted,
		Route: exchange.WithdrawalRoute{Chain: "BASE"}, Amount: decimal.RequireFromString(amount)}
	s, _ := c.Session()
	order, err := withdrawal.NewOrder(choice, withdrawal.PricedQuote{Quote: q}, s.FundingAccountAddress, f.c.App.Target.Env.Domain(), 7, f.clock.Now())
	if err != nil {
		t.Fatal(err)
	}
	key, err := signer.ParsePrivateKeyHex(sandbox.DemoPrivateKey)
	if err != nil {
		t.Fatal(err)
	}
	// Another device, with a journal of its own.
	j, err := journal.Open(filepath.Join(t.TempDir(), "journal.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	w, err := withdrawal.NewWithdrawer(withdrawal.Setup{Client: c, Journal: j, Now: f.clock.Now})
	if err != nil {
		t.Fatal(err)
	}
	sent := w.Execute(ctx, order, func() (signer.Key, error) { return key, nil })
	if sent.Err != nil {
		t.Fatalf("withdraw elsewhere: %v", sent.Err)
	}
}
