package cli

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/svcwallet/svcwallet/service/sandbox"
	"github.com/svcwallet/svcwallet/signer"
)

type doctorReport struct {
	OK     bool          `json:"ok"`
	Checks []doctorCheck `json:"checks"`
}

// doctor runs `svcwallet doctor --json` with a fake tmux and returns the
// exit status and the report.
func doctor(t *testing.T, vars map[string]string, tmux func(string) (string, error), args ...string) (int, doctorReport, string) {
	t.Helper()
	return doctorState(t, t.TempDir(), vars, tmux, args...)
}

// doctorState is doctor with state as the state directory ($XDG_STATE_HOME).
func doctorState(t *testing.T, state string, vars map[string]string, tmux func(string) (string, error), args ...string) (int, doctorReport, string) {
	t.Helper()
	return doctorOn(t, doctorCmd{tmuxOption: tmux, goos: runtime.GOOS, protect: func() error { return nil }}, state, vars, args...)
}

// doctorOn is doctorState with c's system, protections and tmux.
func doctorOn(t *testing.T, c doctorCmd, state string, vars map[string]string, args ...string) (int, doctorReport, string) {
	t.Helper()
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	t.Setenv("XDG_STATE_HOME", state)
	t.Setenv("HOME", t.TempDir())
	var out, errOut bytes.Buffer
	c.env = CLIEnv{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errOut, Getenv: func(k string) string { return vars[k] }}
	if c.ownerOnly == nil {
		c.ownerOnly = func(string) error { return nil }
	}
	code := c.runLine(append(args, "--json"))
	var rep doctorReport
	if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
		t.Fatalf("not JSON: %v\n%s\n%s", err, out.String(), errOut.String())
	}
	return code, rep, out.String()
}

func noTmux(string) (string, error) { return "", errors.New("no tmux") }

// warning finds the report's warning about a check, if any.
func (r doctorReport) warning(check string) *doctorCheck {
	for i, c := range r.Checks {
		if strings.Contains(c.Check, check) && c.Status == "warning" {
			return &r.Checks[i]
		}
	}
	return nil
}

// TestDoctorReportDrivesNoTerminal: what the environment gives doctor (a
// $TERM, a state folder) holding an escape is written escaped on every line
// of its report (its terminal line wrote $TERM raw, and its journal line the
// folder, and a terminal acted on them), and nowhere raw.
func TestDoctorReportDrivesNoTerminal(t *testing.T) {
	state := filepath.Join(t.TempDir(), "s\x1b]2;T\ax")
	if err := os.Mkdir(state, 0o700); err != nil {
		t.Fatal(err)
	}
	cfg, _ := localConfig(t)
	_, rep, report := doctorState(t, state, map[string]string{"TERM": "xterm\x1b]2;T\a"}, noTmux, "--config", cfg)
	said := map[string]bool{}
	for _, c := range rep.Checks {
		if strings.ContainsAny(c.Detail+c.Fix, "\x1b\a") {
			t.Errorf("%s written raw: %q", c.Check, c.Detail+" / "+c.Fix)
		}
		said[c.Check] = said[c.Check] || strings.Contains(c.Detail, `s\x1b]2;T\ax`) || strings.Contains(c.Detail, `xterm\x1b]2;T\a`)
	}
	if !said["journal"] || !said["terminal"] {
		t.Errorf("the journal's or the terminal's line does not say it escaped:\n%s", report)
	}
}

// skewedConfig is a config whose environment "skewed" is a sandbox whose
// clock runs off from ours.
func skewedConfig(t *testing.T, off time.Duration) string {
	t.Helper()
	srv, err := sandbox.Start("127.0.0.1:0", sandbox.Options{Now: func() time.Time { return time.Now().Add(off) }})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	path := filepath.Join(t.TempDir(), "skewed.toml")
	writeConfig(t, path, true, "skewed", srv.URL, srv.URL)
	return path
}

