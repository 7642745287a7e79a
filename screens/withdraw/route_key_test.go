package withdraw

import (
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/svcwallet/svcwallet/screens/screentest"
	"github.com/svcwallet/svcwallet/service/sandbox"
	"github.com/svcwallet/svcwallet/tui"
)

// TestRouteSaysNoKeySigns: the withdrawal's first screen says when no key
// here signs for the account, as Home does, before the route is chosen;
// on the sandbox its demo key signs, and nothing is said (issue 28 item
// 11). Its ways are the reviews' one set for the case.
func TestRouteSaysNoKeySigns(t *testing.T) {
	app, _ := screentest.LoggedInApp(t)
	open := func() string {
		var s tui.Screen = New(app)
		s.SetSize(100, 30)
		for _, m := range screentest.RunAll(s.Init()) {
			s, _ = s.Update(m)
		}
		return screentest.OneLine(ansi.Strip(s.View()))
	}
	if v := open(); strings.Contains(v, "No key here") || !strings.Contains(v, "ARBITRUM") {
		t.Fatalf("on the sandbox:\n%s", v)
	}
	app.Target.Demo = nil // another service: the demo key is not looked for
	v := open()
	for _, want := range []string{"No key here signs for " + sandbox.DemoAddress, "or signer (config), or run svcwallet key import", "o on the review", "ARBITRUM"} {
		if !strings.Contains(v, want) {
			t.Errorf("the route screen lacks %q:\n%s", want, v)
		}
	}
	// A signer set but unusable: its fix, once, and a login by wallet
	// act now; the raw key only with it out of the config, never setting
	// it again (kit.App.KeyWays).
	app.Target.Env.Signer = "command" // and no signing command set
	if v := open(); !strings.Contains(v, "Ways: set sign_command or log in by wallet; with signer out of the config, set $SVCWALLET_PRIVATE_KEY") || strings.Count(v, "sign_command") != 1 || strings.Contains(v, "signer (config)") {
		t.Errorf("the route screen's ways with the signer set but unusable:\n%s", v)
	}
	// A keystore file the signer names that is not there: said, its fix first.
	app.Target.Env.Signer = filepath.Join(t.TempDir(), "missing.json")
	if v := open(); !strings.Contains(v, "signer = "+strconv.Quote(app.Target.Env.Signer)+" in the config: the file is not there), so no withdrawal or builder authorization can be signed. Ways: fix signer or log in by wallet;") {
		t.Errorf("the route screen with the signer's keystore file missing:\n%s", v)
	}
}

// TestRouteWithNoKeyUsesItsRows: at 60x20 (18 rows under the top bar and
// above the footer) the notice that no key signs takes the rows the list
// had: its blank lines give way and the list takes theirs, so the screen
// ends on the sentence with no row blank under it (it showed 3 chains and
// left 2 rows blank).
func TestRouteWithNoKeyUsesItsRows(t *testing.T) {
	app, _ := screentest.LoggedInApp(t)
	app.Target.Demo, app.Target.Env.Signer = nil, "command"
	var s tui.Screen = New(app)
	s.SetSize(60, 18)
	for _, m := range screentest.RunAll(s.Init()) {
		s, _ = s.Update(m)
	}
	v := ansi.Strip(s.View())
	lines := strings.Split(strings.TrimSuffix(v, "\n"), "\n")
	if len(lines) != 18 || !strings.HasPrefix(lines[len(lines)-1], "Send USDT") || !strings.Contains(v, "No key here signs for") || !strings.Contains(v, "1–5 of 7") {
		t.Errorf("%d rows, ending %q:\n%s", len(lines), lines[len(lines)-1], v)
	}
}
