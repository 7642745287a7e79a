//go:build e2e && unix

package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"github.com/svcwallet/svcwallet/service/intent"
	"github.com/svcwallet/svcwallet/service/sandbox"
)

// promptingSigner writes a signing command that asks for a passphrase on
// the terminal (as cast wallet sign --keystore does) before signing with
// the demo key (this test binary as the fake signer), and returns its
// command line.
func promptingSigner(t *testing.T) string {
	t.Helper()
	self, err := filepath.Abs(os.Args[0])
	if err != nil {
		t.Fatal(err)
	}
	script := filepath.Join(t.TempDir(), "prompting.sh")
	// A group without the terminal reading it is stopped, or its read
	// fails (when SIGTTIN is ignored, as under tmux): it then exits 3.
	body := fmt.Sprintf("#!/bin/sh\nprintf 'signer passphrase: ' > /dev/tty\nread -r pass < /dev/tty && [ \"$pass\" = x ] || exit 3\nexec %q sign \"$1\"\n", self)
	if err := os.WriteFile(script, []byte(body), 0o700); err != nil {
		t.Fatal(err)
	}
	return script + " {file}"
}

// TestTmuxSignCommandPrompts (issue 25 item 8): on the command line a
// signing command runs in a process group of its own, which has the
// terminal while it runs: it can prompt there (a background group reading
// the terminal would be stopped), and svcwallet takes the terminal back
// after it, to ask its own confirmation between the two signatures. A
// ctrl+c at the command's prompt reaches the command and cancels the
// wait.
func TestTmuxSignCommandPrompts(t *testing.T) {
	r := newWithdrawRig(t, sandbox.Options{Settle: 2 * time.Second})
	cfgPath := filepath.Join(r.home, ".config", "svcwallet", "config.toml")
	cfg, err := os.ReadFile(cfgPath)
	if err != nil {
		t.Fatal(err)
	}
	cfg = fmt.Appendf(cfg, "signer = \"command\"\naccount = %q\nsign_command = %q\n", sandbox.DemoAddress, promptingSigner(t))
	if err := os.WriteFile(cfgPath, cfg, 0o600); err != nil {
		t.Fatal(err)
	}
	withdraw := fmt.Sprintf("env %s %s withdraw --chain arbitrum --to %s --amount 25", r.homeEnv(), r.bin, sandbox.DestCompleted)
	r.must("respawn-pane", "-k", "-t", "main", withdraw)
	r.waitShows("signer passphrase:") // the wallet login
	r.keys("-l", "x")
	r.keys("Enter")
	r.waitShows("? [y/N]")         // the question that signs
	time.Sleep(intent.ReviewDwell) // the review read: a sooner answer is refused by design (plain.Gate)
	r.typedAt("? [y/N]", "y", "Enter")
	r.waitFor("the second prompt", func() bool { return strings.Count(r.pane(), "signer passphrase:") == 2 })
	r.keys("-l", "x")
	r.keys("Enter")
	r.waitShows("Withdrawal accepted")
	if got, want := r.srv.Exchange.Balance(sandbox.DemoAccountID), decimal.RequireFromString("9975"); !got.Equal(want) {
		t.Errorf("balance %s, want %s", got, want)
	}

	r.must("respawn-pane", "-k", "-t", "main", withdraw)
	r.waitShows("signer passphrase:")
	r.keys("C-c")
	r.waitShows("cancelled while waiting", "nothing was sent")
	r.waitFor("svcwallet to end", func() bool {
		return strings.TrimSpace(r.must("display-message", "-p", "-t", "main", "#{pane_dead}")) == "1"
	})
}
