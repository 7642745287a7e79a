package cli

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/svcwallet/svcwallet/service/config"
	"github.com/svcwallet/svcwallet/service/exchange"
)

// An --env name that exists nowhere is refused, config file or not, and the
// refusal lists the names that do exist in words, not as a Go slice.
func TestConsoleUnknownEnvRefused(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir()) // no config file at the default path
	t.Setenv("HOME", t.TempDir())
	cfg, _ := localConfig(t)
	for _, tc := range []struct {
		name, config string
		want         []string
	}{
		{"no config file", "", []string{`no environment "nope"`, "there is no config file", "the only one is sandbox"}},
		{"config file", cfg, []string{`no environment "nope"`, "known: local or sandbox"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, name, err := consoleEnv(tc.config, "nope", noEnv)
			if err == nil {
				t.Fatalf("--env nope chose %q", name)
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error lacks %q: %v", w, err)
				}
			}
			if strings.ContainsAny(err.Error(), "[]") {
				t.Errorf("error formats a Go list: %v", err)
			}
			args := []string{"--env", "nope"}
			if tc.config != "" {
				args = append(args, "--config", tc.config)
			}
			r := depositCmd(t, nil, args...)
			r.want(t, 2, nil, []string{`no environment "nope"`})
		})
	}
}

// TestUnknownEnvSaysWhereFrom: a mistyped name says what gave it (--env,
// $SVCWALLET_ENV, an argument: nothing) and the name it is close to, among
// the names the command takes (env remove takes no sandbox); doctor's fix
// names the knob that gave it.
func TestUnknownEnvSaysWhereFrom(t *testing.T) {
	cfg, _ := localConfig(t)
	for _, tc := range []struct {
		vars map[string]string
		args []string
		want []string
		not  []string
	}{
		{map[string]string{envNameVar: "lcoal"}, []string{"history"}, []string{`no environment "lcoal" (from $SVCWALLET_ENV) in `, "; did you mean local? (known: local or sandbox)"}, nil},
		{nil, []string{"history", "--env", "sandbx"}, []string{`"sandbx" (from --env)`, "did you mean sandbox?"}, nil},
		{nil, []string{"history", "--env", "prod"}, []string{`"prod" (from --env)`, "; known: local or sandbox"}, []string{"did you mean"}},
		{nil, []string{"env", "use", "locl"}, []string{`no environment "locl" in `, "did you mean local?"}, nil},
		{nil, []string{"env", "use", "sandbx"}, []string{"did you mean sandbox? (known: local or sandbox)"}, nil},
		{nil, []string{"env", "remove", "sandbx"}, []string{`no environment "sandbx" in `, "; known: local\n"}, []string{"did you mean", "or sandbox"}},
		{nil, []string{"env", "remove", "locl"}, []string{"; did you mean local? (known: local)\n"}, nil},
		// An escape in it is written escaped, not dropped: "local" with
		// one is no environment "local\x1b…", not no environment "local".
		{map[string]string{envNameVar: "local\x1b]2;X\a"}, []string{"history"}, []string{`no environment "local\x1b]2;X\a" (from $SVCWALLET_ENV) in `}, nil},
		{map[string]string{envNameVar: "lcoal"}, []string{"doctor"}, []string{`"lcoal" (from $SVCWALLET_ENV)`, "fix: set $SVCWALLET_ENV to a configured name, or unset it"}, nil},
	} {
		vars := map[string]string{configPathVar: cfg}
		for k, v := range tc.vars {
			vars[k] = v
		}
		r := depositCmd(t, vars, tc.args...)
		for _, w := range tc.want {
			if !strings.Contains(r.stdout+r.stderr, w) {
				t.Errorf("%q %q: lacks %q:\n%s%s", tc.vars, tc.args, w, r.stdout, r.stderr)
			}
		}
		for _, n := range tc.not {
			if strings.Contains(r.stderr, n) {
				t.Errorf("%q says %q:\n%s", tc.args, n, r.stderr)
			}
		}
	}
}

// The non-interactive commands word the refusal the same way.
func TestCommandEnvUnknownListsNames(t *testing.T) {
	cfg, _ := localConfig(t)
	_, _, err := commandEnv(cfg, "nope", noEnv)
	if err == nil || !strings.Contains(err.Error(), "known: local or sandbox") || strings.Contains(err.Error(), "[") {
		t.Fatalf("commandEnv(nope): %v", err)
	}
}

// TestConsoleAlwaysOffersSandbox (issue 12 friction): on another chosen
// environment the picker starts on it and still offers the embedded
// sandbox, last.
func TestConsoleAlwaysOffersSandbox(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	t.Setenv("HOME", t.TempDir())
	cfg, _ := localConfig(t)
	for _, tc := range []struct{ env, want string }{{"local", "local sandbox"}, {"sandbox", "sandbox local"}} {
		c, name, err := consoleEnv(cfg, tc.env, noEnv)
		if err != nil {
			t.Fatal(err)
		}
		targets, closeAll, err := consoleTargets(c, name, nil, noKept)
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, tg := range targets {
			names = append(names, tg.Env.Name)
		}
		closeAll()
		if got := strings.Join(names, " "); got != tc.want {
			t.Errorf("--env %q: the picker offers %s, want %s", tc.env, got, tc.want)
		}
	}
}

// commandEnv resolves a command's environment as app.environment does.
func commandEnv(configPath, envName string, getenv func(string) string) (config.Environment, func(), error) {
	cfg, name, err := consoleEnv(configPath, envName, getenv)
	if err != nil {
		return config.Environment{}, nil, err
	}
	return startEnv(cfg, name)
}

