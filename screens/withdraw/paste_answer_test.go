package withdraw

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/svcwallet/svcwallet/screens/kit"
	"github.com/svcwallet/svcwallet/screens/screentest"
	"github.com/svcwallet/svcwallet/service/sandbox"
	"github.com/svcwallet/svcwallet/service/withdrawal"
	"github.com/svcwallet/svcwallet/signer"
	"github.com/svcwallet/svcwallet/tui"
)

// TestPastedEntersNeverSign (seen in tmux at 80x24: "⏎⏎" pasted
// unbracketed at the review, its hold over, signed): the first enter reads
// as a typed one, but the second comes before the terminal's answer to the
// question asked after the first: both were pasted, nothing signs, keys
// are held again and the review says a paste answers nothing, naming no
// key that does nothing. A typed enter then signs, once.
func TestPastedEntersNeverSign(t *testing.T) {
	r, h, now := shownReview(t)
	timers := screentest.RecordTimers(r.app)
	r.Update(r.checkBridge()())
	*now = now.Add(kit.ShownGuard + time.Second)
	tm := underRoot(r, now)
	tm.key("enter", 0)
	tm.key("enter", 30*time.Millisecond)
	tm.answer()
	if r.gate.Sending || h.withdraws != 0 {
		t.Fatal("two enters pasted unbracketed signed")
	}
	if v := screentest.OneLine(r.View()); !strings.Contains(v, kit.PasteAnswersNothing+": type your answer in 1 s.") || screentest.Offers(r.KeyMap(), "enter") {
		t.Fatalf("after the paste the review offers %v and says:\n%s", r.KeyMap().ShortHelp(), v)
	}
	*timers = nil
	if tm.typed("enter", kit.KeyGuard); !r.gate.Sending {
		t.Fatalf("a typed enter after the paste did not sign:\n%s", ansi.Strip(r.View()))
	}
	for _, tmr := range *timers { // its settling by time, moot: nothing more acts
		if _, cmd := r.Update(tmr.Msg); cmd != nil {
			t.Fatalf("%#v after the enter signed did something more", tmr.Msg)
		}
	}
}

// TestPastedYNeverAnswersTheLoss: the second question a loss asks is
// answered by y alone; "yy" or "yx" pasted unbracketed answer nothing, a
// typed y does.
func TestPastedYNeverAnswersTheLoss(t *testing.T) {
	for _, second := range []string{"y", "x"} {
		r, h, now := mostlyFeeReview(t)
		tm := underRoot(r, now)
		if tm.typed("enter", 0); !r.askedLoss() {
			t.Fatalf("enter did not ask again:\n%s", ansi.Strip(r.View()))
		}
		*now = now.Add(kit.ShownGuard)
		tm.key("y", 0)
		tm.key(second, 20*time.Millisecond)
		tm.answer()
		if r.gate.Sending || h.withdraws != 0 {
			t.Fatalf("y%s pasted answered the loss question", second)
		}
		if !strings.Contains(screentest.OneLine(r.View()), kit.PasteAnswersNothing) {
			t.Errorf("y%s pasted: the review does not say a paste answers nothing:\n%s", second, ansi.Strip(r.View()))
		}
		if tm.typed("y", kit.KeyGuard); !r.gate.Sending {
			t.Fatalf("a typed y after the paste did not sign:\n%s", ansi.Strip(r.View()))
		}
	}
}

