//go:build e2e && linux

package cli

import (
	"os"

	"golang.org/x/sys/unix"
)

// unreadKeys is how many bytes the terminal tty holds typed and not yet
// read (its input queue).
func unreadKeys(tty *os.File) (int, error) { return unix.IoctlGetInt(int(tty.Fd()), unix.TIOCINQ) }
