package builder

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/svcwallet/svcwallet/internal/exchangetest"
	"github.com/svcwallet/svcwallet/screens/kit"
	"github.com/svcwallet/svcwallet/screens/screentest"
	"github.com/svcwallet/svcwallet/service/builder"
	"github.com/svcwallet/svcwallet/service/config"
	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/sandbox"
	"github.com/svcwallet/svcwallet/signer"
	"github.com/svcwallet/svcwallet/tui"
)

// bldStart is the fixed start of the builder tests' fake clock.
var bldStart = time.Date(2026, 3, 14, 9, 26, 53, 0, time.UTC)

// bldNonce is the nonce every review of the rig signs, so goldens are stable.
const bldNonce = 424242

// bldRig is a console logged in to a fresh in-process sandbox with the demo
// API key, on a clock the tests move.
type bldRig struct {
	*screentest.Console
	clock *exchangetest.FakeClock
}

func newBldRig(t *testing.T, w, h int) *bldRig {
	t.Helper()
	clock := exchangetest.NewFakeClock(bldStart)
	return &bldRig{Console: screentest.NewLoggedInConsole(t, w, h, screentest.ConsoleOpts{Clock: clock.Now}), clock: clock}
}

// openForm opens the builder form with the fixed nonce.
func (r *bldRig) openForm() *builderScreen {
	r.T.Helper()
	f := New(r.App).(*builderScreen)
	f.nonces = func() uint32 { return bldNonce }
	r.Open(f)
	r.UntilShows("Max futures fee")
	return f
}

// fill types the authorization fields: builder, fees, and (if given) expiry.
func (r *bldRig) fill(builder, futures, spot, expires string) {
	r.TypeText(builder)
	r.Press("tab")
	r.TypeText(futures)
	r.Press("tab")
	r.TypeText(spot)
	r.Press("tab")
	if expires != "" {
		for range 4 {
			r.Press("backspace")
		}
		r.TypeText(expires)
	}
	r.Press("tab") // on the API-key toggle
}

// keySection opens the API-key section and fills label and signer.
func (r *bldRig) keySection(label, keySigner string) {
	r.Press("space", "tab")
	r.TypeText(label)
	r.Press("tab")
	r.TypeText(keySigner)
	r.Press("tab") // permissions
}

// toReview presses enter on the form and waits for the review, then moves
// the clock past the keystroke guard and waits for the signing key.
func (r *bldRig) toReview() {
	r.T.Helper()
	r.toReviewWith("sandbox demo key")
}

// toReviewWith is toReview for the key the review names as keyText.
func (r *bldRig) toReviewWith(keyText string) {
	r.T.Helper()
	r.Press("enter")
	r.UntilShows("Builder: review and sign", keyText)
	r.clock.Advance(kit.ShownGuard)
}

// reviewAt60x20 fills the form with an API-key section and both fee caps
// above 1%, goes to the review and shrinks the terminal to 60x20, too
// short for the whole message and the caps' warnings.
func (r *bldRig) reviewAt60x20() {
	r.T.Helper()
	r.openForm()
	r.fill(sandbox.BuilderAddress, "2", "1.5", "")
	r.keySection("bot", sandbox.NoChainAddress)
	r.toReview()
	r.Send(tea.WindowSizeMsg{Width: 60, Height: 20})
}

// demoReview is a review, sized w x h, of the demo account authorizing
// the sandbox's builder at fee caps of 0.1% and 0.05%, made directly (its
// Init not run).
func (r *bldRig) demoReview(w, h int) *builderReviewScreen {
	r.T.Helper()
	a, err := builder.Check(builder.Input{Main: sandbox.DemoAddress, Builder: sandbox.BuilderAddress, FuturesFee: "0.1", SpotFee: "0.05"})
	if err != nil {
		r.T.Fatal(err)
	}
	rv := newBuilderReview(r.App, a, bldNonce)
	rv.SetSize(w, h)
	return rv
}

// signAndWait presses enter on the review and waits for the result.
func (r *bldRig) signAndWait() {
	r.T.Helper()
	r.Press("enter")
	r.UntilShows("Builder authorized", "May trade for")
}

func lightKeystore(t *testing.T) { exchangetest.CheapScrypt(t, &signer.ScryptN, &signer.ScryptP) }

