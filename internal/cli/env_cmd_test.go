package cli

import (
	"os"
	"strings"
	"testing"

	"github.com/svcwallet/svcwallet/service/sandbox"
)

// TestEnvCommands: env add names a served sandbox (probing it), refuses a
// second name for it unless --alias, env use makes it the default, env
// list marks it, and env remove takes the other out; the file's comment
// stays throughout.
func TestEnvCommands(t *testing.T) {
	w, srv := newAuthWorld(t, sandbox.Options{})
	if err := os.WriteFile(w.config, []byte("# mine\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	r := w.run("", nil, "env", "add", "local", "--base-url", srv.URL, "--chain-id", "327")
	if r.code != 0 || !strings.Contains(r.stdout, "Added environment local") || !strings.Contains(r.stdout, "market_data_url "+srv.URL+" answers in") ||
		!strings.Contains(r.stdout, "the server's clock is") {
		t.Fatalf("env add: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if r := w.run("", nil, "env", "add", "again", "--base-url", srv.URL, "--chain-id", "327"); r.code != exitUsage || !strings.Contains(r.stderr, "--alias") || !strings.Contains(r.stderr, "local already reaches") {
		t.Errorf("a second name: exit %d\n%s", r.code, r.stderr)
	}
	if r := w.run("", nil, "env", "add", "again", "--base-url", srv.URL, "--chain-id", "327", "--alias"); r.code != 0 {
		t.Errorf("--alias: exit %d\n%s", r.code, r.stderr)
	}
	if r := w.run("", nil, "env", "add", "partial", "--base-url", srv.URL); r.code != exitUsage || !strings.Contains(r.stderr, "--chain-id") {
		t.Errorf("no chain id and no terminal: exit %d\n%s", r.code, r.stderr)
	}
	// A mistyped name is a usage error (exit 2), as --env's is, naming the
	// known ones the command takes (env remove takes no sandbox).
	for sub, known := range map[string]string{"use": "known: again, local or sandbox)", "remove": "known: again or local)"} {
		if r := w.run("", nil, "env", sub, "lcoal"); r.code != exitUsage || !strings.Contains(r.stderr, known) {
			t.Errorf("env %s of an unknown name: exit %d\n%s", sub, r.code, r.stderr)
		}
	}
	// No name, or two, says what to give: add's shape, or the names to use
	// or remove; a name given is never repeated.
	for args, want := range map[string]string{
		"add":            "svcwallet env add: give one name for the new environment: svcwallet env add NAME --base-url URL --chain-id ID --config " + w.config + " (got 0 arguments)\n",
		"use":            "svcwallet env use: give the name of one environment to use: again, local or sandbox (got 0 arguments)\n",
		"remove local x": "svcwallet env remove: give the name of one environment to remove: again or local (got 2 arguments)\n",
	} {
		if r := w.run("", nil, append([]string{"env"}, strings.Fields(args)...)...); r.code != exitUsage || !strings.HasPrefix(r.stderr, want) {
			t.Errorf("env %s: exit %d\n%s", args, r.code, r.stderr)
		}
	}
	if r := w.run("", nil, "env", "use", "local"); r.code != 0 {
		t.Errorf("env use: exit %d\n%s", r.code, r.stderr)
	}
	if r := w.run("", nil, "env", "list"); !strings.Contains(r.stdout, "* local ") || !strings.Contains(r.stdout, "  again ") {
		t.Errorf("env list:\n%s", r.stdout)
	}
	// A variable naming none of them marks none, and says so with its fix.
	if r := w.run("", map[string]string{envNameVar: "lcoal"}, "env", "list"); strings.Contains(r.stdout, "*") ||
		!strings.Contains(r.stdout, `(none is current: $SVCWALLET_ENV names "lcoal", which is not one of these, so commands refuse it; set $SVCWALLET_ENV to a configured name, or unset it)`) {
		t.Errorf("env list under a mistyped $SVCWALLET_ENV:\n%s", r.stdout)
	}
	// One holding a bidi override is named escaped, as every command names
	// it: cleaned, it said $SVCWALLET_ENV named "local", listed above it.
	if r := w.run("", map[string]string{envNameVar: "lo\u202ecal"}, "env", "list"); strings.Contains(r.stdout, `"local"`) ||
		!strings.Contains(r.stdout, `names "lo\u202ecal", which is not one of these`) {
		t.Errorf("env list under a $SVCWALLET_ENV holding a bidi override:\n%s", r.stdout)
	}
	if r := w.run("", nil, "env", "remove", "local"); r.code != exitUsage || !strings.Contains(r.stderr, "default") {
		t.Errorf("removing the default: exit %d\n%s", r.code, r.stderr)
	}
	if r := w.run("", nil, "env", "remove", "again"); r.code != 0 {
		t.Errorf("env remove: exit %d\n%s", r.code, r.stderr)
	}
	b, _ := os.ReadFile(w.config)
	if !strings.HasPrefix(string(b), "# mine\n") || strings.Contains(string(b), "again") || !strings.Contains(string(b), `default_env = "local"`) {
		t.Errorf("the file:\n%s", b)
	}
	// Nor can env add take its name, in any case; the refusal offers no env
	// remove, which would find nothing, but another name for a standalone one.
	for _, name := range []string{"sandbox", "Sandbox"} {
		if r := w.run("", nil, "env", "add", name, "--base-url", srv.URL, "--chain-id", "327", "--alias"); r.code != exitUsage ||
			strings.Contains(r.stderr, "env remove "+name) || !strings.Contains(r.stderr, "built in") || !strings.Contains(r.stderr, "say local, for a standalone svcwallet sandbox") {
			t.Errorf("env add %s: exit %d\n%s", name, r.code, r.stderr)
		}
	}
	// The embedded sandbox is no table of the file: env remove says it is
	// built in, not that there is no sandbox but the sandbox.
	if r := w.run("", nil, "env", "remove", "sandbox"); r.code != exitUsage || !strings.Contains(r.stderr, "built in") || strings.Contains(r.stderr, "no environment") {
		t.Errorf("env remove sandbox: exit %d\n%s", r.code, r.stderr)
	}
	// The embedded sandbox is no table of the file, yet a name env use takes.
	if r := w.run("", nil, "env", "use", "sandbox"); r.code != 0 {
		t.Errorf("env use sandbox: exit %d\n%s", r.code, r.stderr)
	}
	if b, _ := os.ReadFile(w.config); !strings.Contains(string(b), `default_env = "sandbox"`) {
		t.Errorf("after env use sandbox, the file:\n%s", b)
	}
}

// TestEnvAddSaysWhichNameIsWrong: a host that does not answer is named by
// its config key.
func TestEnvAddSaysWhichNameIsWrong(t *testing.T) {
	w, srv := newAuthWorld(t, sandbox.Options{})
	r := w.run("", nil, "env", "add", "broken", "--base-url", srv.URL, "--market-data-url", "http://127.0.0.1:1", "--chain-id", "326")
	if r.code != 0 || !strings.Contains(r.stdout, "nothing answers on that host and port; check market_data_url in [env.broken]") {
		t.Errorf("env add with a wrong market-data host: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
}
