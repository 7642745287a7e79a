package cli

import (
	"fmt"
	"io"

	tea "charm.land/bubbletea/v2"

	"github.com/svcwallet/svcwallet/internal/osguard"
	"github.com/svcwallet/svcwallet/internal/safetext"
	"github.com/svcwallet/svcwallet/tui"
)

// sayLockWaitsOn says each long wait on a lock (osguard.Waiting) on w, a
// line of its own: a command or plain mode waiting on another process
// says what for instead of hanging silent.
func sayLockWaitsOn(w io.Writer) (restore func()) {
	return osguard.SetLockWaits(osguard.LockWaits{Say: func(wt osguard.Waiting) {
		fmt.Fprintln(w, "svcwallet: "+safetext.Line(wt.String(), 0))
	}})
}

// sayLockWaitsIn says each long wait on a lock in the console's toast
// (send is its program's): stderr would write over its screen.
func sayLockWaitsIn(send func(tea.Msg)) (restore func()) {
	return osguard.SetLockWaits(osguard.LockWaits{Say: func(wt osguard.Waiting) {
		send(tui.InfoMsg{Text: safetext.Line(wt.String(), 0)})
	}})
}
