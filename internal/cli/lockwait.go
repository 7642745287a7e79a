package cli

import (
	"fmt"
	"io"
	"sync"

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

// sayLockWaitsIn says each long wait on a lock in the console (send is
// its program's): stderr would write over its screen.
func sayLockWaitsIn(send func(tea.Msg)) (restore func()) {
	return osguard.SetLockWaits(lockWaitsIn(send))
}

// lockWaitsIn says a wait in a standing word that stays up until the wait
// is over (a wait on the journal's lock mid-send has no end in time): a
// toast went after seconds, leaving a spinner with no word of why.
func lockWaitsIn(send func(tea.Msg)) osguard.LockWaits {
	var mu sync.Mutex
	tags := map[uint64]tui.Tag{} // each wait up, by its Seq
	return osguard.LockWaits{
		Say: func(wt osguard.Waiting) {
			tag := tui.NextTag()
			mu.Lock()
			tags[wt.Seq] = tag
			mu.Unlock()
			// Brief: the full paths cut off what svcwallet does at 80x24.
			send(tui.StandingMsg{Tag: tag, Text: safetext.Line(wt.Brief(), 0)})
		},
		Over: func(wt osguard.Waiting) {
			mu.Lock()
			tag, up := tags[wt.Seq]
			delete(tags, wt.Seq)
			mu.Unlock()
			if up {
				send(tui.StandingOverMsg{Tag: tag})
			}
		},
	}
}
