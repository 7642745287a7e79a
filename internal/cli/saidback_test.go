package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/svcwallet/svcwallet/internal/safetext"
	"github.com/svcwallet/svcwallet/service/sandbox"
)

// TestPathsSaidBackClean: a path the user names (--config,
// $SVCWALLET_CONFIG, --password-file) is repeated in the error, also in
// the system's own words (open PATH: …), without the bidi override or the
// escape it holds, which would reorder or colour the line; in --json too.
// A --config that names no file is said escaped (config.LoadConfig), never
// cleaned into the name of another file ("abred").
func TestPathsSaidBackClean(t *testing.T) {
	dir := t.TempDir()
	bad := dir + "/a\u202eb\x1b[31mred"
	escaped := safetext.Shown(bad) + " does not exist"
	inJSON, _ := json.Marshal(escaped)
	for _, tc := range []struct {
		args []string
		vars map[string]string
		says string
	}{
		{[]string{"--config", bad, "env", "list"}, nil, escaped},
		{[]string{"env", "list"}, map[string]string{configPathVar: bad}, escaped},
		{[]string{"--config", bad, "env", "list", "--json"}, nil, strings.Trim(string(inJSON), `"`)},
		{[]string{"key", "new", "--keystore", dir, "--password-file", bad}, nil, "the password file"},
	} {
		r := runCLI("", tc.vars, tc.args...)
		said := r.stdout + r.stderr
		if r.code == 0 || !strings.Contains(said, tc.says) || strings.ContainsAny(said, "\u202e\x1b") {
			t.Errorf("%q: exit %d, want the path said back clean, saying %q:\n%q", tc.args, r.code, tc.says, said)
		}
	}
}

// TestOfflineFileNamedWithoutInvisibles: an --out holding a bidi override
// or a no-break space (safetext.Printable) is refused before anything is
// prepared: every line naming the file (the review, where it went, the
// cast and submit commands) would draw it raw, or read as another file.
func TestOfflineFileNamedWithoutInvisibles(t *testing.T) {
	r := newStatusRig(t)
	withdrawState(t)
	for _, name := range []string{"t\u202eevil.json", "t\u00a0x.json"} {
		out := filepath.Join(t.TempDir(), name)
		res := r.runWithdraw(withdrawRunOpts{}, withdrawArgs(sandbox.DestCompleted, "25", "--signer", "offline", "--account", demoSigner, "--out", out)...)
		res.want(t, exitUsage, "holds a character a terminal acts on or hides")
		if strings.ContainsAny(res.stdout+res.stderr, "\u202e\u00a0") || r.withdraws.Load() != 0 {
			t.Errorf("--out said back raw, or a withdrawal sent:\n%q", res.stdout+res.stderr)
		}
		if _, err := os.Lstat(out); err == nil {
			t.Error("the file was written")
		}
	}
}