func TestDoctorHealthySandbox(t *testing.T) {
	cfg, _ := localConfig(t)
	code, rep, out := doctor(t, nil, noTmux, "--config", cfg)
	if code != 0 || !rep.OK {
		t.Fatalf("exit %d on a healthy sandbox:\n%s", code, out)
	}
	for _, want := range []string{"config", "keystore", "journal", "local auth_url", "local base_url", "local market_data_url", "local clock", "terminal", "clipboard"} {
		if !strings.Contains(out, `"check": "`+want) {
			t.Errorf("no %q check:\n%s", want, out)
		}
	}
}

func TestDoctorUnreachableHost(t *testing.T) {
	code, rep, out := doctor(t, nil, noTmux, "--config", writeDeadConfig(t))
	w := rep.warning("dead base_url")
	if code != 1 || rep.OK || w == nil || !strings.Contains(w.Detail, "connection refused") || w.Fix == "" {
		t.Fatalf("exit %d, want a warning with its fix for the unreachable host:\n%s", code, out)
	}
	if rep.warning("dead clock") == nil {
		t.Errorf("an unreachable time host leaves the clock unknown, a warning:\n%s", out)
	}
}

func TestDoctorSkewedClock(t *testing.T) {
	for _, tc := range []struct {
		off  time.Duration
		warn bool
		says string
	}{
		{5 * time.Minute, true, "ahead of"},
		{-3 * time.Minute, true, "behind"},
		{30 * time.Second, false, "ahead of"},
	} {
		code, rep, out := doctor(t, nil, noTmux, "--config", skewedConfig(t, tc.off))
		w := rep.warning("skewed clock")
		if (w != nil) != tc.warn || (code == 1) != tc.warn || !strings.Contains(out, tc.says) {
			t.Errorf("offset %s: exit %d, warning %v:\n%s", tc.off, code, w, out)
		}
		if w != nil && !strings.Contains(w.Fix, "check your clock") {
			t.Errorf("offset %s: fix %q", tc.off, w.Fix)
		}
	}
}

func TestDoctorTmuxClipboard(t *testing.T) {
	cfg, _ := localConfig(t)
	inTmux := map[string]string{"TMUX": "/tmp/tmux-0/default,1,0"}
	code, rep, out := doctor(t, inTmux, func(string) (string, error) { return "external", nil }, "--config", cfg)
	if w := rep.warning("clipboard"); code != 1 || w == nil || !strings.Contains(w.Fix, "set-clipboard on") {
		t.Fatalf("tmux with set-clipboard external: exit %d:\n%s", code, out)
	}
	code, rep, out = doctor(t, inTmux, func(string) (string, error) { return "on", nil }, "--config", cfg)
	if code != 0 || rep.warning("clipboard") != nil {
		t.Fatalf("tmux with set-clipboard on: exit %d:\n%s", code, out)
	}
}

func TestDoctorUsage(t *testing.T) {
	r := depositCmd(t, nil, "doctor", "--help")
	if r.code != 0 || !strings.Contains(r.stdout, "Exit status") {
		t.Errorf("--help: exit %d %q", r.code, r.stdout)
	}
	if r := depositCmd(t, nil, "doctor", "now"); r.code != 2 {
		t.Errorf("an argument: exit %d", r.code)
	}
	if r := depositCmd(t, nil, "doctor", "--bogus"); r.code != 2 {
		t.Errorf("an unknown flag: exit %d", r.code)
	}
}

