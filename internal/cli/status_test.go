package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/svcwallet/svcwallet/internal/exchangetest"
	"github.com/svcwallet/svcwallet/service/config"
	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/follow"
	"github.com/svcwallet/svcwallet/service/sandbox"
	"github.com/svcwallet/svcwallet/signer"
)

// statusRig is a sandbox on a fake clock behind a server whose status
// answers can be made to fail, and a config file naming it "local".
type statusRig struct {
	t       *testing.T
	clock   *exchangetest.FakeClock
	ex      *sandbox.Exchange
	srv     *httptest.Server
	config  string
	failing atomic.Bool
	stdin   io.Reader // the next run's standard input
	// stdout, when set, is the next runs' standard output (else a buffer
	// the run's result holds).
	stdout io.Writer
	// stderr, when set, is the next runs' standard error (as stdout).
	stderr io.Writer
	// terminal: the next runs' stderr is a terminal.
	terminal bool
	// notifyWait and notifyPipesWait bound the runs' --notify-command and
	// the wait for its output (0: notifyTimeout, notifyPipesWait).
	notifyWait, notifyPipesWait time.Duration
	mu                          sync.Mutex
	asks                        []time.Time // when each status request came, on the fake clock
	// rejected holds when each request was refused with 429.
	rejected []time.Time
	// rewrite, when set, changes every answer's body as a hostile server would.
	rewrite atomic.Pointer[func(path string, body []byte) []byte]
	// statusCode, when set, replaces the HTTP status of rewritten status answers.
	statusCode atomic.Int32
	// withdraws counts the withdraw requests that reached the server,
	// times the /time requests.
	withdraws, times atomic.Int64
	// withdrawHook, when set, may answer a withdraw request itself (true)
	// instead of the sandbox ex, which it may call first.
	withdrawHook atomic.Pointer[func(w http.ResponseWriter, req *http.Request, ex http.Handler) bool]
	// nonces counts the Transfer nonces `withdraw` runs drew (wcliNonce on).
	nonces atomic.Uint32
	// ahead is how far the commands' clock runs ahead of the sandbox's.
	ahead time.Duration
}

// now is the commands' clock: the sandbox's, ahead by r.ahead.
func (r *statusRig) now() time.Time { return r.clock.Now().Add(r.ahead) }

func newStatusRig(t *testing.T) *statusRig {
	t.Helper()
	return newStatusRigWith(t, sandbox.Options{})
}

// newStatusRigWith is newStatusRig with a sandbox made with opts (its clock
// is the rig's).
func newStatusRigWith(t *testing.T, opts sandbox.Options) *statusRig {
	t.Helper()
	// The client's session check uses the real clock: start the sandbox's there.
	r := &statusRig{t: t, clock: exchangetest.NewFakeClock(time.Now().UTC())}
	opts.Now = r.clock.Now
	ex := sandbox.New(opts)
	r.ex = ex
	r.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		if req.URL.Path == exchange.PathWithdraw {
			r.withdraws.Add(1)
			if h := r.withdrawHook.Load(); h != nil && (*h)(w, req, ex) {
				return
			}
		}
		if req.URL.Path == exchange.PathTime {
			r.times.Add(1)
		}
		if req.URL.Path == exchange.PathWithdrawalStatus {
			r.mu.Lock()
			r.asks = append(r.asks, r.clock.Now())
			r.mu.Unlock()
		}
		if req.URL.Path == exchange.PathWithdrawalStatus && r.failing.Load() {
			http.Error(w, "bad gateway", http.StatusBadGateway)
			return
		}
		f := r.rewrite.Load()
		if f == nil {
			rec := &codeRecorder{ResponseWriter: w}
			ex.ServeHTTP(rec, req)
			if rec.code == http.StatusTooManyRequests {
				r.mu.Lock()
				r.rejected = append(r.rejected, r.clock.Now())
				r.mu.Unlock()
			}
			return
		}
		rec := httptest.NewRecorder()
		ex.ServeHTTP(rec, req)
		for k, v := range rec.Header() {
			if k != "Content-Length" {
				w.Header()[k] = v
			}
		}
		code := rec.Code
		if c := r.statusCode.Load(); c != 0 && req.URL.Path == exchange.PathWithdrawalStatus {
			code = int(c)
		}
		w.WriteHeader(code)
		w.Write((*f)(req.URL.Path, rec.Body.Bytes()))
	}))
	t.Cleanup(r.srv.Close)
	r.config = filepath.Join(t.TempDir(), "config.toml")
	writeConfig(t, r.config, true, "local", r.srv.URL, r.srv.URL)
	return r
}

