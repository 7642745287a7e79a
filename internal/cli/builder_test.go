package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/svcwallet/svcwallet/internal/exchangetest"
	"github.com/svcwallet/svcwallet/internal/plain"
	"github.com/svcwallet/svcwallet/service/config"
	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/journal"
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

func TestBuilderCLIDryRun(t *testing.T) {
	demo := common.HexToAddress(sandbox.DemoAddress)
	builder := common.HexToAddress(sandbox.BuilderAddress)
	exp := bcliNow.Add(72 * time.Hour).UnixNano()
	modes := []struct {
		name  string
		extra []string
		want  signer.Message
	}{
		{"authorize only", nil, signer.AuthorizeBuilder{MainAccountID: demo, BuilderAccountID: builder,
			MaxFutureFeeRate: 1000, MaxSpotFeeRate: 500, Nonce: bcliNonce, Expiration: exp}},
		{"with API key", keyArgs, signer.AddAccountSignerWithBuilder{AccountID: demo, Signer: common.HexToAddress(sandbox.NoChainAddress),
			Permissions: "Admin&Trade", BuilderAccountID: builder, MaxFutureFeeRate: 1000, MaxSpotFeeRate: 500, Nonce: bcliNonce, Expiration: exp}},
	}
	domain := signer.Domain{Name: signer.DefaultDomainName, ChainID: sandbox.DefaultChainID}
	for _, m := range modes {
		t.Run(m.name, func(t *testing.T) {
			e := newBcliEnv(t)
			wantDigest := signer.Digest(domain, m.want).Hex()
			args := authorizeArgs(e, append([]string{"--dry-run", "--expires", "72h"}, m.extra...)...)

			r := bcli(t, demoKeyVars, "", true, args...)
			if r.code != 0 || !strings.Contains(r.stdout, "Digest: "+wantDigest) || !strings.Contains(r.stdout, `"primaryType": "`+m.want.PrimaryType()+`"`) {
				t.Fatalf("dry run exit %d, want digest %s:\n%s\n%s", r.code, wantDigest, r.stdout, r.stderr)
			}

			r = bcli(t, demoKeyVars, "", true, append(args, "--json")...)
			var out struct {
				DryRun    bool            `json:"dry_run"`
				TypedData json.RawMessage `json:"typed_data"`
				Digest    string          `json:"digest"`
			}
			if r.code != 0 || json.Unmarshal([]byte(r.stdout), &out) != nil || !out.DryRun || out.Digest != wantDigest {
				t.Fatalf("dry run --json exit %d: %s %s", r.code, r.stdout, r.stderr)
			}
			// An independent EIP-712 implementation hashes the printed typed data to the same digest.
			td, err := exchangetest.ReadTypedData(out.TypedData)
			if err != nil {
				t.Fatal(err)
			}
			if h, err := exchangetest.TypedDataHash(td); err != nil || h.Hex() != wantDigest {
				t.Fatalf("the stock wallet hashes the typed data to %s (%v), want %s", h, err, wantDigest)
			}
			if n := e.requests.Load(); n != 0 {
				t.Fatalf("the dry run sent %d requests", n)
			}
		})
	}
	t.Run("--account without any key", func(t *testing.T) {
		e := newBcliEnv(t)
		r := bcli(t, nil, "", true, authorizeArgs(e, "--dry-run", "--expires", "72h", "--account", sandbox.DemoAddress)...)
		if r.code != 0 || !strings.Contains(r.stdout, signer.Digest(domain, modes[0].want).Hex()) || e.requests.Load() != 0 {
			t.Fatalf("exit %d, %d requests:\n%s\n%s", r.code, e.requests.Load(), r.stdout, r.stderr)
		}
		// A real authorization needs the account's key: --account only
		// names which one.
		r = bcli(t, nil, "", true, authorizeArgs(e, "--account", sandbox.DemoAddress)...)
		if r.code != 2 || !strings.Contains(r.stderr, "no key here signs for "+sandbox.DemoAddress) || e.requests.Load() != 0 {
			t.Fatalf("--account without --dry-run nor a key: exit %d: %s", r.code, r.stderr)
		}
		r = bcli(t, demoKeyVars, "", true, authorizeArgs(e, "--account", sandbox.BuilderAddress)...)
		if r.code != 2 || !strings.Contains(r.stderr, "not of --account "+sandbox.BuilderAddress) || e.requests.Load() != 0 {
			t.Fatalf("--account of another key: exit %d: %s", r.code, r.stderr)
		}
		r = bcli(t, nil, "", true, authorizeArgs(e, "--dry-run", "--account", "0x1234")...)
		if r.code != 2 || !strings.Contains(r.stderr, "not an address") {
			t.Fatalf("bad --account: exit %d: %s", r.code, r.stderr)
		}
	})
	t.Run("keystore without a passphrase", func(t *testing.T) {
		// The address comes from the file in clear: no prompt, nothing sent.
		lightScrypt(t)
		e := newBcliEnv(t)
		_, path, err := signer.ImportRawKey(t.TempDir(), sandbox.DemoPrivateKey, cliPass)
		if err != nil {
			t.Fatal(err)
		}
		r := bcli(t, nil, "", true, authorizeArgs(e, "--dry-run", "--expires", "72h", "--keystore-file", path)...)
		if r.code != 0 || !strings.Contains(r.stdout, signer.Digest(domain, modes[0].want).Hex()) || e.requests.Load() != 0 {
			t.Fatalf("exit %d, %d requests:\n%s\n%s", r.code, e.requests.Load(), r.stdout, r.stderr)
		}
	})
}

