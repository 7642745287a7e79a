//go:build unix

package cli

import (
	"bytes"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/svcwallet/svcwallet/internal/exchangetest"
	"github.com/svcwallet/svcwallet/service/sandbox"
)

// TestStatusWatchJournalFailureClearsProgress: on a terminal, `status
// --watch` of several ids whose journal cannot be written (a full disk)
// says so at the left edge, the progress line ("1 of 2 ended…") cleared
// before it: written after it mid-row, its fit split a word. It runs in a
// child process, as the file-size limit applies to the whole process.
func TestStatusWatchJournalFailureClearsProgress(t *testing.T) {
	if !exchangetest.InChild(t, "said at the left edge") {
		return
	}
	state := withdrawState(t)
	r := newStatusRig(t)
	var ids []string
	for range 2 {
		res := r.runWithdraw(withdrawRunOpts{}, withdrawArgs(sandbox.DestCompleted, "25", "--yes")...)
		ids = append(ids, regexp.MustCompile(`q-[a-z0-9]{26}`).FindString(res.stdout))
	}
	var shown bytes.Buffer // stdout and stderr, one terminal
	r.stdout, r.stderr, r.terminal = &shown, &shown, true
	exchangetest.RoomAfter(t, filepath.Join(state, "journal.jsonl"), 0)
	r.clock.Advance(sandbox.DefaultSettle)
	r.run(nil, append([]string{"--watch"}, ids...)...)
	afterProgress := 0
	for _, l := range strings.Split(shown.String(), "\n") {
		if !strings.Contains(l, "the journal could not record") {
			continue
		}
		if strings.Contains(l, "ended…") {
			afterProgress++
		}
		// What a terminal shows of it: the text after the last erase.
		if at := strings.LastIndex(l, "\r\x1b[K"); at >= 0 {
			l = l[at+len("\r\x1b[K"):]
		}
		if !strings.HasPrefix(l, "svcwallet status: the journal could not record") {
			t.Errorf("said after the progress line: %q", l)
		}
	}
	if afterProgress == 0 {
		t.Fatalf("no failed journal write while the progress line was shown:\n%q", shown.String())
	}
	t.Log("said at the left edge")
}
