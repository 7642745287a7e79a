package cli

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/svcwallet/svcwallet/internal/exchangetest"
	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/sandbox"
	"github.com/svcwallet/svcwallet/signer"
)

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
