package builder

import (
	"fmt"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"

	"github.com/svcwallet/svcwallet/screens/kit"
	"github.com/svcwallet/svcwallet/service/sandbox"
	"github.com/svcwallet/svcwallet/signer"
)

// TestBuilderReviewSignsAtTheSmallSizes (found by review, then in tmux):
// an authorization with an API key can be signed at 60x20, by the sandbox
// demo key or the wallet logged in with, and at 80x24 with both fee caps
// above 1% by the wallet, every field, the digest, the warnings and the
// key that signs on screen. A long field name one space in gives the
// addresses their column at 60, the nonce goes beside the permissions, and
// the wallet takes one line, its address shortened (accountID has it
// whole); they needed 21, 20 and 24 lines. Golden files of the wallet's.
func TestBuilderReviewSignsAtTheSmallSizes(t *testing.T) {
	for _, tc := range []struct {
		name          string
		wallet        bool
		futures, spot string
		w, h          int
		key           string
	}{
		{"demo_key", false, "0.1", "0.05", 60, 20, "the sandbox demo key"},
		{"wallet", true, "0.1", "0.05", 60, 20, "login wallet 0xf39F…2266"},
		{"wallet_fee_caps", true, "2", "1.5", 80, 24, "login wallet 0xf39F…2266"},
	} {
		t.Run(fmt.Sprintf("%s/%dx%d", tc.name, tc.w, tc.h), func(t *testing.T) {
			r := newBldRig(t, tc.w, tc.h)
			if tc.wallet {
				key, err := signer.ParsePrivateKeyHex(sandbox.DemoPrivateKey)
				if err != nil {
					t.Fatal(err)
				}
				r.App.Signer, r.App.SignerFrom = key, "the keystore file UTC--2026-11-30T02-59-21.189065364Z--f39fd6e51aad88f6f4ce6ab8827279cfffb92266"
			}
			r.openForm()
			r.fill(sandbox.BuilderAddress, tc.futures, tc.spot, "")
			r.keySection("market maker bot", sandbox.NoChainAddress)
			r.toReviewWith(tc.key)
			r.UntilShows("Press enter to sign")
			v := r.Plain()
			for i, l := range strings.Split(v, "\n") {
				if n := ansi.StringWidth(l); n > tc.w {
					t.Errorf("line %d is %d cells: %q", i+1, n, l)
				}
			}
			one := strings.Join(strings.Fields(v), " ")
			wants := []string{"Key label market maker bot", "Environment sandbox", "chainId 327", "AddAccountSignerWithBuilder",
				"accountID " + sandbox.DemoAddress, "signer " + sandbox.NoChainAddress + " builder's API key", "permissions Trade",
				"builderAccountID " + sandbox.BuilderAddress, "maxFutureFeeRate", "futures cap", "maxSpotFeeRate", "spot cap",
				"nonce 424242", "expiration", "2026-03-21 09:26:53 UTC", "Digest", "Signing key " + tc.key, "enter sign and authorize"}
			if tc.futures == "2" {
				wants = append(wants, "! The futures fee cap 2% is above 1%", "! The spot fee cap 1.5% is above 1%")
			}
			for _, want := range wants {
				if !strings.Contains(one, want) {
					t.Errorf("no %q at %dx%d:\n%s", want, tc.w, tc.h, v)
				}
			}
			if tc.wallet {
				golden.RequireEqual(t, []byte(v))
			}
		})
	}
}