func TestBuilderCLIAuthorize(t *testing.T) {
	t.Run("authorize only", func(t *testing.T) {
		e := newBcliEnv(t)
		r := bcli(t, demoKeyVars, "", false, authorizeArgs(e)...)
		if r.code != 0 || !strings.Contains(r.stdout, "Builder authorized (AuthorizeBuilder") || !strings.Contains(r.stdout, "0.1% (signed 1000)") {
			t.Fatalf("exit %d:\n%s\n%s", r.code, r.stdout, r.stderr)
		}
		if strings.Contains(r.stdout, "API key ") || e.requests.Load() != 2 { // /time, then the authorization
			t.Fatalf("%d requests, output:\n%s", e.requests.Load(), r.stdout)
		}
	})
	t.Run("with API key", func(t *testing.T) {
		e := newBcliEnv(t)
		r := bcli(t, demoKeyVars, "", false, authorizeArgs(e, keyArgs...)...)
		if r.code != 0 || !strings.Contains(r.stdout, "AddAccountSignerWithBuilder") || !strings.Contains(r.stdout, "Admin&Trade") {
			t.Fatalf("exit %d:\n%s\n%s", r.code, r.stdout, r.stderr)
		}
		key := bcliField(t, r.stdout, "API key")
		if strings.Contains(r.stderr, key) || !strings.Contains(r.stderr, "shown this once") {
			t.Fatalf("stderr: %q", r.stderr)
		}
		bcliLogsIn(t, e, key)
	})
	t.Run("with API key, json", func(t *testing.T) {
		e := newBcliEnv(t)
		r := bcli(t, demoKeyVars, "", false, authorizeArgs(e, append(keyArgs, "--json", "--expires", "30d")...)...)
		var out builderResultJSON
		if r.code != 0 || json.Unmarshal([]byte(r.stdout), &out) != nil {
			t.Fatalf("exit %d:\n%s\n%s", r.code, r.stdout, r.stderr)
		}
		if !out.Authorized || out.Message != "AddAccountSignerWithBuilder" || out.MaxFuturesSigned != 1000 || out.MaxSpotFeeRate != "0.05" ||
			out.Permissions != "Admin&Trade" || out.Label != "my bot" || out.APIKey == "" {
			t.Fatalf("json %+v", out)
		}
		if !strings.Contains(r.stdout, `"Admin&Trade"`) || strings.Contains(r.stdout, `\u0026`) {
			t.Fatalf("permissions HTML-escaped:\n%s", r.stdout)
		}
		bcliLogsIn(t, e, out.APIKey)
	})
	t.Run("keystore", func(t *testing.T) {
		lightScrypt(t)
		e := newBcliEnv(t)
		_, path, err := signer.ImportRawKey(t.TempDir(), sandbox.DemoPrivateKey, cliPass)
		if err != nil {
			t.Fatal(err)
		}
		r := bcli(t, nil, cliPass2+"\n", false, authorizeArgs(e, "--keystore-file", path)...)
		if r.code != 1 || !strings.Contains(r.stderr, "wrong passphrase for the keystore key of "+sandbox.DemoAddress+": run the command again and type it") || e.requests.Load() != 0 {
			t.Fatalf("wrong passphrase: exit %d, %d requests: %s", r.code, e.requests.Load(), r.stderr)
		}
		r = bcli(t, nil, cliPass+"\n", false, authorizeArgs(e, "--keystore-file", path)...)
		if r.code != 0 || !strings.Contains(r.stdout, "Builder authorized") {
			t.Fatalf("exit %d:\n%s\n%s", r.code, r.stdout, r.stderr)
		}
		if strings.Contains(r.stdout+r.stderr, cliPass) {
			t.Fatal("the passphrase was printed")
		}
		pw := filepath.Join(t.TempDir(), "pw")
		if err := os.WriteFile(pw, []byte(cliPass+"\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		r = bcli(t, nil, "", false, authorizeArgs(e, "--keystore-file", path, "--password-file", pw)...)
		if r.code != 0 || !strings.Contains(r.stdout, "Builder authorized") {
			t.Fatalf("--password-file: exit %d:\n%s\n%s", r.code, r.stdout, r.stderr)
		}
	})
	t.Run("Foundry keystore without an address", func(t *testing.T) {
		lightScrypt(t)
		e := newBcliEnv(t)
		_, path, err := signer.ImportRawKey(t.TempDir(), sandbox.DemoPrivateKey, cliPass)
		if err != nil {
			t.Fatal(err)
		}
		foundry := foundryCopy(t, path, filepath.Join(t.TempDir(), "main-account"))
		r := bcli(t, nil, cliPass+"\n", false, authorizeArgs(e, "--keystore-file", foundry)...)
		if r.code != 0 || !strings.Contains(r.stdout, "Builder authorized") {
			t.Fatalf("exit %d:\n%s\n%s", r.code, r.stdout, r.stderr)
		}
	})
	t.Run("embedded sandbox with its demo key", func(t *testing.T) {
		empty := filepath.Join(t.TempDir(), "empty.toml")
		if err := os.WriteFile(empty, nil, 0o600); err != nil {
			t.Fatal(err)
		}
		r := bcli(t, nil, "", false, "authorize", "--env", "sandbox", "--config", empty,
			"--builder", sandbox.BuilderAddress, "--max-futures-fee", "0.1", "--max-spot-fee", "0.05", "--json", "--yes")
		if r.code != 0 || !strings.Contains(r.stdout, `"main_account_id": "`+sandbox.DemoAddress) {
			t.Fatalf("exit %d:\n%s\n%s", r.code, r.stdout, r.stderr)
		}
	})
}

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

func TestBuilderCLIRefused(t *testing.T) {
	t.Run("wrong signer", func(t *testing.T) {
		e := newBcliEnv(t)
		// The builder's key makes the builder look like the main account
		// (a warning only); the service is what refuses here.
		r := bcli(t, map[string]string{signer.KeyEnvVar: sandbox.BuilderPrivateKey}, "", false, authorizeArgs(e)...)
		if r.code != 1 || !strings.Contains(r.stderr, "main account's own key") {
			t.Fatalf("exit %d: %s", r.code, r.stderr)
		}
	})
	t.Run("replayed nonce", func(t *testing.T) {
		e := newBcliEnv(t)
		args := authorizeArgs(e)
		fixedNonce := func() bcliResult {
			var out, errOut bytes.Buffer
			c := builderCmd{env: CLIEnv{Stdout: &out, Stderr: &errOut, Getenv: func(k string) string { return demoKeyVars[k] }},
				now: time.Now, nonce: func() uint32 { return bcliNonce }}
			return bcliResult{c.runLine(args), out.String(), errOut.String()}
		}
		if r := fixedNonce(); r.code != 0 {
			t.Fatalf("first: exit %d: %s", r.code, r.stderr)
		}
		r := fixedNonce()
		if r.code != 1 || !strings.Contains(r.stderr, "nonce was already used") || !strings.Contains(r.stderr, "run the command again for a new nonce") {
			t.Fatalf("replay: exit %d: %s", r.code, r.stderr)
		}
		noConsoleKey(t, r.stdout+r.stderr)
	})
	t.Run("expiration too far for the service", func(t *testing.T) {
		// A service whose clock runs behind by less than the skew
		// tolerated may still find the expiration too far (4006).
		h := sandbox.New(sandbox.Options{})
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Path != exchange.PathBuilderAuthorize {
				h.ServeHTTP(w, r)
				return
			}
			code := exchange.CodeExpirationTooFar
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(code.Status())
			_ = json.NewEncoder(w).Encode(exchange.ErrorBody{Code: int(code), Message: "expiration too far", Status: code.Status()})
		}))
		t.Cleanup(srv.Close)
		e := &bcliEnv{url: srv.URL, config: filepath.Join(t.TempDir(), "config.toml")}
		writeConfig(t, e.config, false, "local", srv.URL, srv.URL)
		r := bcli(t, demoKeyVars, "", false, authorizeArgs(e)...)
		if r.code != 1 || !strings.Contains(r.stderr, "more than 30 days ahead") || !strings.Contains(r.stderr, "run the command again with a shorter --expires") {
			t.Fatalf("exit %d: %s", r.code, r.stderr)
		}
		noConsoleKey(t, r.stdout+r.stderr)
	})
}

