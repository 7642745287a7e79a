package cli

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/svcwallet/svcwallet/internal/plain"
	"github.com/svcwallet/svcwallet/service/config"
	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/sandbox"
	"github.com/svcwallet/svcwallet/signer"
)

// bcliNow and bcliNonce fix the typed data of the dry runs.
var bcliNow = time.Date(2026, 3, 14, 9, 26, 53, 0, time.UTC)

const bcliNonce = 777

// bcliEnv is a sandbox behind an httptest server that counts requests, and a
// config file naming it "local".
type bcliEnv struct {
	url      string
	config   string
	requests atomic.Int64
}

func newBcliEnv(t *testing.T) *bcliEnv {
	t.Helper()
	withdrawState(t)
	e := &bcliEnv{}
	h := sandbox.New(sandbox.Options{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		e.requests.Add(1)
		h.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	e.url = srv.URL
	e.config = filepath.Join(t.TempDir(), "config.toml")
	writeConfig(t, e.config, false, "local", srv.URL, srv.URL)
	return e
}

func (e *bcliEnv) environment() config.Environment {
	return config.SandboxEnvironment(e.url, sandbox.DefaultChainID)
}

type bcliResult struct {
	code           int
	stdout, stderr string
}

// bcli runs `svcwallet builder args...` with vars as the whole environment
// and stdin lines as the answers to secret prompts. fixed pins the clock and
// nonce (for dry runs); otherwise they are real. Standard input is not a
// terminal (bcliOnTerminal).
func bcli(t *testing.T, vars map[string]string, stdin string, fixed bool, args ...string) bcliResult {
	t.Helper()
	return bcliRun(t, vars, stdin, fixed, false, args...)
}

// bcliOnTerminal is bcli with standard input a terminal: the confirmation
// is asked there, and stdin holds the answers.
func bcliOnTerminal(t *testing.T, vars map[string]string, stdin string, args ...string) bcliResult {
	t.Helper()
	return bcliRun(t, vars, stdin, false, true, args...)
}

func bcliRun(t *testing.T, vars map[string]string, stdin string, fixed, terminal bool, args ...string) bcliResult {
	t.Helper()
	in := strings.NewReader(stdin)
	var out, errOut bytes.Buffer
	c := builderCmd{
		env: CLIEnv{Stdin: in, Stdout: &out, Stderr: &errOut,
			Getenv:     func(k string) string { return vars[k] },
			ReadSecret: func(context.Context, string) (string, error) { return plain.ReadLine(in) }},
		now: time.Now, nonce: signer.NewNonce, terminal: func(CLIEnv) bool { return terminal },
	}
	if fixed {
		c.now = func() time.Time { return bcliNow }
		c.nonce = func() uint32 { return bcliNonce }
	}
	code := c.runLine(args)
	return bcliResult{code, out.String(), errOut.String()}
}

var demoKeyVars = map[string]string{signer.KeyEnvVar: sandbox.DemoPrivateKey}

// authorizeArgs authorizes the sandbox's builder on "local" without asking
// (--yes); unconfirmedArgs is the same without --yes.
func authorizeArgs(e *bcliEnv, extra ...string) []string {
	return append(unconfirmedArgs(e, "--yes"), extra...)
}

func unconfirmedArgs(e *bcliEnv, extra ...string) []string {
	return append([]string{"authorize", "--config", e.config, "--env", "local",
		"--builder", sandbox.BuilderAddress, "--max-futures-fee", "0.1", "--max-spot-fee", "0.05"}, extra...)
}

// keyArgs give the builder an API key beyond Trade, its grant named again
// (--grant), as --yes needs it.
var keyArgs = []string{"--api-key-signer", sandbox.NoChainAddress, "--permissions", "trade,admin", "--grant", "admin&trade", "--label", "my bot"}

// bcliField reads "  Name   value" from the human output.
func bcliField(t *testing.T, out, name string) string {
	t.Helper()
	for _, l := range strings.Split(out, "\n") {
		if v, ok := strings.CutPrefix(strings.TrimSpace(l), name+" "); ok {
			return strings.TrimSpace(v)
		}
	}
	t.Fatalf("no %q in:\n%s", name, out)
	return ""
}

// bcliLogsIn checks that the returned API key opens a session naming the builder.
func bcliLogsIn(t *testing.T, e *bcliEnv, key string) {
	t.Helper()
	s, err := exchange.New(e.environment(), exchange.Options{}).Login(context.Background(), exchange.APIKey(key))
	if err != nil {
		t.Fatalf("login with the returned key: %v", err)
	}
	if s.FundingAccountAddress != sandbox.DemoAddress || s.Location != "builder:"+sandbox.BuilderAddress {
		t.Fatalf("session %+v", s)
	}
}

// noConsoleKey fails when the command line's output names a console key.
func noConsoleKey(t *testing.T, out string) {
	t.Helper()
	for _, k := range []string{"press ", " esc", "ctrl+"} {
		if strings.Contains(strings.ToLower(out), k) {
			t.Errorf("the command line names a console key (%q):\n%s", k, out)
		}
	}
}
