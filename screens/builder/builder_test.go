package builder

import (
	"context"
	"errors"
	"os"
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

// TestBuilderFormRefuses: enter on a form builder.Check refuses stays on
// the form and puts the focus on the first field refused, with the reason
// under it (issue 21 item 16), wherever the focus was.
func TestBuilderFormRefuses(t *testing.T) {
	cases := []struct {
		name     string
		fill     func(r *bldRig)
		field    string
		wantText string
	}{
		{"fee with 5 decimals", func(r *bldRig) { r.fill(sandbox.BuilderAddress, "0.00001", "0.05", "") }, "Max futures fee", "5 decimal places; at most 4"},
		{"negative fee", func(r *bldRig) { r.fill(sandbox.BuilderAddress, "0.1", "-0.05", "") }, "Max spot fee", "cannot be negative"},
		{"expiration over 30 days", func(r *bldRig) { r.fill(sandbox.BuilderAddress, "0.1", "0.05", "31d") }, "Valid for", "choose 1 to 30 days"},
		{"expiration over 30 days in hours", func(r *bldRig) { r.fill(sandbox.BuilderAddress, "0.1", "0.05", "721h") }, "Valid for", "longer than 30 days"},
		{"bad checksum", func(r *bldRig) {
			r.fill(strings.Replace(sandbox.BuilderAddress, "C8", "c8", 1), "0.1", "0.05", "")
		}, "Builder account", "checksum"},
		{"no builder", func(r *bldRig) { r.fill("", "0.1", "0.05", "") }, "Builder account", "enter the builder account's address"},
		{"label without signer", func(r *bldRig) {
			r.fill(sandbox.BuilderAddress, "0.1", "0.05", "")
			r.keySection("bot", "")
		}, "Key signer", "needs all three"},
		{"signer without label", func(r *bldRig) {
			r.fill(sandbox.BuilderAddress, "0.1", "0.05", "")
			r.keySection("", sandbox.NoChainAddress)
		}, "Key label", "needs all three"},
		{"no permission chosen", func(r *bldRig) {
			r.fill(sandbox.BuilderAddress, "0.1", "0.05", "")
			r.keySection("bot", sandbox.NoChainAddress)
			r.Press("6") // Trade off: none left
		}, "Permissions", "needs all three"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := newBldRig(t, 120, 40)
			b := r.openForm()
			c.fill(r)
			r.Press("enter")
			r.UntilSays(c.wantText)
			// Still the form: nothing was signed or sent.
			if v := r.Plain(); strings.Contains(v, "Builder: review and sign") || !strings.Contains(v, "Max futures fee") {
				t.Fatalf("left the form:\n%s", v)
			}
			if fd := b.form.Focused(); fd.Label != c.field {
				t.Fatalf("the focus is on %s, want %s:\n%s", fd.Label, c.field, r.Plain())
			}
			// The reason is beside the field or under it.
			_, at, _ := strings.Cut(r.Plain(), "› "+c.field)
			if at := screentest.OneLine(strings.Join(strings.SplitN(at, "\n", 4)[:3], "\n")); !strings.Contains(at, "✗ ") || !strings.Contains(at, c.wantText) {
				t.Fatalf("the reason is not by %s:\n%s", c.field, r.Plain())
			}
			if strings.Contains(r.Plain(), "Error:") {
				t.Errorf("the reason is also in an error block:\n%s", r.Plain())
			}
		})
	}
}

