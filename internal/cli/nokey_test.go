package cli

import (
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/svcwallet/svcwallet/service/sandbox"
	"github.com/svcwallet/svcwallet/signer"
)

// TestNoKeyNamesTheKeystoresKey: a command that signs, given no key, names
// the --signer that signs with the keystore's key when it holds one (the
// one of --account among several), and the listing when it holds several;
// an empty keystore leaves the general advice. Every case gives the one
// rule's set of ways (signer.NoKeyError.Steps, as the console and plain
// mode): its words, not the command line's own. Nothing is sent.
func TestNoKeyNamesTheKeystoresKey(t *testing.T) {
	lightScrypt(t)
	_, steps, _ := strings.Cut((&signer.NoKeyError{}).Steps("\x00", "\x00"), "\x00")
	steps, _, _ = strings.Cut(steps, "\x00")
	e := newBcliEnv(t)
	dir := t.TempDir()
	vars := map[string]string{signer.KeystoreEnvVar: dir}
	r := bcli(t, vars, "", false, authorizeArgs(e)...)
	if r.code != exitUsage || !strings.Contains(r.stderr, "no key here signs for the main account, so no builder authorization can be signed here") ||
		!strings.Contains(r.stderr, "; choose a key source with --signer (keystore:ADDRESS, clef:") || !strings.Contains(r.stderr, steps+"import its keystore file (svcwallet key import)") {
		t.Errorf("empty keystore: exit %d: %s", r.code, r.stderr)
	}
	first, _ := mustNew(t, dir)
	r = bcli(t, vars, "", false, authorizeArgs(e)...)
	if r.code != exitUsage || !strings.Contains(r.stderr, "; add --signer keystore:"+first.Hex()+" to sign with the keystore's key"+steps+"choose another source with --signer (clef:") {
		t.Errorf("one key: exit %d: %s", r.code, r.stderr)
	}
	second, _ := mustNew(t, dir)
	r = bcli(t, vars, "", false, authorizeArgs(e)...)
	if r.code != exitUsage || !strings.Contains(r.stderr, "; add --signer keystore:ADDRESS with the one of the keystore's 2 keys that signs (svcwallet key list)"+steps) {
		t.Errorf("two keys: exit %d: %s", r.code, r.stderr)
	}
	r = bcli(t, vars, "", false, authorizeArgs(e, "--account", second.Hex())...)
	if r.code != exitUsage || !strings.Contains(r.stderr, "add --signer keystore:"+second.Hex()+" to sign") {
		t.Errorf("two keys, --account one: exit %d: %s", r.code, r.stderr)
	}
	r = bcli(t, vars, "", false, authorizeArgs(e, "--account", sandbox.BuilderAddress)...)
	if r.code != exitUsage || strings.Contains(r.stderr, "keystore:0x") || !strings.Contains(r.stderr, steps) {
		t.Errorf("--account of no key here: exit %d: %s", r.code, r.stderr)
	}
	if n := e.requests.Load(); n != 0 {
		t.Errorf("%d requests sent without a key", n)
	}
}

// TestWithdrawSaysNoKeyByTheRule: withdraw given no key opens its refusal
// with the one rule's words (signer.NoKeyError, as the console and plain
// mode say it), the account named when --account names it, whether or not
// the keystore holds its key; the command line's ways follow. It said "no
// signing key" in words of its own. Nothing is sent.
func TestWithdrawSaysNoKeyByTheRule(t *testing.T) {
	lightScrypt(t)
	withdrawState(t)
	r := newStatusRig(t)
	dir := t.TempDir()
	vars := map[string]string{signer.KeystoreEnvVar: dir}
	args := append([]string{"withdraw"}, withdrawArgs(sandbox.DestCompleted, "25", "--yes")...)
	const at = "svcwallet withdraw: "
	res := r.runKeys(keyRun{vars: vars}, args...)
	if want := at + (&signer.NoKeyError{}).Error() + ": choose a key source with --signer"; res.code != exitUsage || !strings.HasPrefix(res.stderr, want) {
		t.Errorf("no key: exit %d, want 2 opening %q:\n%s", res.code, want, res.stderr)
	}
	addr, _ := mustNew(t, dir)
	res = r.runKeys(keyRun{vars: vars}, append(args, "--account", addr.Hex())...)
	if want := at + (&signer.NoKeyError{Account: addr}).Error() + ": add --signer keystore:" + addr.Hex() + " to sign with the keystore's key"; res.code != exitUsage || !strings.HasPrefix(res.stderr, want) {
		t.Errorf("the keystore's key not chosen: exit %d, want 2 opening %q:\n%s", res.code, want, res.stderr)
	}
	if n := r.withdraws.Load(); n != 0 {
		t.Errorf("%d withdraws sent without a key", n)
	}
}

// TestConfigSignerFaultNamesTheFlag: the environment's signer set and
// unable to sign (no signing command; a keystore file not there) stops a
// command as it stops every face's look for a key, said as the config's
// setting with its fix; the command line's way that acts now is a
// --signer, taken before the config's, and --signer env signs with
// $SVCWALLET_PRIVATE_KEY though signer is still set. The missing file was
// said without the setting that named it, and neither named the flag.
func TestConfigSignerFaultNamesTheFlag(t *testing.T) {
	withdrawState(t)
	r := newStatusRig(t)
	missing := filepath.Join(t.TempDir(), "missing.json")
	vars := map[string]string{signer.KeystoreEnvVar: t.TempDir(), signer.KeyEnvVar: sandbox.DemoPrivateKey}
	args := append([]string{"withdraw"}, withdrawArgs(sandbox.DestCompleted, "25", "--yes")...)
	const flag = "; or give --signer, which the command takes before the config's (env for $" + signer.KeyEnvVar
	for _, setting := range []string{`signer = "command"`, "signer = " + strconv.Quote(missing)} {
		res := r.runKeys(keyRun{vars: vars, config: setting + "\n"}, args...)
		if res.code == 0 || !strings.HasPrefix(res.stderr, "svcwallet withdraw: "+setting+" of environment local in the config (") || !strings.Contains(res.stderr, flag) {
			t.Errorf("%s: exit %d:\n%s", setting, res.code, res.stderr)
		}
		// The setting names the missing file's path once.
		if strings.Count(res.stderr, filepath.Base(missing)) > 1 {
			t.Errorf("%s: the path said twice:\n%s", setting, res.stderr)
		}
	}
	if n := r.withdraws.Load(); n != 0 {
		t.Fatalf("%d withdraws sent with the config's signer unable to sign", n)
	}
	res := r.runKeys(keyRun{vars: vars, config: `signer = "command"` + "\n"}, append(args, "--signer", "env")...)
	if res.code != 0 || r.withdraws.Load() != 1 {
		t.Errorf("--signer env, signer still set: exit %d, %d withdraws:\n%s", res.code, r.withdraws.Load(), res.stderr)
	}
}
