package cli

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/svcwallet/svcwallet/internal/exchangetest"
	"github.com/svcwallet/svcwallet/internal/plain"
	"github.com/svcwallet/svcwallet/screens/kit"
	"github.com/svcwallet/svcwallet/screens/screentest"
	"github.com/svcwallet/svcwallet/screens/status"
	"github.com/svcwallet/svcwallet/screens/withdraw"
	"github.com/svcwallet/svcwallet/service/config"
	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/follow"
	"github.com/svcwallet/svcwallet/service/journal"
	"github.com/svcwallet/svcwallet/service/sandbox"
	"github.com/svcwallet/svcwallet/service/target"
	"github.com/svcwallet/svcwallet/signer"
)

// One journey, three faces: the same withdrawal asked through the command
// line, plain mode and the console, against the same sandbox behind a
// proxy that can refuse the next quote with a 429, comes to the same
// outcome in each: how many quotes were asked, how many withdrawals sent.

// journey is one withdrawal's inputs: its fee cap, a 429 on the first
// quote, and how long the quote has left when the user says yes (0: as
// much as it has).
type journey struct {
	name   string
	feeCap string
	limit  bool
	left   time.Duration
	want   outcome
}

// outcome is what a face did with a journey, as the service saw it.
type outcome struct{ Quotes, Withdraws int64 }

var journeys = []journey{
	{name: "a quote signed", feeCap: "2", want: outcome{Quotes: 1, Withdraws: 1}},
	// 4 s left: past the margin, nothing is signed and a fresh quote is
	// taken (the console by itself, the others when asked), then declined.
	{name: "expiry at 4 s left", feeCap: "2", left: 4 * time.Second, want: outcome{Quotes: 2}},
	{name: "a 429 waited out", feeCap: "2", limit: true, want: outcome{Quotes: 2, Withdraws: 1}},
	{name: "a refusal: the fee above the cap", feeCap: "1", want: outcome{Quotes: 1}},
}

// faceRig is the sandbox on a fake clock behind a counting proxy.
type faceRig struct {
	t                 *testing.T
	clock             *exchangetest.FakeClock
	quotes, withdraws atomic.Int64
	limit             atomic.Bool // the next quote request gets a 429
	mu                sync.Mutex
	lastQuote         time.Time // when the last quote served expires, by the sandbox's clock
}

func newFaceRig(t *testing.T, j journey) *faceRig {
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	t.Setenv("HOME", t.TempDir())
	r := &faceRig{t: t, clock: exchangetest.NewFakeClock(time.Now().UTC())}
	r.limit.Store(j.limit)
	return r
}

// front counts quote and withdraw requests and refuses one quote with a
// 429 when asked to.
func (r *faceRig) front(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		switch req.URL.Path {
		case exchange.PathWithdraw:
			r.withdraws.Add(1)
		case exchange.PathWithdrawalQuote:
			r.quotes.Add(1)
			if r.limit.CompareAndSwap(true, false) {
				w.Header().Set("Content-Type", "application/json")
				w.WriteHeader(http.StatusTooManyRequests)
				fmt.Fprint(w, `{"code":1006,"message":"slow down","status":429}`)
				return
			}
			r.mu.Lock()
			r.lastQuote = r.clock.Now().Add(sandbox.DefaultQuoteTTL)
			r.mu.Unlock()
		}
		next.ServeHTTP(w, req)
	})
}

// retry waits on the fake clock.
func (r *faceRig) retry() exchange.RetryPolicy {
	return exchange.RetryPolicy{Attempts: 3, Base: time.Second, Max: time.Second,
		Sleep: func(_ context.Context, d time.Duration) error { r.clock.Advance(d); return nil }}
}

// late moves the clock on until the newest quote has left to live (by the
// sandbox's clock, which every face reads): the user answering late.
func (r *faceRig) late(left time.Duration) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if left > 0 {
		r.clock.Advance(r.lastQuote.Add(-left).Sub(r.clock.Now()))
	}
}

func (r *faceRig) outcome() outcome { return outcome{r.quotes.Load(), r.withdraws.Load()} }

