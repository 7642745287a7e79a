package withdraw

import (
	"fmt"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"
	"github.com/shopspring/decimal"

	"github.com/svcwallet/svcwallet/screens/kit"
	"github.com/svcwallet/svcwallet/screens/kit/layout"
	"github.com/svcwallet/svcwallet/screens/screentest"
	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/sandbox"
	"github.com/svcwallet/svcwallet/service/withdrawal"
	"github.com/svcwallet/svcwallet/signer"
	"github.com/svcwallet/svcwallet/tui"
)

// TestEveryReviewSignsAt60x20 (found by review, then in tmux): a review
// signed by the wallet logged in with, of a USDT or a USDC payout, and a
// slow quote's, signed by a keystore key, can be signed at 60x20 and 80x24
// with everything signed whole: the wallet on one line, its address once
// whole (fromAccount) and shortened there, the countdown beside it where
// it fits, whole with where it was opened at 80x24, which has the room; a
// slow route in its fewest words beside another fact. The
// wallet took three to five lines and the slow route's why two, and the
// review asked for a larger terminal. Golden files at 60x20.
func TestEveryReviewSignsAt60x20(t *testing.T) {
	const path = "/home/someone/.local/share/svcwallet/keystore/UTC--2026-11-29T13-53-53996148000Z--f39fd6e51aad88f6f4ce6ab8827279cfffb92266"
	for _, tc := range []struct {
		name   string
		wallet bool
		out    string
		speed  string
		wants  []string
	}{
		{"wallet_USDT", true, exchange.TokenUSDT, exchange.SpeedFast, []string{"Signing key login wallet 0xf39F…2266"}},
		{"wallet_USDC", true, exchange.TokenUSDC, exchange.SpeedFast, []string{"Signing key login wallet 0xf39F…2266", "the bridge converts USDT to USDC"}},
		{"slow_keystore", false, exchange.TokenUSDT, exchange.SpeedSlow, []string{"Speed slow: bridge congested", "Signing key keystore 0xf39F…2266"}},
	} {
		for _, size := range [][2]int{{60, 18}, {80, 22}} { // the screen's part of the terminal
			t.Run(fmt.Sprintf("%s/%dx%d", tc.name, size[0], size[1]+2), func(t *testing.T) {
				app, now := screentest.LoggedInApp(t)
				app.Nonce = func() uint32 { return 7 }
				found := kit.KeyFoundMsg{Found: signer.Found{Place: signer.KeyInKeystore, Path: path}}
				if tc.wallet {
					key, err := signer.ParsePrivateKeyHex(sandbox.DemoPrivateKey)
					if err != nil {
						t.Fatal(err)
					}
					app.Signer, app.SignerFrom = key, "the keystore file "+path[strings.LastIndex(path, "/")+1:]
					found = kit.KeyFoundMsg{LoggedIn: true}
				}
				w := sandboxChoice(t, app)
				w.TokenOut = tc.out
				q := fixedQuote(*now, "1.5")
				q.Speed = tc.speed
				if tc.out == exchange.TokenUSDC {
					q.ReceiveAmount = decimal.RequireFromString("23.5047")
				}
				*now = now.Add(-kit.ShownGuard) // shown a guard early: 60 s left once it is waited out
				r := newReview(app, w, withdrawal.PricedQuote{Quote: q})
				r.SetSize(size[0], size[1])
				r.Init()
				found.For = r.gate.Key.Asked
				r.Update(found)
				r.Update(r.checkBridge()())
				*now = now.Add(kit.ShownGuard)
				view := r.View()
				lines := strings.Split(view, "\n")
				if len(lines) > size[1] || !screentest.Offers(r.KeyMap(), "enter") {
					t.Fatalf("%d lines, enter offered %v:\n%s", len(lines), screentest.Offers(r.KeyMap(), "enter"), ansi.Strip(view))
				}
				for i, l := range lines {
					if n := ansi.StringWidth(l); n > size[0] {
						t.Errorf("line %d is %d cells: %q", i+1, n, ansi.Strip(l))
					}
				}
				digest := signer.Digest(r.order.Domain, r.order.Transfer).Hex()
				wants := tc.wants
				if tc.wallet && size[0] == 80 { // room for the wallet whole, and where it was opened
					wants = append(wants[1:], "Signing key the wallet you logged in with, "+sandbox.DemoAddress+", from "+app.SignerFrom)
				}
				for _, want := range append([]string{digest, sandbox.BridgeFundingAddress, sandbox.DestCompleted, sandbox.DemoAddress, "You pay 25 USDT",
					"You receive 23.5", "Bridge fee 1.5 USDT", "You lose 1.5 USDT", "Environment sandbox", "expires in 60s", "Press enter to sign"}, wants...) {
					if !strings.Contains(squash(view), squash(want)) {
						t.Errorf("lacks %q whole:\n%s", want, ansi.Strip(view))
					}
				}
				if size[0] == 60 {
					golden.RequireEqual(t, []byte(ansi.Strip(view)))
				}
			})
		}
	}
}

