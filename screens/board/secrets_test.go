package board

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/svcwallet/svcwallet/screens/kit"
	"github.com/svcwallet/svcwallet/screens/screentest"
	"github.com/svcwallet/svcwallet/service/follow"
	"github.com/svcwallet/svcwallet/service/sandbox"
)

// plantPhrase keeps, as an earlier version did, a recovery phrase's
// numbered words on the board's file as ids, beside id.
func plantPhrase(t *testing.T, r *screentest.StatusRig, id string) string {
	t.Helper()
	planted := []follow.Kept{{QuoteID: id}}
	for i, w := range strings.Fields("legal winner thank year wave sausage worth useful legal winner thank yellow") {
		planted = append(planted, follow.Kept{QuoteID: fmt.Sprintf("%02d.%s", i+1, w)})
	}
	path := kit.WatchlistPath(r.App)
	if err := (&follow.WatchFile{Path: path, Env: r.App.Target.Env.Name}).Append(planted, nil); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestBoardSaysSecretsRemovedFromItsFile: the board opening on a file that
// holds a recovery phrase's words an earlier version kept says once that
// they were removed from it, and the file holds them no more; they were
// neither shown nor asked, but stayed on disk.
func TestBoardSaysSecretsRemovedFromItsFile(t *testing.T) {
	r := screentest.NewStatusRig(t)
	id := screentest.Seed(t, r, sandbox.DestCompleted)
	path := plantPhrase(t, r, id)
	br, kick := loadOnly(t, r)
	br.run(kick)
	said := "Removed from the board's file: 12 ids an earlier version kept that together are a recovery phrase's or a key's shape (never shown nor asked)."
	if got := boardIDs(br.b); len(got) != 1 || got[0] != id || len(br.toasts) != 1 || br.toasts[0] != said {
		t.Fatalf("rows %q, said %q", got, br.toasts)
	}
	if b, _ := os.ReadFile(path); strings.Contains(string(b), "sausage") || !strings.Contains(string(b), id) {
		t.Fatalf("the file holds:\n%s", b)
	}
	again, kick := loadOnly(t, r)
	again.run(kick)
	if len(again.toasts) != 0 || again.b.err != nil {
		t.Fatalf("opened again, said %q, %v", again.toasts, again.b.err)
	}
}

// TestBoardSaysSecretsLeftInItsFile: a file that could not be rewritten
// without them is an error saying they are still there and what to do.
func TestBoardSaysSecretsLeftInItsFile(t *testing.T) {
	r := screentest.NewStatusRig(t)
	id := screentest.Seed(t, r, sandbox.DestCompleted)
	path := plantPhrase(t, r, id)
	// The lock beside it made a folder: no lock is taken there.
	if err := os.Remove(path + ".lock"); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(path+".lock", 0o700); err != nil {
		t.Fatal(err)
	}
	br, kick := loadOnly(t, r)
	br.run(kick)
	// The board's own save fails there too, and says so apart.
	if len(br.toasts) == 0 || !strings.HasPrefix(br.toasts[0], "Error: The board's file still holds 12 ids") ||
		!strings.Contains(br.toasts[0], "check the state directory") || strings.Contains(strings.Join(br.toasts, "\n"), "sausage") || br.b.err != nil {
		t.Fatalf("said %q, %v", br.toasts, br.b.err)
	}
}
