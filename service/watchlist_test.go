package service_test

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"svcwallet/clean"
	"svcwallet/service/follow"
)

// TestParseQuoteIDs: spaces, commas and new lines separate; duplicates are
// merged in first-seen order; ids of the wrong shape are returned apart.
func TestParseQuoteIDs(t *testing.T) {
	long := "q-"
	for range 130 {
		long += "a"
	}
	ids, bad := follow.ParseQuoteIDs("q-1, q-2\nq-1\r\n\tq-3,,q-2 q-\x1b[31mx " + long + " q-é")
	if !slices.Equal(ids, []string{"q-1", "q-2", "q-3"}) || len(bad) != 3 {
		t.Fatalf("ids %q, malformed %q", ids, bad)
	}
	for _, b := range bad {
		if clean.Text(b) != b {
			t.Errorf("a malformed id is not cleaned for display: %q", b)
		}
	}
}

// TestWatchlist: ids kept per environment in a 0600 file; a missing file is
// an empty board; a broken one is an error, not an empty board.
func TestWatchlist(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state", follow.WatchlistFile)
	if ids, err := follow.LoadWatchlist(path, "sandbox"); err != nil || len(ids) != 0 {
		t.Fatalf("missing file: %q %v", ids, err)
	}
	if err := follow.SaveWatchlist(path, "sandbox", []string{"q-1", "q-2"}); err != nil {
		t.Fatal(err)
	}
	if n, err := follow.AddToWatchlist(path, "production", []string{"q-9"}); n != 1 || err != nil {
		t.Fatal(n, err)
	}
	if n, err := follow.AddToWatchlist(path, "sandbox", []string{"q-2", "q-3"}); n != 1 || err != nil {
		t.Fatal(n, err)
	}
	if ids, _ := follow.LoadWatchlist(path, "sandbox"); !slices.Equal(ids, []string{"q-1", "q-2", "q-3"}) {
		t.Fatalf("sandbox holds %q", ids)
	}
	if ids, _ := follow.LoadWatchlist(path, "production"); !slices.Equal(ids, []string{"q-9"}) {
		t.Fatalf("production holds %q", ids)
	}
	if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("file mode: %v %v", fi, err)
	}
	os.WriteFile(path, []byte("{not json"), 0o600)
	if _, err := follow.LoadWatchlist(path, "sandbox"); err == nil {
		t.Fatal("a broken file read as an empty board")
	}
}
