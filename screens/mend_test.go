package screens

import (
	"testing"

	"github.com/svcwallet/svcwallet/internal/osguard"
	"github.com/svcwallet/svcwallet/screens/kit/layout"
	"github.com/svcwallet/svcwallet/screens/screentest"
	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/tui"
)

// TestRenamedFileSaysWhatNext: a file refused for its name (its fix
// osguard.RenameFirst, with no command) says in the console, in a toast
// and in a screen's error block, what to run once renamed: the doctor on
// the console's environment, as the command line's errors do; another
// refusal adds nothing.
func TestRenamedFileSaysWhatNext(t *testing.T) {
	c := newConsole(t, 200, 40, screentest.ConsoleOpts{})
	renamed := exchange.Worded(&osguard.UnsafePathError{What: "x", Fix: osguard.RenameFirst}, "pins: x: "+osguard.RenameFirst)
	next := "; then run " + c.App.Command("doctor") + " for the command that mends it"
	c.Send(tui.ErrorMsg{Err: renamed})
	c.UntilShows(osguard.RenameFirst + next)
	if got := layout.ErrorBlock(c.App.Common, "Stopped", renamed, 400); got != c.App.Common.Styles.ErrorToast.Render("Stopped: ")+renamed.Error()+next+"\n" {
		t.Errorf("the error block: %q", got)
	}
	other := &osguard.UnsafePathError{What: "x", Fix: "chmod go-w x"}
	if got := c.App.Common.Said(other); got != other.Error() {
		t.Errorf("a fix naming its command got %q", got)
	}
}
