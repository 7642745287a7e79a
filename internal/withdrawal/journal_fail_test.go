package withdrawal_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/svcwallet/svcwallet/internal/exchange"
	"github.com/svcwallet/svcwallet/internal/exchangetest"
	"github.com/svcwallet/svcwallet/internal/exchangetest/loopback"
	"github.com/svcwallet/svcwallet/internal/journal"
	"github.com/svcwallet/svcwallet/internal/sandbox"
	"github.com/svcwallet/svcwallet/internal/signer"
	"github.com/svcwallet/svcwallet/internal/withdrawal"
)

// fileSizeLimitEnv, when set, makes TestJournalFullDisk the child that runs
// under a file-size limit (RLIMIT_FSIZE) of this many bytes.
const fileSizeLimitEnv = "SVCWALLET_TEST_FSIZE_CHILD"

// executeWith runs one withdrawal through a Withdrawer whose journal is at
// path (prepared by plant after journal.Open) and returns the outcome and
// how many withdraw requests left.
func executeWith(t *testing.T, path string, plant func(t *testing.T, path string)) (withdrawal.Sent, int) {
	t.Helper()
	w := newWorld(t, sandbox.Options{})
	rec := &loopback.Recorder{}
	c := w.Login(sandbox.DemoAPIKey, exchange.Options{HTTPClient: rec.HTTPClient()})
	j, err := journal.Open(path)
	if err != nil {
		return withdrawal.Sent{Err: err}, 0
	}
	if plant != nil {
		plant(t, path)
	}
	key := func() (signer.Key, error) { return loopback.MustKey(t, sandbox.DemoPrivateKey), nil }
	sent := withdrawal.Withdrawer{Client: c, Journal: j, Now: w.Clock.Now}.Execute(context.Background(), w.order(c), key)
	return sent, rec.Count(exchange.PathWithdraw)
}

// TestJournalThatCannotRecordSendsNothing: whenever the intent cannot be
// journaled, the withdrawal stops before its request leaves, and the error
// names the journal and what to fix.
func TestJournalThatCannotRecordSendsNothing(t *testing.T) {
	for _, tc := range []struct {
		name  string
		path  func(dir string) string
		plant func(t *testing.T, path string)
	}{
		{"a directory in its place", func(dir string) string { return filepath.Join(dir, "journal.jsonl") },
			func(t *testing.T, p string) { exchangetest.Must(t, os.Mkdir(p, 0o700)) }},
		{"a file where its directory should be", func(dir string) string { return filepath.Join(dir, "state", "journal.jsonl") },
			func(t *testing.T, p string) {
				exchangetest.Must(t, os.RemoveAll(filepath.Dir(p)))
				exchangetest.Must(t, os.WriteFile(filepath.Dir(p), nil, 0o600))
			}},
		{"a symlink in its place", func(dir string) string { return filepath.Join(dir, "journal.jsonl") },
			func(t *testing.T, p string) {
				exchangetest.Must(t, os.Symlink(filepath.Join(filepath.Dir(p), "elsewhere"), p))
			}},
		{"a file that cannot be written", func(dir string) string { return filepath.Join(dir, "journal.jsonl") },
			makeUnwritable},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := tc.path(t.TempDir())
			sent, n := executeWith(t, path, tc.plant)
			if n != 0 {
				t.Fatalf("%d withdraw requests left with the journal broken (err %v)", n, sent.Err)
			}
			if sent.Err == nil || !strings.Contains(sent.Err.Error(), "Not sent: the withdrawal journal "+path) {
				t.Fatalf("err = %v, want one naming the journal", sent.Err)
			}
		})
	}
}

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

// makeUnwritable leaves an empty journal at p that this process cannot
// write: read-only for a user, immutable (chattr +i) for root, whom file
// modes do not stop.
func makeUnwritable(t *testing.T, p string) {
	t.Helper()
	exchangetest.Must(t, os.WriteFile(p, nil, 0o600))
	if os.Geteuid() != 0 {
		exchangetest.Must(t, os.Chmod(p, 0o400))
		return
	}
	if out, err := exec.Command("chattr", "+i", p).CombinedOutput(); err != nil {
		t.Fatalf("chattr +i, needed to make a file root cannot write: %v: %s", err, out)
	}
	// Runs before t.TempDir's removal, which an immutable file would stop.
	t.Cleanup(func() { exec.Command("chattr", "-i", p).Run() })
}