// TestBuilderRejections sends each refused authorization through the real
// client to the sandbox and checks the code and the words the user sees.
func TestBuilderRejections(t *testing.T) {
	r := newBldRig(t, 120, 40)
	client := r.App.Client()
	demo, _ := signer.ParsePrivateKeyHex(sandbox.DemoPrivateKey)
	builderKey, _ := signer.ParsePrivateKeyHex(sandbox.BuilderPrivateKey)
	domain := r.App.Target.Env.Domain()
	week := bldStart.Add(7 * 24 * time.Hour).UnixNano()
	base := builder.Input{Main: sandbox.DemoAddress, Builder: sandbox.BuilderAddress, FuturesFee: "0.1", SpotFee: "0.05"}
	withKey := base
	withKey.Label, withKey.KeySigner, withKey.Permissions = "bot", sandbox.NoChainAddress, "Trade"
	signed := func(in builder.Input, k signer.Key, nonce uint32, exp int64) exchange.BuilderAuthorizeRequest {
		a, err := builder.Check(in)
		if err != nil {
			t.Fatal(err)
		}
		sig, err := signer.Sign(context.Background(), k, domain, a.Message(nonce, exp))
		if err != nil {
			t.Fatal(err)
		}
		return a.Request(sig)
	}
	cases := []struct {
		name string
		req  func() exchange.BuilderAuthorizeRequest
		code exchange.Code
		says string
	}{
		{"wrong signer: the builder's key signs for the main account", func() exchange.BuilderAuthorizeRequest {
			return signed(base, builderKey, 1, week)
		}, exchange.CodeUnauthorizedSigner, "main account's own key"},
		{"fee with 5 decimals sent raw", func() exchange.BuilderAuthorizeRequest {
			req := signed(base, demo, 2, week)
			req.MaxFuturesFeeRate = "0.00001"
			return req
		}, exchange.CodeBadFeeRate, "at most 4 decimals"},
		{"negative fee sent raw", func() exchange.BuilderAuthorizeRequest {
			req := signed(base, demo, 3, week)
			req.MaxSpotFeeRate = "-0.05"
			return req
		}, exchange.CodeBuilderFeeNegative, "cannot be negative"},
		{"fee over the limit sent raw", func() exchange.BuilderAuthorizeRequest {
			req := signed(base, demo, 10, week)
			req.MaxFuturesFeeRate = "429496.7296"
			return req
		}, exchange.CodeBuilderFeeOverLimit, "above the builder program's limit"},
		{"non-canonical permissions sent raw", func() exchange.BuilderAuthorizeRequest {
			// Signed over the very string sent: only the canonical rule refuses it.
			a, _ := builder.Check(withKey)
			m := a.Message(4, week).(signer.AddAccountSignerWithBuilder)
			m.Permissions = "Trade&Admin"
			sig, _ := signer.Sign(context.Background(), demo, domain, m)
			req := a.Request(sig)
			req.BuilderAPIKeyPermissions = "Trade&Admin"
			return req
		}, exchange.CodeBadPermissions, "pick from the listed names"},
		{"unknown permission sent raw", func() exchange.BuilderAuthorizeRequest {
			req := signed(withKey, demo, 5, week)
			req.BuilderAPIKeyPermissions = "Trade&Fly"
			return req
		}, exchange.CodeBadPermissions, "pick from the listed names"},
		{"partial API-key fields sent raw", func() exchange.BuilderAuthorizeRequest {
			req := signed(base, demo, 6, week)
			req.BuilderAPIKeyLabel = "bot"
			return req
		}, exchange.CodeBuilderFields, "fill all three or none"},
		{"signer and permissions without the label, sent raw", func() exchange.BuilderAuthorizeRequest {
			req := signed(withKey, demo, 7, week)
			req.BuilderAPIKeyLabel = ""
			return req
		}, exchange.CodeBuilderFields, "fill all three or none"},
		{"expiration over 30 days sent raw", func() exchange.BuilderAuthorizeRequest {
			return signed(base, demo, 8, bldStart.Add(30*24*time.Hour+time.Minute).UnixNano())
		}, exchange.CodeExpirationTooFar, "more than 30 days"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := client.AuthorizeBuilder(context.Background(), c.req())
			var ae *exchange.APIError
			if !errors.As(err, &ae) || ae.Code != c.code || ae.Status != c.code.Status() {
				t.Fatalf("err %v, want code %d", err, c.code)
			}
			if words := builder.Explain(err).Error(); !strings.Contains(words, c.says) {
				t.Fatalf("explained as %q, want %q in it", words, c.says)
			}
		})
	}
	t.Run("replayed nonce", func(t *testing.T) {
		req := signed(base, demo, 9, week)
		if _, err := client.AuthorizeBuilder(context.Background(), req); err != nil {
			t.Fatal(err)
		}
		_, err := client.AuthorizeBuilder(context.Background(), req)
		if !errors.Is(err, exchange.CodeDuplicateSignature) {
			t.Fatalf("replay: %v, want 4007", err)
		}
		if words := builder.Explain(err).Error(); !strings.Contains(words, "nonce was already used") {
			t.Fatalf("explained as %q", words)
		}
	})
}