// noEnv is a process environment with no variable set.
func noEnv(string) string { return "" }

// Every command and the console choose the environment in one order: --env,
// then $SVCWALLET_ENV, then default_env, then the sandbox; $SVCWALLET_CONFIG
// names the config file when --config does not.
func TestEnvironmentOrder(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	t.Setenv("HOME", t.TempDir())
	withDefault, _ := localConfig(t) // default_env = "local"
	b, err := os.ReadFile(withDefault)
	if err != nil {
		t.Fatal(err)
	}
	cfg := filepath.Join(t.TempDir(), "config.toml")
	if err := os.WriteFile(cfg, []byte(strings.Replace(string(b), `default_env = "local"`, "", 1)), 0o600); err != nil {
		t.Fatal(err)
	}
	vars := func(kv ...string) func(string) string {
		return func(k string) string {
			for i := 0; i+1 < len(kv); i += 2 {
				if kv[i] == k {
					return kv[i+1]
				}
			}
			return ""
		}
	}
	for _, tc := range []struct {
		name, config, flag string
		getenv             func(string) string
		want               string
	}{
		{"nothing set: the sandbox", cfg, "", noEnv, "sandbox"},
		{"default_env", withDefault, "", noEnv, "local"},
		{"SVCWALLET_ENV over default_env", withDefault, "", vars(envNameVar, "sandbox"), "sandbox"},
		{"--env over SVCWALLET_ENV", withDefault, "local", vars(envNameVar, "sandbox"), "local"},
		{"SVCWALLET_CONFIG names the file", "", "", vars(configPathVar, withDefault), "local"},
		{"--config over SVCWALLET_CONFIG", cfg, "", vars(configPathVar, withDefault), "sandbox"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e, closeEnv, err := commandEnv(tc.config, tc.flag, tc.getenv)
			if err != nil {
				t.Fatal(err)
			}
			closeEnv()
			if e.Name != tc.want {
				t.Errorf("command env %q, want %q", e.Name, tc.want)
			}
			cfg, name, err := consoleEnv(tc.config, tc.flag, tc.getenv)
			if err != nil {
				t.Fatal(err)
			}
			targets, closeAll, err := consoleTargets(cfg, name, nil, noKept)
			if err != nil {
				t.Fatal(err)
			}
			closeAll()
			if targets[0].Env.Name != tc.want {
				t.Errorf("console opens on %q, want %q", targets[0].Env.Name, tc.want)
			}
		})
	}
	if _, _, err := commandEnv("", "", vars(configPathVar, filepath.Join(t.TempDir(), "missing.toml"))); err == nil {
		t.Error("a $SVCWALLET_CONFIG that does not exist must be refused like --config")
	}
}

// Without a terminal the console says what it needs and which commands serve
// scripts, and exits 2 before it starts anything (no embedded sandbox, no
// temporary journal directory).
func TestConsoleRefusesWithoutTerminal(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	var stdout, stderr strings.Builder
	code := Run(nil, CLIEnv{Stdin: strings.NewReader(""), Stdout: &stdout, Stderr: &stderr, Getenv: noEnv})
	if code != 2 || !strings.Contains(stderr.String(), "needs a terminal") || !strings.Contains(stderr.String(), "svcwallet status QUOTE_ID") {
		t.Fatalf("exit %d, stderr %q", code, stderr.String())
	}
	if stdout.Len() != 0 {
		t.Errorf("drew on a non-terminal: %q", stdout.String())
	}
	if left, _ := os.ReadDir(tmp); len(left) != 0 {
		t.Errorf("started something before refusing: %v", left)
	}
}

// noKept finds no kept session.
func noKept(config.Environment, exchange.Options) (*exchange.Client, string) { return nil, "" }

// TestDarkFirst: the console's first frame is drawn in the theme named
// (--theme, else the config's), else the one COLORFGBG's background
// says, else dark.
func TestDarkFirst(t *testing.T) {
	for _, tc := range []struct {
		theme, colorfgbg string
		dark             bool
	}{
		{"light", "15;0", false}, {"dark", "0;15", true},
		{"", "0;15", false}, {"", "0;7", false}, {"", "0;default;15", false}, {"", "15;0", true}, {"", "7;8", true},
		{"", "15;default", true}, {"", "", true}, {"", "0;16", true}, {"", "0;-1", true},
	} {
		if got := darkFirst(tc.theme, tc.colorfgbg); got != tc.dark {
			t.Errorf("theme %q, COLORFGBG %q: dark %v, want %v", tc.theme, tc.colorfgbg, got, tc.dark)
		}
	}
}

// TestExportDir: the board's export is offered in the folder the console
// started in, but not in the home folder or the root, where a console
// started from a menu opens, nor in one others can write (the state folder
// then).
func TestExportDir(t *testing.T) {
	work, home, shared := t.TempDir(), t.TempDir(), t.TempDir()
	if err := os.Chmod(shared, 0o777); err != nil {
		t.Fatal(err)
	}
	at := func(dir string) func() (string, error) { return func() (string, error) { return dir, nil } }
	failed := func() (string, error) { return "", errors.New("no such folder") }
	for _, c := range []struct {
		wd, home func() (string, error)
		want     string
	}{
		{at(work), at(home), work},
		{at(work), failed, work},
		{at(home), at(home), ""},
		{at(home + string(filepath.Separator)), at(home), ""},
		{at(string(filepath.Separator)), at(home), ""},
		{failed, at(home), ""},
		{at(shared), at(home), ""},
	} {
		if got := exportDir(c.wd, c.home); got != c.want {
			t.Errorf("exportDir = %q, want %q", got, c.want)
		}
	}
}