// newKeystoreRig is a rig whose signing key is the demo key in a keystore
// at dir, joined under the test's temporary folder (scrypt made cheap):
// the sandbox's demo key is not offered, so the review asks for the
// keystore's passphrase, hunter2-hunter2.
func newKeystoreRig(t *testing.T, w, h int, dir ...string) *bldRig {
	t.Helper()
	lightKeystore(t)
	r := newBldRig(t, w, h)
	r.App.Target.Demo = nil
	r.App.KeystoreDir = filepath.Join(append([]string{t.TempDir()}, dir...)...)
	if _, _, err := signer.ImportRawKey(r.App.KeystoreDir, sandbox.DemoPrivateKey, "hunter2-hunter2"); err != nil {
		t.Fatal(err)
	}
	return r
}

func TestBuilderAuthorizeOnly(t *testing.T) {
	r := newBldRig(t, 120, 40)
	r.Open(New(r.App))
	r.UntilShows("Max futures fee", sandbox.DemoAddress)
	r.TypeText(sandbox.BuilderAddress)
	r.UntilShows("✓ valid")
	r.Press("tab")
	r.TypeText("0.1")
	r.UntilShows("signed 1000")
	r.Press("tab")
	r.TypeText("0.05")
	r.UntilShows("signed 500")
	r.Press("enter")
	r.UntilShows("AuthorizeBuilder", "authorize only, no API key", "maxFutureFeeRate", "= 0.1% futures cap", "sandbox demo key") // the key found: the guard holds from it
	r.clock.Advance(kit.ShownGuard)
	r.UntilShows("sandbox demo key", "Press enter to sign")
	r.signAndWait()
	v := r.Plain()
	for _, want := range []string{"Builder authorized", sandbox.BuilderAddress, "0.1% (signed 1000)", "0.05% (signed 500)", "2026-03-21 09:26:53 UTC", "No API key was created"} {
		if !strings.Contains(v, want) {
			t.Errorf("result lacks %q:\n%s", want, v)
		}
	}
	if strings.Contains(v, "API key for the builder") {
		t.Errorf("an API key section on an authorization without one:\n%s", v)
	}
	// The top bar says it; no toast under the result says it again.
	screentest.RequireTitleOnce(t, r.View(), "Builder authorized")
	// Enter goes home: the result was pushed on a fresh home screen.
	r.Press("enter")
	r.UntilShows(screentest.HomeView)
}

func TestBuilderWithAPIKey(t *testing.T) {
	lightKeystore(t)
	r := newBldRig(t, 120, 40)
	r.openForm()
	r.fill(sandbox.BuilderAddress, "0.1", "0.05", "3d")
	r.Press("space", "tab")
	r.TypeText("my bot")
	r.Press("tab")
	// A new key pair made here: passphrase twice, saved to the keystore.
	r.Press("ctrl+n")
	r.UntilShows("New passphrase", "Repeat it")
	r.TypeText("hunter2-hunter2")
	r.Press("tab")
	r.TypeText("hunter2-hunter3")
	r.Press("enter")
	r.UntilShows("The passphrases differ")
	r.TypeText("hunter2-hunter2")
	r.Press("tab")
	r.TypeText("hunter2-hunter2")
	r.Press("enter")
	r.UntilShows("saved with the builder keys")
	// The builder's key pair is kept apart: the login's list of keys (and
	// so its default key) never holds it.
	if keys := r.App.LoginFacts().Keys; len(keys) != 0 {
		t.Fatalf("the login lists %v, want no key: a builder's key pair is no login key", keys)
	}
	entries, err := signer.ListKeystore(signer.BuilderKeysDir(r.App.KeystoreDir))
	if err != nil || len(entries) != 1 {
		t.Fatalf("the builder keys hold %v (%v), want the one new key", entries, err)
	}
	r.UntilShows("Key file: ", "not a login key (svcwallet key list shows it)")
	made := entries[0].Address
	if !strings.Contains(r.Plain(), made.Hex()) {
		t.Fatalf("the new key's address %s is not filled in:\n%s", made.Hex(), r.Plain())
	}
	if k, err := signer.LoadKeystoreKey(entries[0].Path, "hunter2-hunter2"); err != nil || k.Address() != made {
		t.Fatalf("the key file does not open with the passphrase typed twice: %v", err)
	}
	// Permissions: default Trade; 1 adds Admin, shown canonical.
	r.Press("1")
	r.UntilShows("sent as Admin&Trade")
	r.Press("1")
	r.UntilShows("sent as Trade")

	r.toReview()
	r.UntilShows("AddAccountSignerWithBuilder", "authorize and create an API key", "permissions", "my bot")
	v := r.Plain()
	for _, want := range []string{"accountID", "signer", made.Hex(), "builderAccountID", "Trade", "1000", "500", "nonce", "424242", "Digest", `chainId 327`} {
		if !strings.Contains(v, want) {
			t.Errorf("review lacks %q:\n%s", want, v)
		}
	}
	r.signAndWait()
	r.UntilShows("API key for the builder", "shown once", "will not be shown again")
	apiKey := bldAPIKey(t, r.Plain())
	if n := strings.Count(r.Plain(), apiKey); n != 1 {
		t.Fatalf("the API key appears %d times", n)
	}
	r.Press("c")
	r.UntilShows("API key copied")

	// The returned key logs in, naming the builder's access.
	other := exchange.New(config.SandboxEnvironment(r.Srv.URL, sandbox.DefaultChainID), exchange.Options{Now: r.clock.Now})
	s, err := other.Login(context.Background(), exchange.APIKey(apiKey))
	if err != nil {
		t.Fatalf("login with the builder's key: %v", err)
	}
	if s.FundingAccountAddress != sandbox.DemoAddress || s.Location != "builder:"+sandbox.BuilderAddress {
		t.Fatalf("builder key session %+v", s)
	}

	// l logs the console in with it and starts over at home.
	r.Press("l")
	r.UntilShows(screentest.HomeView, "Logged in with the builder's API key", "for this console run only")
	if got, _ := r.App.Client().Session(); got.Location != "builder:"+sandbox.BuilderAddress || got.Method != "API key" {
		t.Fatalf("console session %+v, want the builder key's", got)
	}
	if strings.Contains(r.Plain(), apiKey) {
		t.Fatalf("the API key is still on screen after leaving the result:\n%s", r.Plain())
	}
}