// withdraw makes a withdrawal of the account behind apiKey (signed with
// keyHex) and returns its quote id; execute false leaves it CREATED.
func (r *statusRig) withdraw(apiKey, keyHex, dest string, execute bool) string {
	r.t.Helper()
	cx := context.Background()
	c := exchange.New(config.SandboxEnvironment(r.srv.URL, sandbox.DefaultChainID), exchange.Options{})
	sess, err := c.Login(cx, exchange.APIKey(apiKey))
	if err != nil {
		r.t.Fatal(err)
	}
	q, err := c.Quote(cx, exchange.QuoteRequest{ToAddress: dest, Chain: "BASE", TokenIn: "USDT", TokenOut: "USDT", Amount: "20"})
	if err != nil {
		r.t.Fatal(err)
	}
	if !execute {
		return q.QuoteID
	}
	raw, _ := exchange.RawUnits(q.PayAmount)
	k, err := signer.ParsePrivateKeyHex(keyHex)
	if err != nil {
		r.t.Fatal(err)
	}
	sig, err := signer.Sign(context.Background(), k, c.Env().Domain(), signer.Transfer{
		FromAccount: common.HexToAddress(sess.FundingAccountAddress), ToAccount: common.HexToAddress(sandbox.BridgeFundingAddress),
		TokenCurrency: signer.USDTCurrency, NumTokens: raw, Nonce: signer.NewNonce(), Expiration: r.clock.Now().Add(time.Hour).UnixNano(),
	})
	if err != nil {
		r.t.Fatal(err)
	}
	if _, err := c.Withdraw(cx, exchange.WithdrawRequest{QuoteID: q.QuoteID, Signature: exchange.NewWithdrawSignature(sig)}); err != nil {
		r.t.Fatal(err)
	}
	return q.QuoteID
}

// codeRecorder notes the status code an answer is written with.
type codeRecorder struct {
	http.ResponseWriter
	code int
}

func (c *codeRecorder) WriteHeader(code int) {
	c.code = code
	c.ResponseWriter.WriteHeader(code)
}

type statusRun struct {
	code           int
	stdout, stderr string
	sleeps         []time.Duration
}

// runStdin runs `svcwallet status` as run does, with stdin as its standard input.
func (r *statusRig) runStdin(stdin string, args ...string) statusRun {
	r.t.Helper()
	r.stdin = strings.NewReader(stdin)
	defer func() { r.stdin = nil }()
	return r.run(nil, args...)
}

// run runs `svcwallet status` with the config and the demo API key (unless
// vars says otherwise); its waits move the sandbox clock instead of sleeping.
func (r *statusRig) run(vars map[string]string, args ...string) statusRun {
	r.t.Helper()
	return r.runLine(vars, statusCmd.runLine, args...)
}

