package withdraw

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/svcwallet/svcwallet/screens/screentest"
	"github.com/svcwallet/svcwallet/signer"
)

// TestKeystoreFolderShownEscaped: the keystore's folder is the
// environment's (XDG_CONFIG_HOME), so the review's signing key line shows
// it escaped at every size: a no-break space as \u00a0, never as a space
// that reads as another folder.
func TestKeystoreFolderShownEscaped(t *testing.T) {
	for _, size := range [][2]int{{120, 38}, {60, 18}} {
		app, now := screentest.LoggedInApp(t)
		q := fixedQuote(*now, "1.5")
		r := reviewFor(t, app, now, q, 0, size[0], size[1], signer.Found{Place: signer.KeyInKeystore, Path: "/k\u00a0y/UTC--2026-11-29--f39fd6e51aad88f6f4ce6ab8827279cfffb92266"})
		view := ansi.Strip(r.View())
		if strings.Contains(view, "\u00a0") || !strings.Contains(view, `"/k\u00a0y`) {
			t.Errorf("%dx%d: the keystore's folder is not shown escaped:\n%s", size[0], size[1], view)
		}
	}
}