// TestBuilderReviewKeystoreSignsAt60x20 (found by review, then in tmux):
// a keystore key on an environment of the user's (local) needed 19 lines
// of the 18 a 60x20 terminal gives, and a key label of 43 to 100 bytes
// more, so the review showed only the notice to enlarge it. Now the prompt
// takes one line, and a long label takes its own short column: every fact
// is whole, and enter signs there. Which key signs is said whole too, the
// keystore's folder with it: where there is no line for the prompt, the
// passphrase field has it beside it, guarded or ready (it was put on the
// key's line, the folder left out).
func TestBuilderReviewKeystoreSignsAt60x20(t *testing.T) {
	for _, label := range []string{
		"market maker bot",
		"overnight futures book, colo rack ldn-3 (x)",
		"market maker bot for the overnight futures book, run from the colo rack in ldn-3 by the ops desk xyz",
		strings.Repeat("k", 100),
	} {
		t.Run(fmt.Sprintf("label_of_%d_bytes_%d_words", len(label), len(strings.Fields(label))), func(t *testing.T) {
			r := newKeystoreRig(t, 60, 20, "home", "someone", ".config", "svcwallet", "keystore")
			r.App.Target.Env.Name = "local"
			r.openForm()
			r.fill(sandbox.BuilderAddress, "0.1", "0.05", "")
			r.keySection(label, sandbox.NoChainAddress)
			r.Press("enter")
			r.UntilShows("Builder: review and sign", "keystore")
			if v := strings.Join(strings.Fields(r.Plain()), " "); !strings.Contains(v, "Signing key keystore 0xf39F…2266 in …/keystore") ||
				!strings.Contains(v, "keys are enabled in 2 s") {
				t.Errorf("the guarded review does not say the key's folder or that keys are held:\n%s", r.Plain())
			}
			r.clock.Advance(kit.ShownGuard)
			r.UntilShows("enter sign and authorize")
			v := r.Plain()
			for i, l := range strings.Split(v, "\n") {
				if n := ansi.StringWidth(l); n > 60 {
					t.Errorf("line %d is %d cells: %q", i+1, n, l)
				}
			}
			squashed := strings.Join(strings.Fields(v), "")
			for _, want := range []string{"Key label " + label, "Environment local · chainId 327", "AddAccountSignerWithBuilder",
				"authorize and create an API key", "accountID " + sandbox.DemoAddress, "signer " + sandbox.NoChainAddress + " builder's API key",
				"permissions Trade", "nonce 424242", "builderAccountID " + sandbox.BuilderAddress, "maxFutureFeeRate 1000 = 0.1% futures cap",
				"maxSpotFeeRate 500 = 0.05% spot cap", "expiration", "2026-03-21 09:26:53 UTC, 7 days", "Digest",
				"Signing key keystore 0xf39F…2266 in …/keystore", "Passphrase", "enter sign and authorize"} {
				if !strings.Contains(squashed, strings.Join(strings.Fields(want), "")) {
					t.Errorf("no %q whole at 60x20:\n%s", want, v)
				}
			}
			if !strings.Contains(squashed, "Pressentertosignandauthorize,esctogoback.") && !strings.Contains(squashed, "entersigns,escgoesback") {
				t.Errorf("no prompt at 60x20:\n%s", v)
			}
			golden.RequireEqual(t, []byte(v))
			// A wrong passphrase is said beside the field it is about:
			// the review still fits, its field there to type again, and
			// the key's folder keeps its line.
			r.TypeText("wrong")
			r.clock.Advance(kit.ShownGuard)
			r.Press("enter")
			r.UntilShows("rong passphrase")
			if v := r.Plain(); strings.Contains(v, "Enlarge") || !strings.Contains(strings.Join(strings.Fields(v), " "), "Signing key keystore 0xf39F…2266 in …/keystore") ||
				!strings.Contains(v, "Passphrase") {
				t.Errorf("a wrong passphrase at 60x20 leaves no field to type it again, or drops the key's folder:\n%s", v)
			}
			r.TypeText("hunter2-hunter2")
			r.clock.Advance(kit.ShownGuard)
			r.signAndWait()
		})
	}
}

// TestBuilderReviewFitFollowsEveryChange: the review's fit is drawn once
// per change, and every change draws it again: a key found (Update), the
// key looked for again (Init), another size (SetSize, which the root calls
// from View too) and the keystroke guard's end, which only the clock says.
func TestBuilderReviewFitFollowsEveryChange(t *testing.T) {
	r := newBldRig(t, 120, 40)
	rv := r.demoReview(120, 36)
	rv.Init()
	shows := func(when, want string) {
		t.Helper()
		if v := ansi.Strip(rv.View()); !strings.Contains(v, want) {
			t.Fatalf("%s: no %q:\n%s", when, want, v)
		}
	}
	shows("before the key is found", "looking…")
	rv.Update(rv.gate.Key.Find()())
	shows("the key found", "the sandbox demo key")
	rv.Init()
	shows("looked for again", "looking…")
	rv.Update(rv.gate.Key.Find()())
	shows("guarded", "keys are enabled in 2 s")
	r.clock.Advance(kit.ShownGuard)
	shows("the guard over", "Press enter to sign with this key")
	rv.SetSize(60, 12)
	shows("too short", "Enlarge the terminal")
	rv.SetSize(120, 36)
	shows("tall again", "Press enter to sign with this key")
}
