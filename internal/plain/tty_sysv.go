//go:build aix || linux || solaris || zos

package plain

import "golang.org/x/sys/unix"

// The terminal's settings, read and set (and set after discarding pending
// input), as System V names the requests.
const (
	getTermios      = unix.TCGETS
	setTermios      = unix.TCSETS
	setTermiosFlush = unix.TCSETSF
)
