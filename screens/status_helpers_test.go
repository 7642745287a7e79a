package screens

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/ethereum/go-ethereum/common"

	"svcwallet/screens/kit"
	"svcwallet/service"
	"svcwallet/service/sandbox"
	"svcwallet/signer"
	"svcwallet/tui"
)

// stT0 is the start of the status tests' fake clock, shared by the sandbox,
// the client and the screens.
var stT0 = time.Date(2026, 3, 2, 10, 0, 0, 0, time.UTC)

// stRig is a sandbox on a fake clock behind a server that counts status
// requests, keeps the withdraw bodies and can make status requests fail;
// and an App logged in to it with a journal of its own.
type stRig struct {
	t           *testing.T
	clock       *sandbox.FakeClock
	ex          *sandbox.Exchange
	srv         *httptest.Server
	app         *kit.App
	statusCalls atomic.Int64
	failStatus  atomic.Bool // answer status requests with 503
	// withdrawAnswer, when set, answers /bridge/withdraw instead of the sandbox.
	withdrawAnswer atomic.Pointer[http.HandlerFunc]

	mu        sync.Mutex
	withdraws [][]byte // bodies of /bridge/withdraw, in arrival order
}

func newStRig(t *testing.T) *stRig {
	t.Helper()
	r := &stRig{t: t, clock: sandbox.NewFakeClock(stT0)}
	r.ex = sandbox.New(sandbox.Options{Now: r.clock.Now})
	r.srv = httptest.NewServer(http.HandlerFunc(r.serve))
	t.Cleanup(r.srv.Close)
	env := service.SandboxEnvironment(r.srv.URL, sandbox.DefaultChainID)
	r.app = &kit.App{Deps: kit.Deps{Common: tui.NewCommon(true, r.clock.Now), Getenv: func(string) string { return "" }},
		Session: kit.Session{Target: kit.Target{Env: env, Client: r.client(sandbox.DemoAPIKey)}}}
	j, err := service.OpenJournal(filepath.Join(t.TempDir(), "journal.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	r.app.Target.Journal = j
	return r
}

func (r *stRig) serve(w http.ResponseWriter, req *http.Request) {
	switch req.URL.Path {
	case service.PathWithdrawalStatus:
		r.statusCalls.Add(1)
		if r.failStatus.Load() {
			http.Error(w, "<html>503 Service Unavailable</html>", http.StatusServiceUnavailable)
			return
		}
	case service.PathWithdraw:
		body, _ := io.ReadAll(req.Body)
		r.mu.Lock()
		r.withdraws = append(r.withdraws, body)
		r.mu.Unlock()
		req.Body = io.NopCloser(bytes.NewReader(body))
		if h := r.withdrawAnswer.Load(); h != nil {
			(*h)(w, req)
			return
		}
	}
	r.ex.ServeHTTP(w, req)
}

// client is a client logged in with apiKey on the rig's clock.
func (r *stRig) client(apiKey string) *service.Client {
	r.t.Helper()
	// Withdraw retries (D10) wait a millisecond, not seconds.
	c := service.New(service.SandboxEnvironment(r.srv.URL, sandbox.DefaultChainID), service.Options{Now: r.clock.Now,
		Retry: service.RetryPolicy{Attempts: 3, Base: time.Millisecond, Max: time.Millisecond}})
	if _, err := c.Login(context.Background(), service.APIKey(apiKey)); err != nil {
		r.t.Fatal(err)
	}
	return c
}

// signed quotes amount USDT to dest on ARBITRUM for the account of c and
// signs its Transfer with the account's key, without sending it.
func (r *stRig) signed(c *service.Client, keyHex, dest, amount string) (service.WithdrawRequest, service.Intent) {
	r.t.Helper()
	cx := context.Background()
	info, err := c.WithdrawalInfo(cx)
	if err != nil {
		r.t.Fatal(err)
	}
	q, err := c.Quote(cx, service.QuoteRequest{ToAddress: dest, Chain: "ARBITRUM", TokenIn: service.TokenUSDT, TokenOut: service.TokenUSDT, Amount: amount})
	if err != nil {
		r.t.Fatal(err)
	}
	raw, err := service.RawUnits(q.PayAmount)
	if err != nil {
		r.t.Fatal(err)
	}
	k, err := signer.ParsePrivateKeyHex(keyHex)
	if err != nil {
		r.t.Fatal(err)
	}
	sess, _ := c.Session()
	msg := signer.Transfer{
		FromAccount: common.HexToAddress(sess.FundingAccountAddress), ToAccount: common.HexToAddress(info.FundingAddress),
		TokenCurrency: signer.USDTCurrency, NumTokens: raw, Nonce: signer.NewNonce(), Expiration: r.clock.Now().Add(24 * time.Hour).UnixNano(),
	}
	sig, err := signer.Sign(k, c.Env().Domain(), msg)
	if err != nil {
		r.t.Fatal(err)
	}
	return service.WithdrawRequest{QuoteID: q.QuoteID, Signature: service.NewWithdrawSignature(sig)},
		service.Intent{ToAddress: dest, Chain: "ARBITRUM", TokenIn: service.TokenUSDT, TokenOut: service.TokenUSDT,
			PayAmount: q.PayAmount, ReceiveAmount: q.ReceiveAmount, ExpiresAt: q.ExpiresAt}
}

// executed makes a demo-account withdrawal to dest through the client, as
// another process would, and returns its quote id.
func (r *stRig) executed(dest, amount string) string {
	r.t.Helper()
	req, _ := r.signed(r.app.Client(), sandbox.DemoPrivateKey, dest, amount)
	if _, err := r.app.Client().Withdraw(context.Background(), req); err != nil {
		r.t.Fatal(err)
	}
	return req.QuoteID
}

// intent journals a signed request as the withdraw flow does just before
// sending it, and returns the record History would hand to newResume.
func (r *stRig) intent(req service.WithdrawRequest, in service.Intent) service.JournalRecord {
	r.t.Helper()
	sess, _ := r.app.Client().Session()
	err := r.app.Journal().Append(service.JournalEntry{Time: r.clock.Now(), Kind: service.JournalIntent, Env: r.app.Target.Env.Name,
		AccountID: sess.AccountID, QuoteID: req.QuoteID, Request: &req, Intent: &in})
	if err != nil {
		r.t.Fatal(err)
	}
	return r.record(req.QuoteID)
}

// record is the journal's record of a withdrawal.
func (r *stRig) record(quoteID string) service.JournalRecord {
	r.t.Helper()
	recs, err := r.app.Journal().Records()
	if err != nil {
		r.t.Fatal(err)
	}
	for _, rec := range recs {
		if rec.QuoteID == quoteID {
			return rec
		}
	}
	r.t.Fatalf("no journal record of %s", quoteID)
	return service.JournalRecord{}
}

// timer is what the screen asked to be woken with, and after how long.
type timer struct {
	d   time.Duration
	msg tea.Msg
}

// timed makes s schedule through a recorder instead of tea.Tick: the test
// sees every wait asked for and fires the timer itself.
func timed(s *statusScreen) *[]timer {
	var got []timer
	s.after = func(d time.Duration, msg tea.Msg) tea.Cmd {
		got = append(got, timer{d, msg})
		return nil
	}
	return &got
}

// drive runs cmd and every command that follows from the messages it makes,
// handing each message to s, until nothing is left. Commands run in this
// goroutine: s schedules no real timers (see timed).
func drive(s tui.Screen, cmd tea.Cmd) tui.Screen {
	queue := []tea.Cmd{cmd}
	for len(queue) > 0 {
		c := queue[0]
		queue = queue[1:]
		if c == nil {
			continue
		}
		switch msg := c().(type) {
		case nil:
		case tea.BatchMsg:
			queue = append(queue, msg...)
		default:
			var next tea.Cmd
			s, next = s.Update(msg)
			queue = append(queue, next)
		}
	}
	return s
}

// journalStates lists the states journaled for quoteID, in order.
func (r *stRig) journalStates(quoteID string) []string {
	r.t.Helper()
	entries, err := r.app.Journal().Entries()
	if err != nil {
		r.t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		if e.QuoteID != quoteID {
			continue
		}
		switch e.Kind {
		case service.JournalAccepted:
			out = append(out, "accepted")
		case service.JournalRejected:
			out = append(out, "rejected")
		case service.JournalState:
			out = append(out, e.State)
		}
	}
	return out
}
