//go:build unix

package exchangetest

import (
	"context"
	"os"
	"strings"
	"syscall"
	"testing"

	"github.com/svcwallet/svcwallet/internal/osguard"
)

// childEnv marks the child process InChild starts.
const childEnv = "EXCHANGETEST_CHILD"

// InChild reports whether this is the child process the test runs in: the
// parent runs t's test again in a child of this test binary, and returns
// false once the child passed having logged done (else t fails). For what
// holds for a whole process, a file-size limit (FileSizeLimit).
func InChild(t *testing.T, done string) bool {
	t.Helper()
	if os.Getenv(childEnv) == t.Name() {
		return true
	}
	cmd := osguard.CommandContext(context.Background(), os.Args[0], "-test.run=^"+t.Name()+"$", "-test.count=1", "-test.v")
	cmd.Env = append(cmd.Env, childEnv+"="+t.Name())
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), done) {
		t.Fatalf("the test in a child process: %v\n%s", err, out)
	}
	return false
}

// FileSizeLimit limits the files this process writes to n bytes
// (RLIMIT_FSIZE, as a full disk would): a write past it is short, then
// fails (EFBIG). The returned func lifts it, and so does the test's end,
// so that `go test -cover` can write its profile.
func FileSizeLimit(t *testing.T, n uint64) (lift func()) {
	t.Helper()
	var was syscall.Rlimit
	Must(t, syscall.Getrlimit(syscall.RLIMIT_FSIZE, &was))
	lim := was
	setLimit(&lim.Cur, n)
	Must(t, syscall.Setrlimit(syscall.RLIMIT_FSIZE, &lim))
	lift = func() { Must(t, syscall.Setrlimit(syscall.RLIMIT_FSIZE, &was)) }
	t.Cleanup(lift)
	return lift
}

// RoomAfter limits the files this process writes (FileSizeLimit) to the
// size path has now plus n bytes: a disk that fills up after what is
// written so far.
func RoomAfter(t *testing.T, path string, n uint64) (lift func()) {
	t.Helper()
	fi, err := os.Stat(path)
	Must(t, err)
	return FileSizeLimit(t, uint64(fi.Size())+n)
}

// setLimit sets a limit of n: its type is the system's (int64 on the BSDs).
func setLimit[T int64 | uint64](limit *T, n uint64) { *limit = T(n) }
