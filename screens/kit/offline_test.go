package kit

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/common"

	"github.com/svcwallet/svcwallet/internal/safetext"
	"github.com/svcwallet/svcwallet/service/intent"
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

// TestOfflineFolderShownAsItReads: a state folder holding a no-break space
// or a bidi override (safetext.Printable) prepares nothing, journals
// nothing and writes nothing: the sign and submit commands name the file,
// and would not read as they run. The folder is said escaped, with the
// command line to run instead as it was given.
func TestOfflineFolderShownAsItReads(t *testing.T) {
	chosen := []string{"withdraw", "--to", "0x1", "--amount", "2"}
	const instead = "svcwallet withdraw --to 0x1 --amount 2 --signer offline --account 0x0000000000000000000000000000000000000000 --out transfer-q-1.json"
	for _, name := range []string{"st\u00a0ate", "st\u202eate"} {
		dir := filepath.Join(t.TempDir(), name)
		j, err := journal.Open(filepath.Join(dir, "journal.jsonl"))
		if err != nil {
			t.Fatal(err)
		}
		app := &App{Session: Session{Target: target.Target{Journal: j}}}
		var o Offline
		prepared := false
		msg := o.Prepare(app, chosen, common.Address{}, "transfer-q-1.json", "Transfer", func(context.Context) (intent.Prepared, error) {
			prepared = true
			return intent.Prepared{}, context.Canceled
		})()
		err, _ = o.Update(app, msg)
		if err == nil || prepared || o.Done() || strings.ContainsAny(err.Error(), "\u00a0\u202e") ||
			!strings.Contains(err.Error(), safetext.Shown(dir)) || !strings.Contains(err.Error(), "`"+instead+"`") {
			t.Errorf("%q: prepared %v, err %v", name, prepared, err)
		}
	}
}