// TestLoginWalletNotTheAccountShownWhole (found by review): the wallet
// logged in with is shortened on a short review only as the account that
// signs, whose address the message has whole; a wallet that is not that
// account (the exchange's account id comes apart from the login) is drawn
// whole, or the review asks for a larger terminal, never "0x7099…79C8"
// alone.
func TestLoginWalletNotTheAccountShownWhole(t *testing.T) {
	for _, size := range [][2]int{{60, 18}, {80, 22}} {
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]+2), func(t *testing.T) {
			app, now := screentest.LoggedInApp(t)
			key, err := signer.ParsePrivateKeyHex(sandbox.BuilderPrivateKey)
			if err != nil {
				t.Fatal(err)
			}
			app.Signer = key
			r := newReview(app, sandboxChoice(t, app), withdrawal.PricedQuote{Quote: fixedQuote(*now, "1.5")})
			r.SetSize(size[0], size[1])
			r.Init()
			r.Update(kit.KeyFoundMsg{For: r.gate.Key.Asked, LoggedIn: true})
			r.Update(r.checkBridge()())
			*now = now.Add(kit.KeyGuard)
			view := r.View()
			if screentest.Offers(r.KeyMap(), "enter") && !strings.Contains(squash(view), squash(key.Address().Hex())) {
				t.Fatalf("enter offered without the signing wallet %s whole:\n%s", key.Address().Hex(), ansi.Strip(view))
			}
		})
	}
}

// squash drops all white space, so text wrapped over lines can be found whole.
func squash(s string) string { return strings.Join(strings.Fields(ansi.Strip(s)), "") }

// TestReviewAt60x20KeepsEverythingWhole: on the smallest terminal the
// digest, the addresses, the signing-key line, a long error and the
// prompt are wrapped, never cut at the edge.
func TestReviewAt60x20KeepsEverythingWhole(t *testing.T) {
	app, now := screentest.LoggedInApp(t)
	const w, h = 60, 18 // the screen's part of a 60x20 terminal
	check := func(r *reviewScreen, wants ...string) {
		t.Helper()
		view := r.View()
		lines := strings.Split(view, "\n")
		if len(lines) > h {
			t.Errorf("%d lines, want at most %d:\n%s", len(lines), h, ansi.Strip(view))
		}
		for i, l := range lines {
			if n := ansi.StringWidth(l); n > w {
				t.Errorf("line %d is %d cells: %q", i+1, n, ansi.Strip(l))
			}
		}
		for _, want := range wants {
			if !strings.Contains(squash(view), squash(want)) {
				t.Errorf("lacks %q whole:\n%s", want, ansi.Strip(view))
			}
		}
	}
	r := reviewFor(t, app, now, fixedQuote(*now, "1.5"), 0, w, h, signer.Found{Place: signer.KeyDemo})
	digest := signer.Digest(r.order.Domain, r.order.Transfer).Hex()
	check(r, digest, sandbox.BridgeFundingAddress, "Signing key the sandbox demo key (public development key)",
		"Press enter to sign and withdraw", "Quote expires in",
		// What the user confirms by signing (issue 21 bug 9): the
		// withdrawal's facts (Order.Facts) but its details; the fee is
		// not a detail.
		"You pay 25 USDT", "You receive 23.5 USDT on ARBITRUM", "Bridge fee 1.5 USDT", "You lose 1.5 USDT, 6% of the amount", "Speed fast",
		"= 25 USDT", "pinned", "2026-")
	r = reviewFor(t, app, now, fixedQuote(*now, "1.5"), 0, w, h, signer.Found{})
	// Without a key the line says so at once, on one line: the account
	// shortened there, whole as fromAccount; enter is no key there.
	from := r.order.Transfer.FromAccount.Hex()
	check(r, signer.Digest(r.order.Domain, r.order.Transfer).Hex(), "none found for "+tui.ShortAddress(from), "fromAccount "+from)
	screentest.Press(r, "enter")
	if r.err != nil {
		t.Fatalf("enter without a key: %v", r.err)
	}
}