// runLine runs the command line does (status, or history with --refresh)
// as run does.
func (r *statusRig) runLine(vars map[string]string, line func(statusCmd, []string) int, args ...string) statusRun {
	r.t.Helper()
	var out, errOut bytes.Buffer
	var res statusRun
	env := CLIEnv{Stdin: r.stdin, Stdout: r.output(&out), Stderr: r.errOutput(&errOut), Getenv: func(k string) string {
		if v, ok := vars[k]; ok {
			return v
		}
		if k == apiKeyVar {
			return sandbox.DemoAPIKey
		}
		return ""
	}}
	cmd := statusCmd{env: env, now: r.now, jitter: func(int64) int64 { return 0 }, sleep: func(_ context.Context, d time.Duration) error {
		res.sleeps = append(res.sleeps, d)
		r.clock.Advance(d)
		return nil
	}, terminal: func() bool { return r.terminal }, notifyWait: r.notifyWait, notifyPipesWait: r.notifyPipesWait}
	res.code = line(cmd, append([]string{"--config", r.config}, args...))
	res.stdout, res.stderr = out.String(), errOut.String()
	return res
}

// output is the runs' standard output: r.stdout, else out.
func (r *statusRig) output(out *bytes.Buffer) io.Writer {
	if r.stdout != nil {
		return r.stdout
	}
	return out
}

// watchNote is a line status --watch says besides errors: a pause of the
// rate limit, and the summary it ends with.
var watchNote = regexp.MustCompile(`(?m)^svcwallet status: (rate limited by the service: resuming in .*|\d+ withdrawals in .*)\n`)

func (res statusRun) want(t *testing.T, code int, stdout, stderr []string) {
	t.Helper()
	if res.code != code {
		t.Fatalf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", res.code, code, res.stdout, res.stderr)
	}
	for _, w := range stdout {
		if !strings.Contains(res.stdout, w) {
			t.Errorf("stdout lacks %q:\n%s", w, res.stdout)
		}
	}
	for _, w := range stderr {
		if !strings.Contains(res.stderr, w) {
			t.Errorf("stderr lacks %q:\n%s", w, res.stderr)
		}
	}
	// Errors are one human line; usage errors add the usage after it. A
	// watch's notes (a pause, its summary) are lines of their own.
	said := watchNote.ReplaceAllString(res.stderr, "")
	if code != exitUsage && strings.Count(strings.TrimSpace(said), "\n") > 0 && !strings.Contains(res.stderr, "trying again") {
		t.Errorf("more than one line on stderr:\n%s", res.stderr)
	}
}

