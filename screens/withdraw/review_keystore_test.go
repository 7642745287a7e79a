package withdraw

import (
	"fmt"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"

	"github.com/svcwallet/svcwallet/screens/kit"
	"github.com/svcwallet/svcwallet/screens/screentest"
	"github.com/svcwallet/svcwallet/service/sandbox"
	"github.com/svcwallet/svcwallet/signer"
)

// TestKeystoreReviewSignsAt60x20 (seen in tmux): README's 25 USDT example
// signed with a keystore key can be signed at 60x20, the documented
// minimum: the smallest levels put the key on one line (its address
// shortened, its folder cut from the left) and the countdown beside the
// passphrase, while everything signed stays whole.
func TestKeystoreReviewSignsAt60x20(t *testing.T) {
	app, now := screentest.LoggedInApp(t)
	app.Nonce = func() uint32 { return 7 }
	const w, h = 60, 18 // the screen's part of a 60x20 terminal
	path := "/home/someone/.local/share/svcwallet/keystore/UTC--2026-11-29T13-53-53996148000Z--f39fd6e51aad88f6f4ce6ab8827279cfffb92266"
	q := fixedQuote(*now, "1.5")
	*now = now.Add(-kit.ShownGuard) // shown a guard early: 60 s left once it is waited out
	r := reviewFor(t, app, now, q, 0, w, h, signer.Found{Place: signer.KeyInKeystore, Path: path})
	view := r.View()
	lines := strings.Split(view, "\n")
	if len(lines) > h || !screentest.Offers(r.KeyMap(), "enter") {
		t.Fatalf("%d lines, enter offered %v:\n%s", len(lines), screentest.Offers(r.KeyMap(), "enter"), ansi.Strip(view))
	}
	for i, l := range lines {
		if n := ansi.StringWidth(l); n > w {
			t.Errorf("line %d is %d cells: %q", i+1, n, ansi.Strip(l))
		}
	}
	digest := signer.Digest(r.order.Domain, r.order.Transfer).Hex()
	for _, want := range []string{digest, sandbox.BridgeFundingAddress, sandbox.DestCompleted, "You pay 25 USDT", "You lose 1.5 USDT",
		"Signing key keystore 0xf39F…2266 in …/keystore", "expires in 60s", "Press enter to sign"} {
		if !strings.Contains(squash(view), squash(want)) {
			t.Errorf("lacks %q whole:\n%s", want, ansi.Strip(view))
		}
	}
	golden.RequireEqual(t, []byte(ansi.Strip(view)))
}

// TestWrongPassphraseSaidAt60x20 (seen in tmux): a wrong keystore
// passphrase is said in one line with what to do, so at 60x20 the review
// stays on screen with it instead of giving way to "Too small to review".
func TestWrongPassphraseSaidAt60x20(t *testing.T) {
	app, now := screentest.LoggedInApp(t)
	path := "/home/someone/.local/share/svcwallet/keystore/UTC--2026-11-29T13-53-53996148000Z--f39fd6e51aad88f6f4ce6ab8827279cfffb92266"
	app.LoadKeystore = func(string, string) (signer.Key, error) {
		return nil, fmt.Errorf("%w for the keystore key of %s", signer.ErrWrongPassphrase, sandbox.DemoAddress)
	}
	r := reviewFor(t, app, now, fixedQuote(*now, "1.5"), 0, 60, 18, signer.Found{Place: signer.KeyInKeystore, Path: path})
	_, err := r.gate.Key.Loader()()
	r.err = err
	view := ansi.Strip(r.View())
	if !strings.Contains(view, "Not withdrawn: Wrong passphrase: type it again") || strings.Contains(view, "Too small") {
		t.Fatalf("at 60x18:\n%s", view)
	}
}