// TestPastedYNeverTrustsTheBridge: Y pasted with a key after it, before
// the terminal's answer, records no new bridge address; a typed Y does.
func TestPastedYNeverTrustsTheBridge(t *testing.T) {
	app, _, now := hostileApp(t, false)
	pins := app.Target.BridgePins()
	if err := withdrawal.RecordBridge(app.Target.Env, pins, sandbox.BridgeFundingAddress, *now); err != nil {
		t.Fatal(err)
	}
	s := newBridgeConfirm(app, withdrawal.BridgeChangedError{Env: app.Target.Env.Name, Expected: sandbox.BridgeFundingAddress,
		Seen: attackerBridge, Since: *now})
	s.SetSize(80, 24)
	s.Init()
	*now = now.Add(kit.ShownGuard)
	_, settle := s.Update(screentest.Key("Y"))
	tag, _, ok := screentest.Settling(settle)
	if !ok {
		t.Fatal("Y asks the terminal nothing")
	}
	s.Update(screentest.Key("Y"))
	if _, cmd := s.Update(tui.SettledMsg{Tag: tag}); cmd != nil || s.working {
		t.Fatal("YY pasted recorded the new address")
	}
	if v := screentest.OneLine(s.View()); !strings.Contains(v, kit.PasteAnswersNothing+": type Y yourself") || screentest.Offers(s.KeyMap(), "Y") {
		t.Fatalf("after the paste the screen offers %v and says:\n%s", s.KeyMap().ShortHelp(), v)
	}
	*now = now.Add(kit.KeyGuard)
	_, cmd := screentest.Press(s, "Y")
	if cmd == nil {
		t.Fatal("a typed Y after the paste did not confirm")
	}
	if s.Update(cmd()); s.err != nil {
		t.Fatal(s.err)
	}
	if _, err := withdrawal.CheckBridge(app.Target.Env, pins, attackerBridge, *now); err != nil {
		t.Fatalf("the confirmed address is not trusted: %v", err)
	}
}

// TestWaitingEnterActsOnNothingHidden: an enter waiting for the terminal's
// answer signs nothing once what it answered is gone: another screen came
// over the review (the answer, and the settling by time when the review is
// back, act on nothing), the too-small notice hid it, or the quote may no
// longer be signed.
func TestWaitingEnterActsOnNothingHidden(t *testing.T) {
	hides := map[string]func(tm *terminal){
		"another screen": func(tm *terminal) {
			home := screentest.NewHome(tm.r.app)
			tm.root.Update(tui.PushMsg{Screen: home})
			tm.answer()
			_, back := tm.root.Update(tui.PopMsg{Screen: home})
			tm.deliver(back)
		},
		"too small": func(tm *terminal) {
			tm.root.Update(tea.WindowSizeMsg{Width: 30, Height: 8})
			tm.answer()
			tm.deliver(func() tea.Msg { return tea.WindowSizeMsg{Width: 80, Height: 24} })
		},
		"expired": func(tm *terminal) {
			*tm.now = tm.now.Add(10 * time.Minute)
			tm.answer()
		},
	}
	for name, hide := range hides {
		app, now := screentest.LoggedInApp(t)
		timers := screentest.RecordTimers(app)
		r := reviewFor(t, app, now, fixedQuote(*now, "1.5"), 0, 80, 24, signer.Found{Place: signer.KeyDemo})
		tm := underRoot(r, now)
		*timers = nil
		tm.key("enter", kit.KeyGuard)
		hide(tm)
		*now = now.Add(kit.KeyGuard)
		for _, tmr := range *timers {
			tm.root.Update(tmr.Msg)
		}
		if r.gate.Sending {
			t.Errorf("%s: an enter waiting for its answer signed", name)
		}
	}
}

// TestPassphraseEnterThenLetterIsAPaste: at a passphrase's review, "⏎x"
// pasted unbracketed after the passphrase typed: the letter came before
// the enter's settling, so it is no letter of the passphrase (which stays
// as typed) and the enter signs nothing.
func TestPassphraseEnterThenLetterIsAPaste(t *testing.T) {
	app, now := screentest.LoggedInApp(t)
	r := reviewFor(t, app, now, fixedQuote(*now, "1.5"), 0, 80, 24, signer.Found{Place: signer.KeyInKeystore, Path: "/k/UTC--key"})
	tm := underRoot(r, now)
	for _, c := range "pw" {
		tm.typed(string(c), 60*time.Millisecond)
	}
	tm.key("enter", 60*time.Millisecond)
	tm.key("x", 5*time.Millisecond)
	tm.answer()
	if r.gate.Sending || r.gate.Key.Pass.Value() != "pw" {
		t.Fatalf("\"⏎x\" pasted signed (%v) or the passphrase is %q, want \"pw\"", r.gate.Sending, r.gate.Key.Pass.Value())
	}
}
