//go:build e2e && unix

package cli

import (
	"strings"
	"testing"
	"time"

	"github.com/svcwallet/svcwallet/service/sandbox"
)

// TestWithAPIKeyOnATerminalAsksHidden: auth login --with-api-key whose
// standard input is a terminal, not a pipe, asks for the key at the hidden
// prompt, as without the flag: it read the terminal silently, no prompt,
// with the key echoed in the clear and left in the scrollback.
func TestWithAPIKeyOnATerminalAsksHidden(t *testing.T) {
	r := newPasteRig(t)
	s := r.start(t, ptyStart{}, "auth", "login", "--with-api-key", "--insecure-storage")
	s.answer("API key for rig (not shown): ", sandbox.DemoAPIKey, 15*time.Second)
	if code := s.wait(15 * time.Second); code != 0 {
		t.Fatalf("exit %d; it wrote:\n%s", code, s.output())
	}
	if out := s.output(); strings.Contains(out, sandbox.DemoAPIKey) || !strings.Contains(out, "Logged in to rig") {
		t.Errorf("the key echoed, or no login; it wrote:\n%s", out)
	}
}
