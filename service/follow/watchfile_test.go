package follow_test

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/follow"
)

// TestWatchFileAppendsWhatChanged (issue 28 item 22): a save appends one
// line of what changed, whatever the board holds: what is known of an id
// replaces what was, in its place; a dropped id goes, and put back comes
// last; the file of old (one document of every environment) reads as the
// first line, and the other environment's ids are left alone.
func TestWatchFileAppendsWhatChanged(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state", follow.WatchlistFile)
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(`{"envs":{"sandbox":["q-old-1",{"quote_id":"q-old-2"}],"production":["q-prod-1"]}}`+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	w := &follow.WatchFile{Path: path, Env: "sandbox"}
	var many []follow.Kept
	for i := range 10000 {
		many = append(many, follow.Kept{QuoteID: fmt.Sprintf("q-many-%05d", i)})
	}
	if err := w.Append(many, nil); err != nil {
		t.Fatal(err)
	}
	before, _ := os.Stat(path)
	seen := time.Date(2026, 3, 2, 10, 0, 0, 0, time.UTC)
	done := &exchange.Withdrawal{QuoteID: "q-old-2", State: exchange.StateSending, Chain: "ARBITRUM", TokenOut: "USDT"}
	if err := w.Append([]follow.Kept{{QuoteID: "q-old-2", Record: done, Since: seen, Checked: seen}}, []string{"q-old-1"}); err != nil {
		t.Fatal(err)
	}
	after, _ := os.Stat(path)
	if grew := after.Size() - before.Size(); grew > 300 || !os.SameFile(before, after) {
		t.Errorf("a save of one change wrote %d bytes to a file of %d, or replaced it", grew, before.Size())
	}
	if err := w.Append([]follow.Kept{{QuoteID: "q-old-1"}}, nil); err != nil {
		t.Fatal(err)
	}
	kept, err := w.Load()
	if err != nil {
		t.Fatal(err)
	}
	if got := ids(kept); len(got) != 10002 || got[0] != "q-old-2" || got[1] != "q-many-00000" || got[10001] != "q-old-1" {
		t.Fatalf("read back %d ids, %q … %q", len(got), got[:2], got[len(got)-1])
	}
	if r := kept[0].Record; r == nil || r.State != exchange.StateSending || !kept[0].Checked.Equal(seen) {
		t.Errorf("what was learned of q-old-2 did not read back: %+v", kept[0])
	}
	if prod, _ := (&follow.WatchFile{Path: path, Env: "production"}).Load(); !slices.Equal(ids(prod), []string{"q-prod-1"}) {
		t.Errorf("the other environment holds %q", ids(prod))
	}
}

// TestWatchFileTwoConsoles (issue 28 item 3): two consoles on one state
// directory, each with its own WatchFile, adding and learning at the same
// time, keep every id either added; none is lost to the other's write,
// also while one rewrites the file (a line appended to the file being
// replaced would be).
func TestWatchFileTwoConsoles(t *testing.T) {
	t.Parallel() // its own file, two writers of its own
	path := filepath.Join(t.TempDir(), follow.WatchlistFile)
	a, b := &follow.WatchFile{Path: path, Env: "sandbox"}, &follow.WatchFile{Path: path, Env: "sandbox"}
	var wg sync.WaitGroup
	var errs [2]error
	// Each save puts 40 new ids of 100 characters, never again, so a line
	// lost to the other's write is missed, and the file is rewritten a few
	// times on the way (about 1 MB in all). 200 saves, not 600 of 10: each
	// is an fsync, and as many bytes reach as many rewrites.
	const saves, per = 100, 40
	for i, w := range []*follow.WatchFile{a, b} {
		wg.Go(func() {
			for n := range saves {
				var put []follow.Kept
				for j := range per {
					put = append(put, follow.Kept{QuoteID: fmt.Sprintf("q-%c-%04d-%02d-%s", 'a'+i, n, j, strings.Repeat("x", 86))})
				}
				if err := w.Append(put, nil); err != nil {
					errs[i] = err
					return
				}
			}
		})
	}
	wg.Wait()
	if errs[0] != nil || errs[1] != nil {
		t.Fatal(errs)
	}
	kept, err := a.Load()
	if err != nil || len(kept) != 2*saves*per {
		t.Fatalf("the two consoles' board holds %d ids (%v), want %d", len(kept), err, 2*saves*per)
	}
}

// TestWatchFileRewritesItself: a board whose rows change again and again
// keeps a file about the size of what it keeps (at most the larger of
// twice that and 256 KB), not of every change it saw.
func TestWatchFileRewritesItself(t *testing.T) {
	path := filepath.Join(t.TempDir(), follow.WatchlistFile)
	w := &follow.WatchFile{Path: path, Env: "sandbox"}
	var rows []follow.Kept
	for i := range 100 {
		id := fmt.Sprintf("q-row-%03d", i)
		rows = append(rows, follow.Kept{QuoteID: id, Record: &exchange.Withdrawal{QuoteID: id, State: exchange.StateSending, Chain: "ARBITRUM", TokenOut: "USDT"}})
	}
	for range 40 { // about 1 MB of saves
		if err := w.Append(rows, nil); err != nil {
			t.Fatal(err)
		}
	}
	fi, _ := os.Stat(path)
	if kept, err := w.Load(); err != nil || len(kept) != 100 || fi.Size() > 256<<10+30<<10 {
		t.Fatalf("%d ids (%v) in a file of %d bytes", len(kept), err, fi.Size())
	}
}

// TestWatchFileTornLine: a line cut short by a crash is skipped and said;
// what came before and after it reads, and the next save starts a line of
// its own.
func TestWatchFileTornLine(t *testing.T) {
	path := filepath.Join(t.TempDir(), follow.WatchlistFile)
	w := &follow.WatchFile{Path: path, Env: "sandbox"}
	if err := w.Append([]follow.Kept{{QuoteID: "q-first-1"}}, nil); err != nil {
		t.Fatal(err)
	}
	f, _ := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString(`{"env":"sandbox","put":[{"quote_id":"q-torn`)
	f.Close()
	if err := w.Append([]follow.Kept{{QuoteID: "q-after-1"}}, nil); err != nil {
		t.Fatal(err)
	}
	kept, err := w.Load()
	if !slices.Equal(ids(kept), []string{"q-first-1", "q-after-1"}) || err == nil || !strings.Contains(err.Error(), "1 part(s) could not be read") {
		t.Fatalf("read back %q (%v)", ids(kept), err)
	}
}

// BenchmarkWatchFileAppend: one save of one changed row (Append), at 1,000
// and 10,000 ids on the board: its cost does not grow with the board.
func BenchmarkWatchFileAppend(b *testing.B) {
	for _, n := range []int{1000, 10000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			path := filepath.Join(b.TempDir(), follow.WatchlistFile)
			w := &follow.WatchFile{Path: path, Env: "sandbox"}
			var all []follow.Kept
			for i := range n {
				all = append(all, follow.Kept{QuoteID: fmt.Sprintf("q-bench-%05d", i),
					Record: &exchange.Withdrawal{QuoteID: fmt.Sprintf("q-bench-%05d", i), State: exchange.StateSubmitted, Chain: "ARBITRUM", TokenOut: "USDT"}})
			}
			if err := w.Append(all, nil); err != nil {
				b.Fatal(err)
			}
			b.ResetTimer()
			for i := range b.N {
				k := all[i%n]
				if err := w.Append([]follow.Kept{k}, nil); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
