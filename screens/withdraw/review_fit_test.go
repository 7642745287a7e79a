package withdraw

import (
	"fmt"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"
	"github.com/shopspring/decimal"

	"github.com/svcwallet/svcwallet/screens/kit"
	"github.com/svcwallet/svcwallet/screens/screentest"
	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/sandbox"
	"github.com/svcwallet/svcwallet/service/withdrawal"
	"github.com/svcwallet/svcwallet/signer"
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
