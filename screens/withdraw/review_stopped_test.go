package withdraw

import (
	"fmt"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/shopspring/decimal"

	"github.com/svcwallet/svcwallet/screens/kit"
	"github.com/svcwallet/svcwallet/screens/screentest"
	"github.com/svcwallet/svcwallet/service/journal"
	"github.com/svcwallet/svcwallet/service/sandbox"
	"github.com/svcwallet/svcwallet/service/withdrawal"
	"github.com/svcwallet/svcwallet/signer"
	"github.com/svcwallet/svcwallet/tui"
)

// keystoreKey is a keystore key found for the review's account: its
// passphrase field takes letters while the review could sign.
var keystoreKey = signer.Found{Place: signer.KeyInKeystore, Path: "/k/UTC--key.json"}

// asKeystore has r look for its key again and find keystoreKey, then
// passes the guard its landing holds.
func asKeystore(r *reviewScreen, now *time.Time) {
	r.gate.Key.Find()
	r.Update(keyFound(r, keystoreKey))
	*now = now.Add(kit.ShownGuard)
}

// stoppedKeys checks that a stopped review shows no passphrase field and
// that its footer offers want, the words name them, and none is ctrl+r.
func stoppedKeys(t *testing.T, r *reviewScreen, said string, want ...string) {
	t.Helper()
	view := ansi.Strip(r.View())
	if strings.Contains(view, "Passphrase") || r.Inputting() {
		t.Errorf("a stopped review still asks the passphrase (inputting %v):\n%s", r.Inputting(), view)
	}
	if r.gate.Key.Ready() == nil {
		t.Error("with the field shut an empty passphrase is ready to sign")
	}
	if !strings.Contains(squash(view), squash(said)) {
		t.Errorf("the stop lacks %q:\n%s", said, view)
	}
	for _, k := range want {
		if !screentest.Offers(r.KeyMap(), k) {
			t.Errorf("%s is not offered: %v", k, r.KeyMap().ShortHelp())
		}
	}
	if screentest.Offers(r.KeyMap(), "ctrl+r") {
		t.Errorf("ctrl+r offered where r acts: %v", r.KeyMap().ShortHelp())
	}
}

// TestBridgeStopKeysActWithAKeystoreKey: a review stopped by a changed
// bridge address says press c or r, and with a keystore key both act:
// nothing can be signed, so no passphrase field takes them as letters.
// Once the change is confirmed the field is back and takes every letter,
// though the key search landed before the clean check.
func TestBridgeStopKeysActWithAKeystoreKey(t *testing.T) {
	app, h, now := hostileApp(t, false)
	signAndSend(t, hostileReview(t, app, now))
	*now = now.Add(48 * time.Hour)
	h.set(attackerBridge, 0)
	r := hostileReview(t, app, now)
	asKeystore(r, now)
	stoppedKeys(t, r, "Press c to review the change on its own screen, or r for a new quote", "c", "r")
	_, cmd := screentest.Press(r, "c")
	confirm, ok := screentest.PushedScreen(cmd).(*bridgeConfirmScreen)
	if !ok {
		t.Fatal("c did not open the confirm screen")
	}
	if _, cmd := screentest.Press(r, "r"); !isPop(cmd) {
		t.Error("r did not go back to a new quote")
	}

	*now = now.Add(kit.ShownGuard)
	_, cmd = screentest.Press(confirm, "Y")
	confirm.Update(cmd())
	resume := r.Resume()().(tea.BatchMsg)
	r.Update(keyFound(r, keystoreKey)) // before the check: still stopped
	r.Update(resume[1]())
	*now = now.Add(kit.ShownGuard)
	if view := ansi.Strip(r.View()); strings.Contains(view, "Stopped") || !strings.Contains(view, "Passphrase") {
		t.Fatalf("after the confirmation the review does not ask the passphrase:\n%s", view)
	}
	for _, k := range "chro" {
		if _, cmd := screentest.Press(r, string(k)); cmd != nil && (isPop(cmd) || screentest.PushedScreen(cmd) != nil) {
			t.Fatalf("%c in the passphrase field left the review", k)
		}
	}
	if got := r.gate.Key.Pass.Value(); got != "chro" {
		t.Errorf("the passphrase field holds %q, want chro", got)
	}
}