func TestStatusExitStatuses(t *testing.T) {
	r := newStatusRig(t)
	done := r.withdraw(sandbox.DemoAPIKey, sandbox.DemoPrivateKey, sandbox.DestCompleted, true)
	refunded := r.withdraw(sandbox.DemoAPIKey, sandbox.DemoPrivateKey, sandbox.DestRefunded, true)
	failed := r.withdraw(sandbox.DemoAPIKey, sandbox.DemoPrivateKey, sandbox.DestFailed, true)
	created := r.withdraw(sandbox.DemoAPIKey, sandbox.DemoPrivateKey, sandbox.DestCompleted, false)
	others := r.withdraw(sandbox.NoChainAPIKey, sandbox.NoChainPrivateKey, sandbox.DestCompleted, true)

	r.run(nil, done).want(t, exitPending, []string{"State        SUBMITTED", done}, nil)
	r.run(nil, created, "--json").want(t, exitPending, []string{`"state":"CREATED"`}, nil)
	r.clock.Advance(sandbox.DefaultSettle)

	r.run(nil, done).want(t, exitCompleted, []string{"State        COMPLETED", "Payout hash  0x", "Receive      18.5 USDT", "Paid out"}, nil)
	res := r.run(nil, "--json", done)
	res.want(t, exitCompleted, nil, nil)
	var w exchange.Withdrawal
	if err := json.Unmarshal([]byte(res.stdout), &w); err != nil || w.QuoteID != done || w.WithdrawTxHash == "" {
		t.Errorf("--json: %v %+v from %s", err, w, res.stdout)
	}
	r.run(nil, refunded).want(t, exitFailed, []string{"State        REFUNDED", "Meaning      The funds are back in the funding account; nothing was paid out"}, nil)
	// A quote never executed is pending only while it could still be.
	r.clock.Advance(follow.LongestQuoteLife + follow.ExecutableMargin + time.Second)
	r.run(nil, created).want(t, exitFailed, []string{"State        EXPIRED", "Meaning      " + exchange.ExpiredWords}, nil)
	r.run(nil, "--watch", created).want(t, exitFailed, []string{"State        EXPIRED", "Meaning      The quote was never executed, so nothing was debited"}, nil)
	r.run(nil, failed).want(t, exitFailed, []string{"State        FAILED", "Meaning      Nothing was paid out, and unlike a refund"}, nil)

	notFound := "on this account: it is unknown, or it belongs to another account"
	r.run(nil, "q-doesnotexist").want(t, exitNotFound, nil, []string{"no withdrawal with quote id q-doesnotexist " + notFound})
	r.run(nil, others).want(t, exitNotFound, nil, []string{notFound})
	r.run(map[string]string{apiKeyVar: sandbox.NoChainAPIKey}, others).want(t, exitCompleted, nil, nil) // its owner sees it

	r.run(nil).want(t, exitUsage, nil, []string{"give one or more quote ids, or - to read them from standard input", "run 'svcwallet status --help' for usage"})
	r.run(nil, "").want(t, exitUsage, nil, []string{"empty quote id"})
	r.run(nil, done, "q-with space").want(t, exitUsage, nil, []string{`"q-with space" is not a quote id: it holds a space`})
	r.run(nil, strings.Repeat("q", 129)).want(t, exitUsage, nil, []string{"is 129 characters long; quote ids have at most 128"})
	r.run(nil, "--interval", "10ms", done).want(t, exitUsage, nil, []string{"--interval must be at least 1s"})
	r.run(nil, "--bogus", done).want(t, exitUsage, nil, []string{"unknown flag: --bogus"})
	r.run(nil, "--env", "nowhere", done).want(t, exitUsage, nil, []string{`no environment "nowhere"`})
	r.run(map[string]string{apiKeyVar: ""}, done).want(t, exitUsage, nil, []string{"set SVCWALLET_API_KEY"})

	r.run(map[string]string{apiKeyVar: "wrong-key"}, done).want(t, exitError, nil, []string{"the API key in $SVCWALLET_API_KEY was refused"})
	r.failing.Store(true)
	r.run(nil, done).want(t, exitError, nil, []string{"The service had a problem (HTTP 502)"})
	r.srv.Close()
	r.run(nil, done).want(t, exitError, nil, []string{"Cannot reach"})
	if res := r.run(nil, "--config", filepath.Join(t.TempDir(), "missing.toml"), done); res.code != exitError {
		t.Errorf("missing explicit config: exit %d, want %d", res.code, exitError)
	}
}

// TestStatusWatch: --watch prints each state once, waits the interval
// between polls (never less), and ends with the terminal state's status.
func TestStatusWatch(t *testing.T) {
	r := newStatusRig(t)
	id := r.withdraw(sandbox.DemoAPIKey, sandbox.DemoPrivateKey, sandbox.DestCompleted, true)
	res := r.run(nil, id, "--watch", "--interval", "2s")
	res.want(t, exitCompleted, []string{"SUBMITTED  " + id, "SENDING    " + id, "COMPLETED  " + id + "  0x", "State        COMPLETED"}, nil)
	if n := strings.Count(res.stdout, "Z  "); n != 3 {
		t.Errorf("%d change lines, want 3:\n%s", n, res.stdout)
	}
	for _, d := range res.sleeps {
		if d != 2*time.Second {
			t.Errorf("slept %s, want the 2s interval", d)
		}
	}

	id = r.withdraw(sandbox.DemoAPIKey, sandbox.DemoPrivateKey, sandbox.DestRefunded, true)
	res = r.run(nil, "--json", "--watch", id)
	res.want(t, exitFailed, nil, nil)
	var states []string
	for _, line := range strings.Split(strings.TrimSpace(res.stdout), "\n") {
		var w exchange.Withdrawal
		var kind struct {
			Kind string `json:"kind"`
		}
		if json.Unmarshal([]byte(line), &w) != nil || json.Unmarshal([]byte(line), &kind) != nil {
			t.Fatalf("not a JSON line: %q", line)
		}
		states = append(states, kind.Kind+":"+w.State)
	}
	if got := strings.Join(states, " "); got != "change:SUBMITTED change:SENDING change:REFUNDED final:REFUNDED" {
		t.Errorf("JSON lines of states %s", got)
	}
}

