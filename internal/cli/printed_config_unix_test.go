//go:build unix

package cli

import (
	"bytes"
	"os"
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
		if r := asShellSplits(t, use, nil); r.code != 0 {
			t.Fatalf("%q as sh splits it: exit %d\n%s", use, r.code, r.stderr)
		}
		b, err := os.ReadFile(w.config)
		if err != nil || !bytes.Contains(b, []byte(`default_env = "second"`)) {
			t.Fatalf("the printed env use did not edit the config it named: %v\n%s", err, b)
		}
	}
}

// TestHintsRunAsPrinted: each step a command names to run next (log in,
// choose a default environment, name one) carries the --env in use and the
// --config named, at a path holding a space, and, split as sh splits it,
// does what it says there: not on the default config nor environment.
func TestHintsRunAsPrinted(t *testing.T) {
	w, srv := newAuthWorld(t, sandbox.Options{})
	cfg, err := os.ReadFile(w.config)
	if err != nil {
		t.Fatal(err)
	}
	w.config = filepath.Join(t.TempDir(), "my cfg", "config.toml")
	if err := os.Mkdir(filepath.Dir(w.config), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(w.config, cfg, 0o600); err != nil {
		t.Fatal(err)
	}
	if r := w.run("", nil, "env", "add", "second", "--base-url", srv.URL, "--chain-id", "327", "--alias"); r.code != 0 {
		t.Fatalf("env add: exit %d\n%s", r.code, r.stderr)
	}
	quoted := "'" + w.config + "'"
	// printed is the command in said from "svcwallet " after marker up to
	// end, as sh splits it, run with vars.
	printed := func(said, marker, end, want string, vars map[string]string) depositResult {
		t.Helper()
		_, line, ok := strings.Cut(said, marker)
		line, _, _ = strings.Cut(line, end)
		if !ok || line != want {
			t.Fatalf("after %q:\n got  %s\n want %s\nin %s", marker, line, want, said)
		}
		return asShellSplits(t, line, vars)
	}
	login := "svcwallet auth login --env second --config " + quoted
	withKey := map[string]string{apiKeyVar: sandbox.DemoAPIKey}

	r := w.run("", nil, "auth", "status")
	r = printed(r.stdout, "No session is kept: ", " keeps one", "svcwallet auth login --env NAME --config "+quoted, nil)
	if r.code != exitUsage || !strings.Contains(r.stderr, `no environment "NAME"`) {
		t.Fatalf("auth status's login, as printed: exit %d\n%s", r.code, r.stderr)
	}
	for _, cmd := range [][]string{{"status", "q-1"}, {"deposit"}} {
		r = w.run("", nil, append(cmd, "--env", "second")...)
		if r.code != exitUsage {
			t.Fatalf("%s without a credential: exit %d\n%s", cmd, r.code, r.stderr)
		}
		if r = printed(r.stderr, "log in once with ", ", or set", login, withKey); r.code != 0 {
			t.Fatalf("%s's login, as printed: exit %d\n%s", cmd, r.code, r.stderr)
		}
		if r = w.run("", nil, "auth", "status"); !strings.Contains(r.stdout, "second") {
			t.Fatalf("the printed login kept no session of second on the config named:\n%s", r.stdout)
		}
		w.run("", nil, "auth", "logout", "--env", "second")
	}
	// A transfer id this machine never saw: the history that lists it.
	r = w.run("", withKey, "status", "tx-neverseen1", "--env", "second")
	if r = printed(r.stderr, "confirmation, and ", " lists it", "svcwallet history --env second --config "+quoted, nil); r.code != 0 || !strings.Contains(r.stderr, "second") {
		t.Fatalf("status's history, as printed: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}

	now, err := os.ReadFile(w.config)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(w.config, bytes.Replace(now, []byte(`default_env = "local"`), []byte(`default_env = "gone"`), 1), 0o600); err != nil {
		t.Fatal(err)
	}
	r = w.run("", nil, "env", "list")
	r = printed(strings.Replace(r.stdout, "NAME", "second", 1), "choose a configured one with ", ")", "svcwallet env use second --config "+quoted, nil)
	if got, _ := os.ReadFile(w.config); r.code != 0 || !bytes.Contains(got, []byte(`default_env = "second"`)) {
		t.Fatalf("env list's env use, as printed: exit %d %s\n%s", r.code, r.stderr, got)
	}
	r = w.run("", nil, "env", "remove", "second")
	r = printed(strings.Replace(r.stderr, "ANOTHER", "local", 1), "default first: ", "\n", "svcwallet env use local --config "+quoted, nil)
	if got, _ := os.ReadFile(w.config); r.code != 0 || !bytes.Contains(got, []byte(`default_env = "local"`)) {
		t.Fatalf("env remove's env use, as printed: exit %d %s\n%s", r.code, r.stderr, got)
	}

	// A state folder whose name a terminal acts on, open to its group: the
	// refusal says to rename it (osguard.RenameFirst), then the doctor run
	// on this environment of this config that names the command mending it.
	state := filepath.Join(t.TempDir(), "st\x1b[31mate")
	if err := os.MkdirAll(filepath.Join(state, "svcwallet"), 0o700); err != nil || os.Chmod(state, 0o770) != nil {
		t.Fatal(err)
	}
	t.Setenv("XDG_STATE_HOME", state)
	r = w.run("", nil, "history", "--env", "local")
	doctor := "svcwallet doctor --env local --config " + quoted
	if r = printed(r.stderr, "rename it with letters, digits and dashes only; then run ", " for the command", doctor, nil); r.code == 0 || !strings.Contains(r.stdout, "fix: rename it with letters, digits and dashes only, then run "+doctor+" again") || !strings.Contains(r.stdout, "my cfg/config.toml: environments local") {
		t.Fatalf("history's doctor, as printed: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
}
