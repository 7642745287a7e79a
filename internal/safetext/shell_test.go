package safetext_test

import (
	"os/exec"
	"strings"
	"testing"

	"github.com/svcwallet/svcwallet/internal/safetext"
)

// TestShellLine: a word a shell would split or expand is quoted, and a
// shell reads every word back as it was; plain words and the "0x…" the
// user fills in stay as they are.
func TestShellLine(t *testing.T) {
	words := []string{"svcwallet", "status", "q-1", "--config", "/home/me/my configs/it's $HOME.toml", "0x…", "", "a;b", "~x", "*"}
	line := safetext.ShellLine(words...)
	if !strings.HasPrefix(line, "svcwallet status q-1 --config '/home/me/my configs/it'\\''s $HOME.toml' 0x… '' 'a;b' '~x' '*'") {
		t.Fatalf("line %s", line)
	}
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh")
	}
	got, err := exec.Command(sh, "-c", "set -- "+strings.TrimPrefix(line, "svcwallet ")+`; for w in "$@"; do printf '[%s]\n' "$w"; done`).Output()
	if err != nil {
		t.Fatal(err)
	}
	var want strings.Builder
	for _, w := range words[1:] {
		want.WriteString("[" + w + "]\n")
	}
	if string(got) != want.String() {
		t.Fatalf("the shell read\n%s\nwant\n%s", got, want.String())
	}
}
