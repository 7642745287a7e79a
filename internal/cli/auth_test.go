package cli

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/zalando/go-keyring"

	"github.com/svcwallet/svcwallet/internal/plain"
	"github.com/svcwallet/svcwallet/service/config"
	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/sandbox"
	"github.com/svcwallet/svcwallet/service/session"
)

// authWorld is a home, a state folder, a config naming "local", and the
// mock credential store, fresh for one test.
type authWorld struct {
	t      *testing.T
	config string
	state  string
}

// app is the command line's app on w's config and environment, quiet,
// with that environment read.
func (w *authWorld) app() (*app, config.Environment) {
	w.t.Helper()
	a := newApp(CLIEnv{Stdout: io.Discard, Stderr: io.Discard, Getenv: os.Getenv})
	a.configPath, a.envName = w.config, "local"
	e, err := a.environment()
	if err != nil {
		w.t.Fatal(err)
	}
	return a, e
}

func newAuthWorld(t *testing.T, opts sandbox.Options) (*authWorld, *sandbox.Server) {
	t.Helper()
	keyring.MockInit()
	t.Setenv("HOME", t.TempDir())
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	w := &authWorld{t: t, config: filepath.Join(t.TempDir(), "config.toml"), state: t.TempDir()}
	t.Setenv("XDG_STATE_HOME", w.state)
	srv := w.serve(opts)
	w.point(srv.URL)
	return w, srv
}

func (w *authWorld) serve(opts sandbox.Options) *sandbox.Server {
	srv, err := sandbox.Start("127.0.0.1:0", opts)
	if err != nil {
		w.t.Fatal(err)
	}
	w.t.Cleanup(func() { srv.Close() })
	return srv
}

// point makes "local" reach url.
func (w *authWorld) point(url string) {
	writeConfig(w.t, w.config, true, "local", url, url)
}

func (w *authWorld) run(stdin string, vars map[string]string, args ...string) depositResult {
	w.t.Helper()
	return runCLI(stdin, vars, append(args, "--config", w.config)...)
}

// logIn runs auth login with args as a test's setup: the session it keeps
// is what the test is about, so a login that fails ends the test (its
// stderr quoted: a config path may hold escapes).
func (w *authWorld) logIn(stdin string, vars map[string]string, args ...string) {
	w.t.Helper()
	if r := w.run(stdin, vars, append([]string{"auth", "login"}, args...)...); r.code != 0 {
		w.t.Fatalf("auth login %s: exit %d\n%q", strings.Join(args, " "), r.code, r.stderr)
	}
}

