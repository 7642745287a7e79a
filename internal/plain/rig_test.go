package plain

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"maps"
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

	"github.com/svcwallet/svcwallet/internal/exchangetest"
	"github.com/svcwallet/svcwallet/service/config"
	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/follow"
	"github.com/svcwallet/svcwallet/service/journal"
	"github.com/svcwallet/svcwallet/service/sandbox"
	"github.com/svcwallet/svcwallet/service/target"
	"github.com/svcwallet/svcwallet/signer"
)

// rig is plain mode against an in-process sandbox on a fake clock: every
// wait between status asks moves the clock instead of sleeping, so a
// withdrawal settles at once.
type rig struct {
	t     *testing.T
	clock *exchangetest.FakeClock
	ex    *sandbox.Exchange
	// noAnswer: the sandbox's withdraw requests get a 502, an answer that
	// does not tell whether they arrived.
	noAnswer atomic.Bool
	// conflict, when set, is the answer a withdraw request gets once the
	// sandbox executed it.
	conflict atomic.Pointer[exchangetest.Conflict]
	// receiveSaid, when set, is the receive amount a withdraw request's
	// 202 names in place of the quote's.
	receiveSaid atomic.Pointer[string]
	// statusAnswered, when positive, is how many status requests the
	// sandbox answers; a 502 answers every later one, or with statusGone
	// a 404 that knows no such withdrawal (statusAsks counts).
	statusAnswered, statusAsks atomic.Int32
	statusGone                 atomic.Bool
	// statusLeftOut: status answers leave out the receive amount and chain.
	statusLeftOut atomic.Bool
	// beforeWithdraw, when set, runs as a withdraw request arrives;
	// beforeStatus as a status request does.
	beforeWithdraw, beforeStatus atomic.Pointer[func()]
	// rewrite, when set, rewrites the sandbox's other answers, by path,
	// as a hostile proxy would.
	rewrite atomic.Pointer[func(path string, body []byte) []byte]
	journal *journal.Journal
	console *Console
	env     config.Environment
	vars    map[string]string
}

// nonce is the first signature nonce of a rig's runs.
const nonce = 4242

func newRig(t *testing.T) *rig {
	t.Helper()
	return newRigOn(t, func(url string) config.Environment { return config.SandboxEnvironment(url, sandbox.DefaultChainID) })
}

// newRigOn is newRig with the environment envOf makes of the sandbox's URL.
func newRigOn(t *testing.T, envOf func(url string) config.Environment) *rig {
	t.Helper()
	return newRigWith(t, sandbox.Options{}, envOf)
}

