package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestPlainModeEnvironment: plain mode takes the environment --env or
// $SVCWALLET_ENV gives without a question, as every command does; with
// none given it asks, numbering the environments the same way whatever
// default_env says (the config's order, the sandbox last), default_env the
// one an empty line takes.
func TestPlainModeEnvironment(t *testing.T) {
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	t.Setenv("HOME", t.TempDir())
	t.Setenv("TMPDIR", t.TempDir())
	_, srv := localConfig(t)
	config := func(def string) string {
		path := filepath.Join(t.TempDir(), "config.toml")
		var b strings.Builder
		fmt.Fprintf(&b, "default_env = %q\n", def)
		for _, name := range []string{"local", "staging"} {
			fmt.Fprintf(&b, "[env.%s]\nauth_url = %q\nbase_url = %q\nmarket_data_url = %q\nchain_id = 327\n", name, srv.URL, srv.URL, srv.URL)
		}
		if err := os.WriteFile(path, []byte(b.String()), 0o600); err != nil {
			t.Fatal(err)
		}
		return path
	}
	run := func(cfg string, vars map[string]string, args ...string) string {
		var out, errOut strings.Builder
		Run(append([]string{"--plain", "--config", cfg}, args...), CLIEnv{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errOut,
			Getenv: func(k string) string { return vars[k] }})
		return out.String() + errOut.String()
	}
	for name, out := range map[string]string{
		"--env":          run(config("local"), nil, "--env", "staging"),
		"$SVCWALLET_ENV": run(config("local"), map[string]string{envNameVar: "staging"}),
	} {
		if strings.Contains(out, "Which environment?") || !strings.Contains(out, "Environment staging: ") {
			t.Errorf("%s: the environment given was asked for, or not taken:\n%s", name, out)
		}
	}
	// default_env is what an empty line takes, and the question says so.
	const numbered = "Which environment?\n  1. local\n  2. staging\n  3. sandbox\nChoose 1 to 3, or type the name (an empty line takes "
	for _, def := range []string{"local", "staging"} {
		if out := run(config(def), nil); !strings.Contains(out, numbered+def+"): ") {
			t.Errorf("default_env %s: not numbered as\n%s\nbut:\n%s", def, numbered, out)
		}
	}
}
