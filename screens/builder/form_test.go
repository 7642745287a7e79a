package builder

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/svcwallet/svcwallet/screens/kit"
	"github.com/svcwallet/svcwallet/screens/screentest"
	"github.com/svcwallet/svcwallet/service/sandbox"
)

// TestTypingAndPastingNeverQuit: on the builder form, q and ? are text and
// a bracketed paste goes to the field.
func TestTypingAndPastingNeverQuit(t *testing.T) {
	app, _ := screentest.LoggedInApp(t)
	screentest.TypeAndPasteUnderRoot(t, "builder", app, New(app))
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
