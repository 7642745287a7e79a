package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/svcwallet/svcwallet/service/sandbox"
	"github.com/svcwallet/svcwallet/signer"
)

// TestPasswordFileNamedEscaped: a --password-file refused (missing, empty,
// an empty first line, a wrong passphrase in it) is named escaped
// (safetext.Shown): cleaned, a no-break space read as a space and a bidi
// override vanished, naming another file than the one given.
func TestPasswordFileNamedEscaped(t *testing.T) {
	lightScrypt(t)
	dir := filepath.Join(t.TempDir(), "x\u00a0y\u202ez")
	if err := os.Mkdir(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	const shown = `x\u00a0y\u202ez`
	file := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	hexKey, _ := testKeyHex(t)
	for _, pw := range []string{filepath.Join(dir, "missing"), file("empty", ""), file("blank", "\n"+cliPass+"\n")} {
		r := keyCmd(t, lines(hexKey), nil, "import", "--keystore", t.TempDir(), "--password-file", pw)
		if r.code == 0 || !strings.Contains(r.stderr, shown) || strings.Contains(r.stderr, "\u00a0") {
			t.Errorf("key import --password-file %q: exit %d:\n%s", pw, r.code, r.stderr)
		}
	}
	e := newBcliEnv(t)
	_, path, err := signer.ImportRawKey(t.TempDir(), sandbox.DemoPrivateKey, cliPass)
	if err != nil {
		t.Fatal(err)
	}
	r := bcli(t, nil, "", false, authorizeArgs(e, "--keystore-file", path, "--password-file", file("wrong", cliPass2+"\n"))...)
	if r.code == 0 || !strings.Contains(r.stderr, "check the passphrase in ") || !strings.Contains(r.stderr, shown) || strings.Contains(r.stderr, "\u00a0") {
		t.Errorf("a wrong passphrase in the file: exit %d:\n%s", r.code, r.stderr)
	}
}