// TestRepeatStopKeysActWithAKeystoreKey: a review stopped by an
// unanswered identical withdrawal offers h to History and r, and with a
// keystore key both act.
func TestRepeatStopKeysActWithAKeystoreKey(t *testing.T) {
	app, now := screentest.LoggedInApp(t)
	s, _ := app.Client().Session()
	if err := app.Journal().Append(journal.Entry{Time: now.Add(-time.Minute), Kind: journal.KindIntent, Env: app.Target.Env.Name, AccountID: s.AccountID, QuoteID: "q-lost",
		Intent: &journal.Intent{ToAddress: strings.ToLower(sandbox.DestCompleted), Chain: "ARBITRUM", TokenIn: "USDT", TokenOut: "USDT",
			PayAmount: decimal.RequireFromString("25"), ReceiveAmount: decimal.RequireFromString("23.5"), ExpiresAt: *now}}); err != nil {
		t.Fatal(err)
	}
	r := reviewFor(t, app, now, fixedQuote(*now, "1.5"), 0, 120, 50, keystoreKey)
	stoppedKeys(t, r, "resume it from History first", "h", "r")
	var opened []string
	app.Makers.Home = func(*kit.App) tui.Screen { opened = append(opened, "Home"); return screentest.NewHome(app) }
	app.Makers.History = func(*kit.App) tui.Screen { opened = append(opened, "History"); return screentest.NewHome(app) }
	if _, cmd := screentest.Press(r, "h"); cmd == nil {
		t.Error("h did nothing")
	} else if screentest.SequenceMsgs(t, cmd); strings.Join(opened, ",") != "Home,History" {
		t.Errorf("h opened %v, want Home then History", opened)
	}
	if _, cmd := screentest.Press(r, "r"); !isPop(cmd) {
		t.Error("r did not go back to a new quote")
	}
}

// typeOn presses each letter of s on r, gap apart on the clock, and fails
// when one leaves the review (a pop or a pushed screen).
func typeOn(t *testing.T, r *reviewScreen, now *time.Time, gap time.Duration, s string) {
	t.Helper()
	for _, k := range s {
		*now = now.Add(gap)
		if _, cmd := screentest.Press(r, string(k)); cmd != nil && (isPop(cmd) || screentest.PushedScreen(cmd) != nil) {
			t.Fatalf("%c typed on after the stop left the review", k)
		}
	}
}

// heldStop checks a stop that landed mid-passphrase while its keys are
// held: the field is cleared and gone, the stop says so, and neither the
// footer nor the words offer keys, which act only once typing stopped.
func heldStop(t *testing.T, r *reviewScreen, keys ...string) {
	t.Helper()
	view := ansi.Strip(r.View())
	if r.gate.Key.Pass.Value() != "" || strings.Contains(view, "Passphrase") || !strings.Contains(squash(view), squash("what was typed is cleared")) ||
		!strings.Contains(squash(view), squash("its keys act once you stop typing")) || strings.Contains(view, "Press c") {
		t.Errorf("the stop that landed mid-passphrase shows (field %q):\n%s", r.gate.Key.Pass.Value(), view)
	}
	for _, k := range keys {
		if screentest.Offers(r.KeyMap(), k) {
			t.Errorf("%s is offered while held: %v", k, r.KeyMap().ShortHelp())
		}
	}
}

