//go:build unix

package osguard

import (
	"context"
	"os"
	"syscall"

	"golang.org/x/sys/unix"
	"golang.org/x/term"
)

// GroupCommandContext is CommandContext for a child that must end whole
// when ctx ends: it leads a process group of its own, which ctx's end
// kills, so what it started (the signer a wrapper script runs, a device
// helper) ends with it. Its group is not the terminal's foreground group,
// so a read of the terminal stops it rather than taking keys, unless the
// terminal is lent to it (LendForeground).
func GroupCommandContext(ctx context.Context, name string, arg ...string) *GroupCmd {
	c := CommandContext(ctx, name, arg...)
	c.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	c.Cancel = func() error { return syscall.Kill(-c.Process.Pid, syscall.SIGKILL) }
	return &GroupCmd{Cmd: c}
}

// LendForeground makes the child's process group the foreground of
// svcwallet's controlling terminal while it runs, when svcwallet's group
// holds it now, and takes it back once the child has ended, with the
// terminal's settings as they were lent: a child ended at its time while
// it prompted (echo off), or one that left raw mode, left plain mode's
// questions unechoed and ctrl+c quitting nothing. Nothing when there is no
// terminal or svcwallet runs in the background.
func (g *GroupCmd) LendForeground() {
	tty, err := os.OpenFile("/dev/tty", os.O_RDWR, 0)
	if err != nil {
		return
	}
	fd := int(tty.Fd())
	own := unix.Getpgrp()
	if pg, err := unix.IoctlGetInt(fd, unix.TIOCGPGRP); err != nil || pg != own {
		tty.Close()
		return
	}
	lent, err := term.GetState(fd)
	if err != nil {
		tty.Close()
		return
	}
	g.Cmd.SysProcAttr.Foreground, g.Cmd.SysProcAttr.Ctty = true, fd
	g.ended = append(g.ended, func() {
		if takeForeground(fd, own) {
			_ = term.Restore(fd, lent)
		}
		tty.Close()
	})
}