// answerLines is a reader of typed answerLines, each of which may first run a step
// (the clock moves, say) when it starts being read.
type answerLines struct {
	mu   sync.Mutex
	next []typedLine
	cur  []byte
}

type typedLine struct {
	text   string
	before func()
}

func (l *answerLines) Read(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.cur) == 0 {
		if len(l.next) == 0 {
			return 0, io.EOF
		}
		n := l.next[0]
		l.next = l.next[1:]
		if n.before != nil {
			n.before()
		}
		l.cur = []byte(n.text + "\n")
	}
	n := copy(p, l.cur)
	l.cur = l.cur[n:]
	return n, nil
}

func typedAnswers(before map[int]func(), texts ...string) *answerLines {
	l := &answerLines{}
	for i, t := range texts {
		l.next = append(l.next, typedLine{t, before[i]})
	}
	return l
}

// commandLine runs `svcwallet withdraw` on a terminal, answering as typed.
func (r *faceRig) commandLine(j journey) (outcome, string) {
	srv := r.serve()
	cfg := filepath.Join(r.t.TempDir(), "config.toml")
	writeConfig(r.t, cfg, true, "local", srv, srv)
	answers := []string{"y"}
	if j.left > 0 {
		answers = []string{"y", "y", "n"} // sign; a new quote; not this one
	}
	in := typedAnswers(map[int]func(){0: func() { r.late(j.left) }}, answers...)
	var out, errOut bytes.Buffer
	env := CLIEnv{Stdin: in, Stdout: &out, Stderr: &errOut, Getenv: func(k string) string {
		switch k {
		case apiKeyVar:
			return sandbox.DemoAPIKey
		case signer.KeyEnvVar:
			return sandbox.DemoPrivateKey
		}
		return ""
	}}
	c := withdrawCmd{env: env, now: r.clock.Now, nonce: func() uint32 { return wcliNonce },
		jitter: func(int64) int64 { return 0 },
		sleep:  func(_ context.Context, d time.Duration) error { r.clock.Advance(d); return nil },
		retry:  r.retry(), terminal: func(CLIEnv) bool { return true },
	}
	c.runLine([]string{"--config", cfg, "--chain", "ARBITRUM", "--to", sandbox.DestCompleted, "--amount", "25", "--max-fee", j.feeCap})
	return r.outcome(), out.String() + errOut.String()
}

// serve starts the sandbox behind the proxy and returns its URL.
func (r *faceRig) serve() string {
	srv := httptest.NewServer(r.front(sandbox.New(sandbox.Options{Now: r.clock.Now})))
	r.t.Cleanup(srv.Close)
	return srv.URL
}

// plainMode runs plain mode, typing as a person would.
func (r *faceRig) plainMode(j journey) (outcome, string) {
	srv := r.serve()
	env := config.SandboxEnvironment(srv, sandbox.DefaultChainID)
	jr, err := journal.Open(filepath.Join(r.t.TempDir(), "journal.jsonl"))
	if err != nil {
		r.t.Fatal(err)
	}
	read := time.Unix(0, 0)
	console := &plain.Console{
		Targets: []target.Target{{Env: env, Client: exchange.New(env, exchange.Options{Now: r.clock.Now, Retry: r.retry()}), Journal: jr,
			Demo: &target.Demo{APIKey: sandbox.DemoAPIKey, PrivateKey: sandbox.DemoPrivateKey}}},
		KeystoreDir: r.t.TempDir(), Getenv: func(string) string { return "" }, Now: r.clock.Now,
		After: func(d time.Duration) <-chan time.Time {
			r.clock.Advance(d)
			ch := make(chan time.Time, 1)
			ch <- r.clock.Now()
			return ch
		},
		Nonce: func() uint32 { return wcliNonce }, PollInterval: follow.DefaultPollInterval,
		// A terminal where the user answers each question a second after it.
		Gate: plain.Gate{Flush: func() (bool, error) { return false, nil }, Now: func() time.Time { read = read.Add(time.Second); return read }},
	}
	typed := []string{"API key", sandbox.DemoAPIKey, "withdraw", "ARBITRUM", "USDT", sandbox.DestCompleted, "25", j.feeCap}
	yes := len(typed)
	switch {
	case j.feeCap == "1":
		typed = append(typed, "Back home", "quit")
	case j.left > 0:
		typed = append(typed, "y", "Get a new quote", "n", "Back home", "quit")
	default:
		typed = append(typed, "y", "quit")
	}
	in := typedAnswers(map[int]func(){yes: func() { r.late(j.left) }}, typed...)
	var out bytes.Buffer
	if err := console.Run(context.Background(), in, &out, nil); err != nil {
		r.t.Errorf("plain mode: %v", err)
	}
	return r.outcome(), out.String()
}