// TestBuilderCLIOutcomeUnknown: an authorization answered with a 4xx the
// interface gives no meaning (a gateway's 408 or 499 after passing it on)
// may have been taken: exit 5, as a withdrawal whose outcome is unknown,
// never 1, which says refused; the words say where to check before
// authorizing again, since no look-up exists and a new run signs anew;
// the help of authorize and submit says so.
func TestBuilderCLIOutcomeUnknown(t *testing.T) {
	h := sandbox.New(sandbox.Options{})
	var authorizes atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != exchange.PathBuilderAuthorize {
			h.ServeHTTP(w, r)
			return
		}
		authorizes.Add(1)
		h.ServeHTTP(httptest.NewRecorder(), r) // taken, and the answer lost on the way
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(499)
		w.Write([]byte(`{"message":"client closed request"}`))
	}))
	t.Cleanup(srv.Close)
	e := &bcliEnv{url: srv.URL, config: filepath.Join(t.TempDir(), "config.toml")}
	writeConfig(t, e.config, false, "local", srv.URL, srv.URL)
	r := bcli(t, demoKeyVars, "", false, authorizeArgs(e)...)
	if r.code != exitError || authorizes.Load() != 1 || strings.Contains(r.stderr, "refused") ||
		!strings.Contains(r.stderr, "not authorized so far: The service answered the authorization with HTTP 499") ||
		!strings.Contains(r.stderr, "offers no way to ask whether a builder is authorized, so check the builder's authorization in the exchange's web UI before authorizing again") {
		t.Fatalf("exit %d after %d requests: %s", r.code, authorizes.Load(), r.stderr)
	}
	noConsoleKey(t, r.stdout+r.stderr)
	// Each command that may end so says exit 5 in its help (submit shares
	// authorize's ending).
	for _, cmd := range []string{"authorize", "submit"} {
		if h := bcli(t, nil, "", false, cmd, "--help"); !strings.Contains(strings.Join(strings.Fields(h.stdout), " "), "2 usage, 5 unknown") {
			t.Errorf("builder %s --help says no exit 5:\n%s", cmd, h.stdout)
		}
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

func TestBuilderCLIUsage(t *testing.T) {
	e := newBcliEnv(t)
	cases := []struct {
		name string
		vars map[string]string
		args []string
		says string
	}{
		{"no arguments", demoKeyVars, nil, "give a command: authorize"},
		{"unknown command", demoKeyVars, []string{"revoke"}, `unknown command "revoke"; the commands are: authorize`},
		{"missing builder", demoKeyVars, []string{"authorize", "--max-futures-fee", "0.1", "--max-spot-fee", "0.05"}, "--builder: enter"},
		{"fee with 5 decimals", demoKeyVars, authorizeArgs(e, "--max-futures-fee", "0.00001"), "--max-futures-fee: fee rate has 5 decimal places"},
		{"negative fee", demoKeyVars, authorizeArgs(e, "--max-spot-fee", "-0.05"), "--max-spot-fee: fee rate cannot be negative"},
		{"expires over 30 days", demoKeyVars, authorizeArgs(e, "--expires", "31d"), "--expires: 31 days is out of range"},
		{"expires over 30 days in hours", demoKeyVars, authorizeArgs(e, "--expires", "721h"), "longer than 30 days"},
		{"label only", demoKeyVars, authorizeArgs(e, "--label", "bot"), "go together"},
		{"signer and permissions without label", demoKeyVars, authorizeArgs(e, "--api-key-signer", sandbox.NoChainAddress, "--permissions", "Trade"), "go together"},
		{"unknown permission", demoKeyVars, authorizeArgs(e, "--api-key-signer", sandbox.NoChainAddress, "--permissions", "Trade&Fly", "--label", "bot"), "--permissions: unknown permission"},
		{"choices listed with commas", demoKeyVars, authorizeArgs(e, "--api-key-signer", sandbox.NoChainAddress, "--permissions", "Fly", "--label", "bot"), "choose from Admin, InternalTransfer, ExternalTransfer, Withdraw, VaultInvestor, Trade"},
		{"the old --keystore flag", demoKeyVars, authorizeArgs(e, "--keystore", "k.json"), "unknown flag: --keystore"},
		{"fee with a bad percent sign", demoKeyVars, authorizeArgs(e, "--max-spot-fee", "0.05%%"), "--max-spot-fee:"},
		{"bad builder checksum", demoKeyVars, authorizeArgs(e, "--builder", strings.Replace(sandbox.BuilderAddress, "C8", "c8", 1)), "--builder:"},
		{"an argument", demoKeyVars, authorizeArgs(e, "extra"), "takes no arguments"},
		{"unknown flag", demoKeyVars, authorizeArgs(e, "--fee", "1"), "unknown flag: --fee"},
		{"unknown environment", demoKeyVars, authorizeArgs(e, "--env", "moon"), "moon"},
		{"no signing key", nil, authorizeArgs(e), "no key here signs for the main account"},
		{"bad key in the variable", map[string]string{signer.KeyEnvVar: "0x1234"}, authorizeArgs(e), "$" + signer.KeyEnvVar},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := bcli(t, c.vars, "", false, c.args...)
			if r.code != 2 || !strings.Contains(r.stderr, c.says) {
				t.Fatalf("exit %d, want 2 with %q:\n%s", r.code, c.says, r.stderr)
			}
		})
	}
	if n := e.requests.Load(); n != 0 {
		t.Fatalf("usage errors sent %d requests", n)
	}
	t.Run("help", func(t *testing.T) {
		if r := bcli(t, nil, "", false, "authorize", "--help"); r.code != 0 || !strings.Contains(r.stdout, "--dry-run") ||
			!strings.Contains(r.stdout, "--keystore-file FILE") || strings.Contains(r.stdout, "--keystore ") {
			t.Fatalf("exit %d: %s", r.code, r.stdout)
		}
	})
}

