package osguard

import (
	"errors"
	"fmt"
	"os"
	"syscall"
	"time"

	"github.com/svcwallet/svcwallet/internal/safetext"
)

// A state file is replaced by a rename over it (WriteStateFileFrom). On
// Windows a program that holds it open without letting it be replaced (a
// virus scanner reading the journal's record, a backup or sync tool) makes
// that rename fail, a moment after every write: the rename is tried again
// a bounded while, then the hold is said.

// ReplaceRetryFor bounds the tries of a rename over a state file held
// open: a scanner's look at a file this small is over well within it.
const ReplaceRetryFor = 2 * time.Second

// renameOver replaces to with from (in tests, one a scanner holds).
var renameOver = os.Rename

// replaceAfter times the waits between tries (in tests, a clock whose
// every wait is over at once).
var replaceAfter = time.After

// heldOpen reports whether err is a rename refused for a file another
// program holds open (replace_windows.go; never elsewhere).
var heldOpen = isHeldOpen

// replaceFile renames from over to, trying again every PollEvery for
// ReplaceRetryFor while another program holds either open.
func replaceFile(from, to string) error {
	for waited := time.Duration(0); ; waited += PollEvery {
		err := renameOver(from, to)
		if err == nil || !heldOpen(err) {
			return err
		}
		if waited >= ReplaceRetryFor {
			return &HeldOpenError{Path: to, Waited: waited, Err: err}
		}
		<-replaceAfter(PollEvery)
	}
}

// HeldOpenError is a state file that could not be replaced because
// another program held it open past ReplaceRetryFor.
type HeldOpenError struct {
	Path   string
	Waited time.Duration
	Err    error
}

// Error names the system's refusal in its words, not the rename's (which
// repeat the temporary file's path): access denied is also what a file
// made read-only gives, which no waiting mends.
func (e *HeldOpenError) Error() string {
	said := ""
	var errno syscall.Errno
	if errors.As(e.Err, &errno) {
		said = " (the system said: " + safetext.Text(errno.Error()) + ")"
	}
	return fmt.Sprintf("%s could not be replaced%s: still after %s, as another program holds it open (a virus scanner, or a backup or sync tool?); it is as it was; let that program finish with it, or keep it from svcwallet's state folder, then try again",
		safetext.Shown(e.Path), said, e.Waited.Round(100*time.Millisecond))
}

func (e *HeldOpenError) Unwrap() error { return e.Err }