// TestStatusWatchGivesUp: failing polls back off (never below the interval)
// and end in exit 5 after follow.GiveUpAfter; one recovered poll resets it.
func TestStatusWatchGivesUp(t *testing.T) {
	r := newStatusRig(t)
	id := r.withdraw(sandbox.DemoAPIKey, sandbox.DemoPrivateKey, sandbox.DestCompleted, true)
	r.failing.Store(true)
	res := r.run(nil, id, "--watch")
	res.want(t, exitError, nil, []string{"gave up after 5 failed tries in a row", "trying again in 3s", "trying again in 12s"})
	want := []time.Duration{3 * time.Second, 6 * time.Second, 12 * time.Second, 15 * time.Second}
	if fmt.Sprint(res.sleeps) != fmt.Sprint(want) {
		t.Errorf("backoff %v, want %v (low jitter)", res.sleeps, want)
	}
}

// TestStatusByWalletLogin: without an API key, status logs in by wallet
// signature with $SVCWALLET_PRIVATE_KEY, as a user who logs in that way
// does; a wallet the service does not know is refused in words, never
// repeating the key.
func TestStatusByWalletLogin(t *testing.T) {
	r := newStatusRig(t)
	id := r.withdraw(sandbox.DemoAPIKey, sandbox.DemoPrivateKey, sandbox.DestCompleted, true)
	r.clock.Advance(sandbox.DefaultSettle)
	r.run(map[string]string{apiKeyVar: "", signer.KeyEnvVar: sandbox.DemoPrivateKey}, id).want(t, exitCompleted, []string{"COMPLETED"}, nil)

	unknown := "0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d" // the builder's: not a main signer
	res := r.run(map[string]string{apiKeyVar: "", signer.KeyEnvVar: unknown}, id)
	if res.code != exitError || !strings.Contains(res.stderr, "not registered") || strings.Contains(res.stderr, unknown[2:10]) {
		t.Fatalf("an unknown wallet: exit %d, %q", res.code, res.stderr)
	}
	r.run(map[string]string{apiKeyVar: ""}, id).want(t, exitUsage, nil, []string{"or " + signer.KeyEnvVar + " to the main signer's hex key"})
}

// TestStatusNotifyCommand (issue 21 item 15): --watch --notify-command runs
// the command once per withdrawal that ends, no shell (its words are
// arguments as given), with the final record as JSON on stdin and without
// svcwallet's secrets in its environment; without --watch it is a usage error.
func TestStatusNotifyCommand(t *testing.T) {
	t.Setenv(exchange.APIKeyEnvVar, "test-api-key")
	dir := t.TempDir()
	out := filepath.Join(dir, "notified")
	script := filepath.Join(dir, "notify")
	body := "#!/bin/sh\n{ echo \"args:$*\"; cat; env | grep -c '^SVCWALLET_' ; } >> '" + out + "'\nexit 0\n"
	if err := os.WriteFile(script, []byte(body), 0o700); err != nil {
		t.Fatal(err)
	}
	r := newStatusRig(t)
	done := r.withdraw(sandbox.DemoAPIKey, sandbox.DemoPrivateKey, sandbox.DestCompleted, true)
	refunded := r.withdraw(sandbox.DemoAPIKey, sandbox.DemoPrivateKey, sandbox.DestRefunded, true)
	r.run(nil, done, refunded, "--watch", "--notify-command", script+" $HOME;x").want(t, exitFailed, nil, nil)
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatalf("the notify command did not run: %v", err)
	}
	got := string(b)
	if strings.Count(got, "args:$HOME;x\n") != 2 || strings.Count(got, "\n0\n") != 2 {
		t.Fatalf("want two runs, each with the literal argument and no SVCWALLET_ variable:\n%s", got)
	}
	for _, want := range []string{`"quote_id":"` + done + `"`, `"state":"COMPLETED"`, `"quote_id":"` + refunded + `"`, `"state":"REFUNDED"`} {
		if !strings.Contains(got, want) {
			t.Errorf("no %s on the command's stdin:\n%s", want, got)
		}
	}
	r.run(nil, done, "--notify-command", script).want(t, exitUsage, nil, []string{"--notify-command needs --watch"})
}