// console drives the console's withdrawal screens, pressing as a person would.
func (r *faceRig) console(j journey) (outcome, string) {
	c := screentest.NewLoggedInConsole(r.t, 120, 40, screentest.ConsoleOpts{Clock: r.clock.Now, Retry: r.retry(), Front: r.front})
	c.App.Makers.Status = status.New
	// Countdowns fire only when the test says: the enter at 4 s left
	// reaches the review, whatever a tick would have done first.
	screentest.RecordTimers(c.App)
	c.Open(withdraw.New(c.App))
	c.FillDestinationFromRoute(sandbox.DestCompleted, "25")
	c.Press("tab")
	c.TypeText(j.feeCap)
	c.Press("enter")
	c.UntilShows("Withdraw: quote", "Speed")
	if j.feeCap == "1" {
		c.UntilSays("Refused: the fee 1.5 USDT is above your cap")
		return r.outcome(), c.Plain()
	}
	c.Press("enter")
	c.UntilShows("Quote expires in", "pinned", "sandbox demo key") // the bridge check and the key landed: the guard holds from them
	r.clock.Advance(kit.ShownGuard)
	c.UntilSays("Press enter to sign and withdraw")
	r.late(j.left)
	c.Press("enter")
	if j.left > 0 {
		c.UntilSays("too little to sign and send it: here is a fresh one to review")
		r.clock.Advance(kit.KeyGuard) // it takes keys a moment after it came
		c.UntilShows("Speed", "Press enter to review")
		return r.outcome(), c.Plain()
	}
	c.UntilShows("Withdrawal accepted")
	return r.outcome(), c.Plain()
}

// TestOneJourneyThreeFaces: the same journeys through the command line,
// plain mode and the console come to the same outcome, and each face says
// what happened in its own words.
func TestOneJourneyThreeFaces(t *testing.T) {
	faces := []struct {
		name string
		run  func(*faceRig, journey) (outcome, string)
		says map[string]string // journey → words the face must have said
	}{
		{"command line", (*faceRig).commandLine, map[string]string{
			"expiry at 4 s left":               "was about to expire while you answered (4s left",
			"a refusal: the fee above the cap": "not signed: the fee 1.5 USDT is above your cap of 1 USDT",
			"a quote signed":                   "accepted",
		}},
		{"plain mode", (*faceRig).plainMode, map[string]string{
			"expiry at 4 s left":               "expired while waiting for your answer",
			"a refusal: the fee above the cap": "This quote cannot be signed: the fee 1.5 USDT is above your cap of 1 USDT",
			"a quote signed":                   "Withdrawal accepted",
		}},
		{"console", (*faceRig).console, map[string]string{
			"expiry at 4 s left":               "had 5s or less left, too little to sign and send it",
			"a refusal: the fee above the cap": "Refused: the fee 1.5 USDT is above your cap of 1 USDT",
			"a quote signed":                   "Withdrawal accepted",
		}},
	}
	for _, j := range journeys {
		for _, f := range faces {
			t.Run(j.name+"/"+f.name, func(t *testing.T) {
				got, said := f.run(newFaceRig(t, j), j)
				if got != j.want {
					t.Errorf("%+v, want %+v; the face said:\n%s", got, j.want, said)
				}
				if w := f.says[j.name]; w != "" && !strings.Contains(screentest.OneLine(said), w) {
					t.Errorf("the face did not say %q:\n%s", w, said)
				}
			})
		}
	}
}
