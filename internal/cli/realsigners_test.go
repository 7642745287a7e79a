//go:build e2e

package cli

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/svcwallet/svcwallet/service/sandbox"
	"github.com/svcwallet/svcwallet/signer"
)

// itToolsVar, set to 1 by .ci/run once .ci/it-tools installed them, makes
// missing real signers a failure instead of a skip.
const itToolsVar = "SVCWALLET_IT"

// realSigner finds a real signer's binary: in $SVCWALLET_IT_DIR/bin (else
// ~/.cache/svcwallet-it/bin, where .ci/it-tools puts them), else on PATH.
func realSigner(t *testing.T, name string) string {
	t.Helper()
	dir := os.Getenv("SVCWALLET_IT_DIR")
	if dir == "" {
		if home, err := os.UserHomeDir(); err == nil {
			dir = filepath.Join(home, ".cache", "svcwallet-it")
		}
	}
	if p := filepath.Join(dir, "bin", name); dir != "" {
		if fi, err := os.Stat(p); err == nil && fi.Mode()&0o111 != 0 {
			return p
		}
	}
	if p, err := exec.LookPath(name); err == nil {
		return p
	}
	msg := fmt.Sprintf("the real %s is not installed: run .ci/it-tools (it builds clef from go-ethereum v1.17.0 and installs cast from npm into %s/bin)", name, dir)
	if os.Getenv(itToolsVar) == "1" {
		t.Fatal(msg + "; " + itToolsVar + "=1 says they were installed")
	}
	t.Skip(msg)
	return ""
}

// Passwords of the integration test's clef (at least 10 characters, as clef
// requires) and of the keystore file it and cast share.
const (
	itMasterPassword  = "master-password-of-the-test"
	itAccountPassword = "account-password-of-the-test"
)

// clefRules approves what the sandbox's domain asks (name and chain id) and
// the listing of accounts; anything else is refused.
const clefRules = `function ApproveListing() { return "Approve"; }
function ApproveSignData(req) {
  if (req.content_type != "data/typed") { return "Reject"; }
  var d = req.messages[0].value, name = "", chain = "";
  for (var i = 0; i < d.length; i++) {
    if (d[i].name == "name") { name = d[i].value; }
    if (d[i].name == "chainId") { chain = d[i].value; }
  }
  if (name == "%s" && chain.indexOf("%d ") == 0) { return "Approve"; }
  return "Reject";
}
`

// clefRun runs one clef set-up command with its answers on stdin.
func clefRun(t *testing.T, clef, answers string, args ...string) {
	t.Helper()
	c := exec.Command(clef, args...)
	c.Stdin = strings.NewReader(answers)
	if out, err := c.CombinedOutput(); err != nil {
		t.Fatalf("clef %s: %v\n%s", args[len(args)-2], err, out)
	}
}

// startClef sets up a clef holding the sandbox's demo key, with the rules
// of clefRules attested and the key's password stored for them, starts it
// on a free loopback port and an IPC socket, and returns both endpoints
// and the keystore file (cast signs with it too).
func startClef(t *testing.T, clef string) (httpURL, ipc, keyFile string) {
	t.Helper()
	lightScrypt(t)
	dir := t.TempDir()
	ks, cfg := filepath.Join(dir, "ks"), filepath.Join(dir, "cfg")
	if err := os.Mkdir(ks, 0o700); err != nil {
		t.Fatal(err)
	}
	_, keyFile, err := signer.ImportRawKey(ks, sandbox.DemoPrivateKey, itAccountPassword)
	if err != nil {
		t.Fatal(err)
	}
	rules := filepath.Join(dir, "rules.js")
	if err := os.WriteFile(rules, []byte(fmt.Sprintf(clefRules, signer.DefaultDomainName, sandbox.DefaultChainID)), 0o600); err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256([]byte(fmt.Sprintf(clefRules, signer.DefaultDomainName, sandbox.DefaultChainID)))
	common := []string{"--suppress-bootwarn", "--configdir", cfg, "--keystore", ks, "--lightkdf"}
	clefRun(t, clef, itMasterPassword+"\n"+itMasterPassword+"\n", append(common, "init")...)
	clefRun(t, clef, itAccountPassword+"\n"+itAccountPassword+"\n"+itMasterPassword+"\n", append(common, "setpw", sandbox.DemoAddress)...)
	clefRun(t, clef, itMasterPassword+"\n", append(common, "attest", hex.EncodeToString(sum[:]))...)

	ipcDir := filepath.Join(dir, "ipc")
	c := exec.Command(clef, append(common, "--chainid", fmt.Sprint(sandbox.DefaultChainID), "--rules", rules,
		"--http", "--http.addr", "127.0.0.1", "--http.port", "0", "--ipcpath", ipcDir)...)
	c.Dir = dir
	stdin, err := c.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	pr, pw := io.Pipe()
	c.Stdout, c.Stderr = pw, pw
	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = c.Process.Kill()
		_ = c.Wait()
		pw.Close()
		stdin.Close()
	})
	// The master password; stdin stays open, as clef's prompts read it.
	if _, err := io.WriteString(stdin, itMasterPassword+"\n"); err != nil {
		t.Fatal(err)
	}
	httpOpened := regexp.MustCompile(`HTTP endpoint opened +url=(http://127\.0\.0\.1:\d+)/`)
	ipcOpened := regexp.MustCompile(`IPC endpoint opened +url=(\S+)`)
	var log strings.Builder
	// A bound, not an order: a clef that opens no endpoint (asking what
	// stdin does not answer) ends the read below, and the test, by name.
	stall := time.AfterFunc(60*time.Second, func() { pw.CloseWithError(errors.New("clef opened no endpoint in 60 s")) })
	defer stall.Stop()
	lines := bufio.NewScanner(pr)
	for lines.Scan() && (httpURL == "" || ipc == "") {
		log.WriteString(lines.Text() + "\n")
		if m := httpOpened.FindStringSubmatch(lines.Text()); m != nil {
			httpURL = m[1]
		}
		if m := ipcOpened.FindStringSubmatch(lines.Text()); m != nil {
			ipc = m[1]
		}
	}
	if httpURL == "" || ipc == "" {
		t.Fatalf("clef did not open its endpoints (%v):\n%s", lines.Err(), log.String())
	}
	// Keep reading what clef says, so it never blocks on a full pipe.
	go func() { _, _ = io.Copy(io.Discard, pr) }()
	return httpURL, ipc, keyFile
}