// newRigWith is newRigOn with a sandbox made with sb (its clock the rig's).
func newRigWith(t *testing.T, sb sandbox.Options, envOf func(url string) config.Environment) *rig {
	t.Helper()
	// The client's session reads the sandbox's Date header, on the real
	// clock: the fake one starts there.
	r := &rig{t: t, clock: exchangetest.NewFakeClock(time.Now().UTC()), vars: map[string]string{}}
	sb.Now = r.clock.Now
	r.ex = sandbox.New(sb)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		if f := r.beforeWithdraw.Load(); f != nil && req.URL.Path == exchange.PathWithdraw {
			(*f)()
		}
		if f := r.beforeStatus.Load(); f != nil && req.URL.Path == exchange.PathWithdrawalStatus {
			(*f)()
		}
		if n := r.statusAnswered.Load(); n > 0 && req.URL.Path == exchange.PathWithdrawalStatus && r.statusAsks.Add(1) > n {
			if r.statusGone.Load() {
				w.Header().Set("Content-Type", "application/json")
				w.WriteHeader(http.StatusNotFound)
				fmt.Fprintf(w, `{"code":%d,"message":"no withdrawal with this quote_id in this account","status":404}`, exchange.CodeNotFound)
				return
			}
			http.Error(w, "bad gateway", http.StatusBadGateway)
			return
		}
		if req.URL.Path == exchange.PathWithdraw && r.noAnswer.Load() {
			http.Error(w, "bad gateway", http.StatusBadGateway) // whether it arrived cannot be told
			return
		}
		if c := r.conflict.Load(); c != nil && req.URL.Path == exchange.PathWithdraw {
			r.ex.ServeHTTP(httptest.NewRecorder(), req)
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(c.Status)
			w.Write([]byte(c.Body))
			return
		}
		if said := r.receiveSaid.Load(); said != nil && req.URL.Path == exchange.PathWithdraw {
			got := httptest.NewRecorder()
			r.ex.ServeHTTP(got, req)
			var v map[string]any
			if err := json.Unmarshal(got.Body.Bytes(), &v); err != nil {
				t.Errorf("the 202: %v", err)
			}
			v["receive_amount"] = *said
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(got.Code)
			json.NewEncoder(w).Encode(v)
			return
		}
		if req.URL.Path == exchange.PathWithdrawalStatus && r.statusLeftOut.Load() {
			got := httptest.NewRecorder()
			r.ex.ServeHTTP(got, req)
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(got.Code)
			w.Write(regexp.MustCompile(`"(receive_amount|chain)":"[^"]*",?`).ReplaceAll(got.Body.Bytes(), nil))
			return
		}
		if f := r.rewrite.Load(); f != nil {
			got := httptest.NewRecorder()
			r.ex.ServeHTTP(got, req)
			maps.Copy(w.Header(), got.Header()) // the session cookie, too
			w.WriteHeader(got.Code)
			w.Write((*f)(req.URL.Path, got.Body.Bytes()))
			return
		}
		r.ex.ServeHTTP(w, req)
	}))
	t.Cleanup(srv.Close)
	r.env = envOf(srv.URL)
	j, err := journal.Open(filepath.Join(t.TempDir(), "journal.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	r.journal = j
	nonces := uint32(nonce)
	// Retries wait on the fake clock.
	retry := exchange.RetryPolicy{Attempts: 3, Base: time.Second, Max: time.Second,
		Sleep: func(context.Context, time.Duration) error { r.clock.Advance(time.Second); return nil }}
	client := exchange.New(r.env, exchange.Options{Now: r.clock.Now, Retry: retry})
	r.console = &Console{
		Targets:     []target.Target{{Env: r.env, Client: client, Journal: j, Demo: &target.Demo{APIKey: sandbox.DemoAPIKey, PrivateKey: sandbox.DemoPrivateKey}}},
		KeystoreDir: t.TempDir(), Getenv: func(k string) string { return r.vars[k] },
		Now: r.clock.Now, After: func(d time.Duration) <-chan time.Time {
			r.clock.Advance(d)
			ch := make(chan time.Time, 1)
			ch <- r.clock.Now()
			return ch
		},
		Nonce:        func() uint32 { nonces++; return nonces - 1 },
		LoadKeystore: func(path, pass string) (signer.Key, error) { return signer.LoadKeystoreKey(path, pass) },
		PollInterval: follow.DefaultPollInterval,
		// A terminal where the user reads each review before answering.
		Gate: Gate{Flush: func() (bool, error) { return false, nil }, Now: readingClock()},
	}
	r.console.Gate.After = r.console.After // a paste followed to its end on the fake clock
	return r
}

// waitedClock is a clock that moves only as it is waited on: a paste
// followed to its end (Gate.PastedMore) pauses at once.
func waitedClock() (func() time.Time, func(time.Duration) <-chan time.Time) {
	clock := time.Unix(1_700_000_000, 0)
	return func() time.Time { return clock }, func(d time.Duration) <-chan time.Time {
		clock = clock.Add(d)
		c := make(chan time.Time, 1)
		c <- clock
		return c
	}
}

// readingClock is a clock a second later at each reading: a user who
// answers a question a second after it is asked, past the gate's dwell.
func readingClock() func() time.Time {
	var mu sync.Mutex
	at := time.Unix(0, 0)
	return func() time.Time {
		mu.Lock()
		defer mu.Unlock()
		at = at.Add(time.Second)
		return at
	}
}

// script is what the user types: each line, what it waits to see first,
// and what happens just before it is read (the clock moves, say).
type script struct {
	mu    sync.Mutex
	lines []scripted
	cur   []byte
	out   *transcript
}

type scripted struct {
	text string
	// after: the line is typed once the transcript holds this, as a
	// person types once they read it.
	after  string
	before func()
}

func (s *script) Read(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.cur) == 0 {
		if len(s.lines) == 0 {
			return 0, io.EOF
		}
		next := s.lines[0]
		s.lines = s.lines[1:]
		if next.after != "" && !s.out.waitFor(next.after, stall) {
			s.lines = nil
			return 0, io.EOF // the flow went elsewhere: the test's checks say where
		}
		if next.before != nil {
			next.before()
		}
		s.cur = []byte(next.text + "\n")
	}
	n := copy(p, s.cur)
	s.cur = s.cur[n:]
	return n, nil
}

