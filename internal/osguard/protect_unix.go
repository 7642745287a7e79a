//go:build unix

package osguard

import (
	"fmt"

	"golang.org/x/sys/unix"
)

// noCoreFiles sets the core size limit to 0, soft and hard, so nothing
// later raises it and no core file holds a key from this process's memory.
func noCoreFiles() error {
	if err := unix.Setrlimit(unix.RLIMIT_CORE, &unix.Rlimit{Cur: 0, Max: 0}); err != nil {
		return fmt.Errorf("cannot turn off core files: %w", err)
	}
	return nil
}
