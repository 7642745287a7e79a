package exchange_test

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"github.com/svcwallet/svcwallet/internal/exchange"
	"github.com/svcwallet/svcwallet/internal/journal"
	"github.com/svcwallet/svcwallet/internal/sandbox"
	"github.com/svcwallet/svcwallet/internal/signer"
	"github.com/svcwallet/svcwallet/internal/withdrawal"
)

// executeWith runs one withdrawal through a Withdrawer whose journal is at
// path (prepared by plant after journal.Open) and returns the outcome and
// how many withdraw requests left.
func executeWith(t *testing.T, path string, plant func(t *testing.T, path string)) (withdrawal.Sent, int) {
	t.Helper()
	w := newWorld(t, sandbox.Options{})
	rec := &recorder{}
	c := w.login(sandbox.DemoAPIKey, exchange.Options{HTTPClient: rec.httpClient()})
	j, err := journal.Open(path)
	if err != nil {
		return withdrawal.Sent{Err: err}, 0
	}
	if plant != nil {
		plant(t, path)
	}
	key := func() (signer.Key, error) { return mustKey(t, sandbox.DemoPrivateKey), nil }
	sent := withdrawal.Withdrawer{Client: c, Journal: j, Now: w.clock.Now}.Execute(context.Background(), w.order(c), key)
	return sent, rec.count(exchange.PathWithdraw)
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
			func(t *testing.T, p string) { must(t, os.Mkdir(p, 0o700)) }},
		{"a file where its directory should be", func(dir string) string { return filepath.Join(dir, "state", "journal.jsonl") },
			func(t *testing.T, p string) {
				must(t, os.RemoveAll(filepath.Dir(p)))
				must(t, os.WriteFile(filepath.Dir(p), nil, 0o600))
			}},
		{"a symlink in its place", func(dir string) string { return filepath.Join(dir, "journal.jsonl") },
			func(t *testing.T, p string) { must(t, os.Symlink(filepath.Join(filepath.Dir(p), "elsewhere"), p)) }},
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

// TestJournalWritesOnlyWhatReadsBack: an entry the reader would skip or
// read differently is refused by Append, and nothing is written.
func TestJournalWritesOnlyWhatReadsBack(t *testing.T) {
	path := filepath.Join(t.TempDir(), "journal.jsonl")
	j, err := journal.Open(path)
	must(t, err)
	huge := decimal.RequireFromString(strings.Repeat("1", 70_000))
	for name, e := range map[string]journal.Entry{
		"70,000-digit receive amount": {Kind: journal.KindIntent, Env: "sandbox", QuoteID: "q-1", Intent: &journal.Intent{
			Chain: "ARBITRUM", TokenIn: "USDT", TokenOut: "USDT", ToAddress: sandbox.DestCompleted, PayAmount: decimal.NewFromInt(10), ReceiveAmount: huge}},
		"quote id with a dollar": {Kind: journal.KindAccepted, Env: "sandbox", QuoteID: "q-$(x)"},
		"unknown kind":           {Kind: "paid", Env: "sandbox", QuoteID: "q-1"},
		"escape in an error":     {Kind: journal.KindRejected, Env: "sandbox", QuoteID: "q-1", Error: "no\x1b[2J"},
		"an accepted expiry":     {Kind: journal.KindAccepted, Env: "sandbox", QuoteID: "q-1", QuoteExpired: true},
	} {
		t.Run(name, func(t *testing.T) {
			e.Time = time.Unix(1, 0).UTC()
			if err := j.Append(e); !errors.Is(err, journal.ErrLine) {
				t.Fatalf("Append = %v, want journal.ErrLine", err)
			}
			if b, _ := os.ReadFile(path); len(b) != 0 {
				t.Fatalf("the journal holds %d bytes", len(b))
			}
		})
	}
}

// makeUnwritable leaves an empty journal at p that this process cannot
// write: read-only for a user, immutable (chattr +i) for root, whom file
// modes do not stop.
func makeUnwritable(t *testing.T, p string) {
	t.Helper()
	must(t, os.WriteFile(p, nil, 0o600))
	if os.Geteuid() != 0 {
		must(t, os.Chmod(p, 0o400))
		return
	}
	if out, err := exec.Command("chattr", "+i", p).CombinedOutput(); err != nil {
		t.Fatalf("chattr +i, needed to make a file root cannot write: %v: %s", err, out)
	}
	// Runs before t.TempDir's removal, which an immutable file would stop.
	t.Cleanup(func() { exec.Command("chattr", "-i", p).Run() })
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// TestJournalReadBackIsChecked: lines planted in the journal are held to
// the shapes of an answer: each bad one is skipped and counted, never
// returned, and a good line among them is still read.
func TestJournalReadBackIsChecked(t *testing.T) {
	path := filepath.Join(t.TempDir(), "journal.jsonl")
	j, err := journal.Open(path)
	must(t, err)
	good := `{"time":"2026-03-01T10:00:00Z","kind":"accepted","env":"sandbox","quote_id":"q-good"}`
	bad := []string{
		`{"time":"2026-03-01T10:00:00Z","kind":"accepted","env":"sandbox","quote_id":"q-\u001b]0;owned\u0007"}`,
		`{"time":"2026-03-01T10:00:00Z","kind":"accepted","env":"sandbox","quote_id":"q-1$(touch /tmp/x)"}`,
		`{"time":"2026-03-01T10:00:00Z","kind":"state","env":"sandbox","quote_id":"q-2","state":"PAID"}`,
		`{"time":"2026-03-01T10:00:00Z","kind":"state","env":"sandbox","quote_id":"q-3","state":"FAILED","STATE":"COMPLETED"}`,
		`{"time":"2026-03-01T10:00:00Z","kind":"intent","env":"sandbox","quote_id":"q-4","intent":{"chain":"ARBITRUM","token_in":"USDT","token_out":"USDT","pay_amount":"1","receive_amount":"` + strings.Repeat("9", 900) + `"}}`,
		`{"time":"2026-03-01T10:00:00Z","kind":"intent","env":"sandbox","quote_id":"q-5","intent":{"chain":"ARBITRUM","token_in":"USDT","token_out":"USDT","to_address":"0x3C44\u202eCdDd"}}`,
		`{"time":"2026-03-01T10:00:00Z","kind":"intent","env":"sandbox","quote_id":"q-6","request":{"quote_id":"q-6","signature":{"signer":"me","r":"0x1","s":"0x2","v":1,"nonce":1,"expiration":"x"}}}`,
		`{"time":"2026-03-01T10:00:00Z","kind":"state","env":"sandbox","quote_id":"q-8","state":"COMPLETED","quote_expired":true}`,
	}
	must(t, os.WriteFile(path, []byte(strings.Join(append(bad, good), "\n")+"\n"), 0o600))
	entries, skipped, err := j.Scan()
	if err != nil || len(entries) != 1 || entries[0].QuoteID != "q-good" || skipped != len(bad) {
		t.Fatalf("read %d entries (%v), skipped %d of %d bad lines", len(entries), err, skipped, len(bad))
	}
	// An error text is cleaned to one line where it is read.
	must(t, os.WriteFile(path, []byte(`{"time":"2026-03-01T10:00:00Z","kind":"rejected","env":"sandbox","quote_id":"q-7","error":"no\u001b[2J\nmore"}`+"\n"), 0o600))
	if entries, _, err := j.Scan(); err != nil || len(entries) != 1 || entries[0].Error != "no more" {
		t.Fatalf("entries %+v, %v; want the error cleaned", entries, err)
	}
}