// TestBuilderReviewExplainsRefusal: a refusal reaches the review screen in words.
func TestBuilderReviewExplainsRefusal(t *testing.T) {
	r := newBldRig(t, 120, 40)
	// Spend the rig's nonce first, so the console's own authorization is a replay.
	demo, _ := signer.ParsePrivateKeyHex(sandbox.DemoPrivateKey)
	a, _ := builder.Check(builder.Input{Main: sandbox.DemoAddress, Builder: sandbox.BuilderAddress, FuturesFee: "0.1", SpotFee: "0.05"})
	exp := bldStart.Add(7 * 24 * time.Hour).UnixNano()
	sig, _ := signer.Sign(context.Background(), demo, r.App.Target.Env.Domain(), a.Message(bldNonce, exp))
	if _, err := r.App.Client().AuthorizeBuilder(context.Background(), a.Request(sig)); err != nil {
		t.Fatal(err)
	}
	r.openForm()
	r.fill(sandbox.BuilderAddress, "0.1", "0.05", "")
	r.toReview()
	r.Press("enter")
	r.UntilShows("Not authorized", "nonce was already used", "keys are enabled in 2 s")
	// esc is held with the review's keys, as the words say: it stays.
	r.Press("esc")
	r.UntilShows("Not authorized", "nonce was already used", "keys are enabled in 2 s")
	r.clock.Advance(kit.ShownGuard) // esc is named once it acts
	r.UntilShows("Not authorized", "nonce was already used", "press esc and review it again")
	r.Press("esc")
	r.UntilShows("Max futures fee")
	if strings.Contains(r.Plain(), "Builder authorized") {
		t.Fatal("shown as authorized")
	}
}

// TestTypingAndPastingNeverQuit: on the builder form, q and ? are text and
// a bracketed paste goes to the field.
func TestTypingAndPastingNeverQuit(t *testing.T) {
	app, _ := screentest.LoggedInApp(t)
	screentest.TypeAndPasteUnderRoot(t, "builder", app, New(app))
}

// TestMoneyCallsOutliveTheirScreen: the review that sends a builder
// authorization hears no Leave, so leaving it cannot cancel a call whose
// answer the user must see.
func TestMoneyCallsOutliveTheirScreen(t *testing.T) {
	if _, ok := tui.Screen(&builderReviewScreen{}).(tui.Leaver); ok {
		t.Error("the builder review cancels its calls when left")
	}
}

// TestKeyNeverKept: a private key typed or pasted into any field of the
// form but the passphrases is cleared and said, never shown (issue 17
// item 7).
func TestKeyNeverKept(t *testing.T) {
	app, _ := screentest.LoggedInApp(t)
	b := New(app).(*builderScreen)
	b.withKey = true // the API key's label and signer show
	var fields []screentest.KeyField
	for _, fd := range []*kit.FormField{b.builder, b.futures, b.spot, b.expires, b.label, b.signer} {
		fields = append(fields, screentest.KeyField{Name: fd.Label,
			Focus: func() tea.Cmd { return b.form.Focus(fd) }, Value: func() string { return fd.Input.Value() }})
	}
	screentest.RequireKeyCleared(t, app, b, fields...)
}

// TestBuilderNewKeyAnswersMissingSigner: after enter refused a missing
// signer, ctrl+n (a key pair made here is the signer) takes the reason away.
func TestBuilderNewKeyAnswersMissingSigner(t *testing.T) {
	app, _ := screentest.LoggedInApp(t)
	b := New(app).(*builderScreen)
	b.SetSize(120, 40)
	screentest.Drive(b, b.Init())
	b.withKey = true
	b.label.Input.SetValue("bot")
	b.builder.Input.SetValue(sandbox.BuilderAddress)
	b.futures.Input.SetValue("0.1")
	b.spot.Input.SetValue("0.05")
	screentest.Press(b, "enter")
	if b.form.Focused() != b.signer || !strings.Contains(ansi.Strip(b.View()), "needs all three") {
		t.Fatalf("enter without a signer:\n%s", ansi.Strip(b.View()))
	}
	screentest.Press(b, "ctrl+n")
	if v := ansi.Strip(b.View()); b.form.Focused() != b.pass || strings.Contains(v, "needs all three") {
		t.Errorf("after ctrl+n the focus is on %s, or the reason stays:\n%s", b.form.Focused().Label, v)
	}
}

// TestValidForTypedReplaces (issue 28 item 20): typing over the pre-filled
// "Valid for" replaces it: 45d, never 7d45d.
func TestValidForTypedReplaces(t *testing.T) {
	r := newBldRig(t, 120, 40)
	f := r.openForm()
	r.TypeText(sandbox.BuilderAddress)
	r.Press("tab")
	r.TypeText("0.1")
	r.Press("tab")
	r.TypeText("0.05")
	r.Press("tab")
	r.TypeText("45d")
	r.UntilShows("45d")
	if got := f.expires.Input.Value(); got != "45d" {
		t.Fatalf("Valid for holds %q after typing 45d over 7d", got)
	}
}

