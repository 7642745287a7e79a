package screentest

import (
	"fmt"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"

	"github.com/svcwallet/svcwallet/screens/kit"
	"github.com/svcwallet/svcwallet/tui"
)

// NoKeyReview opens a review of w x h on app with no key here for its
// account, its search for the key answered, and says whether its layout
// fits once drawn.
type NoKeyReview func(t *testing.T, app *kit.App, now *time.Time, w, h int) (s tui.Screen, fits func() bool)

// RequireNoKeyFits: a review with no key here, none set or its
// environment's signer unusable ("command", no signing command set), shows
// whole at 60x20 and at 120x40, saying no key once and then one set of
// ways fitting the case (signer.NoKeyError.Steps): a signer set is fixed
// first, its config key named once even in the fewest words, never set
// again, and the raw key, which the look does not reach while it is set,
// offered only with signer out of the config; none set, setting one is a
// way. Golden files, one a case and size.
func RequireNoKeyFits(t *testing.T, open NoKeyReview) {
	for _, sig := range []string{"none", "command"} {
		for _, size := range [][2]int{{60, 20}, {120, 40}} {
			t.Run(fmt.Sprintf("%s/%dx%d", sig, size[0], size[1]), func(t *testing.T) {
				view, fits := noKeyView(t, open, strings.TrimPrefix(sig, "none"), size)
				said := OneLine(view)
				if !fits() || !strings.Contains(said, "No key here signs ") || strings.Count(said, "log in by wallet") != 1 {
					t.Errorf("without a key (fits %v):\n%s", fits(), view)
				}
				set, fix := strings.Contains(said, "or signer (config)"), strings.Count(said, "sign_command")
				if sig == "command" && (set || fix != 1 || falseRawKey(said)) || sig == "none" && (!set || fix != 0) {
					t.Errorf("signer %q: its ways set a signer %v, sign_command named %d times, or the raw key as if it signed now:\n%s", sig, set, fix, view)
				}
				golden.RequireEqual(t, []byte(view))
			})
		}
	}
}

// RequireNoKeyFullWhereFits: a review whose environment's signer is
// unusable ("command", no signing command set) says the signer's setting
// and error (no signing command) wherever the review fits whole with it:
// at 80x24 and at each size given, then its fix (set sign_command) once,
// first of the ways, the raw key only with signer out of the config. Its
// brief words there hid the error, rows left blank; the error's own fix
// and the "Other ways" after it pointed back past it. Golden files, one a
// size.
func RequireNoKeyFullWhereFits(t *testing.T, open NoKeyReview, sizes ...[2]int) {
	for _, size := range append([][2]int{{80, 24}}, sizes...) {
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) {
			view, fits := noKeyView(t, open, "command", size)
			said := OneLine(view)
			full := `signer = "command" in the config: no signing command). Ways: set sign_command or log in by wallet;`
			if !fits() || !strings.Contains(said, full) || strings.Count(said, "sign_command") != 1 || falseRawKey(said) {
				t.Errorf("without a signing command (fits %v), its error unsaid, its fix not said once first, or the raw key as if it signed now:\n%s", fits(), view)
			}
			golden.RequireEqual(t, []byte(view))
		})
	}
}

// RequireNoKeyUsesRows: at each size given a review whose environment's
// signer is unusable fits whole and says no key in the fullest words that
// fit (kit.NoKeyWording), its last row above the footer not left blank:
// the signer's error at least in its fewest words (no signing command),
// its fix and each way once. The brief words showed there, up to 3 rows
// blank. Golden files, one a size.
func RequireNoKeyUsesRows(t *testing.T, open NoKeyReview, sizes ...[2]int) {
	for _, size := range sizes {
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) {
			view, fits := noKeyView(t, open, "command", size)
			said, lines := OneLine(view), strings.Split(view, "\n")
			blank := len(lines) < 2 || strings.TrimSpace(lines[len(lines)-2]) == ""
			if !fits() || blank || !strings.Contains(said, "no signing command") || strings.Count(said, "sign_command") != 1 || strings.Count(said, "log in by wallet") != 1 || falseRawKey(said) {
				t.Errorf("without a signing command (fits %v, a row blank %v):\n%s", fits(), blank, view)
			}
			golden.RequireEqual(t, []byte(view))
		})
	}
}

// falseRawKey reports whether said offers the raw key as a way while the
// environment's signer is set and cannot sign: the look stops at the
// signer (signer.Lookup), so the raw key signs only with it out of the
// config.
func falseRawKey(said string) bool {
	return strings.Contains(said, "$SVCWALLET_PRIVATE_KEY") && !strings.Contains(said, "with signer out of the config, set $SVCWALLET_PRIVATE_KEY")
}

// noKeyView is the review open makes with the environment's signer set
// to signer (and no signing command), drawn at size once its keys are
// enabled, and whether its layout fits.
func noKeyView(t *testing.T, open NoKeyReview, signer string, size [2]int) (string, func() bool) {
	app, now := LoggedInApp(t)
	app.Target.Demo, app.Target.Env.Signer = nil, signer
	s, fits := open(t, app, now, size[0], size[1]-2)
	*now = now.Add(kit.ShownGuard)
	app.Common.TopBar = app.TopBar
	root := tui.New(s, tui.Options{Theme: "dark", Common: app.Common, Timer: func(time.Duration, tea.Msg) tea.Cmd { return nil }})
	Feed(root, tea.WindowSizeMsg{Width: size[0], Height: size[1]})
	return ansi.Strip(root.View().Content), fits
}
