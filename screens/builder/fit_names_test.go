package builder

import (
	"fmt"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"

	"github.com/svcwallet/svcwallet/screens/kit"
	"github.com/svcwallet/svcwallet/screens/screentest"
	"github.com/svcwallet/svcwallet/service/builder"
	"github.com/svcwallet/svcwallet/service/sandbox"
	"github.com/svcwallet/svcwallet/signer"
)

// TestBuilderReviewOfEveryGrantFits60x20 (seen in tmux): an API key with
// one, two or every permission beyond Trade, signed by the sandbox demo
// key with a nonce of ten digits, is reviewed and its grant asked at
// 60x20 and 80x24, every field and the digest whole: the warning no
// longer names again the permissions the field above shows, the
// expiration's date goes beside it, every permission breaks after an &,
// and, with every one, the key's label is the signer's note. Two names
// needed 20 lines of 18 and said "Enlarge the terminal". Golden files.
func TestBuilderReviewOfEveryGrantFits60x20(t *testing.T) {
	const nonce = 3945558234
	for _, tc := range []struct{ name, perms, warns string }{
		{"one", "Withdraw&Trade", "also gets Withdraw"},
		{"two", "Withdraw&VaultInvestor&Trade", "more than Trade"},
		{"two_not_trade", "Withdraw&VaultInvestor", "other rights, not Trade"},
		{"all", "Admin&InternalTransfer&ExternalTransfer&Withdraw&VaultInvestor&Trade", "more than Trade"},
	} {
		for _, size := range [][2]int{{60, 18}, {80, 22}} { // the screen's part of the terminal
			t.Run(fmt.Sprintf("%s/%dx%d", tc.name, size[0], size[1]+2), func(t *testing.T) {
				app, now := screentest.LoggedInApp(t)
				a, err := builder.Check(builder.Input{Main: sandbox.DemoAddress, Builder: sandbox.BuilderAddress, FuturesFee: "0.1", SpotFee: "0.05",
					Label: "mybot", KeySigner: sandbox.NoChainAddress, Permissions: tc.perms})
				if err != nil {
					t.Fatal(err)
				}
				rv := newBuilderReview(app, a, nonce)
				rv.SetSize(size[0], size[1])
				rv.Init()
				rv.Update(rv.gate.Key.Find()())
				*now = now.Add(kit.ShownGuard)
				rv.changed()
				if screentest.Press(rv, "enter"); rv.gate.Sending {
					t.Fatal("enter signed a key that may move funds without asking")
				}
				*now = now.Add(kit.ShownGuard)
				rv.changed()
				view := rv.View()
				lines := strings.Split(view, "\n")
				if !rv.fits() || len(lines) > size[1] || !screentest.Offers(rv.KeyMap(), "y") {
					t.Fatalf("%d lines, y offered %v:\n%s", len(lines), screentest.Offers(rv.KeyMap(), "y"), ansi.Strip(view))
				}
				for i, l := range lines {
					if n := ansi.StringWidth(l); n > size[0] {
						t.Errorf("line %d is %d cells: %q", i+1, n, ansi.Strip(l))
					}
				}
				warns := tc.warns
				if size[0] == 80 { // room for the warning's whole words
					warns = "a builder needs only Trade"
				}
				squashed := strings.Join(strings.Fields(ansi.Strip(view)), "")
				digest := signer.Digest(rv.order.Domain, rv.order.Message).Hex()
				for _, want := range []string{digest, "Environment sandbox", "chainId 327", "AddAccountSignerWithBuilder", "authorize and create an API key",
					"accountID " + sandbox.DemoAddress, "signer " + sandbox.NoChainAddress, "builder's API key", "mybot", "permissions " + tc.perms,
					"builderAccountID " + sandbox.BuilderAddress, "maxFutureFeeRate 1000", "= 0.1% futures cap", "maxSpotFeeRate 500", "= 0.05% spot cap",
					fmt.Sprintf("nonce %d", nonce), "expiration", "2026-03-21 09:26:53", "Signing key", "demo key", warns, "Grant it all the same? (y/n)"} {
					if !strings.Contains(squashed, strings.Join(strings.Fields(want), "")) {
						t.Errorf("lacks %q whole:\n%s", want, ansi.Strip(view))
					}
				}
				golden.RequireEqual(t, []byte(ansi.Strip(view)))
			})
		}
	}
}
