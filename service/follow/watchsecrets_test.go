package follow_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/svcwallet/svcwallet/internal/exchangetest"
	"github.com/svcwallet/svcwallet/service/follow"
)

// secretBoard writes a board's file as an earlier version left it: the
// sandbox's ids with a recovery phrase's numbered words and a key's
// halves among them, the local environment's with a phrase one word an
// id and a whole key as one, then a line of the log adding q-new.
func secretBoard(t *testing.T) string {
	board := filepath.Join(t.TempDir(), "board.json")
	key := "ac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80"
	words := strings.Fields("legal winner thank year wave sausage worth useful legal winner thank yellow")
	sandbox := []string{"q-ok"}
	for i, w := range words {
		sandbox = append(sandbox, fmt.Sprintf("%02d.%s", i+1, w))
	}
	sandbox = append(sandbox, "q-go", key[:32], key[32:], "q-hi")
	// Each id once: a phrase with no word twice, one an id.
	local := append(append([]string{"q-x"}, strings.Fields("abandon ability able about above absent absorb abstract absurd abuse access accident")...), "0x"+key, "q-y")
	b, err := json.Marshal(map[string]any{"envs": map[string]any{"sandbox": sandbox, "local": local}})
	exchangetest.Must(t, err)
	b = append(b, "\n{\"env\":\"sandbox\",\"put\":[{\"quote_id\":\"q-new\"}]}\n"...)
	exchangetest.Must(t, os.WriteFile(board, b, 0o600))
	return board
}

// TestWatchlistSecretsRewrittenOut: the board's own read of its file
// (LoadClean) drops the ids of a wallet secret's shape an earlier version
// kept, in every environment, and rewrites the file without them, saying
// how many once: they were no longer shown or asked, but stayed on disk.
// The others keep their order and their environment.
func TestWatchlistSecretsRewrittenOut(t *testing.T) {
	board := secretBoard(t)
	before, _ := os.ReadFile(board)
	kept, err := (&follow.WatchFile{Path: board, Env: "sandbox"}).Load()
	if after, _ := os.ReadFile(board); err != nil || !slices.Equal(ids(kept), []string{"q-ok", "q-go", "q-hi", "q-new"}) || string(after) != string(before) {
		t.Fatalf("Load: %v, %v; the file changed: %v", ids(kept), err, string(after) != string(before))
	}
	w := &follow.WatchFile{Path: board, Env: "sandbox"}
	kept, err = w.LoadClean()
	var dropped *follow.SecretsDropped
	if !errors.As(err, &dropped) || dropped.IDs != 12+2+12+1 || dropped.Unwritten != nil || dropped.Read != nil ||
		!slices.Equal(ids(kept), []string{"q-ok", "q-go", "q-hi", "q-new"}) {
		t.Fatalf("LoadClean: %v, %v", ids(kept), err)
	}
	if strings.Contains(err.Error(), "sausage") || strings.Contains(err.Error(), "ac0974be") {
		t.Errorf("the error repeats an id: %v", err)
	}
	after, _ := os.ReadFile(board)
	for _, gone := range []string{"legal", "sausage", "yellow", "ac0974be", "ff80", "abandon", "accident"} {
		if strings.Contains(string(after), gone) {
			t.Errorf("the file still holds %q:\n%s", gone, after)
		}
	}
	local, err := (&follow.WatchFile{Path: board, Env: "local"}).Load()
	if err != nil || !slices.Equal(ids(local), []string{"q-x", "q-y"}) {
		t.Errorf("local: %v, %v", ids(local), err)
	}
	// Said once: the file holds none now, and what is added after is kept.
	if kept, err := w.LoadClean(); err != nil || len(kept) != 4 {
		t.Errorf("read again: %v, %v", ids(kept), err)
	}
	exchangetest.Must(t, w.Append([]follow.Kept{{QuoteID: "q-later"}}, nil))
	if kept, err := (&follow.WatchFile{Path: board, Env: "sandbox"}).Load(); err != nil || !slices.Equal(ids(kept), []string{"q-ok", "q-go", "q-hi", "q-new", "q-later"}) {
		t.Errorf("after an append: %v, %v", ids(kept), err)
	}
}

// TestWatchlistSecretsNotRewrittenSaid: a file that cannot be rewritten
// without the secret's ids (its lock not taken) is said so, the ids still
// not returned: the secret is still on disk, and the user is told.
func TestWatchlistSecretsNotRewrittenSaid(t *testing.T) {
	board := secretBoard(t)
	exchangetest.Must(t, os.Mkdir(board+".lock", 0o700)) // no lock file can be opened there
	kept, err := (&follow.WatchFile{Path: board, Env: "sandbox"}).LoadClean()
	var dropped *follow.SecretsDropped
	if !errors.As(err, &dropped) || dropped.Unwritten == nil || dropped.IDs != 27 || len(kept) != 4 ||
		!strings.Contains(err.Error(), "could not be rewritten without them") {
		t.Fatalf("%v, %v", ids(kept), err)
	}
	if after, _ := os.ReadFile(board); !strings.Contains(string(after), "sausage") {
		t.Errorf("the file was rewritten after all")
	}
}

// TestWatchlistSecretFirstRewrittenOut: a secret's ids at the head of an
// environment leave nothing in their place when the file is rewritten; an
// id dropped from the first place was written back as an empty one.
func TestWatchlistSecretFirstRewrittenOut(t *testing.T) {
	board := filepath.Join(t.TempDir(), "board.json")
	phrase := append(strings.Fields("abandon ability able about above absent absorb abstract absurd abuse access accident"), "q-1")
	b, err := json.Marshal(map[string]any{"envs": map[string]any{"sandbox": phrase}})
	exchangetest.Must(t, err)
	exchangetest.Must(t, os.WriteFile(board, b, 0o600))
	kept, err := (&follow.WatchFile{Path: board, Env: "sandbox"}).LoadClean()
	if !errors.As(err, new(*follow.SecretsDropped)) || !slices.Equal(ids(kept), []string{"q-1"}) {
		t.Fatalf("LoadClean: %v, %v", ids(kept), err)
	}
	if after, _ := os.ReadFile(board); string(after) != `{"env":"sandbox","put":[{"quote_id":"q-1"}]}`+"\n" {
		t.Errorf("the file holds %s", after)
	}
}
