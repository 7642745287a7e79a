//go:build unix

package cli

import (
	"os"
	"strings"
	"testing"

	"github.com/svcwallet/svcwallet/service/sandbox"
)

// TestOfflineDashFileRunsAsPrinted: a prepared file named -x.json (a
// relative --out) is named where no program reads it as a flag: cast's line
// as ./-x.json, the submit line after "--"; split as sh splits it, the
// submit line reaches the file, whose signer refuses a wrong signature.
func TestOfflineDashFileRunsAsPrinted(t *testing.T) {
	r := newStatusRig(t)
	withdrawState(t)
	t.Chdir(t.TempDir())
	res := r.runWithdraw(withdrawRunOpts{}, withdrawArgs(sandbox.DestCompleted, "25", "--signer", "offline", "--account", demoSigner, "--out", "-x.json")...)
	res.want(t, 0, "cast wallet sign --data --from-file ./-x.json\n")
	_, submit, _ := strings.Cut(res.stdout, "Then, before it expires:\n  ")
	submit, _, _ = strings.Cut(submit, "\n")
	if !strings.HasPrefix(submit, "svcwallet withdraw submit --signature 0x… ") || !strings.HasSuffix(submit, " -- -x.json") {
		t.Fatalf("submit line %q, want the file after --", submit)
	}
	pasted := asShellSplits(t, strings.Replace(submit, "0x…", "0x"+strings.Repeat("ab", 65), 1), map[string]string{statusKeyVar: sandbox.DemoAPIKey})
	// It read the file: the signature is checked against its signer.
	if pasted.code == exitUsage || !strings.Contains(pasted.stderr, "Refused the signature") {
		t.Errorf("%s, as sh splits it: exit %d\n%s", submit, pasted.code, pasted.stderr)
	}
	if _, err := os.Stat("-x.json"); err != nil {
		t.Fatal(err)
	}
}
