package withdrawal_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/svcwallet/svcwallet/internal/exchangetest"
	"github.com/svcwallet/svcwallet/internal/loopback"
	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/journal"
	"github.com/svcwallet/svcwallet/service/sandbox"
	"github.com/svcwallet/svcwallet/service/withdrawal"
	"github.com/svcwallet/svcwallet/signer"
)

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
	sent := mustWithdrawer(t, withdrawal.Setup{Client: c, Journal: j, Now: w.Clock.Now}).Execute(context.Background(), w.order(c), key)
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
		// Its record of what was written cannot be brought up to the intent:
		// the intent is refused, never sent with the record behind it.
		{"a record of what was written that cannot be", func(dir string) string { return filepath.Join(dir, "journal.jsonl") },
			func(t *testing.T, p string) {
				lock := journal.WrittenPath(p) + ".lock"
				if err := os.Remove(lock); err != nil && !os.IsNotExist(err) {
					t.Fatal(err)
				}
				exchangetest.Must(t, os.Mkdir(lock, 0o700))
			}},
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
			// Its head stands for a face's label: never "Not withdrawn: Not sent: …".
			if head, said := exchange.Labelled("Not withdrawn", sent.Err); head != "Not sent" || strings.HasPrefix(said.Error(), "Not sent") {
				t.Fatalf("labelled %q: %q, want the head Not sent said once", head, said)
			}
		})
	}
}

// makeUnwritable leaves an empty journal at p that this process cannot
// write (makeReadOnly).
func makeUnwritable(t *testing.T, p string) {
	t.Helper()
	exchangetest.Must(t, os.WriteFile(p, nil, 0o600))
	exchangetest.Must(t, makeReadOnly(t, p))
}

// makeReadOnly makes the file p one this process cannot write: read-only
// for a user, immutable (chattr +i) for root, whom file modes do not stop.
// It may be called off the test's goroutine (a request's hook).
func makeReadOnly(t *testing.T, p string) error {
	if os.Geteuid() != 0 {
		return os.Chmod(p, 0o400)
	}
	if out, err := exec.Command("chattr", "+i", p).CombinedOutput(); err != nil {
		return fmt.Errorf("chattr +i, needed to make a file root cannot write: %v: %s", err, out)
	}
	// Runs before t.TempDir's removal, which an immutable file would stop.
	t.Cleanup(func() { exec.Command("chattr", "-i", p).Run() })
	return nil
}