// TestBuilderCLIPercentFees: "0.1%" is 0.1, and the typed data prints
// permissions with a plain "&".
func TestBuilderCLIPercentFees(t *testing.T) {
	e := newBcliEnv(t)
	args := append([]string{"authorize", "--config", e.config, "--env", "local", "--builder", sandbox.BuilderAddress,
		"--max-futures-fee", "0.1%", "--max-spot-fee", "0.05 %", "--dry-run", "--json"}, keyArgs...)
	r := bcli(t, demoKeyVars, "", true, args...)
	if r.code != 0 || !strings.Contains(r.stdout, `"maxFutureFeeRate": 1000`) || !strings.Contains(r.stdout, `"maxSpotFeeRate": 500`) {
		t.Fatalf("exit %d:\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	if !strings.Contains(r.stdout, `"permissions": "Admin&Trade"`) || strings.Contains(r.stdout, `\u0026`) {
		t.Fatalf("permissions HTML-escaped:\n%s", r.stdout)
	}
}

func TestBuilderCLIRefusesKeyInArgv(t *testing.T) {
	e := newBcliEnv(t)
	secret := strings.TrimPrefix(sandbox.BuilderPrivateKey, "0x")
	for _, args := range [][]string{
		authorizeArgs(e, "--builder", sandbox.BuilderPrivateKey),
		authorizeArgs(e, "--label="+secret),
		{"authorize", secret},
	} {
		r := bcli(t, demoKeyVars, "", false, args...)
		if r.code != 2 || !strings.Contains(r.stderr, "refusing a private key") || strings.Contains(strings.ToLower(r.stdout+r.stderr), secret) {
			t.Fatalf("%v: exit %d:\n%s\n%s", args, r.code, r.stdout, r.stderr)
		}
	}
	if n := e.requests.Load(); n != 0 {
		t.Fatalf("sent %d requests", n)
	}
	// Through the real dispatch too.
	var out, errOut bytes.Buffer
	if code := Run([]string{"builder", "authorize", "--builder", sandbox.BuilderPrivateKey}, CLIEnv{Stdout: &out, Stderr: &errOut, Getenv: func(string) string { return "" }}); code != 2 {
		t.Fatalf("run: exit %d: %s", code, errOut.String())
	}
}

// TestBuilderCLIRefusesSkewedClock: with the service's clock 30 days ahead
// or 3 minutes behind, `builder authorize` signs nothing and says to check
// the clock, naming the difference; 90 seconds still authorizes, with the
// expiry counted from the earlier clock.
func TestBuilderCLIRefusesSkewedClock(t *testing.T) {
	for _, tc := range []struct {
		skew time.Duration // service clock − local clock
		want string
	}{
		{30 * 24 * time.Hour, "720h0m0s ahead of"},
		{-3 * time.Minute, "3m0s behind"},
		{90 * time.Second, ""},
		{-90 * time.Second, ""},
	} {
		serverNow := bcliNow.Add(tc.skew)
		var authorizes atomic.Int64
		var sentExp atomic.Int64
		h := sandbox.New(sandbox.Options{Now: func() time.Time { return serverNow }})
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Path == exchange.PathBuilderAuthorize {
				authorizes.Add(1)
				var req exchange.BuilderAuthorizeRequest
				body, _ := io.ReadAll(r.Body)
				if json.Unmarshal(body, &req) == nil {
					exp, _ := strconv.ParseInt(req.Signature.Expiration, 10, 64)
					sentExp.Store(exp)
				}
				r.Body = io.NopCloser(bytes.NewReader(body))
			}
			h.ServeHTTP(w, r)
		}))
		cfg := filepath.Join(t.TempDir(), "config.toml")
		writeConfig(t, cfg, false, "local", srv.URL, srv.URL)
		var out, errOut bytes.Buffer
		c := builderCmd{
			env: CLIEnv{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errOut,
				Getenv: func(k string) string { return demoKeyVars[k] }},
			now: func() time.Time { return bcliNow }, nonce: signer.NewNonce,
		}
		code := c.runLine([]string{"authorize", "--config", cfg, "--env", "local",
			"--builder", sandbox.BuilderAddress, "--max-futures-fee", "0.1", "--max-spot-fee", "0.05", "--expires", "1h", "--yes"})
		srv.Close()
		if tc.want == "" {
			// The expiry counts from this machine's clock, as the console's
			// review shows it; the skew signing tolerates is within the margin
			// kept below the 30-day cap.
			if code != 0 || sentExp.Load() != bcliNow.Add(time.Hour).UnixNano() {
				t.Errorf("skew %s: exit %d, expiration %d, want %d:\n%s", tc.skew, code, sentExp.Load(), bcliNow.Add(time.Hour).UnixNano(), errOut.String())
			}
			continue
		}
		if code == 0 || authorizes.Load() != 0 || !strings.Contains(errOut.String(), "check your clock") || !strings.Contains(errOut.String(), tc.want) {
			t.Errorf("skew %s: exit %d, %d authorizations sent, stderr:\n%s", tc.skew, code, authorizes.Load(), errOut.String())
		}
	}
}