// transcript is what plain mode writes, which a script may wait on.
type transcript struct {
	mu   sync.Mutex
	cond *sync.Cond
	buf  bytes.Buffer
}

func newTranscript() *transcript {
	t := &transcript{}
	t.cond = sync.NewCond(&t.mu)
	return t
}

func (t *transcript) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	defer t.cond.Broadcast()
	if os.Getenv("PLAIN_TRACE") != "" {
		os.Stderr.Write(p)
	}
	return t.buf.Write(p)
}

func (t *transcript) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.buf.String()
}

// stall bounds a wait for the transcript: a guard against a flow that
// went elsewhere, not a measure of speed.
const stall = 10 * time.Second

// waitFor waits until the transcript holds text, at most deadline; false
// when it never did.
func (t *transcript) waitFor(text string, deadline time.Duration) bool {
	end := time.Now().Add(deadline)
	wake := time.AfterFunc(deadline, func() { t.mu.Lock(); t.cond.Broadcast(); t.mu.Unlock() })
	defer wake.Stop()
	t.mu.Lock()
	defer t.mu.Unlock()
	for !strings.Contains(t.buf.String(), text) {
		if time.Now().After(end) {
			return false
		}
		t.cond.Wait()
	}
	return true
}

// after is line typed once the transcript holds what.
func after(what, line string) scripted { return scripted{text: line, after: what} }

// typed is a script of lines typed one after another.
func typed(lines ...string) []scripted {
	out := make([]scripted, len(lines))
	for i, l := range lines {
		out[i] = scripted{text: l}
	}
	return out
}

// run runs plain mode with what the user types and returns what it wrote
// and how it ended.
func (r *rig) run(lines ...scripted) (string, error) {
	r.t.Helper()
	out := newTranscript()
	err := r.console.Run(context.Background(), &script{lines: lines, out: out}, out, nil)
	return out.String(), err
}

// logIn is what the user types to log in by the demo API key.
var logIn = typed("API key", sandbox.DemoAPIKey)

// withdraw25 is what the user types from the home menu to withdraw 25
// USDT to the paying demo payee on ARBITRUM with a fee cap of 2, up to
// the confirmation.
var withdraw25 = typed("withdraw", "ARBITRUM", "USDT", sandbox.DestCompleted, "25", "2")

// steps joins scripts.
func steps(parts ...[]scripted) []scripted {
	var out []scripted
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}

// transcriptNoise is what changes from one run to the next: the
// sandbox's port, times and dates, quote and transfer ids, hashes,
// expirations in nanoseconds, and what is signed over them.
var transcriptNoise = []struct {
	re   *regexp.Regexp
	with string
}{
	{regexp.MustCompile(`http://127\.0\.0\.1:\d+`), "http://127.0.0.1:PORT"},
	{regexp.MustCompile(`\d{4}-\d\d-\d\d[ T]\d\d:\d\d(:\d\d)?( UTC|Z)?`), "DATE TIME"},
	{regexp.MustCompile(`\b\d\d:\d\d:\d\d\b`), "hh:mm:ss"},
	{regexp.MustCompile(`\bq-[a-z0-9]+`), "q-QUOTE"},
	{regexp.MustCompile(`\btx-[a-z0-9]+`), "tx-TRANSFER"},
	{regexp.MustCompile(`0x[0-9a-f]{64}`), "0xHASH"},
	{regexp.MustCompile(`\b1[0-9]{18}\b`), "NANOSECONDS"},
	{regexp.MustCompile(`SOLANA deposit address ready: \w+`), "SOLANA deposit address ready: ADDRESS"},
	{regexp.MustCompile(`expires in \d+s`), "expires in SECONDSs"},
}

// normalized is a transcript with what changes between runs replaced.
func normalized(s string) string {
	for _, n := range transcriptNoise {
		s = n.re.ReplaceAllString(s, n.with)
	}
	return s
}

// intents counts the withdrawals the journal saw leave (their intents).
func (r *rig) intents() int {
	r.t.Helper()
	entries, err := r.journal.Entries()
	if err != nil {
		r.t.Fatal(err)
	}
	n := 0
	for _, e := range entries {
		if e.Kind == journal.KindIntent {
			n++
		}
	}
	return n
}

// wants fails unless out holds each of want.
func wants(t *testing.T, out string, want ...string) {
	t.Helper()
	for _, w := range want {
		if !strings.Contains(out, w) {
			t.Errorf("no %q in:\n%s", w, out)
		}
	}
}
