//go:build linux

package osguard

import (
	"fmt"

	"golang.org/x/sys/unix"
)

// ProtectProcess keeps private keys held in this process's memory out of
// reach of other processes of the same user (no ptrace attach, no
// /proc/PID/mem: the process is not dumpable) and out of core files (the
// core size limit is 0, soft and hard, so nothing later raises it). Every
// command that may load a key calls it once, before reading any.
func ProtectProcess() error {
	if err := unix.Prctl(unix.PR_SET_DUMPABLE, 0, 0, 0, 0); err != nil {
		return fmt.Errorf("cannot make the process undumpable: %w", err)
	}
	return noCoreFiles()
}
