//go:build unix

package journal_test

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/svcwallet/svcwallet/internal/exchangetest"
	"github.com/svcwallet/svcwallet/service/journal"
)

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
	target := exchangetest.PlantLink(t, path, content)
	_, err = journal.Open(path)
	exchangetest.WantLinkRefused(t, "journal.Open", err, path, target, content)
	err = j.Append(journal.Entry{Time: time.Now(), Kind: journal.KindIntent, Env: "sandbox", QuoteID: "q1"})
	exchangetest.WantLinkRefused(t, "Append", err, path, target, content)
	entries, _, err := j.Scan()
	exchangetest.WantLinkRefused(t, "Scan", err, path, target, content)
	if len(entries) != 0 {
		t.Errorf("Scan read %d entries through the link", len(entries))
	}
}