// TestStatusShortenedIDSaysGiveItWhole: an id as a screen shortens it is
// refused by exchange.ErrShortened's words, as an argument and on
// standard input, before any request; the whole id is followed.
func TestStatusShortenedIDSaysGiveItWhole(t *testing.T) {
	r := newStatusRig(t)
	done := r.seed(sandbox.DestCompleted, 1)[0]
	r.takeAsks()
	short := done[:6] + "…" + done[len(done)-4:]
	whole := `is not a quote id: ` + exchange.ErrShortened.Error()
	r.run(nil, short).want(t, exitUsage, nil, []string{whole})
	r.runStdin(short+"\n", "-").want(t, exitUsage, nil, []string{"standard input line 1", whole})
	if n := len(r.takeAsks()); n != 0 {
		t.Errorf("%d status requests for a shortened id, want none", n)
	}
	r.run(nil, done).want(t, exitPending, []string{"Quote id     " + done}, nil)
}

// TestStatusNearHashRefusedSaysItLooksLikeOne: 0x and 65 hex digits, a
// payout hash a digit too long, is refused as a private key's shape on the
// command line and standard input, saying it looks like a payout hash
// miscopied; it was told to put 0x in front of what had it.
func TestStatusNearHashRefusedSaysItLooksLikeOne(t *testing.T) {
	r := newStatusRig(t)
	long := "0x" + strings.Repeat("5f0c9e1b", 8) + "a"
	near := "it looks like a payout hash a digit too long (0x and 64 hex digits): copy it again, whole"
	for _, res := range []statusRun{r.run(nil, long), r.runStdin(long+"\n", "-")} {
		res.want(t, exitUsage, nil, []string{near})
		if strings.Contains(res.stderr, "0x in front") || strings.Contains(res.stderr, long[2:20]) {
			t.Errorf("the refusal says to put 0x in front, or repeats the id:\n%s", res.stderr)
		}
	}
}

// TestStatusOnTheEmbeddedSandboxSaysItIsFresh: status on the embedded
// sandbox says, before its not found, that the exchange was started for
// this command and knows no other run's withdrawal, and how to follow one:
// its not found alone said to check an id that was right. With --json
// stderr stays empty, the error's code telling a script.
func TestStatusOnTheEmbeddedSandboxSaysItIsFresh(t *testing.T) {
	r := depositCmd(t, nil, "status", "q-madeinanotherrun1")
	if r.code != exitNotFound || !strings.Contains(r.stderr, "started for this command: it knows no withdrawal another run made; follow one with withdraw --wait, or run svcwallet sandbox") {
		t.Errorf("exit %d, stderr %q", r.code, r.stderr)
	}
	if r = depositCmd(t, nil, "status", "q-madeinanotherrun1", "--json"); r.code != exitNotFound || r.stderr != "" {
		t.Errorf("--json: exit %d, stderr %q", r.code, r.stderr)
	}
}
