//go:build linux

package osguard

import (
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"

	"golang.org/x/sys/unix"
)

// protectChildVar makes the test binary, run again by TestProtectProcess,
// call ProtectProcess and print the process's state: the call cannot be
// undone, so it runs in a process of its own.
const protectChildVar = "SVCWALLET_TEST_PROTECT_CHILD"

// TestProtectProcess: after the call the process is not dumpable and its
// core size limit is 0 (soft and hard); before it, it was dumpable. Both
// are what ProtectionsOn says of Linux, which doctor reports.
func TestProtectProcess(t *testing.T) {
	if p := ProtectionsOn("linux"); !p.NotDumpable || !p.NoCoreFiles {
		t.Errorf("ProtectionsOn(linux) = %+v, want both", p)
	}
	if os.Getenv(protectChildVar) == "1" {
		before, _ := unix.PrctlRetInt(unix.PR_GET_DUMPABLE, 0, 0, 0, 0)
		err := ProtectProcess()
		after, _ := unix.PrctlRetInt(unix.PR_GET_DUMPABLE, 0, 0, 0, 0)
		var core unix.Rlimit
		if gerr := unix.Getrlimit(unix.RLIMIT_CORE, &core); gerr != nil {
			t.Fatal(gerr)
		}
		fmt.Printf("err=%v dumpable=%d->%d core=%d/%d\n", err, before, after, core.Cur, core.Max)
		return
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestProtectProcess$", "-test.v")
	cmd.Env = append(os.Environ(), protectChildVar+"=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("child: %v\n%s", err, out)
	}
	if want := "err=<nil> dumpable=1->0 core=0/0\n"; !strings.Contains(string(out), want) {
		t.Errorf("child printed\n%s\nwant a line %q", out, want)
	}
}
