package cli

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/charmbracelet/x/exp/golden"
	"github.com/spf13/cobra"
	"github.com/zalando/go-keyring"

	"github.com/svcwallet/svcwallet/internal/exchangetest"
	"github.com/svcwallet/svcwallet/service/config"
	"github.com/svcwallet/svcwallet/service/sandbox"
	"github.com/svcwallet/svcwallet/signer"
)

// `go test ./cli -update` rewrites testdata/*.golden: read each diff by eye.

func TestMain(m *testing.M) {
	// No test reaches the machine's credential store: go-keyring's mock
	// stands in for it (auth login, kept sessions).
	keyring.MockInit()
	// Nor its state folder: a session kept there by auth login
	// --insecure-storage, as README's configuration does, changed what
	// status says (TestStatusExitStatuses failed).
	dir, err := os.MkdirTemp("", "svcwallet-cli-test-")
	if err != nil {
		panic(err)
	}
	os.Setenv("XDG_STATE_HOME", dir)
	// A signing command of the tests is this binary (exchangetest.FakeSignCommand).
	code := exchangetest.RunTests(m)
	// A test's journal, board or session left there is read by every later
	// test's status and history as this machine's: each test that writes
	// state has its own folder (withdrawState).
	if left := filesIn(dir); code == 0 && left != "" && !e2eSharesState {
		fmt.Fprintf(os.Stderr, "a test wrote %s in the state folder the tests share: give it its own (withdrawState, or t.Setenv(\"XDG_STATE_HOME\", t.TempDir()))\n", left)
		code = 1
	}
	os.RemoveAll(dir)
	os.Exit(code)
}

// e2eSharesState: the end-to-end tests' binaries may write the shared
// state folder; TestMain's check of it holds for the other tests.
var e2eSharesState bool

// filesIn is a file found under dir, or "" when it holds folders alone (a
// command that opened the journal to read it made its folder).
func filesIn(dir string) string {
	found := ""
	_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && found == "" {
			found, _ = filepath.Rel(dir, p)
		}
		return nil
	})
	return found
}

// commandPaths lists every command a user can run, as its words.
func commandPaths() [][]string {
	var out [][]string
	var walk func(c *cobra.Command, path []string)
	walk = func(c *cobra.Command, path []string) {
		out = append(out, path)
		for _, s := range c.Commands() {
			if !s.Hidden {
				walk(s, append(append([]string{}, path...), s.Name()))
			}
		}
	}
	root := newApp(CLIEnv{}).rootCommand()
	root.InitDefaultCompletionCmd()
	root.InitDefaultHelpCmd()
	walk(root, nil)
	return out
}

// TestHelpGolden pins the --help of every command: stdout, exit 0, as
// written to a pipe (no escape codes, though TERM names a colour terminal;
// no line padded).
func TestHelpGolden(t *testing.T) {
	for _, path := range commandPaths() {
		name := strings.Join(append([]string{"svcwallet"}, path...), "_")
		t.Run(name, func(t *testing.T) {
			r := depositCmd(t, map[string]string{"TERM": "xterm-256color", "COLORTERM": "truecolor"}, append(path, "--help")...)
			if r.code != 0 || r.stderr != "" {
				t.Fatalf("exit %d, stderr %q", r.code, r.stderr)
			}
			for i, l := range strings.Split(r.stdout, "\n") {
				if strings.TrimRight(l, " ") != l || strings.ContainsRune(l, '\x1b') {
					t.Errorf("line %d is padded or styled: %q", i+1, l)
				}
			}
			golden.RequireEqual(t, r.stdout)
		})
	}
}

// TestEveryHelpSaysMore: every command's --help says what it does and when
// to use it in more than its one-line summary (version, man, builder, help
// and the completion scripts' said one line), and version and man, used
// with --json and a pipe, show how.
func TestEveryHelpSaysMore(t *testing.T) {
	root := newApp(CLIEnv{}).rootCommand()
	root.InitDefaultHelpCmd()
	for _, path := range commandPaths() {
		c, _, err := root.Find(path)
		if err != nil {
			t.Fatal(err)
		}
		if long := strings.TrimSpace(c.Long); !strings.Contains(long, "\n") {
			t.Errorf("%s: its help is one line: %q", c.CommandPath(), long)
		}
	}
	for _, path := range [][]string{{"version"}, {"man"}} {
		if c, _, _ := root.Find(path); strings.TrimSpace(c.Example) == "" {
			t.Errorf("%s: no example", c.CommandPath())
		}
	}
}

// maskJSON replaces the values of keys that differ from run to run (ids,
// times, paths, ports) with "<key>", keeping the document's shape.
func maskJSON(doc string, keys ...string) string {
	re := regexp.MustCompile(`"(` + strings.Join(keys, "|") + `)":(\s*)(?:"(?:[^"\\]|\\.)*"|-?[0-9.]+|true|false)`)
	return re.ReplaceAllString(doc, `"$1":$2"<$1>"`)
}

