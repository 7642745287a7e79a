//go:build e2e && (aix || darwin || dragonfly || freebsd || linux || netbsd || openbsd || solaris || zos)

package plain

import (
	"bufio"
	"context"
	"strings"
	"testing"

	"github.com/creack/pty"
)

// TestSecretTypedAtThePromptNotEchoed: a secret typed the instant its
// prompt shows (a paste, a quick hand, a test) is not echoed: the prompt
// is written once echo is off.
func TestSecretTypedAtThePromptNotEchoed(t *testing.T) {
	ptmx, tty, err := pty.Open()
	if err != nil {
		t.Skipf("no pseudo-terminal: %v", err)
	}
	defer ptmx.Close()
	defer tty.Close()
	const key = "typed-the-instant-it-showed"
	got, err := readHidden(context.Background(), tty, func() {
		tty.WriteString("Key: ")
		ptmx.WriteString(key + "\n")
	})
	if err != nil || got != key {
		t.Fatalf("read %q, %v", got, err)
	}
	tty.WriteString("\nend\n")
	var shown strings.Builder
	for r := bufio.NewReader(ptmx); !strings.HasSuffix(shown.String(), "end\r\n"); {
		line, err := r.ReadString('\n')
		shown.WriteString(line)
		if err != nil {
			t.Fatalf("%v after %q", err, shown.String())
		}
	}
	if strings.Contains(shown.String(), key) {
		t.Errorf("the terminal echoed the secret: %q", shown.String())
	}
}
