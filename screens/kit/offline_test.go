package kit

import (
	"path/filepath"
	"testing"

	"github.com/svcwallet/svcwallet/internal/safetext"
	"github.com/svcwallet/svcwallet/service/journal"
	"github.com/svcwallet/svcwallet/service/target"
)

// TestShellWord: a file path in a command shown to be run is one POSIX shell
// word, quoted only when a shell would read something in it.
func TestShellWord(t *testing.T) {
	for in, want := range map[string]string{
		"/home/me/.local/state/svcwallet/transfer-q-1.json": "/home/me/.local/state/svcwallet/transfer-q-1.json",
		"/home/my files/t.json":                             "'/home/my files/t.json'",
		"/tmp/it's $(rm -rf ~).json":                        `'/tmp/it'\''s $(rm -rf ~).json'`,
		"":                                                  "''",
	} {
		if got := safetext.POSIX.Word(in); got != want {
			t.Errorf("POSIX.Word(%q) = %s, want %s", in, got, want)
		}
	}
}

// TestOfflineFileNamedAfterAnyQuote: the file of typed data is named after
// the quote id, which the service chose and may hold a ':', that on Windows
// writes an alternate data stream: the name is made one every system
// writes as named.
func TestOfflineFileNamedAfterAnyQuote(t *testing.T) {
	dir := t.TempDir()
	j, err := journal.Open(filepath.Join(dir, "journal.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	app := &App{Session: Session{Target: target.Target{Journal: j}}}
	path, err := app.offlineWriter()("transfer-q:1.json", []byte("{}"))
	if err != nil || path != filepath.Join(dir, "transfer-q_1.json") {
		t.Errorf("written to %q (%v), want transfer-q_1.json beside the journal", path, err)
	}
}