// TestJSONGolden pins the shape of every --json output (docs/scripting.md,
// "JSON output"), errors included; each is one document, or one object a line.
func TestJSONGolden(t *testing.T) {
	t.Run("version", func(t *testing.T) {
		var b bytes.Buffer
		bi := &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "v1.2.3"}, Settings: []debug.BuildSetting{
			{Key: "vcs.revision", Value: "0123456789abcdef0123"}, {Key: "vcs.time", Value: "2026-11-23T08:00:00Z"}}}
		_ = writeJSON(&b, buildVersion(Stamp{}, bi, true))
		golden.RequireEqual(t, b.String())
	})
	t.Run("error_usage", func(t *testing.T) {
		r := depositCmd(t, nil, "status", "--json", "--bogus")
		if r.code != exitUsage || r.stderr != "" {
			t.Fatalf("exit %d, stderr %q", r.code, r.stderr)
		}
		golden.RequireEqual(t, r.stdout)
	})
	t.Run("sandbox", func(t *testing.T) {
		var b bytes.Buffer
		_ = writeJSONLine(&b, sandboxBanner("http://127.0.0.1:8700", sandboxFlags{chainID: sandbox.DefaultChainID, domainName: signer.DefaultDomainName, cookieName: config.SessionCookie, accountIDHeader: config.HeaderAccountID}))
		// The demo key is public, yet no golden file holds a private key.
		golden.RequireEqual(t, maskJSON(b.String(), "demo_private_key", "no_chain_private_key"))
	})
	t.Run("status", func(t *testing.T) {
		r := newStatusRig(t)
		done := r.withdraw(sandbox.DemoAPIKey, sandbox.DemoPrivateKey, sandbox.DestCompleted, true)
		pending := r.withdraw(sandbox.DemoAPIKey, sandbox.DemoPrivateKey, sandbox.DestCompleted, false)
		one := r.run(nil, done, "--json")
		r.clock.Advance(sandbox.DefaultSettle)
		watch := r.run(nil, done, "--watch", "--json")
		many := r.run(nil, done, pending, "q-unknown", "--json")
		if one.code != exitPending || watch.code != exitCompleted || many.code != exitNotFound {
			t.Fatalf("exits %d %d %d", one.code, watch.code, many.code)
		}
		out := "# status ID --json\n" + one.stdout + "# status ID --watch --json\n" + watch.stdout +
			"# status DONE CREATED q-unknown --json\n" + many.stdout
		golden.RequireEqual(t, maskJSON(out, "quote_id", "tx_id", "updated_at", "state_seen", "last_checked", "withdraw_tx_hash", "meaning"))
	})
	t.Run("withdraw", withdrawJSONGolden)
	t.Run("deposit", func(t *testing.T) {
		list := depositCmd(t, nil, "deposit", "--json")
		gen := depositCmd(t, nil, "deposit", "generate", "SOLANA", "--json")
		if list.code != 0 || gen.code != 0 {
			t.Fatalf("exits %d %d: %s %s", list.code, gen.code, list.stderr, gen.stderr)
		}
		golden.RequireEqual(t, maskJSON("# deposit --json\n"+list.stdout+"# deposit generate SOLANA --json\n"+gen.stdout, "base_url"))
	})
	t.Run("builder", func(t *testing.T) {
		e := newBcliEnv(t)
		dry := bcli(t, nil, "", true, authorizeArgs(e, "--dry-run", "--account", sandbox.DemoAddress, "--json")...)
		auth := bcli(t, demoKeyVars, "", false, authorizeArgs(e, append(keyArgs, "--json")...)...)
		if dry.code != 0 || auth.code != 0 {
			t.Fatalf("exits %d %d: %s %s", dry.code, auth.code, dry.stderr, auth.stderr)
		}
		golden.RequireEqual(t, "# builder authorize --dry-run --json\n"+maskJSON(dry.stdout, "base_url")+"# builder authorize --json\n"+
			maskJSON(auth.stdout, "api_key", "nonce", "expiration", "expires_at", "base_url"))
	})
	t.Run("key", func(t *testing.T) {
		lightScrypt(t)
		dir := t.TempDir()
		hexKey, _ := testKeyHex(t)
		imp := keyCmd(t, lines(hexKey, cliPass, cliPass), nil, "import", "--keystore", dir, "--json")
		list := keyCmd(t, "", nil, "list", "--keystore", dir, "--json")
		if imp.code != 0 || list.code != 0 {
			t.Fatalf("exits %d %d: %s %s", imp.code, list.code, imp.stderr, list.stderr)
		}
		imp.noSecrets(t, hexKey, cliPass)
		golden.RequireEqual(t, "# key import --json\n"+maskJSON(imp.stdout, "address", "path")+
			"# key list --json\n"+maskJSON(list.stdout, "address", "name", "path"))
	})
	t.Run("history", func(t *testing.T) {
		historyJournal(t)
		cfg, _ := localConfig(t)
		r := depositCmd(t, nil, "history", "--config", cfg, "--env", "local", "--json")
		if r.code != 0 {
			t.Fatalf("exit %d: %s", r.code, r.stderr)
		}
		golden.RequireEqual(t, r.stdout)
	})
	t.Run("doctor", func(t *testing.T) {
		code, _, out := doctor(t, nil, noTmux)
		if code != 0 && code != 1 {
			t.Fatalf("exit %d", code)
		}
		golden.RequireEqual(t, maskJSON(out, "detail", "ok", "status", "fix"))
	})
}
