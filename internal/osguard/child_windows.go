//go:build windows

package osguard

import (
	"context"
	"fmt"
	"os"
	"sync"
	"unsafe"

	"golang.org/x/sys/windows"
)

// GroupCommandContext is CommandContext for a child that must end whole
// when ctx ends: once started it joins a job object of its own, and what
// it starts joins it too; ctx's end terminates the job, and so does its
// closing once the child has ended (or svcwallet has), so nothing the
// command started (the signer a wrapper script runs) outlives it. The
// child joins right after Start has made it: a process it started in
// between, in its very first moments, would be outside the job.
func GroupCommandContext(ctx context.Context, name string, arg ...string) *GroupCmd {
	c := CommandContext(ctx, name, arg...)
	j := &job{}
	c.Cancel = func() error { return j.kill(c.Process) }
	return &GroupCmd{Cmd: c, adopt: j.adopt, ended: []func(){j.close}}
}

// LendForeground lends nothing on Windows: a console's processes share it.
func (g *GroupCmd) LendForeground() {}

// job is the job object of one child; h is 0 until the child has joined.
type job struct {
	mu sync.Mutex
	h  windows.Handle
}

// adopt makes a job object that ends every process in it when its last
// handle (svcwallet's, never inherited) closes, and puts p in it; p's
// children join it as they start.
func (j *job) adopt(p *os.Process) error {
	j.mu.Lock()
	defer j.mu.Unlock()
	h, err := windows.CreateJobObject(nil, nil)
	if err != nil {
		return fmt.Errorf("cannot make a job object for the command: %w", err)
	}
	info := windows.JOBOBJECT_EXTENDED_LIMIT_INFORMATION{
		BasicLimitInformation: windows.JOBOBJECT_BASIC_LIMIT_INFORMATION{LimitFlags: windows.JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE},
	}
	if _, err := windows.SetInformationJobObject(h, windows.JobObjectExtendedLimitInformation, uintptr(unsafe.Pointer(&info)), uint32(unsafe.Sizeof(info))); err != nil {
		windows.CloseHandle(h)
		return fmt.Errorf("cannot set the command's job object to end with svcwallet: %w", err)
	}
	// The pid is p's while p is not waited for: os.Process holds its handle.
	ph, err := windows.OpenProcess(windows.PROCESS_SET_QUOTA|windows.PROCESS_TERMINATE, false, uint32(p.Pid))
	if err == nil {
		err = windows.AssignProcessToJobObject(h, ph)
		windows.CloseHandle(ph)
	}
	if err != nil {
		windows.CloseHandle(h)
		return fmt.Errorf("cannot put the command in its job object: %w", err)
	}
	j.h = h
	return nil
}

// kill ends every process in the job; before the child has joined it, the
// child alone.
func (j *job) kill(p *os.Process) error {
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.h == 0 {
		return p.Kill()
	}
	return windows.TerminateJobObject(j.h, 1)
}

// close closes the job object, which ends what the child left running.
func (j *job) close() {
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.h != 0 {
		windows.CloseHandle(j.h)
		j.h = 0
	}
}
