package journal_test

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/svcwallet/svcwallet/internal/exchangetest"
	"github.com/svcwallet/svcwallet/service/journal"
)

// TestJournalLineFieldsChecked: a journaled request is re-sent byte for byte
// and an environment names whose records a line is, so a line that differs
// from a good one in only its signature's v (27 or 28, as svcwallet signs)
// or only its environment (a name as configuration allows) is neither
// written nor read back.
func TestJournalLineFieldsChecked(t *testing.T) {
	path := filepath.Join(t.TempDir(), "journal.jsonl")
	j, err := journal.Open(path)
	exchangetest.Must(t, err)
	for _, v := range []int{27, 28} {
		good := journal.Entry{Time: t0, Kind: journal.KindIntent, Env: "sandbox", QuoteID: "q-1", Request: journalRequest("q-1", 1)}
		good.Request.Signature.V = v
		exchangetest.Must(t, j.Append(good))
	}
	lines, err := os.ReadFile(path)
	exchangetest.Must(t, err)
	good := strings.SplitAfter(string(lines), "\n")[0]
	if entries, skipped, err := j.Scan(); err != nil || len(entries) != 2 || skipped != 0 {
		t.Fatalf("good lines: %d entries, %d skipped, %v", len(entries), skipped, err)
	}

	for _, tc := range []struct {
		name, from, to string
		edit           func(*journal.Entry)
	}{
		{"v 29", `"v":27`, `"v":29`, func(e *journal.Entry) { e.Request.Signature.V = 29 }},
		{"v 0", `"v":27`, `"v":0`, func(e *journal.Entry) { e.Request.Signature.V = 0 }},
		{"v 1", `"v":27`, `"v":1`, func(e *journal.Entry) { e.Request.Signature.V = 1 }},
		{"an environment with a space", `"env":"sandbox"`, `"env":"sand box"`, func(e *journal.Entry) { e.Env = "sand box" }},
		{"an environment running a command", `"env":"sandbox"`, `"env":"sandbox$(reboot)"`, func(e *journal.Entry) { e.Env = "sandbox$(reboot)" }},
		{"an environment with an escape", `"env":"sandbox"`, `"env":"sandbox\u001b[2J"`, func(e *journal.Entry) { e.Env = "sandbox\x1b[2J" }},
		{"an environment 65 characters long", `"env":"sandbox"`, `"env":"` + strings.Repeat("e", 65) + `"`, func(e *journal.Entry) { e.Env = strings.Repeat("e", 65) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			bad := strings.Replace(good, tc.from, tc.to, 1)
			if bad == good {
				t.Fatalf("%s is not in the line %s", tc.from, good)
			}
			exchangetest.Must(t, os.WriteFile(path, []byte(bad+good), 0o600))
			if entries, skipped, err := j.Scan(); err != nil || len(entries) != 1 || skipped != 1 {
				t.Fatalf("read %d entries, skipped %d (%v): the line with %s was read", len(entries), skipped, err, tc.name)
			}
			exchangetest.Must(t, os.WriteFile(path, nil, 0o600))
			e := journal.Entry{Time: t0, Kind: journal.KindIntent, Env: "sandbox", QuoteID: "q-1", Request: journalRequest("q-1", 1)}
			tc.edit(&e)
			if err := j.Append(e); !errors.Is(err, journal.ErrLine) {
				t.Fatalf("Append = %v, want journal.ErrLine", err)
			}
		})
	}
}

// TestJournalNotSentOnlyOnARejection: not_sent is read, and written, only
// on a rejection that is not an expired quote's: on an intent, or with
// quote_expired, the line is skipped, and refused by Append.
func TestJournalNotSentOnlyOnARejection(t *testing.T) {
	path := filepath.Join(t.TempDir(), "journal.jsonl")
	j, err := journal.Open(path)
	exchangetest.Must(t, err)
	good := journal.Entry{Time: t0, Kind: journal.KindRejected, Env: "sandbox", QuoteID: "q-1", Error: "Cannot reach api.example", NotSent: true}
	exchangetest.Must(t, j.Append(good))
	if entries, skipped, err := j.Scan(); err != nil || len(entries) != 1 || skipped != 0 || !entries[0].NotSent {
		t.Fatalf("a rejection not sent: %+v, %d skipped, %v", entries, skipped, err)
	}
	raw, err := os.ReadFile(path)
	exchangetest.Must(t, err)
	for name, bad := range map[string]journal.Entry{
		"an intent":          {Time: t0, Kind: journal.KindIntent, Env: "sandbox", QuoteID: "q-1", Request: journalRequest("q-1", 1), NotSent: true},
		"an expired quote's": {Time: t0, Kind: journal.KindRejected, Env: "sandbox", QuoteID: "q-1", Error: "expired", QuoteExpired: true, NotSent: true},
	} {
		if err := j.Append(bad); !errors.Is(err, journal.ErrLine) {
			t.Errorf("%s: Append = %v, want journal.ErrLine", name, err)
		}
		line, err := json.Marshal(bad)
		exchangetest.Must(t, err)
		exchangetest.Must(t, os.WriteFile(path, append(append(slices.Clone(raw), line...), '\n'), 0o600))
		if entries, skipped, err := j.Scan(); err != nil || len(entries) != 1 || skipped != 1 {
			t.Errorf("%s: read %d entries, skipped %d (%v); want it skipped", name, len(entries), skipped, err)
		}
	}
}
