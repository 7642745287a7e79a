package cli

import (
	"strings"
	"testing"

	"github.com/svcwallet/svcwallet/service/sandbox"
	"github.com/svcwallet/svcwallet/signer"
)

// TestNoKeyNamesTheKeystoresKey: a command that signs, given no key, names
// the --signer that signs with the keystore's key when it holds one (the
// one of --account among several), and the listing when it holds several;
// an empty keystore leaves the general advice. Nothing is sent.
func TestNoKeyNamesTheKeystoresKey(t *testing.T) {
	lightScrypt(t)
	e := newBcliEnv(t)
	dir := t.TempDir()
	vars := map[string]string{signer.KeystoreEnvVar: dir}
	r := bcli(t, vars, "", false, authorizeArgs(e)...)
	if r.code != exitUsage || !strings.Contains(r.stderr, "no key here signs for the main account, so no builder authorization can be signed here") ||
		!strings.Contains(r.stderr, "; export the main account's hex key in $SVCWALLET_PRIVATE_KEY") {
		t.Errorf("empty keystore: exit %d: %s", r.code, r.stderr)
	}
	first, _ := mustNew(t, dir)
	r = bcli(t, vars, "", false, authorizeArgs(e)...)
	if r.code != exitUsage || !strings.Contains(r.stderr, "; add --signer keystore:"+first.Hex()+" to sign with the keystore's key, or export ") {
		t.Errorf("one key: exit %d: %s", r.code, r.stderr)
	}
	second, _ := mustNew(t, dir)
	r = bcli(t, vars, "", false, authorizeArgs(e)...)
	if r.code != exitUsage || !strings.Contains(r.stderr, "the keystore holds 2 keys (svcwallet key list): add --signer keystore:ADDRESS with the one that signs") {
		t.Errorf("two keys: exit %d: %s", r.code, r.stderr)
	}
	r = bcli(t, vars, "", false, authorizeArgs(e, "--account", second.Hex())...)
	if r.code != exitUsage || !strings.Contains(r.stderr, "add --signer keystore:"+second.Hex()+" to sign") {
		t.Errorf("two keys, --account one: exit %d: %s", r.code, r.stderr)
	}
	r = bcli(t, vars, "", false, authorizeArgs(e, "--account", sandbox.BuilderAddress)...)
	if r.code != exitUsage || strings.Contains(r.stderr, "keystore:0x") {
		t.Errorf("--account of no key here: exit %d: %s", r.code, r.stderr)
	}
	if n := e.requests.Load(); n != 0 {
		t.Errorf("%d requests sent without a key", n)
	}
}