// TestBuilderReviewOnARolledBackJournal: once the journal lost lines
// svcwallet wrote to it (an older copy put back), the review signs
// nothing and names the doctor (issue 33 item 4, builder.Signable).
func TestBuilderReviewOnARolledBackJournal(t *testing.T) {
	r := newBldRig(t, 120, 40)
	a, _ := builder.Check(builder.Input{Main: sandbox.DemoAddress, Builder: sandbox.BuilderAddress, FuturesFee: "0.1", SpotFee: "0.05"})
	o := builder.NewOrder(a, r.App.Target.Env.Domain(), 1, bldStart)
	if _, err := builder.Prepare(context.Background(), r.App.Client(), r.App.Journal(), o, bldStart); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(r.App.Journal().Path(), 0); err != nil {
		t.Fatal(err)
	}
	r.openForm()
	r.fill(sandbox.BuilderAddress, "0.1", "0.05", "")
	r.toReview()
	r.Press("enter")
	r.UntilShows("Not authorized", "Nothing can be signed", "lost lines svcwallet wrote", "which says what was lost")
	if strings.Contains(r.Plain(), "Builder authorized") {
		t.Fatal("shown as authorized")
	}
}

// TestBuilderOffersTheSandboxBuilder: on the sandbox the form names its
// builder account and ctrl+r, offered in the builder field alone, fills it
// in, marked •; another environment offers neither (a newcomer had to
// find the address in docs/sandbox.md).
func TestBuilderOffersTheSandboxBuilder(t *testing.T) {
	app, _ := screentest.LoggedInApp(t)
	app.Target.Demo = screentest.Demo()
	b := New(app).(*builderScreen)
	b.SetSize(120, 40)
	screentest.Drive(b, b.Init())
	if v := ansi.Strip(b.View()); !strings.Contains(v, "The sandbox's builder account (ctrl+r)\n  "+sandbox.BuilderAddress) || !screentest.Offers(b.KeyMap(), "ctrl+r") {
		t.Fatalf("the sandbox's builder is not offered:\n%s", v)
	}
	screentest.Press(b, "ctrl+r")
	if got := b.builder.Input.Value(); got != sandbox.BuilderAddress || !strings.Contains(ansi.Strip(b.View()), "• "+sandbox.BuilderAddress) {
		t.Errorf("ctrl+r put %q, or the book does not mark it:\n%s", got, ansi.Strip(b.View()))
	}
	screentest.Press(b, "tab")
	if screentest.Offers(b.KeyMap(), "ctrl+r") {
		t.Error("ctrl+r is offered in the futures fee field")
	}
	app.Target.Demo = nil
	b = New(app).(*builderScreen)
	b.SetSize(120, 40)
	screentest.Drive(b, b.Init())
	if v := ansi.Strip(b.View()); strings.Contains(v, "sandbox's builder") || screentest.Offers(b.KeyMap(), "ctrl+r") {
		t.Errorf("an environment without demo data offers a builder:\n%s", v)
	}
}

// TestBuilderSandboxKeyActsWhereNamed: the form's body names ctrl+r above
// every field, so ctrl+r fills the builder field from any of them (it did
// nothing outside the builder field, under a line naming it); on an
// environment without the sandbox's data it fills nothing.
func TestBuilderSandboxKeyActsWhereNamed(t *testing.T) {
	app, _ := screentest.LoggedInApp(t)
	app.Target.Demo = screentest.Demo()
	b := New(app).(*builderScreen)
	b.SetSize(80, 24)
	screentest.Drive(b, b.Init())
	screentest.Press(b, "tab")
	if b.form.Focused() != b.futures || !strings.Contains(ansi.Strip(b.View()), "(ctrl+r)") {
		t.Fatalf("focus on the futures fee field, ctrl+r named:\n%s", ansi.Strip(b.View()))
	}
	screentest.Press(b, "ctrl+r")
	if got := b.builder.Input.Value(); got != sandbox.BuilderAddress || b.futures.Input.Value() != "" {
		t.Errorf("ctrl+r in the futures fee field: builder %q, futures fee %q", got, b.futures.Input.Value())
	}
	app.Target.Demo = nil
	b = New(app).(*builderScreen)
	screentest.Drive(b, b.Init())
	screentest.Press(b, "ctrl+r")
	if got := b.builder.Input.Value(); got != "" {
		t.Errorf("ctrl+r without the sandbox filled %q", got)
	}
}

// TestSecretClearedSaysTheField: a recovery phrase pasted into a text
// field of the form is cleared saying what the field wants instead
// (kit.SecretCleared), the next step.
func TestSecretClearedSaysTheField(t *testing.T) {
	app, _ := screentest.LoggedInApp(t)
	b := New(app).(*builderScreen)
	for fd, wants := range map[*kit.FormField]string{b.builder: "the builder's account address", b.futures: "the max futures fee, in percent",
		b.spot: "the max spot fee, in percent", b.expires: "how long it is valid, such as 7d", b.label: "the API key's label", b.signer: "the address of the key that will sign"} {
		screentest.RequireSecretClearedSays(t, fd.Label, fd.Input, wants)
	}
}
