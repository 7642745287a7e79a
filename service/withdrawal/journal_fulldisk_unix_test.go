//go:build unix

package withdrawal_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/svcwallet/svcwallet/internal/exchangetest"
)

// fileSizeLimitEnv, when set, makes TestJournalFullDisk the child that runs
// under a file-size limit (RLIMIT_FSIZE) of this many bytes.
const fileSizeLimitEnv = "SVCWALLET_TEST_FSIZE_CHILD"

// TestJournalFullDisk: with a file-size limit that leaves no room for the
// intent line (as a full disk would), no withdraw request leaves. It runs
// in a child process, as the limit applies to the whole process.
func TestJournalFullDisk(t *testing.T) {
	if limit := os.Getenv(fileSizeLimitEnv); limit != "" {
		path := filepath.Join(t.TempDir(), "journal.jsonl")
		sent, n := executeWith(t, path, func(t *testing.T, _ string) {
			var lim syscall.Rlimit
			exchangetest.Must(t, syscall.Getrlimit(syscall.RLIMIT_FSIZE, &lim))
			was := lim
			lim.Cur = 100 // bytes: less than one intent line
			exchangetest.Must(t, syscall.Setrlimit(syscall.RLIMIT_FSIZE, &lim))
			// Lifted when the test ends, so that `go test -cover` can write its profile.
			t.Cleanup(func() { syscall.Setrlimit(syscall.RLIMIT_FSIZE, &was) })
		})
		if n != 0 || sent.Err == nil || !strings.Contains(sent.Err.Error(), "free disk space") {
			t.Fatalf("with a full disk: %d withdraw requests left, err %v", n, sent.Err)
		}
		t.Log("under the limit: refused, nothing sent")
		return
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestJournalFullDisk$", "-test.count=1", "-test.v")
	cmd.Env = append(os.Environ(), fileSizeLimitEnv+"=1")
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "under the limit: refused, nothing sent") {
		t.Fatalf("child under a file-size limit: %v\n%s", err, out)
	}
}
