//go:build unix

package exchange

import (
	"context"
	"os/exec"
	"syscall"
)

// GroupCommandContext is CommandContext for a child that must end whole
// when ctx ends: it leads a process group of its own, which ctx's end
// kills, so what it started (the signer a wrapper script runs, a device
// helper) ends with it. Only for a child that never reads the terminal:
// its group is not the terminal's foreground group, so a read stops it
// rather than taking keys. The console's signing commands are such: the
// console holds the terminal.
func GroupCommandContext(ctx context.Context, name string, arg ...string) *exec.Cmd {
	c := CommandContext(ctx, name, arg...)
	c.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	c.Cancel = func() error { return syscall.Kill(-c.Process.Pid, syscall.SIGKILL) }
	return c
}
