package kit

import (
	"testing"

	"github.com/svcwallet/svcwallet/internal/safetext"
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
