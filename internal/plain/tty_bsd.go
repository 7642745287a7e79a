//go:build darwin || dragonfly || freebsd || netbsd || openbsd

package plain

import "golang.org/x/sys/unix"

// The terminal's settings, read and set (and set after discarding pending
// input), as the BSDs name the requests.
const (
	getTermios      = unix.TIOCGETA
	setTermios      = unix.TIOCSETA
	setTermiosFlush = unix.TIOCSETAF
)
