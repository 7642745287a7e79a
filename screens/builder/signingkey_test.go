package builder

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/svcwallet/svcwallet/screens/screentest"
	"github.com/svcwallet/svcwallet/service/sandbox"
	"github.com/svcwallet/svcwallet/signer"
)

// TestBuilderSaysNoKeyFirst: entering the form with no key here for the
// account (an API-key login, no $SVCWALLET_PRIVATE_KEY, no demo key, no
// journal to prepare it for another device), the screen says so
// (builder.SigningKey) with the console's ways, shows no field, offers no
// key and takes no typing or paste; keys typed before the look answers
// land nowhere either; its ways are the reviews' one set for the case.
// Where its review can prepare it for another
// device, a line above the form says so, and the form is filled in.
func TestBuilderSaysNoKeyFirst(t *testing.T) {
	app, _ := screentest.LoggedInApp(t)
	journal := app.Target.Journal
	app.Target.Demo, app.Target.Journal = nil, nil
	b := New(app).(*builderScreen)
	b.SetSize(120, 40)
	look := b.Init()
	screentest.Press(b, "0")
	if b.Inputting() || b.builder.Input.Value() != "" || strings.Contains(ansi.Strip(b.View()), "Max futures fee") {
		t.Fatalf("the form took a key before the look answered:\n%s", ansi.Strip(b.View()))
	}
	screentest.Drive(b, look)
	v := screentest.OneLine(ansi.Strip(b.View()))
	for _, w := range []string{"No key here signs for " + sandbox.DemoAddress + ", so no builder authorization can be signed here; nothing was asked, signed or sent",
		"key import", "$" + signer.KeyEnvVar} {
		if !strings.Contains(v, w) {
			t.Errorf("the view lacks %q:\n%s", w, v)
		}
	}
	if strings.Contains(v, "Builder account") || strings.Contains(v, "Max futures fee") || strings.Contains(v, "another device") {
		t.Errorf("a field, or a way that is not here, shows with no key:\n%s", v)
	}
	// A signer set but unusable: its fix, once, and a login by wallet act
	// now; the raw key only with it out of the config, never setting it
	// again (kit.App.KeyWays). "Other ways" pointed back past "make the
	// account's key available here".
	app.Target.Env.Signer = "command" // and no signing command set
	set := New(app).(*builderScreen)
	set.SetSize(120, 40)
	screentest.Drive(set, set.Init())
	if v := screentest.OneLine(ansi.Strip(set.View())); !strings.Contains(v, "then start it again. Ways: set sign_command or log in by wallet; with signer out of the config, set $SVCWALLET_PRIVATE_KEY") || strings.Count(v, "sign_command") != 1 || strings.Contains(v, "signer (config)") || strings.Contains(v, "Other") {
		t.Errorf("the ways with the signer set but unusable:\n%s", v)
	}
	app.Target.Env.Signer = ""
	if screentest.Offers(b.KeyMap(), "enter") || len(b.KeyMap().ShortHelp()) != 0 {
		t.Errorf("the footer offers keys with no key to sign: %v", b.KeyMap().ShortHelp())
	}
	screentest.Press(b, "0")
	screentest.Press(b, "enter")
	b.Update(tea.PasteMsg{Content: sandbox.BuilderAddress})
	if b.builder.Input.Value() != "" {
		t.Errorf("the form took %q with no key to sign", b.builder.Input.Value())
	}

	app.Target.Journal = journal
	b = New(app).(*builderScreen)
	b.SetSize(120, 40)
	screentest.Drive(b, b.Init())
	v = screentest.OneLine(ansi.Strip(b.View()))
	if !strings.Contains(v, "No key here signs for this account: fill it in, and its review prepares it for signing on another device") || !strings.Contains(v, "Max futures fee") {
		t.Errorf("with a journal to prepare it for another device:\n%s", v)
	}
	screentest.Press(b, "0")
	if b.builder.Input.Value() != "0" {
		t.Errorf("the form preparing for another device took %q", b.builder.Input.Value())
	}
}

// TestBuilderFormOpensWhenNothingIsLooked: a wallet login holds the key
// (none where a review would look, no journal to prepare it elsewhere),
// and a session with no funding account has no key to look for: the form
// takes typing at once in both, not "no key" nor "looking…" for good.
func TestBuilderFormOpensWhenNothingIsLooked(t *testing.T) {
	app, _ := screentest.LoggedInApp(t)
	app.Target.Demo, app.Target.Journal = nil, nil
	key, err := signer.ParsePrivateKeyHex(sandbox.DemoPrivateKey)
	if err != nil {
		t.Fatal(err)
	}
	app.Signer = key
	b := New(app).(*builderScreen)
	b.SetSize(120, 40)
	screentest.Drive(b, b.Init())
	screentest.Press(b, "0")
	if v := ansi.Strip(b.View()); b.builder.Input.Value() != "0" || strings.Contains(v, "No key here") {
		t.Errorf("a wallet login's form took %q:\n%s", b.builder.Input.Value(), v)
	}

	app.Signer = nil
	b = New(app).(*builderScreen)
	b.main = ""
	b.SetSize(120, 40)
	b.Init()
	screentest.Press(b, "0")
	if v := ansi.Strip(b.View()); b.builder.Input.Value() != "0" || strings.Contains(v, "Looking for the key") {
		t.Errorf("with no funding account the form took %q:\n%s", b.builder.Input.Value(), v)
	}
}