// TestDoctorSaysWhatChoseTheEnvironment (issue 21 item 16): the environment
// check names the setting that chose it.
func TestDoctorSaysWhatChoseTheEnvironment(t *testing.T) {
	cfg, _ := localConfig(t)
	skewed := skewedConfig(t, 0)
	none := filepath.Join(t.TempDir(), "none.toml")
	if err := os.WriteFile(none, []byte("bell = true\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		vars map[string]string
		args []string
		want string
	}{
		{nil, []string{"--config", cfg, "--env", "local"}, "local (chosen by --env)"},
		{map[string]string{"SVCWALLET_ENV": "local"}, []string{"--config", cfg}, "local (chosen by $SVCWALLET_ENV)"},
		{nil, []string{"--config", skewed}, "skewed (chosen by default_env in the config)"},
		{nil, []string{"--config", none}, "sandbox (chosen by default, as no --env, $SVCWALLET_ENV or default_env names one)"},
	} {
		_, _, out := doctor(t, tc.vars, noTmux, tc.args...)
		if !strings.Contains(out, tc.want) {
			t.Errorf("%v %v: no %q:\n%s", tc.vars, tc.args, tc.want, out)
		}
	}
}

// TestDoctorDumbTerminal: under TERM=dumb the console runs in plain mode
// (plain.Wanted), which doctor says and does not ask to fix; only with
// plain mode turned off there does it warn, naming both ways out.
func TestDoctorDumbTerminal(t *testing.T) {
	cfg, _ := localConfig(t)
	_, rep, out := doctor(t, map[string]string{"TERM": "dumb"}, noTmux, "--config", cfg)
	if rep.warning("terminal") != nil || !strings.Contains(out, "plain mode") {
		t.Errorf("TERM=dumb, where plain mode runs: a warning, or plain mode not said:\n%s", out)
	}
	_, rep, out = doctor(t, map[string]string{"TERM": "dumb", "SVCWALLET_PLAIN": "0"}, noTmux, "--config", cfg)
	if w := rep.warning("terminal"); w == nil || !strings.Contains(w.Fix, "unset SVCWALLET_PLAIN") {
		t.Errorf("TERM=dumb with SVCWALLET_PLAIN=0: no warning naming plain mode:\n%s", out)
	}
}

// TestDoctorCannotReadKeystoreOrJournal: a keystore or a journal whose
// path cannot be read (a file where a folder must be) is a warning with
// the permissions to check, not "none yet".
func TestDoctorCannotReadKeystoreOrJournal(t *testing.T) {
	cfg, _ := localConfig(t)
	file := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(file, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	_, rep, out := doctorState(t, file, map[string]string{signer.KeystoreEnvVar: filepath.Join(file, "keystore")}, noTmux, "--config", cfg)
	for check, fix := range map[string]string{"keystore": "check the directory's permissions", "journal": "check the state directory's permissions"} {
		if w := rep.warning(check); w == nil || w.Fix != fix || !strings.Contains(w.Detail, "not a directory") {
			t.Errorf("%s: %+v, want a warning to %s:\n%s", check, w, fix, out)
		}
	}
}

// TestDoctorSaysTheConfigPathEscaped: a --config path holding an escape or
// a bidi override is named with them escaped, as env add and env use name
// it: written raw, it coloured or reordered doctor's line.
func TestDoctorSaysTheConfigPathEscaped(t *testing.T) {
	cfg, _ := localConfig(t)
	dir := filepath.Join(t.TempDir(), "cfg\x1b[31m\u202ered")
	if err := os.Mkdir(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(cfg)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "config.toml")
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
	_, rep, out := doctor(t, nil, noTmux, "--config", path)
	i := slices.IndexFunc(rep.Checks, func(c doctorCheck) bool { return c.Check == "config" })
	if i < 0 || strings.ContainsAny(rep.Checks[i].Detail, "\x1b\u202e") || !strings.Contains(rep.Checks[i].Detail, `cfg\x1b[31m\u202ered/config.toml": environments local`) {
		t.Errorf("the config check:\n%s", out)
	}
}

// TestDoctorSaysTheStatePathsEscaped: a state folder holding a no-break
// space (safetext.Printable) is named escaped in the journal's check,
// never as a path with a space in it.
func TestDoctorSaysTheStatePathsEscaped(t *testing.T) {
	cfg, _ := localConfig(t)
	state := filepath.Join(t.TempDir(), "st\u00a0ate")
	_, rep, out := doctorState(t, state, nil, noTmux, "--config", cfg)
	i := slices.IndexFunc(rep.Checks, func(c doctorCheck) bool { return c.Check == "journal" })
	if i < 0 || strings.Contains(rep.Checks[i].Detail, "\u00a0") || !strings.Contains(rep.Checks[i].Detail, `st\u00a0ate`) {
		t.Errorf("the journal check:\n%s", out)
	}
}
