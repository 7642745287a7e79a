//go:build e2e && unix

package cli

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/shopspring/decimal"

	"github.com/svcwallet/svcwallet/service/sandbox"
	"github.com/svcwallet/svcwallet/signer"
)

// TestTmuxInterruptAtPrompts: ctrl+c at the [y/N] confirmation, at the
// hidden passphrase prompt of a keystore key that would sign, and at key
// new's passphrase ends the command with exit 130, one line saying what
// was left untouched, the deferred cleanup done, and the terminal's echo
// back on; nothing is paid.
func TestTmuxInterruptAtPrompts(t *testing.T) {
	r := newWithdrawRig(t, sandbox.Options{})
	keystore := filepath.Join(r.home, "keys")
	_, keyFile, err := signer.ImportRawKey(keystore, sandbox.DemoPrivateKey, "pass")
	if err != nil {
		t.Fatal(err)
	}
	withdraw := fmt.Sprintf("%s withdraw --chain arbitrum --to %s --amount 25", r.bin, sandbox.DestCompleted)
	newKeys := filepath.Join(r.home, "new-keys")
	for i, tc := range []struct {
		name, line, prompt, says string
		hidden                   bool
	}{
		{"confirmation", "SVCWALLET_PRIVATE_KEY=" + sandbox.DemoPrivateKey + " " + withdraw, "? [y/N]", "svcwallet withdraw: interrupted: nothing was signed or sent", false},
		{"signing passphrase", withdraw + " --yes --keystore-file " + keyFile, "Passphrase for", "svcwallet withdraw: interrupted: nothing was signed or sent", true},
		{"new key's passphrase", r.bin + " key new --keystore " + newKeys, "Passphrase:", "svcwallet key new: interrupted: nothing was written", true},
	} {
		// One after the other in the rig's terminal (its helpers fail the
		// whole test).
		t.Log(tc.name)
		{
			// After svcwallet, the shell says its exit status and whether
			// the terminal echoes ("echo", or "-echo" when left off). The
			// shell traps ctrl+c, so it lives to say them: dash, and bash
			// now and then under load, ended by it with svcwallet (the pane
			// dead by signal 2 after svcwallet's own line). A trap is not
			// inherited: svcwallet meets ctrl+c as from any shell.
			line := fmt.Sprintf("trap : INT; env %s SVCWALLET_API_KEY=%s %s; echo \"%[4]d exit=$?\"; stty -a | tr ' ' '\\n' | grep -x -e echo -e -echo | sed 's/^/%[4]d /'",
				r.homeEnv(), sandbox.DemoAPIKey, tc.line, i)
			r.must("respawn-pane", "-k", "-t", "main", line)
			r.waitShows(tc.prompt)
			if tc.hidden {
				r.waitFor("echo off at the hidden prompt", func() bool { return strings.Contains(r.ttySettings(), " -echo ") })
			}
			r.keys("C-c")
			r.waitShows(tc.says, fmt.Sprint(i, " exit=130"))
			echo, noEcho := fmt.Sprint("\n", i, " echo\n"), fmt.Sprint(i, " -echo")
			r.waitFor("the echo setting", func() bool { return strings.Contains(r.pane(), echo) || strings.Contains(r.pane(), noEcho) })
			if p := r.pane(); strings.Contains(p, noEcho) {
				t.Errorf("%s: the terminal is left without echo:\n%s", tc.name, p)
			}
		}
	}
	if got := r.srv.Exchange.Balance(sandbox.DemoAccountID); !got.Equal(decimal.RequireFromString("10000")) {
		t.Errorf("balance %s: something was paid", got)
	}
	if entries, _ := os.ReadDir(newKeys); len(entries) != 0 {
		t.Errorf("key new wrote %d file(s)", len(entries))
	}
	if leftovers, _ := filepath.Glob(filepath.Join(r.home, "svcwallet-*")); len(leftovers) != 0 {
		t.Errorf("left behind: %v", leftovers)
	}
}

// ttySettings are the pane's terminal settings (stty -a), as another
// process sees them.
func (r *withdrawRig) ttySettings() string {
	r.t.Helper()
	tty := strings.TrimSpace(r.must("display-message", "-p", "-t", "main", "#{pane_tty}"))
	out, err := exec.Command("stty", "-a", "-F", tty).CombinedOutput()
	if err != nil {
		r.t.Skipf("stty -F %s: %v (%s)", tty, err, out)
	}
	return strings.ReplaceAll(" "+string(out)+" ", "\n", " ")
}
