//go:build e2e && unix

package cli

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/creack/pty"

	"github.com/svcwallet/svcwallet/internal/plain"
	"github.com/svcwallet/svcwallet/service/sandbox"
)

// TestSessionRefusedFitsSixtyColumns: on a terminal 60 columns wide, the
// error of a kept session the service refused wraps at spaces. It named
// "svcwallet auth login" as the session's keeper, which the fit took for
// a command to keep whole up to its ")": 87 cells, split mid-word.
func TestSessionRefusedFitsSixtyColumns(t *testing.T) {
	w, srv := newAuthWorld(t, sandbox.Options{})
	revoked := w.revokingFront(srv, nil)
	w.logIn(sandbox.DemoAPIKey, nil, "--with-api-key", "--insecure-storage")
	revoked.Store(true)
	shown := newSixtyColumns(t).run(wrapScene{"deposit", func(stdout, stderr io.Writer) int {
		return Run([]string{"deposit", "--config", w.config}, CLIEnv{Stdin: strings.NewReader(""), Stdout: stdout, Stderr: stderr, Getenv: func(string) string { return "" }})
	}})
	t.Logf("at 60 columns:\n%s", shown)
	if !strings.Contains(shown, "log in again") {
		t.Fatalf("not the refused session's error:\n%s", shown)
	}
	for _, l := range strings.Split(shown, "\n") {
		// Wider alone: the login to run, whole (its --config path).
		if ansi.StringWidth(l) > 60 && !strings.HasPrefix(l, "svcwallet auth login --env local --config ") {
			t.Errorf("a line of %d cells: %q", ansi.StringWidth(l), l)
		}
	}
}

// TestPathWithSpaceKeptWholeSixtyColumns: on a terminal 60 columns wide,
// key new's "Keystore file:" row and an offline preparation's File row
// and its review's Signer row ("from offline signing: the file …") keep
// a path with a space whole (the words around it wrapped): broken at its
// space, the path read, and copied, as two words naming no file.
func TestPathWithSpaceKeptWholeSixtyColumns(t *testing.T) {
	lightScrypt(t)
	withdrawState(t)
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	dir := filepath.Join(t.TempDir(), "my keys")
	out := filepath.Join(t.TempDir(), "my files", "transfer.json")
	if err := os.MkdirAll(filepath.Dir(out), 0o700); err != nil {
		t.Fatal(err)
	}
	r := newStatusRig(t)
	term := newSixtyColumns(t)
	for _, c := range []struct {
		scene wrapScene
		row   *regexp.Regexp
	}{
		{wrapScene{"key new", func(stdout, stderr io.Writer) int {
			in := strings.NewReader(lines(cliPass, cliPass))
			return Run([]string{"key", "new", "--keystore", dir}, CLIEnv{Stdin: in, Stdout: stdout, Stderr: stderr,
				Getenv: func(string) string { return "" }, ReadSecret: func(context.Context, string) (string, error) { return plain.ReadLine(in) }})
		}}, regexp.MustCompile(`(?m)^Keystore file:\s+` + regexp.QuoteMeta(dir) + `/UTC--`)},
		{wrapScene{"withdraw --signer offline", func(stdout, stderr io.Writer) int {
			r.stdout, r.stderr = stdout, stderr
			defer func() { r.stdout, r.stderr = nil, nil }()
			return r.runWithdraw(withdrawRunOpts{}, withdrawArgs(sandbox.DestCompleted, "25", "--signer", "offline", "--account", demoSigner, "--out", out)...).code
		}}, regexp.MustCompile(`(?m)^  File\s+` + regexp.QuoteMeta(out) + `(\s|$)`)},
		{wrapScene{"withdraw --signer offline, its review", func(stdout, stderr io.Writer) int {
			r.stdout, r.stderr = stdout, stderr
			defer func() { r.stdout, r.stderr = nil, nil }()
			return r.runWithdraw(withdrawRunOpts{}, withdrawArgs(sandbox.DestCompleted, "25", "--signer", "offline", "--account", demoSigner, "--out", out+"2")...).code
		}}, regexp.MustCompile(`from offline\s+signing: the file\s+` + regexp.QuoteMeta(out+"2") + `\n`)},
	} {
		shown := term.run(c.scene)
		t.Logf("%s at 60 columns:\n%s", c.scene.name, shown)
		if !c.row.MatchString(shown) {
			t.Errorf("%s: the path broken (%s)", c.scene.name, c.row)
		}
	}
}