// TestBuilderCLIOwnAccount (issue 12 bug 9): --builder naming the signing
// account itself is a warning in the review, before the question: "n"
// sends nothing, --yes goes on (the warning still said).
func TestBuilderCLIOwnAccount(t *testing.T) {
	e := newBcliEnv(t)
	own := []string{"authorize", "--env", "local", "--config", e.config,
		"--builder", sandbox.DemoAddress, "--max-futures-fee", "0.1", "--max-spot-fee", "0.05"}
	const warning = "Warning: The builder is your own account"
	r := bcliOnTerminal(t, demoKeyVars, "n\n", own...)
	if r.code != 1 || !strings.Contains(r.stderr, warning) || !strings.Contains(r.stderr, "not confirmed") || e.requests.Load() != 0 {
		t.Fatalf("exit %d, %d requests:\n%s\n%s", r.code, e.requests.Load(), r.stdout, r.stderr)
	}
	r = bcli(t, demoKeyVars, "", false, append(own, "--yes")...)
	if r.code != 0 || !strings.Contains(r.stdout, warning) {
		t.Fatalf("with --yes: exit %d:\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	r = bcli(t, demoKeyVars, "", false, append(own, "--yes", "--json")...)
	if r.code != 0 || !strings.Contains(r.stderr, warning) || !json.Valid([]byte(r.stdout)) {
		t.Fatalf("with --yes --json: exit %d:\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	r = bcli(t, demoKeyVars, "", false, append(own, "--dry-run")...)
	if r.code != 0 || !strings.Contains(r.stderr, warning) {
		t.Fatalf("dry run: exit %d:\n%s\n%s", r.code, r.stdout, r.stderr)
	}
}

// TestBuilderCLISandboxKeyDies (issue 12 bug 9): on --env sandbox the API
// key comes from a sandbox that stops with the command; the line with the
// key says so.
func TestBuilderCLISandboxKeyDies(t *testing.T) {
	args := append([]string{"authorize", "--env", "sandbox", "--config", newBcliEnv(t).config,
		"--builder", sandbox.BuilderAddress, "--max-futures-fee", "0.1", "--max-spot-fee", "0.05", "--yes"}, keyArgs...)
	r := bcli(t, map[string]string{}, "", false, args...)
	if r.code != 0 {
		t.Fatalf("exit %d:\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	line := ""
	for _, l := range strings.Split(r.stdout, "\n") {
		if strings.Contains(l, "API key ") {
			line = l
		}
	}
	if !strings.Contains(line, "dies with this command") || strings.Contains(r.stderr, "store it now") {
		t.Fatalf("the key's line does not say it dies with the command:\n%s\n%s", r.stdout, r.stderr)
	}
}

// TestBuilderCLIConfirmation (review item 4): builder authorize follows
// withdraw's rule. Without a terminal and without --yes it refuses (exit 2)
// before any key is opened or request sent; on a terminal it prints what
// will be signed, then asks: anything but y signs and sends nothing, y
// authorizes. --dry-run and --signer offline ask nothing.
func TestBuilderCLIConfirmation(t *testing.T) {
	e := newBcliEnv(t)
	r := bcli(t, demoKeyVars, "y\n", false, unconfirmedArgs(e, keyArgs...)...)
	if r.code != exitUsage || !strings.Contains(r.stderr, "standard input or standard error is not a terminal, so the builder authorization cannot be confirmed") ||
		!strings.Contains(r.stderr, "add --yes") || r.stdout != "" {
		t.Fatalf("no terminal: exit %d:\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	// Not even a passphrase is asked for.
	r = bcli(t, nil, "secret\n", false, unconfirmedArgs(e, "--keystore-file", filepath.Join(t.TempDir(), "none.json"))...)
	if r.code != exitUsage || !strings.Contains(r.stderr, "not a terminal") {
		t.Fatalf("no terminal, keystore: exit %d:\n%s", r.code, r.stderr)
	}
	for _, answer := range []string{"n\n", "\n", "", "yes please\n"} {
		r = bcliOnTerminal(t, demoKeyVars, answer, unconfirmedArgs(e, keyArgs...)...)
		if r.code != exitFailed || !strings.Contains(r.stderr, "Sign and authorize builder 0x70997970C51812dc3A010C7d01b50e0d17dc79C8 to charge fees up to 0.1% on futures and 0.05% on spot, with an API key for Admin and Trade, in environment local? [y/N] ") ||
			!strings.Contains(r.stderr, "not confirmed: nothing was signed or sent") || strings.Contains(r.stdout, "Builder authorized") {
			t.Fatalf("answer %q: exit %d:\n%s\n%s", answer, r.code, r.stdout, r.stderr)
		}
	}
	if n := e.requests.Load(); n != 0 {
		t.Fatalf("%d requests before a yes", n)
	}
	// The review comes first, where the question is (stderr), whatever
	// stdout is (issue 33 item 10): the message field by field (the two fee
	// caps' notes in one column), its digest and the key; then the question; then the authorization, on stdout.
	r = bcliOnTerminal(t, demoKeyVars, "y\n", unconfirmedArgs(e, keyArgs...)...)
	if r.code != 0 {
		t.Fatalf("y: exit %d:\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	review, _, ok := strings.Cut(r.stderr, "Sign and authorize builder ")
	result := r.stdout
	if strings.Contains(result, "To sign") || !strings.Contains(result, "Builder authorized") {
		t.Errorf("stdout holds more than the result:\n%s", result)
	}
	for _, want := range []string{"Builder authorization (authorize and create an API key)", "To sign (EIP-712)", "AddAccountSignerWithBuilder",
		"    maxFutureFeeRate 1000  = 0.1% futures cap\n    maxSpotFeeRate   500   = 0.05% spot cap\n", "    permissions      Admin&Trade", "  Digest             0x",
		"  Signer             " + sandbox.DemoAddress + "  from $SVCWALLET_PRIVATE_KEY"} {
		if !ok || !strings.Contains(review, want) {
			t.Errorf("the review before the question lacks %q:\n%s", want, r.stderr)
		}
	}
	if !strings.Contains(result, "API key ") {
		t.Errorf("result:\n%s", r.stdout)
	}
	// Admin besides Trade is the one thing warned of.
	if strings.Count(review, "Warning") != 1 || !strings.Contains(review, "Warning: The builder's API key also gets Admin; a builder needs only Trade.") {
		t.Errorf("the review's warnings are not Admin's alone:\n%s", review)
	}
	// With --json the review goes to stderr, where the question is: stdout
	// keeps its one document.
	r = bcliOnTerminal(t, demoKeyVars, "y\n", unconfirmedArgs(e, "--json")...)
	var out builderResultJSON
	if r.code != 0 || json.Unmarshal([]byte(r.stdout), &out) != nil || !out.Authorized ||
		!strings.Contains(r.stderr, "To sign (EIP-712)") || !strings.Contains(r.stderr, "[y/N]") {
		t.Fatalf("--json on a terminal: exit %d:\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	// A dry run asks nothing, on a terminal or not.
	for _, terminal := range []bool{false, true} {
		r = bcliRun(t, demoKeyVars, "", true, terminal, unconfirmedArgs(e, "--dry-run")...)
		if r.code != 0 || strings.Contains(r.stderr, "[y/N]") || !strings.Contains(r.stdout, "Dry run: nothing was signed or sent") {
			t.Fatalf("dry run, terminal %v: exit %d:\n%s\n%s", terminal, r.code, r.stdout, r.stderr)
		}
	}
}

// TestBuilderCLIHighFeeWarning (review item 4): a fee cap above 1% is a
// warning line in the review (on stderr with --json or a dry run); 1% is
// not.
func TestBuilderCLIHighFeeWarning(t *testing.T) {
	e := newBcliEnv(t)
	const warning = "Warning: The futures fee cap 2.5% is above 1%: the builder may charge up to 2.5% of every futures trade it makes for you"
	r := bcli(t, demoKeyVars, "", false, authorizeArgs(e, "--max-futures-fee", "2.5")...)
	review, _, _ := strings.Cut(r.stdout, "Builder authorized")
	if r.code != 0 || !strings.Contains(review, warning) || strings.Contains(r.stdout, "spot fee cap") {
		t.Fatalf("exit %d:\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	for _, extra := range [][]string{{"--json"}, {"--dry-run"}, {"--dry-run", "--json"}} {
		r = bcli(t, demoKeyVars, "", false, authorizeArgs(e, append([]string{"--max-futures-fee", "2.5"}, extra...)...)...)
		if r.code != 0 || !strings.Contains(r.stderr, warning) || strings.Contains(r.stdout, "Warning") {
			t.Fatalf("%v: exit %d:\n%s\n%s", extra, r.code, r.stdout, r.stderr)
		}
	}
	r = bcli(t, demoKeyVars, "", false, authorizeArgs(e, "--max-futures-fee", "1", "--max-spot-fee", "1%")...)
	if r.code != 0 || strings.Contains(r.stdout+r.stderr, "Warning") {
		t.Fatalf("1%%: exit %d:\n%s\n%s", r.code, r.stdout, r.stderr)
	}
}

// TestBuilderCLIAsksMissingFlags: on a terminal, a --builder,
// --max-futures-fee or --max-spot-fee not given is asked on stderr, one a
// line as plain mode asks it (builder.Field.Question, checked as typed),
// then the authorization goes on as if given; the input's end leaves the
// usage error of the flag, and without a terminal nothing is asked.
func TestBuilderCLIAsksMissingFlags(t *testing.T) {
	e := newBcliEnv(t)
	args := []string{"authorize", "--config", e.config, "--env", "local", "--max-spot-fee", "0.05"}
	r := bcliOnTerminal(t, demoKeyVars, "0xnot\n"+sandbox.BuilderAddress+"\n\n0.1\ny\n", args...)
	if r.code != 0 || !strings.Contains(r.stderr, "Builder account address (0x and 40 hex digits): Not accepted: ") ||
		strings.Count(r.stderr, "Max futures fee, in percent (such as 0.1): ") != 2 || strings.Contains(r.stderr, "Max spot fee, in percent") ||
		!strings.Contains(r.stdout, "Builder authorized (AuthorizeBuilder") {
		t.Fatalf("exit %d:\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	sent := e.requests.Load()
	r = bcliOnTerminal(t, demoKeyVars, sandbox.BuilderAddress+"\n", args...)
	if r.code != exitUsage || !strings.Contains(r.stderr, "--max-futures-fee: ") {
		t.Fatalf("the input ended: exit %d:\n%s", r.code, r.stderr)
	}
	r = bcli(t, demoKeyVars, sandbox.BuilderAddress+"\n0.1\n", false, append(args, "--yes")...)
	if r.code != exitUsage || strings.Contains(r.stderr, "Builder account address") || !strings.Contains(r.stderr, "--builder: ") {
		t.Fatalf("no terminal: exit %d:\n%s", r.code, r.stderr)
	}
	if n := e.requests.Load(); n != sent {
		t.Fatalf("%d requests after the input ended or without a terminal", n-sent)
	}
}

// TestBuilderCLIOnARolledBackJournal is issue 33 item 4 for builder
// authorize: once the journal lost lines svcwallet wrote to it (an older
// copy put back), nothing is signed or sent, offline or not, and the
// doctor is named; once it is accepted as it now is, the builder is
// authorized.
func TestBuilderCLIOnARolledBackJournal(t *testing.T) {
	e := newBcliEnv(t)
	prepare := func() []string {
		return append(unconfirmedArgs(e), "--signer", "offline", "--account", sandbox.DemoAddress, "--out", filepath.Join(t.TempDir(), "builder.json"))
	}
	if r := bcli(t, nil, "", false, prepare()...); r.code != 0 {
		t.Fatalf("prepare: exit %d:\n%s", r.code, r.stderr)
	}
	path := journal.DefaultPath()
	if err := os.Truncate(path, 0); err != nil { // an older copy put back
		t.Fatal(err)
	}
	sent := e.requests.Load()
	for _, args := range [][]string{authorizeArgs(e), prepare()} {
		r := bcli(t, demoKeyVars, "", false, args...)
		if r.code != exitFailed || !strings.Contains(r.stderr, "lost lines svcwallet wrote") || !strings.Contains(r.stderr, "doctor --accept-journal") {
			t.Fatalf("%v on a rolled-back journal: exit %d:\n%s", args, r.code, r.stderr)
		}
	}
	if n := e.requests.Load() - sent; n != 0 {
		t.Fatalf("%d requests on a rolled-back journal", n)
	}
	j, err := journal.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := j.AcceptAsItIs(); err != nil {
		t.Fatal(err)
	}
	if r := bcli(t, demoKeyVars, "", false, authorizeArgs(e)...); r.code != 0 || !strings.Contains(r.stdout, "Builder authorized") {
		t.Fatalf("once accepted: exit %d:\n%s\n%s", r.code, r.stdout, r.stderr)
	}
}

// TestBuilderCLISaysNoKeyFirst: on a terminal, with no key given (no
// --signer, no $SVCWALLET_PRIVATE_KEY, not the embedded sandbox), builder
// authorize says no key signs (builder.SigningKey) before it asks for the
// builder or a fee cap, and asks nothing; given a key it asks them, and
// given another account's in $SVCWALLET_PRIVATE_KEY it says so first.
func TestBuilderCLISaysNoKeyFirst(t *testing.T) {
	e := newBcliEnv(t)
	args := []string{"authorize", "--config", e.config, "--env", "local"}
	answers := sandbox.BuilderAddress + "\n0.1\n0.05\ny\n"
	r := bcliOnTerminal(t, nil, answers, args...)
	if r.code != exitUsage || !strings.Contains(r.stderr, "no key here signs for the main account, so no builder authorization can be signed here; nothing was asked, signed or sent") ||
		!strings.Contains(r.stderr, "$"+signer.KeyEnvVar) {
		t.Fatalf("no key: exit %d:\n%s", r.code, r.stderr)
	}
	for _, q := range []string{"Builder account address", "Max futures fee", "Max spot fee"} {
		if strings.Contains(r.stderr, q) {
			t.Errorf("%q was asked with no key to sign:\n%s", q, r.stderr)
		}
	}
	if n := e.requests.Load(); n != 0 {
		t.Errorf("%d requests with no key", n)
	}
	r = bcliOnTerminal(t, demoKeyVars, answers, args...)
	if r.code != 0 || !strings.Contains(r.stderr, "Builder account address") || strings.Contains(r.stderr, "no key here") {
		t.Fatalf("with a key: exit %d:\n%s", r.code, r.stderr)
	}
	// The variable holding another account's key is said before any
	// question too: it asked all three, then refused the key.
	other := map[string]string{signer.KeyEnvVar: sandbox.BuilderPrivateKey}
	r = bcliOnTerminal(t, other, answers, append(args, "--account", sandbox.DemoAddress)...)
	if r.code != exitUsage || !strings.Contains(r.stderr, "$"+signer.KeyEnvVar+" holds the key of "+sandbox.BuilderAddress+", not of --account "+sandbox.DemoAddress) ||
		strings.Contains(r.stderr, "Builder account address") || strings.Contains(r.stderr, "Max futures fee") {
		t.Errorf("another account's key in $%s: exit %d:\n%s", signer.KeyEnvVar, r.code, r.stderr)
	}
	r = bcliOnTerminal(t, map[string]string{signer.KeyEnvVar: "0x1234"}, answers, args...)
	if r.code != exitUsage || !strings.Contains(r.stderr, "$"+signer.KeyEnvVar) || strings.Contains(r.stderr, "Builder account address") {
		t.Errorf("not a key in $%s: exit %d:\n%s", signer.KeyEnvVar, r.code, r.stderr)
	}
}