// TestAuthLoginOnce: auth login keeps the session, and a command with no
// API key anywhere uses it; auth status says so, auth logout forgets it,
// and the command then has no credential again.
func TestAuthLoginOnce(t *testing.T) {
	w, _ := newAuthWorld(t, sandbox.Options{})
	if r := w.run("", nil, "deposit"); r.code != exitUsage {
		t.Fatalf("deposit before auth login: exit %d, want 2 (no credential):\n%s", r.code, r.stderr)
	}
	r := w.run(sandbox.DemoAPIKey+"\n", nil, "auth", "login", "--with-api-key")
	if r.code != 0 || !strings.Contains(r.stdout, "Logged in to local") || !strings.Contains(r.stdout, sandbox.DemoAccountID) || !strings.Contains(r.stdout, "credential store") {
		t.Fatalf("auth login: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if strings.Contains(r.stdout+r.stderr, sandbox.DemoAPIKey) {
		t.Errorf("auth login repeats the API key:\n%s%s", r.stdout, r.stderr)
	}
	if r := w.run("", nil, "deposit", "--json"); r.code != 0 || !strings.Contains(r.stdout, "ARBITRUM") {
		t.Fatalf("deposit with the kept session: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if r := w.run("", nil, "history", "--refresh"); r.code != 0 {
		t.Errorf("history --refresh with the kept session: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	r = w.run("", nil, "auth", "status", "--json")
	var st struct{ Sessions []authStatusJSON }
	if err := json.Unmarshal([]byte(r.stdout), &st); err != nil || len(st.Sessions) != 1 {
		t.Fatalf("auth status --json: %v\n%s", err, r.stdout)
	}
	if s := st.Sessions[0]; s.Env != "local" || s.State != "kept" || s.AccountID != sandbox.DemoAccountID || !s.Renews || s.Kept != "keyring" ||
		s.Expires == nil || time.Until(*s.Expires) < 29*24*time.Hour {
		t.Errorf("auth status: %+v", s)
	}
	if r := w.run("", nil, "auth", "logout"); r.code != 0 || !strings.Contains(r.stdout, "Forgot the session kept for local") {
		t.Errorf("auth logout: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if r := w.run("", nil, "deposit"); r.code != exitUsage {
		t.Errorf("deposit after auth logout: exit %d, want 2", r.code)
	}
	if r := w.run("", nil, "auth", "status"); !strings.Contains(r.stdout, "No session is kept") {
		t.Errorf("auth status after logout:\n%s", r.stdout)
	}
}

// TestKeptSessionNeverSentToAnotherHost: a session kept for one service is
// not sent when the environment's name now reaches another host: no
// request there carries its cookie, stderr says why, and the command logs
// in as without one (here: no credential).
func TestKeptSessionNeverSentToAnotherHost(t *testing.T) {
	w, _ := newAuthWorld(t, sandbox.Options{})
	w.logIn(sandbox.DemoAPIKey, nil, "--with-api-key")
	other := w.serve(sandbox.Options{})
	target, err := url.Parse(other.URL)
	if err != nil {
		t.Fatal(err)
	}
	proxy := httputil.NewSingleHostReverseProxy(target)
	var mu sync.Mutex
	var seen []string
	spy := httptest.NewServer(http.HandlerFunc(func(rw http.ResponseWriter, req *http.Request) {
		mu.Lock()
		seen = append(seen, req.Header.Get("Cookie")+" "+req.Header.Get(config.HeaderAccountID)+" "+req.Header.Get("X-API-Key"))
		mu.Unlock()
		proxy.ServeHTTP(rw, req)
	}))
	defer spy.Close()
	w.point(spy.URL)
	r := w.run("", nil, "deposit")
	if r.code != exitUsage || !strings.Contains(r.stderr, "not sent") {
		t.Errorf("deposit on the other host: exit %d, want 2 and a warning that the session is not sent:\n%s", r.code, r.stderr)
	}
	// With a key of its own the command reaches the other host, and logs
	// in there as without a kept session.
	own := map[string]string{"SVCWALLET_API_KEY": sandbox.NoChainAPIKey}
	if r := w.run("", own, "status", "q-none"); r.code != exitNotFound {
		t.Errorf("status with a key of its own: exit %d, want 4 (not found there)\n%s", r.code, r.stderr)
	}
	kept, _ := keyring.Get("svcwallet", "session:local")
	var entry session.Entry
	if err := json.Unmarshal([]byte(kept), &entry); err != nil || entry.Cookie == "" {
		t.Fatalf("the kept session: %v %q", err, kept)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(seen) == 0 {
		t.Fatal("nothing reached the other host")
	}
	for _, h := range seen {
		if strings.Contains(h, entry.Cookie) || strings.Contains(h, sandbox.DemoAccountID) || strings.Contains(h, sandbox.DemoAPIKey) {
			t.Errorf("the other host got the kept session: %q", h)
		}
	}
}

// TestKeptSessionRenewedAndKept: a kept session about to end is renewed
// with the API key kept with it, and the renewed one is kept.
func TestKeptSessionRenewedAndKept(t *testing.T) {
	w, _ := newAuthWorld(t, sandbox.Options{SessionTTL: 3 * time.Second})
	w.logIn(sandbox.DemoAPIKey, nil, "--with-api-key")
	before, _ := keyring.Get("svcwallet", "session:local")
	if r := w.run("", nil, "deposit"); r.code != 0 {
		t.Fatalf("deposit: exit %d\n%s", r.code, r.stderr)
	}
	after, _ := keyring.Get("svcwallet", "session:local")
	if before == after {
		t.Error("the renewed session was not kept")
	}
}

// TestAuthLoginWhereNoStore: with no credential store, auth login says so
// in words, not the library's ('exec: "dbus-launch": …'), sends nothing,
// and names both ways on, once a key given (piped, or in
// $SVCWALLET_API_KEY) is checked; --insecure-storage keeps the session alone in a 0600
// file, and the next command uses it.
func TestAuthLoginWhereNoStore(t *testing.T) {
	w, _ := newAuthWorld(t, sandbox.Options{})
	keyring.MockInitWithError(errors.New(`exec: "dbus-launch": executable file not found in $PATH`))
	r := w.run(sandbox.DemoAPIKey, nil, "auth", "login", "--with-api-key")
	if r.code != exitFailed || strings.Contains(r.stderr, "dbus-launch") {
		t.Fatalf("auth login with no store: exit %d\n%s", r.code, r.stderr)
	}
	for _, want := range []string{"no credential store can be reached (", "nothing was sent", "--insecure-storage (" + filepath.Join(w.state, "svcwallet", session.FileName) + ")",
		"keep none and log in on each command with $SVCWALLET_API_KEY or --signer"} {
		if !strings.Contains(r.stderr, want) {
			t.Errorf("auth login with no store says no %q:\n%s", want, r.stderr)
		}
	}
	// A key given is checked first: a bad one is the failed login every
	// command says (5), not the store's absence.
	for _, given := range []struct {
		stdin string
		vars  map[string]string
		args  []string
	}{{"", map[string]string{"SVCWALLET_API_KEY": "sk-live 7f3a"}, nil}, {"sk-live 7f3a", nil, []string{"--with-api-key"}}} {
		if r := w.run(given.stdin, given.vars, append([]string{"auth", "login"}, given.args...)...); r.code != exitError || !strings.Contains(r.stderr, "holds a space at position 8") {
			t.Errorf("auth login %v with no store and a bad key: exit %d, want 5\n%s", given.args, r.code, r.stderr)
		}
	}
	r = w.run(sandbox.DemoAPIKey, nil, "auth", "login", "--with-api-key", "--insecure-storage")
	file := filepath.Join(w.state, "svcwallet", session.FileName)
	if r.code != 0 || !strings.Contains(r.stdout, file) || !strings.Contains(r.stdout, "readable by anything that runs as you") {
		t.Fatalf("auth login --insecure-storage: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	b, err := os.ReadFile(file)
	if err != nil || strings.Contains(string(b), sandbox.DemoAPIKey) {
		t.Errorf("the file: %v; holds the API key: %v", err, strings.Contains(string(b), sandbox.DemoAPIKey))
	}
	if fi, err := os.Stat(file); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("the file's mode: %v", err)
	}
	if r := w.run("", nil, "deposit"); r.code != 0 {
		t.Errorf("deposit with the file's session: exit %d\n%s", r.code, r.stderr)
	}
}

// TestAuthLoginAsks: without --with-api-key nor $SVCWALLET_API_KEY and no
// terminal, auth login is a usage error naming both; an empty key piped
// is refused, saying how to pipe one; the embedded sandbox keeps nothing; $SVCWALLET_API_KEY logs
// in.
func TestAuthLoginAsks(t *testing.T) {
	w, _ := newAuthWorld(t, sandbox.Options{})
	if r := w.run("", nil, "auth", "login"); r.code != exitUsage || !strings.Contains(r.stderr, "--with-api-key") || !strings.Contains(r.stderr, "$SVCWALLET_API_KEY") {
		t.Errorf("no key: exit %d\n%s", r.code, r.stderr)
	}
	// An empty key piped says how to pipe one, the command to run.
	if r := w.run("  \n", nil, "auth", "login", "--with-api-key"); r.code != exitUsage ||
		!strings.HasPrefix(r.stderr, `svcwallet auth login: standard input held no API key: pipe it in, as printf %s "$KEY" | svcwallet auth login --with-api-key --env local --config `+w.config+`; nothing was sent`+"\n") {
		t.Errorf("an empty key: exit %d\n%s", r.code, r.stderr)
	}
	if r := w.run("", nil, "auth", "login", "--env", "sandbox"); r.code != exitUsage || !strings.Contains(r.stderr, "nothing to keep") {
		t.Errorf("the embedded sandbox: exit %d\n%s", r.code, r.stderr)
	}
	if r := w.run("wrong-key", nil, "auth", "login", "--with-api-key"); r.code != exitError {
		t.Errorf("a refused key: exit %d, want 5\n%s", r.code, r.stderr)
	}
	if r := w.run("", map[string]string{"SVCWALLET_API_KEY": sandbox.DemoAPIKey}, "auth", "login", "--json"); r.code != 0 || !strings.Contains(r.stdout, `"kept": "keyring"`) {
		t.Errorf("$SVCWALLET_API_KEY: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
}

// TestKeptSessionRefusedSaysLogIn: a session kept in the file (no API key
// to renew it) that the service then refuses (a revoked session, a
// restarted service) ends the command with the login to run, once; auth
// status then says the service refused it, and the next command logs in
// as without a kept session, asking for the login again when it has no
// credential.
func TestKeptSessionRefusedSaysLogIn(t *testing.T) {
	w, srv := newAuthWorld(t, sandbox.Options{})
	revoked := w.revokingFront(srv, nil)
	w.logIn(sandbox.DemoAPIKey, nil, "--with-api-key", "--insecure-storage")
	if r := w.run("", nil, "auth", "status"); !strings.Contains(r.stdout, "as far as this machine knows (not checked with the service)") ||
		!strings.Contains(r.stdout, "once it ends, commands log in as they would without it") {
		t.Errorf("auth status of a kept session:\n%s", r.stdout)
	}
	revoked.Store(true)
	r := w.run("", nil, "deposit")
	if r.code != exitFailed || !strings.Contains(r.stderr, "was refused by the service (it ended or was revoked), and is no longer used: log in again with svcwallet auth login --env local") ||
		strings.Count(r.stderr, "log in again") != 1 {
		t.Errorf("deposit on the refused session: exit %d\n%s", r.code, r.stderr)
	}
	if r := w.run("", nil, "auth", "status"); !strings.Contains(r.stdout, "refused by the service") {
		t.Errorf("auth status after the refusal:\n%s", r.stdout)
	}
	// Without a credential, a command asks for the login again, saying why
	// (not "log in once", which was done).
	for _, cmd := range []string{"deposit", "status"} {
		r := w.run("", nil, cmd, "q-1")
		if cmd == "deposit" {
			r = w.run("", nil, cmd)
		}
		if r.code != exitUsage || !strings.Contains(r.stderr, "the session kept for local was refused by the service at ") ||
			!strings.Contains(r.stderr, "): log in again with svcwallet auth login --env local --config "+w.config+", or set SVCWALLET_API_KEY") {
			t.Errorf("%s after the refusal: exit %d\n%s", cmd, r.code, r.stderr)
		}
	}
	if r := w.run("", map[string]string{"SVCWALLET_API_KEY": sandbox.DemoAPIKey}, "deposit"); r.code != 0 {
		t.Errorf("deposit with a key of its own after the refusal: exit %d\n%s", r.code, r.stderr)
	}
}

// TestAuthLoginCtrlDAtTheTerminal (found by review): ctrl+d at auth
// login's hidden API key prompt (hiddenSecret's plain.ErrEnd) says the
// terminal's input ended before the API key and nothing was sent; it
// said "the input ended" alone. Ctrl+c there said "interruptednothing
// was sent".
func TestAuthLoginCtrlDAtTheTerminal(t *testing.T) {
	for _, tc := range []struct {
		name string
		err  error
		want string
	}{
		{"ctrl+d", plain.ErrEnd, "the terminal's input ended (ctrl+d) before the API key: nothing was signed or sent"},
		{"ctrl+c", context.Canceled, "interrupted: nothing was signed or sent"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			env := CLIEnv{ReadSecret: func(context.Context, string) (string, error) {
				if errors.Is(tc.err, context.Canceled) {
					cancel()
				}
				return "", tc.err
			}}
			if _, err := typedAPIKey(ctx, env, "local"); err == nil || err.Error() != tc.want {
				t.Fatalf("got %v, want %q", err, tc.want)
			}
		})
	}
}

// TestTypedAPIKeyWithMoreLinesNotSent: an API key whose line came with
// more lines held by the terminal (a recovery phrase pasted one numbered
// word a line) is refused, the rest dropped unread: the first line was
// sent as the API key, and each other ran in the shell as a command its
// history kept. A line alone is taken.
func TestTypedAPIKeyWithMoreLinesNotSent(t *testing.T) {
	for _, held := range []bool{true, false} {
		flushed := 0
		clock := time.Unix(1_700_000_000, 0)
		env := CLIEnv{
			ReadSecret: func(context.Context, string) (string, error) { return "01.legal", nil },
			Terminal: func() plain.Gate {
				// The rest held once: the paste then pauses on a fake clock.
				return plain.Gate{Flush: func() (bool, error) { flushed++; return held && flushed == 1, nil },
					Now: func() time.Time { return clock },
					After: func(d time.Duration) <-chan time.Time {
						clock = clock.Add(d)
						c := make(chan time.Time, 1)
						c <- clock
						return c
					}}
			},
		}
		key, err := typedAPIKey(context.Background(), env, "local")
		switch {
		case held && (err == nil || key != "" || strings.Contains(err.Error(), "legal") || !strings.Contains(err.Error(), "more lines came with the API key") || flushed == 0):
			t.Errorf("with more lines: %q, %v (%d flushes)", key, err, flushed)
		case !held && (err != nil || key != "01.legal"):
			t.Errorf("a line alone: %q, %v", key, err)
		}
	}
}

// TestKeptSessionRenewedAsAnotherAccount: a kept session the service
// refuses, renewed with the API key kept beside it, whose login answers
// another account, ends the command with the login to run, and is no
// longer offered: the next command does not renew it and end it again.
func TestKeptSessionRenewedAsAnotherAccount(t *testing.T) {
	w, srv := newAuthWorld(t, sandbox.Options{})
	revoked := w.revokingFront(srv, func(r *http.Response) { r.Header.Set(config.HeaderAccountID, sandbox.NoChainAccountID) })
	w.logIn(sandbox.DemoAPIKey+"\n", nil, "--with-api-key")
	revoked.Store(true)
	r := w.run("", nil, "deposit")
	if r.code != exitFailed || !strings.Contains(r.stderr, "the session kept for local is no longer used: the service answered the renewed login as another account") ||
		!strings.Contains(r.stderr, ": log in again with svcwallet auth login --env local") {
		t.Fatalf("deposit on the session renewed as another account: exit %d\n%s", r.code, r.stderr)
	}
	if r := w.run("", nil, "auth", "status"); !strings.Contains(r.stdout, "refused by the service") {
		t.Errorf("auth status after it:\n%s", r.stdout)
	}
	if r := w.run("", nil, "deposit"); strings.Contains(r.stderr, "another account") {
		t.Errorf("the next command renewed it again: exit %d\n%s", r.code, r.stderr)
	}
}

// revokingFront points "local" at a front of srv that, once the flag it
// returns is set, refuses (401) every request carrying a session but a
// login, whose answer renewing (when not nil) then changes.
func (w *authWorld) revokingFront(srv *sandbox.Server, renewing func(*http.Response)) *atomic.Bool {
	w.t.Helper()
	target, err := url.Parse(srv.URL)
	if err != nil {
		w.t.Fatal(err)
	}
	var revoked atomic.Bool
	proxy := httputil.NewSingleHostReverseProxy(target)
	proxy.ModifyResponse = func(r *http.Response) error {
		if renewing != nil && revoked.Load() && r.Request.URL.Path == exchange.PathAPIKeyLogin {
			renewing(r)
		}
		return nil
	}
	front := httptest.NewServer(http.HandlerFunc(func(rw http.ResponseWriter, req *http.Request) {
		if revoked.Load() && req.Header.Get("Cookie") != "" && req.URL.Path != exchange.PathAPIKeyLogin {
			rw.Header().Set("Content-Type", "application/json")
			rw.WriteHeader(http.StatusUnauthorized)
			_, _ = rw.Write([]byte(`{"code":1000,"message":"session is unknown or expired; log in again","status":401}`))
			return
		}
		proxy.ServeHTTP(rw, req)
	}))
	w.t.Cleanup(front.Close)
	w.point(front.URL)
	return &revoked
}
