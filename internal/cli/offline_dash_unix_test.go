//go:build unix

package cli

import (
	"bytes"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/svcwallet/svcwallet/service/sandbox"
)

// TestOfflineDashFileRunsAsPrinted: a prepared file named -x.json (a
// relative --out) is named where no program reads it as a flag: cast's line
// as ./-x.json, the submit line after "--"; split as sh splits it, the
// submit line reaches the file, whose signer refuses a wrong signature.
func TestOfflineDashFileRunsAsPrinted(t *testing.T) {
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh")
	}
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
	out, err := exec.Command(sh, "-c", `svcwallet() { for a in "$@"; do printf '%s\0' "$a"; done; }; `+strings.Replace(submit, "0x…", "0x"+strings.Repeat("ab", 65), 1)).Output()
	if err != nil {
		t.Fatal(err)
	}
	words := strings.Split(strings.TrimSuffix(string(out), "\x00"), "\x00")
	var stdout, stderr bytes.Buffer
	code := Run(words, CLIEnv{Stdin: strings.NewReader(""), Stdout: &stdout, Stderr: &stderr, Getenv: func(k string) string { return map[string]string{apiKeyVar: sandbox.DemoAPIKey}[k] }})
	// It read the file: the signature is checked against its signer.
	if code == exitUsage || !strings.Contains(stderr.String(), "refused the signature") {
		t.Errorf("%s, as sh splits it: exit %d\n%s", submit, code, stderr.String())
	}
	if _, err := os.Stat("-x.json"); err != nil {
		t.Fatal(err)
	}
}