// TestStopMidPassphraseHoldsItsKeys: a stop that lands while the
// passphrase is being typed (the bridge check or the journal's repeat
// check answered late) clears what was typed and says so, and the letters
// typed on are not its keys: c, h and r act, and are offered, only once
// the person stopped typing for the guard; each letter typed while held
// holds them again. The clock is the app's, faked.
func TestStopMidPassphraseHoldsItsKeys(t *testing.T) {
	gap := kit.KeyGuard / 5
	t.Run("bridge address", func(t *testing.T) {
		app, h, now := hostileApp(t, false)
		signAndSend(t, hostileReview(t, app, now))
		*now = now.Add(48 * time.Hour)
		h.set(attackerBridge, 0)
		app.Timer = func(time.Duration, tea.Msg) tea.Cmd { return nil }
		w, q := sandboxQuote(t, app)
		r := newReview(app, w, withdrawal.PricedQuote{Quote: q})
		r.SetSize(120, 40)
		r.Init()
		r.Update(keyFound(r, keystoreKey))
		*now = now.Add(kit.ShownGuard)
		typeOn(t, r, now, gap, "corr")
		r.Update(r.checkBridge()()) // answered late
		heldStop(t, r, "c", "r")
		typeOn(t, r, now, gap, "ect horse battery staple")
		heldStop(t, r, "c", "r")
		*now = now.Add(kit.KeyGuard)
		stoppedKeys(t, r, "Press c to review the change on its own screen, or r for a new quote", "c", "r")
		if _, cmd := screentest.Press(r, "c"); screentest.PushedScreen(cmd) == nil {
			t.Fatal("c did not open the confirm screen once typing stopped")
		}
	})
	// A passphrase begun just as the stop lands on the empty field: its
	// first letter is not the stop's c either, and nothing is said cleared.
	t.Run("begun as it lands", func(t *testing.T) {
		app, h, now := hostileApp(t, false)
		signAndSend(t, hostileReview(t, app, now))
		*now = now.Add(48 * time.Hour)
		h.set(attackerBridge, 0)
		app.Timer = func(time.Duration, tea.Msg) tea.Cmd { return nil }
		w, q := sandboxQuote(t, app)
		r := newReview(app, w, withdrawal.PricedQuote{Quote: q})
		r.SetSize(120, 40)
		r.Init()
		r.Update(keyFound(r, keystoreKey))
		*now = now.Add(kit.ShownGuard)
		r.Update(r.checkBridge()())
		typeOn(t, r, now, gap, "correct")
		if view := squash(ansi.Strip(r.View())); strings.Contains(view, squash("what was typed is cleared")) || !strings.Contains(view, squash("its keys act once you stop typing")) {
			t.Errorf("the stop that landed on the empty field shows:\n%s", ansi.Strip(r.View()))
		}
		if screentest.Offers(r.KeyMap(), "c") || !r.Inputting() {
			t.Errorf("c is offered while held (inputting %v): %v", r.Inputting(), r.KeyMap().ShortHelp())
		}
		*now = now.Add(kit.ShownGuard) // the stop showed a guard ago, typing stopped
		stoppedKeys(t, r, "Press c to review the change on its own screen, or r for a new quote", "c", "r")
	})
	t.Run("possible repeat", func(t *testing.T) {
		app, now := screentest.LoggedInApp(t)
		app.Timer = func(time.Duration, tea.Msg) tea.Cmd { return nil }
		r := newReview(app, sandboxChoice(t, app), withdrawal.PricedQuote{Quote: fixedQuote(*now, "1.5")})
		r.SetSize(120, 50)
		r.Init()
		r.Update(keyFound(r, keystoreKey))
		*now = now.Add(kit.ShownGuard)
		typeOn(t, r, now, gap, "correct ")
		s, _ := app.Client().Session()
		if err := app.Journal().Append(journal.Entry{Time: now.Add(-time.Minute), Kind: journal.KindIntent, Env: app.Target.Env.Name, AccountID: s.AccountID, QuoteID: "q-lost",
			Intent: &journal.Intent{ToAddress: strings.ToLower(sandbox.DestCompleted), Chain: "ARBITRUM", TokenIn: "USDT", TokenOut: "USDT",
				PayAmount: decimal.RequireFromString("25"), ReceiveAmount: decimal.RequireFromString("23.5"), ExpiresAt: *now}}); err != nil {
			t.Fatal(err)
		}
		r.Update(r.checkBridge()()) // the journal's check answered late
		opened := 0
		app.Makers.History = func(*kit.App) tui.Screen { opened++; return screentest.NewHome(app) }
		typeOn(t, r, now, gap, "horse battery")
		heldStop(t, r, "h", "r")
		if opened != 0 {
			t.Fatal("the h of the passphrase opened History")
		}
		// Under the console, the q and ? of a passphrase typed on go to the
		// held review: they neither quit nor open the help.
		root := tui.New(r, tui.Options{Theme: "dark", Common: app.Common, Timer: app.Timer})
		root.Update(tea.WindowSizeMsg{Width: 120, Height: 50})
		for _, k := range []string{"q", "?"} {
			*now = now.Add(gap)
			if _, cmd := root.Update(screentest.Key(k)); screentest.Quits(cmd) || strings.Contains(ansi.Strip(root.View().Content), "close help") {
				t.Fatalf("the %s of the passphrase typed on acted on the console:\n%s", k, ansi.Strip(root.View().Content))
			}
		}
		heldStop(t, r, "h", "r")
		*now = now.Add(kit.KeyGuard)
		stoppedKeys(t, r, "resume it from History first", "h", "r")
		if _, cmd := screentest.Press(r, "r"); !isPop(cmd) {
			t.Error("r did not go back to a new quote once typing stopped")
		}
	})
}

