//go:build unix

package osguard_test

import (
	"os"
	"strconv"
	"strings"
	"syscall"
)

// alive: pid runs, and is not a zombie waiting for a parent to reap it
// (in a container, pid 1 may never reap it).
func alive(pid int) bool {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return syscall.Kill(pid, 0) == nil
	}
	fields := strings.Fields(string(b[strings.LastIndexByte(string(b), ')')+1:]))
	return len(fields) > 0 && fields[0] != "Z"
}

func kill(pid int) { _ = syscall.Kill(pid, syscall.SIGKILL) }