// TestRealSigners: the real clef (its rules approving the sandbox's domain,
// over HTTP and its IPC socket) and the real cast (as the signing command)
// sign a wallet login, a Transfer and both builder messages that the
// sandbox accepts; clef's rules refusing another domain is one line, exit 1.
func TestRealSigners(t *testing.T) {
	clef, cast := realSigner(t, "clef"), realSigner(t, "cast")
	httpURL, ipc, keyFile := startClef(t, clef)
	pwFile := filepath.Join(t.TempDir(), "pw")
	if err := os.WriteFile(pwFile, []byte(itAccountPassword+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	castConfig := fmt.Sprintf("signer = \"command\"\naccount = %q\nsign_command = %q\n", sandbox.DemoAddress,
		fmt.Sprintf("%s wallet sign --keystore %s --password-file %s --data --from-file {file}", cast, keyFile, pwFile))
	builderArgs := []string{"builder", "authorize", "--env", "local", "--builder", sandbox.BuilderAddress, "--max-futures-fee", "0.1", "--max-spot-fee", "0.05", "--yes"}

	for _, tc := range []struct {
		name, config string
		waits        string
	}{
		{"clef over HTTP", fmt.Sprintf("signer = %q\n", "clef:"+httpURL), "waiting for approval in clef at " + httpURL},
		{"clef over IPC", fmt.Sprintf("signer = %q\n", "clef:"+ipc), "waiting for approval in clef at " + ipc},
		{"cast", castConfig, "waiting for the signing command cast"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			withdrawState(t)
			r := newStatusRig(t)
			k := keyRun{vars: noKeys, config: tc.config}
			// The wallet login: status asks after it, and finds no such id.
			r.runKeys(k, "status", "q-unknown").want(t, exitNotFound, tc.waits, "no withdrawal with quote id q-unknown")
			// A wallet login, then the Transfer.
			res := r.runKeys(k, append([]string{"withdraw"}, withdrawArgs(sandbox.DestCompleted, "25", "--max-fee", "2", "--yes")...)...)
			res.want(t, 0, "Withdrawal accepted (SUBMITTED)", "If the quote expires while you approve")
			r.wantBalance("9975")
			// AuthorizeBuilder, then AddAccountSignerWithBuilder.
			r.runKeys(k, builderArgs...).want(t, 0, "Builder authorized (AuthorizeBuilder")
			r.runKeys(k, append(builderArgs, keyArgs...)...).want(t, 0, "Builder authorized (AddAccountSignerWithBuilder", "API key")
		})
	}

	t.Run("clef's rules refuse another domain", func(t *testing.T) {
		r := newStatusRig(t)
		res := r.runKeys(keyRun{vars: noKeys, config: fmt.Sprintf("domain_name = \"Another Exchange\"\nsigner = %q\n", "clef:"+httpURL)}, "status", "q-unknown")
		want := "svcwallet status: the wallet login was not signed: clef at " + httpURL + " refused to sign (request denied); nothing was sent\n"
		if res.code != exitError || !strings.HasSuffix(res.stderr, want) {
			t.Fatalf("exit %d:\n%s", res.code, res.stderr)
		}
	})
}