// TestBridgeStopNamesItsKeysOnlyWhenTheyAct: the stop a changed bridge
// address brings lands with keys held (the check's guard), when c and r
// do nothing: it says so instead of naming them, and names them once they
// act (a key hint is a promise).
func TestBridgeStopNamesItsKeysOnlyWhenTheyAct(t *testing.T) {
	app, h, now := hostileApp(t, false)
	signAndSend(t, hostileReview(t, app, now))
	*now = now.Add(48 * time.Hour)
	h.set(attackerBridge, 0)
	r := hostileReview(t, app, now)
	r.Update(r.checkBridge()()) // lands again: held a guard from now
	view := ansi.Strip(r.View())
	if strings.Contains(view, "Press c") || strings.Contains(view, "for a new quote") || !strings.Contains(squash(view), squash("keys are enabled in 2 s")) {
		t.Fatalf("while keys are held the stop names keys that do nothing:\n%s", view)
	}
	if _, cmd := screentest.Press(r, "c"); screentest.PushedScreen(cmd) != nil {
		t.Fatal("c acted while held: the stop may name it then")
	}
	*now = now.Add(kit.ShownGuard + kit.KeyGuard)
	if view := ansi.Strip(r.View()); !strings.Contains(squash(view), squash("Press c to review the change on its own screen, or r for a new quote")) ||
		!screentest.Offers(r.KeyMap(), "c") || !screentest.Offers(r.KeyMap(), "r") {
		t.Fatalf("once keys act the stop does not name c and r (footer %v):\n%s", r.KeyMap().ShortHelp(), view)
	}
}

// TestStopHoldTellsItsEnd: the ticks of a stop's hold (kit.KeyHold) run
// to its end, so the frame is drawn again as the stop's keys act: the
// review's own hold, whose ticks come as the same message, never takes
// them as its own nor drops them.
func TestStopHoldTellsItsEnd(t *testing.T) {
	app, h, now := hostileApp(t, false)
	signAndSend(t, hostileReview(t, app, now))
	*now = now.Add(48 * time.Hour)
	h.set(attackerBridge, 0)
	timers := screentest.RecordTimers(app)
	w, q := sandboxQuote(t, app)
	r := newReview(app, w, withdrawal.PricedQuote{Quote: q})
	r.SetSize(120, 40)
	r.Init()
	r.Update(keyFound(r, keystoreKey))
	*now = now.Add(kit.ShownGuard)
	r.Update(r.checkBridge()())
	typeOn(t, r, now, kit.KeyGuard/5, "correc")
	*timers = nil
	typeOn(t, r, now, kit.KeyGuard/5, "t")
	type due struct {
		at  time.Time
		msg tea.Msg
	}
	var pending []due
	take := func() {
		for _, tm := range *timers {
			if strings.HasSuffix(fmt.Sprintf("%T", tm.Msg), "keyHoldOverMsg") {
				pending = append(pending, due{now.Add(tm.D), tm.Msg})
			}
		}
		*timers = nil
	}
	take()
	for i := 0; len(pending) > 0 && i < 10; i++ {
		next := pending[0]
		pending = pending[1:]
		*now = next.at
		r.Update(next.msg)
		take()
	}
	if r.stopHeld() {
		t.Fatal("the stop's ticks ended before its keys act")
	}
}
