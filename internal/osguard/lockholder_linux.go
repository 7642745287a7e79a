package osguard

import (
	"bufio"
	"fmt"
	"os"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"
)

// lockHolder names the process holding the flock f waits for, from
// /proc/locks (a line per lock: its kind, pid and device:inode), with
// its command's name where /proc lets it be read; "" where none is found.
func lockHolder(f *os.File) string {
	var st unix.Stat_t
	if unix.Fstat(int(f.Fd()), &st) != nil {
		return ""
	}
	locks, err := os.Open("/proc/locks")
	if err != nil {
		return ""
	}
	defer locks.Close()
	want := fmt.Sprintf("%02x:%02x:%d", unix.Major(st.Dev), unix.Minor(st.Dev), st.Ino)
	sc := bufio.NewScanner(locks)
	for sc.Scan() {
		// "1: FLOCK  ADVISORY  WRITE 4242 08:01:1234 0 EOF"; a waiter's
		// line has "->" after its number and holds nothing.
		fs := strings.Fields(sc.Text())
		if len(fs) < 6 || fs[1] != "FLOCK" || fs[5] != want {
			continue
		}
		pid, err := strconv.Atoi(fs[4])
		if err != nil || pid <= 0 {
			return ""
		}
		if name := processName(pid); name != "" {
			return fmt.Sprintf("process %d (%s)", pid, name)
		}
		return fmt.Sprintf("process %d", pid)
	}
	return ""
}

// processName is pid's command name, kept only when it is plain: another
// user's process names itself, and the name is shown.
func processName(pid int) string {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/comm", pid))
	name := strings.TrimSuffix(string(b), "\n")
	if err != nil || name == "" || len(name) > 16 {
		return ""
	}
	for _, r := range name {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("._-+", r)) {
			return ""
		}
	}
	return name
}
