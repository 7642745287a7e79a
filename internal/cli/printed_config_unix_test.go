//go:build unix

package cli

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/svcwallet/svcwallet/internal/safetext"
	"github.com/svcwallet/svcwallet/service/sandbox"
)

// TestPrintedCommandsRepeatTheConfigQuoted: a command svcwallet prints to
// run next repeats --config as one word of the shell, so that the line,
// split as sh splits it, runs on the same config (a space, a quote, $ and ;
// in the path); a path a terminal would not show as it is (an escape, a
// bidi override) is left out, saying so, and never printed raw nor
// cleaned into another file's name.
func TestPrintedCommandsRepeatTheConfigQuoted(t *testing.T) {
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh")
	}
	w, srv := newAuthWorld(t, sandbox.Options{})
	cfg, err := os.ReadFile(w.config)
	if err != nil {
		t.Fatal(err)
	}
	for _, dir := range []string{`my cfg;$(id)'x`, "cfg\x1b[31m\u202ered"} {
		d := filepath.Join(t.TempDir(), dir)
		if err := os.Mkdir(d, 0o700); err != nil {
			t.Fatal(err)
		}
		w.config = filepath.Join(d, "config.toml")
		if err := os.WriteFile(w.config, cfg, 0o600); err != nil {
			t.Fatal(err)
		}
		r := w.run("", nil, "env", "add", "second", "--base-url", srv.URL, "--chain-id", "327", "--alias")
		if r.code != 0 {
			t.Fatalf("env add: exit %d\n%s", r.code, r.stderr)
		}
		_, next, ok := strings.Cut(r.stdout, "Next: ")
		use, _, _ := strings.Cut(next, ", then ")
		if !ok || strings.ContainsAny(r.stdout, "\x1b\u202e") {
			t.Fatalf("env add printed:\n%q", r.stdout)
		}
		if strings.Contains(dir, "\x1b") {
			if use != "svcwallet env use second"+safetext.LeftOut("--config") {
				t.Errorf("a path with an escape: %q", use)
			}
			continue
		}
		if want := `svcwallet env use second --config '` + filepath.Dir(d) + `/my cfg;$(id)'\''x/config.toml'`; use != want {
			t.Fatalf("got  %s\nwant %s", use, want)
		}
		// As pasted into sh: its words, run.
		out, err := exec.Command(sh, "-c", `svcwallet() { for a in "$@"; do printf '%s\0' "$a"; done; }; `+use).Output()
		if err != nil {
			t.Fatal(err)
		}
		words := strings.Split(strings.TrimSuffix(string(out), "\x00"), "\x00")
		var stdout, stderr bytes.Buffer
		if code := Run(words, CLIEnv{Stdin: strings.NewReader(""), Stdout: &stdout, Stderr: &stderr, Getenv: func(string) string { return "" }}); code != 0 {
			t.Fatalf("%q as sh splits it: exit %d\n%s", use, code, stderr.String())
		}
		b, err := os.ReadFile(w.config)
		if err != nil || !bytes.Contains(b, []byte(`default_env = "second"`)) {
			t.Fatalf("the printed env use did not edit the config it named: %v\n%s", err, b)
		}
	}
}
