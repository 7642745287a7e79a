//go:build unix

package exchange_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/svcwallet/svcwallet/service/config"
	"github.com/svcwallet/svcwallet/service/follow"
	"github.com/svcwallet/svcwallet/service/journal"
	"github.com/svcwallet/svcwallet/service/sandbox"
	"github.com/svcwallet/svcwallet/service/withdrawal"
)

// plantLink makes path a symbolic link to a file of the user's holding
// content, the file an attacker would have svcwallet write or read.
func plantLink(t *testing.T, path, content string) (target string) {
	t.Helper()
	target = filepath.Join(t.TempDir(), "target")
	if err := os.WriteFile(target, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, path); err != nil {
		t.Fatal(err)
	}
	return target
}

// wantLinkRefused checks that err names path as a link and that target
// still holds content.
func wantLinkRefused(t *testing.T, what string, err error, path, target, content string) {
	t.Helper()
	if err == nil || !strings.Contains(err.Error(), path+" is a symbolic link") {
		t.Errorf("%s: %v, want a refusal naming the link %s", what, err, path)
	}
	if b, err := os.ReadFile(target); err != nil || string(b) != content {
		t.Errorf("%s: the link's target now holds %q (%v), want %q", what, b, err, content)
	}
}

// TestJournalRefusesLinks: a journal path that is a symbolic link is refused
// by journal.Open, and by Append and Scan when it is planted after the open;
// the planted target is neither appended to nor read.
func TestJournalRefusesLinks(t *testing.T) {
	const content = `{"kind":"intent","quote_id":"planted"}` + "\n"
	dir := t.TempDir()
	path := filepath.Join(dir, "journal.jsonl")
	j, err := journal.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	target := plantLink(t, path, content)
	_, err = journal.Open(path)
	wantLinkRefused(t, "journal.Open", err, path, target, content)
	err = j.Append(journal.Entry{Time: time.Now(), Kind: journal.KindIntent, Env: "sandbox", QuoteID: "q1"})
	wantLinkRefused(t, "Append", err, path, target, content)
	entries, _, err := j.Scan()
	wantLinkRefused(t, "Scan", err, path, target, content)
	if len(entries) != 0 {
		t.Errorf("Scan read %d entries through the link", len(entries))
	}
}

// TestStateFilesRefuseLinks: the recorded bridge addresses and the watch
// board's ids are neither read nor written through a symbolic link.
func TestStateFilesRefuseLinks(t *testing.T) {
	const bridge = sandbox.BridgeFundingAddress
	pins := withdrawal.BridgePinsPath(t.TempDir())
	pinsContent := `{"prod":{"address":"` + bridge + `","first_seen":"2026-01-01T00:00:00Z"}}` + "\n"
	pinsTarget := plantLink(t, pins, pinsContent)
	tofu := config.Environment{Name: "prod"}
	_, err := withdrawal.CheckBridge(tofu, pins, bridge, t0)
	wantLinkRefused(t, "CheckBridge", err, pins, pinsTarget, pinsContent)
	err = withdrawal.ConfirmBridge(tofu, pins, bridge, "0x5FbDB2315678afecb367f032d93F642f64180aa3", t0)
	wantLinkRefused(t, "ConfirmBridge", err, pins, pinsTarget, pinsContent)

	board := filepath.Join(t.TempDir(), follow.WatchlistFile)
	boardContent := `{"envs":{"sandbox":[]}}` + "\n"
	boardTarget := plantLink(t, board, boardContent)
	_, err = (&follow.WatchFile{Path: board, Env: "sandbox"}).Load()
	wantLinkRefused(t, "WatchFile.Load", err, board, boardTarget, boardContent)
	err = (&follow.WatchFile{Path: board, Env: "sandbox"}).Append([]follow.Kept{{QuoteID: "q1"}}, nil)
	wantLinkRefused(t, "WatchFile.Append", err, board, boardTarget, boardContent)
}
