package withdraw

import (
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/svcwallet/svcwallet/screens/kit"
	"github.com/svcwallet/svcwallet/screens/screentest"
	"github.com/svcwallet/svcwallet/service/sandbox"
	"github.com/svcwallet/svcwallet/service/withdrawal"
	"github.com/svcwallet/svcwallet/signer"
	"github.com/svcwallet/svcwallet/tui"
)

// slowDelay is a repeat delay over kit.ShownGuard: the first repeat of a
// key held down comes after the question's hold is over.
const slowDelay = 1500 * time.Millisecond

// repeatsFor sends s, every repeatGap for d, the clock moving with it,
// what a terminal speaking the kitty keyboard protocol with event types
// writes for a key held down: its repeats (seq).
func repeatsFor(s tui.Screen, now *time.Time, seq string, d time.Duration) {
	for end := now.Add(d); now.Before(end); *now = now.Add(repeatGap) {
		screentest.SendTo(s, seq)
	}
}

// TestARepeatNeverAnswers: where the terminal says which presses are a
// held key's repeats, a repeat answers no question that signs, pays or
// trusts, however long after it showed its first repeat came (a repeat
// delay over kit.ShownGuard), and starts nothing there either: the review's
// enter and r, the loss's second y, the bridge confirmation's Y. A press
// after them acts.
func TestARepeatNeverAnswers(t *testing.T) {
	const enterRepeat, rRepeat, yRepeat, capitalYRepeat = "\x1b[13;1:2u", "\x1b[114;1:2u", "\x1b[121;1:2u", "\x1b[121;2:2u"
	r, h, now := shownReview(t)
	r.Update(r.checkBridge()())
	*now = now.Add(slowDelay)
	repeatsFor(r, now, enterRepeat, time.Second)
	if _, cmd := screentest.Press(r, "r"); r.gate.Sending || h.withdraws != 0 || cmd != nil {
		t.Fatalf("a held enter's repeats signed (%v), or r just after them acted (%v)", r.gate.Sending, cmd != nil)
	}
	*now = now.Add(kit.KeyGuard)
	// Held, it holds keys again; let through, r takes a new quote.
	if screentest.SendTo(r, rRepeat); !r.gate.Guarded() {
		t.Fatal("a held r's repeat was let through to take a new quote")
	}
	*now = now.Add(kit.KeyGuard)
	if screentest.SendTo(r, "\x1b[13u"); !r.gate.Sending { // a press, as such a terminal writes it
		t.Fatalf("an enter pressed once the repeats stopped did not sign:\n%s", ansi.Strip(r.View()))
	}

	l, h, now := mostlyFeeReview(t)
	screentest.Press(l, "enter")
	*now = now.Add(slowDelay)
	if repeatsFor(l, now, yRepeat, time.Second); l.gate.Sending || h.withdraws != 0 {
		t.Fatal("a held y's repeats answered the second yes to a loss")
	}
	*now = now.Add(kit.KeyGuard)
	if screentest.SendTo(l, "y"); !l.gate.Sending {
		t.Fatalf("a y pressed once the repeats stopped did not sign:\n%s", ansi.Strip(l.View()))
	}

	app, _, now := hostileApp(t, false)
	if err := withdrawal.RecordBridge(app.Target.Env, app.Target.BridgePins(), sandbox.BridgeFundingAddress, *now); err != nil {
		t.Fatal(err)
	}
	b := newBridgeConfirm(app, withdrawal.BridgeChangedError{Env: app.Target.Env.Name, Expected: sandbox.BridgeFundingAddress,
		Seen: attackerBridge, Since: *now})
	b.SetSize(100, 30)
	b.Init()
	*now = now.Add(slowDelay)
	if repeatsFor(b, now, capitalYRepeat, time.Second); b.working {
		t.Fatal("a held Y's repeats trusted the new bridge address")
	}
	*now = now.Add(kit.KeyGuard)
	if _, cmd := screentest.Press(b, "Y"); cmd == nil {
		t.Fatal("a Y pressed once the repeats stopped did not confirm")
	}
}

// TestPassphraseTypedAsEscapeCodes: a terminal asked for every key as an
// escape code (tui.KeyboardAsked) writes a passphrase's letters as CSI u
// with their text (a shifted one's, a symbol's), and a release after each:
// the field holds what was typed, while the review's keys are held too,
// and an enter's repeat still signs nothing.
func TestPassphraseTypedAsEscapeCodes(t *testing.T) {
	app, now := screentest.LoggedInApp(t)
	r := newReview(app, sandboxChoice(t, app), withdrawal.PricedQuote{Quote: fixedQuote(*now, "1.5")})
	r.SetSize(120, 40)
	r.Init()
	r.Update(keyFound(r, signer.Found{Place: signer.KeyInKeystore, Path: "/k/UTC--key"}))
	r.Update(r.checkBridge()())
	for _, seq := range []string{"\x1b[112;;112u\x1b[112;1:3u", "\x1b[119:87;2;87u\x1b[119;2:3u", // p, shift+w
		"\x1b[49:33;2;33u\x1b[49;2:3u", "\x1b[32;;32u\x1b[32;1:3u", "\x1b[121;;121u\x1b[121;1:3u"} { // shift+1, space, y
		*now = now.Add(60 * time.Millisecond)
		screentest.SendTo(r, seq)
	}
	if got := r.gate.Key.Pass.Value(); got != "pW! y" {
		t.Fatalf("typed as escape codes, the passphrase field holds %q", got)
	}
	*now = now.Add(slowDelay)
	if repeatsFor(r, now, "\x1b[13;1:2u", time.Second); r.gate.Sending {
		t.Fatal("a held enter's repeats signed")
	}
}