// bldAPIKey reads the sandbox's api key (sbx-…) off the result screen.
func bldAPIKey(t *testing.T, view string) string {
	t.Helper()
	for _, l := range strings.Split(view, "\n") {
		if _, after, ok := strings.Cut(l, "API key"); ok {
			if f := strings.Fields(after); len(f) == 1 && strings.HasPrefix(f[0], "sbx-") {
				return f[0]
			}
		}
	}
	t.Fatalf("no API key on the result screen:\n%s", view)
	return ""
}

// TestBuilderKeystrokeGuard: enter signs nothing, and the footer offers
// no key, until the review has shown for kit.ShownGuard, and a KeyGuard has
// passed since the last key that came while held.
func TestBuilderKeystrokeGuard(t *testing.T) {
	r := newBldRig(t, 120, 40)
	rv := r.demoReview(120, 36)
	rv.Init() // its guard timer is not run: the fake clock decides
	// Let the key search finish.
	rv.Update(rv.gate.Key.Find()())
	r.clock.Advance(kit.ShownGuard - time.Millisecond)
	if _, cmd := screentest.Press(rv, "enter"); cmd != nil || rv.gate.Sending {
		t.Fatalf("enter %v after the review appeared signed (cmd %v)", kit.ShownGuard-time.Millisecond, cmd != nil)
	}
	if !strings.Contains(ansi.Strip(rv.View()), "keys are enabled in 1 s") {
		t.Fatalf("guarded review does not say so:\n%s", rv.View())
	}
	// The footer offers no key the guard swallows.
	if km := rv.KeyMap().ShortHelp(); len(km) != 0 {
		t.Fatalf("the guarded review offers %v", km)
	}
	// That enter came while held: it holds keys a whole guard again (a
	// key held down repeats past any dwell).
	r.clock.Advance(time.Millisecond)
	if screentest.Offers(rv.KeyMap(), "enter") {
		t.Fatal("enter is offered when the guard the early enter began has not ended")
	}
	r.clock.Advance(kit.KeyGuard - time.Millisecond)
	if !screentest.Offers(rv.KeyMap(), "enter") {
		t.Fatalf("after the guard enter is not offered: %v", rv.KeyMap().ShortHelp())
	}
	_, cmd := screentest.Press(rv, "enter")
	if cmd == nil || !rv.gate.Sending {
		t.Fatal("enter after the guard did not sign")
	}
}

// TestMoneyCallsOutliveTheirScreen: the review that sends a builder
// authorization hears no Leave, so leaving it cannot cancel a call whose
// answer the user must see.
func TestMoneyCallsOutliveTheirScreen(t *testing.T) {
	if _, ok := tui.Screen(&builderReviewScreen{}).(tui.Leaver); ok {
		t.Error("the builder review cancels its calls when left")
	}
}