// TestStatusProgressCutToTheTerminal: `status --watch` of several ids on a
// terminal narrower than its progress line ("svcwallet status: 1 of 2
// ended…", 31 cells) draws it cut to a cell less than its width: wrapped,
// its rewrite in place ("\r") began on its last row, the first left.
func TestStatusProgressCutToTheTerminal(t *testing.T) {
	r := newStatusRigWith(t, sandbox.Options{})
	ids := r.seed(sandbox.DestCompleted, 2)
	r.clock.Advance(sandbox.DefaultSettle)
	r.terminal = true // the rig's stderr is said to be one
	term := newSixtyColumns(t)
	if err := pty.Setsize(term.ptmx, &pty.Winsize{Rows: 40, Cols: 24}); err != nil {
		t.Fatal(err)
	}
	term.run(wrapScene{"status --watch", func(stdout, stderr io.Writer) int {
		r.stdout, r.stderr = stdout, stderr
		defer func() { r.stdout, r.stderr = nil, nil }()
		return r.run(nil, append([]string{"--watch"}, ids...)...).code
	}})
	term.mu.Lock()
	shown := term.shown.String() // as written: the line drawn over, then erased
	term.mu.Unlock()
	drawn := 0
	for _, over := range strings.Split(shown, "\r\x1b[K")[1:] {
		over = ansi.Strip(strings.FieldsFunc(over+"\n", func(r rune) bool { return r == '\r' || r == '\n' })[0] + "")
		if !strings.HasPrefix(over, "svcwallet status: ") {
			continue
		}
		drawn++
		if ansi.StringWidth(over) > 23 {
			t.Errorf("a progress line of %d cells at 24 columns: %q", ansi.StringWidth(over), over)
		}
	}
	if drawn == 0 {
		t.Fatalf("no progress line drawn:\n%q", shown)
	}
}

// TestAuthAndEmbeddedFitSixtyColumns: on a terminal 60 columns wide, auth
// login's and auth status's prose, the embedded sandbox's note beside a
// --json review and the one of a sandbox no environment chose are
// wrapped at spaces, each line within 60 cells but a command to run alone
// on its own: they were written unfitted, split mid-word at the
// terminal's edge.
func TestAuthAndEmbeddedFitSixtyColumns(t *testing.T) {
	w, srv := newAuthWorld(t, sandbox.Options{})
	undecided := filepath.Join(t.TempDir(), "config.toml") // an environment, none the default
	writeConfig(t, undecided, false, "local", srv.URL, srv.URL)
	run := func(stdin string, args ...string) func(stdout, stderr io.Writer) int {
		return func(stdout, stderr io.Writer) int {
			return Run(args, CLIEnv{Stdin: strings.NewReader(stdin), Stdout: stdout, Stderr: stderr, Getenv: func(string) string { return "" }})
		}
	}
	term := newSixtyColumns(t)
	for _, c := range []struct {
		scene wrapScene
		said  string
	}{
		{wrapScene{"auth login", run(sandbox.DemoAPIKey+"\n", "auth", "login", "--with-api-key", "--insecure-storage", "--config", w.config)}, "readable by anything"},
		{wrapScene{"auth status", run("", "auth", "status", "--config", w.config)}, "as far as this machine knows"},
		{wrapScene{"status, no environment chosen", run("", "status", "q-nosuchwithdrawal0000000000", "--config", undecided)}, "throwaway embedded sandbox"},
		{wrapScene{"withdraw --json", run("", "withdraw", "--env", "sandbox", "--chain", "arbitrum", "--to", sandbox.DestCompleted, "--amount", "25", "--dry-run", "--json", "--config", w.config)}, "choose another with --env"},
	} {
		shown := term.run(c.scene)
		t.Logf("%s at 60 columns:\n%s", c.scene.name, shown)
		if !strings.Contains(strings.Join(strings.Fields(shown), " "), c.said) {
			t.Errorf("%s: not what it says (%q)", c.scene.name, c.said)
		}
		for _, l := range strings.Split(shown, "\n") {
			if ansi.StringWidth(l) > 60 && strings.Contains(strings.TrimSpace(l), " ") && !command(l) && !strings.HasPrefix(l, "{") { // a word alone (a path), a JSON line: as written
				t.Errorf("%s: a line of %d cells: %q", c.scene.name, ansi.StringWidth(l), l)
			}
		}
	}
}