// TestReviewTooSmallDoesNotSign (issue 21 bug 9): a screen too short for
// everything the user confirms (a small window, or help open) shows no
// review, offers no enter, and enter signs nothing; taller again, it signs.
func TestReviewTooSmallDoesNotSign(t *testing.T) {
	app, now := screentest.LoggedInApp(t)
	r := reviewFor(t, app, now, fixedQuote(*now, "1.5"), 0, 60, 12, signer.Found{Place: signer.KeyDemo})
	view := ansi.Strip(r.View())
	if screentest.Offers(r.KeyMap(), "enter") || !strings.Contains(view, "Too small to review") || strings.Contains(view, "Press enter") {
		t.Fatalf("at 60x12: %v\n%s", r.KeyMap().ShortHelp(), view)
	}
	if _, cmd := screentest.Press(r, "enter"); screentest.Acts(cmd) || r.gate.Sending {
		t.Fatal("enter signed a review that is not on screen")
	}
	r.SetSize(60, 18)
	if !screentest.Offers(r.KeyMap(), "enter") {
		t.Fatalf("at 60x18 enter is not offered:\n%s", ansi.Strip(r.View()))
	}
}

// TestWrapFieldNeverCuts: a value wider than the terminal even on its own
// line is broken over indented lines, escape codes kept.
func TestWrapFieldNeverCuts(t *testing.T) {
	app, _ := screentest.LoggedInApp(t)
	c := app.Common
	value := "0x" + strings.Repeat("ab", 32)
	out := layout.WrapField(c, "Digest", 16, c.Styles.Value.Render(value), "a note that is long enough to wrap", 30)
	for _, l := range strings.Split(out, "\n") {
		if ansi.StringWidth(l) > 30 {
			t.Errorf("line %q wider than 30", ansi.Strip(l))
		}
	}
	lines := strings.Split(ansi.Strip(out), "\n")
	if !strings.HasPrefix(lines[0], layout.Pad("Digest", 17)+"0x") || !strings.HasPrefix(lines[1], layout.Pad("", 17)) || lines[1][17] == ' ' {
		t.Errorf("not pieces in the value column:\n%s", ansi.Strip(out))
	}
	if !strings.Contains(squash(out), value) {
		t.Errorf("the value is not whole:\n%s", ansi.Strip(out))
	}
}

// TestDestinationShowsWholeAddressAt60: the inputs take the width left
// after the label, so a 42-character EVM address shows whole, 0x included,
// and they follow a resize.
func TestDestinationShowsWholeAddressAt60(t *testing.T) {
	app, _ := screentest.LoggedInApp(t)
	d := newDestination(app, withdrawal.Choice{TokenIn: "USDT", TokenOut: "USDT", Route: screentest.Arbitrum})
	d.SetSize(120, 30)
	d.Init()
	// The hint under the empty field says the shape, not the placeholder's
	// words again ("EVM address", then "an EVM address").
	if v := ansi.Strip(d.View()); !strings.Contains(v, "0x and 40 hex digits") || strings.Contains(v, "an EVM address") {
		t.Errorf("the hint does not read \"0x and 40 hex digits\", or repeats the placeholder:\n%s", v)
	}
	var s tui.Screen = screentest.TypeInto(d, sandbox.DestCompleted)
	d.SetSize(60, 18)
	view := s.View()
	if !strings.Contains(ansi.Strip(view), sandbox.DestCompleted) {
		t.Errorf("the address is not whole at 60 columns:\n%s", ansi.Strip(view))
	}
	for _, l := range strings.Split(view, "\n") {
		if n := ansi.StringWidth(l); n > 60 {
			t.Errorf("line %q is %d cells", ansi.Strip(l), n)
		}
	}
}

// TestReviewTooSmallHintHoldsWithHelpClosed: the too-small review does not
// tell a person whose help is closed to close it with ?, which would open
// it and take more rows; it names ? only for when the help is open.
func TestReviewTooSmallHintHoldsWithHelpClosed(t *testing.T) {
	app, now := screentest.LoggedInApp(t)
	r := reviewFor(t, app, now, fixedQuote(*now, "1.5"), 0, 60, 12, signer.Found{Place: signer.KeyDemo})
	view := strings.Join(strings.Fields(ansi.Strip(r.View())), " ")
	if !strings.Contains(view, "Make the window taller") || !strings.Contains(view, "if the help is open, close it with ?") {
		t.Fatalf("the hint does not say ? is for an open help:\n%s", view)
	}
}
