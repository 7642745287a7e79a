package screentest

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/ethereum/go-ethereum/common"
	"github.com/shopspring/decimal"

	"github.com/svcwallet/svcwallet/internal/exchangetest"
	"github.com/svcwallet/svcwallet/screens/kit"
	"github.com/svcwallet/svcwallet/service/config"
	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/journal"
	"github.com/svcwallet/svcwallet/service/sandbox"
	"github.com/svcwallet/svcwallet/service/target"
	"github.com/svcwallet/svcwallet/signer"
	"github.com/svcwallet/svcwallet/tui"
)

// RigStart is the start of the status tests' fake clock, shared by the sandbox,
// the client and the screens.
var RigStart = time.Date(2026, 3, 2, 10, 0, 0, 0, time.UTC)

// StatusRig is a sandbox on a fake clock behind a server that counts status
// requests, keeps the withdraw bodies and can make status requests fail;
// and an App logged in to it with a journal of its own.
type StatusRig struct {
	T           *testing.T
	Clock       *exchangetest.FakeClock
	Exchange    *sandbox.Exchange
	Srv         *httptest.Server
	App         *kit.App
	StatusCalls atomic.Int64
	FailStatus  atomic.Bool // answer status requests with 503
	// LimitStatus, when above 0, answers status requests as the sandbox's
	// rate limit does: 429, code 1006, Retry-After of that many seconds.
	LimitStatus atomic.Int64
	// WithdrawAnswer, when set, answers /bridge/withdraw instead of the sandbox.
	WithdrawAnswer atomic.Pointer[http.HandlerFunc]
	// StatusRewrite, when set, rewrites the sandbox's status answers as a
	// hostile proxy would.
	StatusRewrite atomic.Pointer[func(body []byte) []byte]
	// Bodies, by path, are answered with 200 in place of the sandbox: an
	// answer the spec allows that the sandbox never gives ("route": {}).
	Bodies sync.Map

	mu        sync.Mutex
	withdraws [][]byte // bodies of /bridge/withdraw, in arrival order
}

// NewStatusRig starts the rig: a sandbox on a fake clock at RigStart, and
// an App logged in with the demo API key.
func NewStatusRig(t *testing.T) *StatusRig {
	t.Helper()
	r := &StatusRig{T: t, Clock: exchangetest.NewFakeClock(RigStart)}
	r.Exchange = sandbox.New(sandbox.Options{Now: r.Clock.Now})
	r.Srv = httptest.NewServer(http.HandlerFunc(r.serve))
	t.Cleanup(r.Srv.Close)
	env := config.SandboxEnvironment(r.Srv.URL, sandbox.DefaultChainID)
	// Its timers wait on the fake clock, which only the test moves: none
	// fires unless the test records them (RecordTimers) and fires them;
	// nor does a Cmd wait on it (ByTimers).
	r.App = &kit.App{Deps: kit.Deps{Common: tui.NewCommon(true, r.Clock.Now), Getenv: func(string) string { return "" }, Makers: kit.Makers{Home: NewHome}},
		Session: kit.Session{Target: target.Target{Env: env, Client: r.Client(sandbox.DemoAPIKey)}},
		Hooks:   kit.Hooks{Timer: func(time.Duration, tea.Msg) tea.Cmd { return nil }, Wait: ByTimers}}
	OpenJournal(t, r.App)
	return r
}

func (r *StatusRig) serve(w http.ResponseWriter, req *http.Request) {
	if body, ok := r.Bodies.Load(req.URL.Path); ok {
		w.Header().Set("Content-Type", "application/json")
		w.Write(body.([]byte))
		return
	}
	switch req.URL.Path {
	case exchange.PathWithdrawalStatus:
		r.StatusCalls.Add(1)
		if r.FailStatus.Load() {
			http.Error(w, "<html>503 Service Unavailable</html>", http.StatusServiceUnavailable)
			return
		}
		if secs := r.LimitStatus.Load(); secs > 0 {
			w.Header().Set("Retry-After", strconv.FormatInt(secs, 10))
			w.WriteHeader(http.StatusTooManyRequests)
			fmt.Fprintf(w, `{"code":%d,"message":"more than the allowed requests a second for this account; retry after %d s","status":429}`, exchange.CodeRateLimited, secs)
			return
		}
		if f := r.StatusRewrite.Load(); f != nil {
			rec := httptest.NewRecorder()
			r.Exchange.ServeHTTP(rec, req)
			w.WriteHeader(rec.Code)
			w.Write((*f)(rec.Body.Bytes()))
			return
		}
	case exchange.PathWithdraw:
		body, _ := io.ReadAll(req.Body)
		r.mu.Lock()
		r.withdraws = append(r.withdraws, body)
		r.mu.Unlock()
		req.Body = io.NopCloser(bytes.NewReader(body))
		if h := r.WithdrawAnswer.Load(); h != nil {
			(*h)(w, req)
			return
		}
	}
	r.Exchange.ServeHTTP(w, req)
}

// Client is a Client logged in with apiKey on the rig's clock.
func (r *StatusRig) Client(apiKey string) *exchange.Client {
	r.T.Helper()
	// Withdraw retries (D10) wait a millisecond, not seconds.
	c := exchange.New(config.SandboxEnvironment(r.Srv.URL, sandbox.DefaultChainID), exchange.Options{Now: r.Clock.Now,
		Retry: exchange.RetryPolicy{Attempts: 3, Base: time.Millisecond, Max: time.Millisecond}})
	if _, err := c.Login(context.Background(), exchange.APIKey(apiKey)); err != nil {
		r.T.Fatal(err)
	}
	return c
}

// Signed quotes amount USDT to dest on ARBITRUM for the account of c and
// signs its Transfer with the account's key, without sending it.
func (r *StatusRig) Signed(c *exchange.Client, keyHex, dest, amount string) (exchange.WithdrawRequest, journal.Intent) {
	r.T.Helper()
	cx := context.Background()
	info, err := c.WithdrawalInfo(cx)
	if err != nil {
		r.T.Fatal(err)
	}
	q, err := c.Quote(cx, exchange.QuoteRequest{ToAddress: dest, Chain: "ARBITRUM", TokenIn: exchange.TokenUSDT, TokenOut: exchange.TokenUSDT, Amount: amount})
	if err != nil {
		r.T.Fatal(err)
	}
	raw, err := exchange.RawUnits(q.PayAmount)
	if err != nil {
		r.T.Fatal(err)
	}
	k, err := signer.ParsePrivateKeyHex(keyHex)
	if err != nil {
		r.T.Fatal(err)
	}
	sess, _ := c.Session()
	msg := signer.Transfer{
		FromAccount: common.HexToAddress(sess.FundingAccountAddress), ToAccount: common.HexToAddress(info.FundingAddress),
		TokenCurrency: signer.USDTCurrency, NumTokens: raw, Nonce: signer.NewNonce(), Expiration: r.Clock.Now().Add(24 * time.Hour).UnixNano(),
	}
	sig, err := signer.Sign(context.Background(), k, c.Env().Domain(), msg)
	if err != nil {
		r.T.Fatal(err)
	}
	return exchange.WithdrawRequest{QuoteID: q.QuoteID, Signature: exchange.NewWithdrawSignature(sig)},
		journal.Intent{ToAddress: dest, Chain: "ARBITRUM", TokenIn: exchange.TokenUSDT, TokenOut: exchange.TokenUSDT,
			PayAmount: q.PayAmount, ReceiveAmount: q.ReceiveAmount, ExpiresAt: q.ExpiresAt}
}

// Executed makes a demo-account withdrawal to dest through the client, as
// another process would, and returns its quote id.
func (r *StatusRig) Executed(dest, amount string) string {
	r.T.Helper()
	req, _ := r.Signed(r.App.Client(), sandbox.DemoPrivateKey, dest, amount)
	if _, err := r.App.Client().Withdraw(context.Background(), req); err != nil {
		r.T.Fatal(err)
	}
	return req.QuoteID
}

// Made makes a demo-account withdrawal to dest as the console's withdraw
// flow does: its intent journaled, then sent and its acceptance journaled
// (Withdrawer.Resend sends the journaled body). It returns its quote id.
func (r *StatusRig) Made(dest, amount string) string {
	r.T.Helper()
	req, in := r.Signed(r.App.Client(), sandbox.DemoPrivateKey, dest, amount)
	r.Intent(req, in)
	if sent := r.App.Withdrawer().Resend(context.Background(), req); sent.Err != nil {
		r.T.Fatal(sent.Err)
	}
	return req.QuoteID
}

// Refused makes a demo-account withdrawal to dest that the service
// refuses at execute (sandbox.DestFlagged), journaled as the withdraw flow
// journals it: its intent, then the refusal with its reason. The service's
// record stays CREATED. It returns its quote id.
func (r *StatusRig) Refused(dest, amount string) string {
	r.T.Helper()
	req, in := r.Signed(r.App.Client(), sandbox.DemoPrivateKey, dest, amount)
	rec := r.Intent(req, in)
	_, err := r.App.Client().Withdraw(context.Background(), req)
	if err == nil || exchange.OutcomeUnknown(err) {
		r.T.Fatalf("withdraw to %s: %v, want a refusal", dest, err)
	}
	sess, _ := r.App.Client().Session()
	if err := r.App.Journal().Append(journal.Entry{Time: r.Clock.Now(), Kind: journal.KindRejected, Env: rec.Env,
		AccountID: sess.AccountID, QuoteID: req.QuoteID, Error: exchange.Explain(err).Error()}); err != nil {
		r.T.Fatal(err)
	}
	return req.QuoteID
}

// Intent journals a signed request as the withdraw flow does just before
// sending it, and returns the record History would hand to NewResume.
func (r *StatusRig) Intent(req exchange.WithdrawRequest, in journal.Intent) journal.Record {
	r.T.Helper()
	sess, _ := r.App.Client().Session()
	err := r.App.Journal().Append(journal.Entry{Time: r.Clock.Now(), Kind: journal.KindIntent, Env: r.App.Target.Env.Name,
		AccountID: sess.AccountID, QuoteID: req.QuoteID, Request: &req, Intent: &in})
	if err != nil {
		r.T.Fatal(err)
	}
	return r.Record(req.QuoteID)
}

// Record is the journal's Record of a withdrawal.
func (r *StatusRig) Record(quoteID string) journal.Record {
	r.T.Helper()
	recs, err := r.App.Journal().Records()
	if err != nil {
		r.T.Fatal(err)
	}
	for _, rec := range recs {
		if rec.QuoteID == quoteID {
			return rec
		}
	}
	r.T.Fatalf("no journal record of %s", quoteID)
	return journal.Record{}
}

// JournalStates lists the states journaled for quoteID, in order.
func (r *StatusRig) JournalStates(quoteID string) []string {
	r.T.Helper()
	entries, err := r.App.Journal().Entries()
	if err != nil {
		r.T.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		if e.QuoteID != quoteID {
			continue
		}
		switch e.Kind {
		case journal.KindAccepted:
			out = append(out, "accepted")
		case journal.KindRejected:
			out = append(out, "rejected")
		case journal.KindState:
			out = append(out, e.State)
		}
	}
	return out
}

// Balance is the demo account's balance in the sandbox.
func (r *StatusRig) Balance() decimal.Decimal { return r.Exchange.Balance(sandbox.DemoAccountID) }

// WithdrawBodies are the bodies of every withdraw request, in arrival order.
func (r *StatusRig) WithdrawBodies() [][]byte {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.withdraws)
}

// Seed makes the sandbox hold a demo-account withdrawal of 10 USDT to
// `to` on ARBITRUM, as if made elsewhere, and returns its quote id.
func Seed(t *testing.T, r *StatusRig, to string) string {
	t.Helper()
	id, err := r.Exchange.SeedWithdrawal(sandbox.DemoAccountID, to, "ARBITRUM", "10")
	if err != nil {
		t.Fatal(err)
	}
	return id
}

// HistoryEntries journals four withdrawals of the demo account at fixed
// times: completed, refused, sending and never answered (its quote valid
// until RigStart + 1 min); and one of another account and one of another
// environment, which the history must not show.
func HistoryEntries(t *testing.T, r *StatusRig) {
	t.Helper()
	sess, _ := r.App.Client().Session()
	env := r.App.Target.Env.Name
	intent := func(at time.Time, id, to, amount string) journal.Entry {
		chain := "ARBITRUM"
		if to == sandbox.DestSolana {
			chain = "SOLANA"
		}
		pay := decimal.RequireFromString(amount)
		return journal.Entry{Time: at, Kind: journal.KindIntent, Env: env, AccountID: sess.AccountID, QuoteID: id,
			Request: &exchange.WithdrawRequest{QuoteID: id, Signature: exchange.WithdrawSignature{
				Signer: sandbox.DemoAddress, R: "0x" + strings.Repeat("1", 64), S: "0x" + strings.Repeat("2", 64), V: 27,
				Expiration: strconv.FormatInt(at.Add(15*time.Minute).UnixNano(), 10),
			}},
			Intent: &journal.Intent{ToAddress: to, Chain: chain, TokenIn: exchange.TokenUSDT, TokenOut: exchange.TokenUSDT,
				PayAmount: pay, ReceiveAmount: pay.Sub(decimal.RequireFromString("1.5")), ExpiresAt: at.Add(time.Minute)}}
	}
	answer := func(at time.Time, id, kind, state, errText string) journal.Entry {
		return journal.Entry{Time: at, Kind: kind, Env: env, AccountID: sess.AccountID, QuoteID: id, State: state, Error: errText}
	}
	day := RigStart.Add(-26 * time.Hour)
	entries := []journal.Entry{
		intent(day, "q-completed", sandbox.DestCompleted, "250"),
		answer(day.Add(time.Second), "q-completed", journal.KindAccepted, "", ""),
		answer(day.Add(7*time.Second), "q-completed", journal.KindState, exchange.StateCompleted, ""),
		intent(day.Add(time.Hour), "q-refused", sandbox.DestFlagged, "40"),
		answer(day.Add(time.Hour+time.Second), "q-refused", journal.KindRejected, "", "Address screening flagged the destination: the withdrawal was refused; contact support"),
		intent(RigStart.Add(-10*time.Minute), "q-sending", sandbox.DestSolana, "1000.5"),
		answer(RigStart.Add(-10*time.Minute+time.Second), "q-sending", journal.KindState, exchange.StateSending, ""),
		intent(RigStart, "q-unanswered", sandbox.DestRefunded, "25"),
	}
	other := intent(RigStart, "q-other-account", sandbox.DestCompleted, "5")
	other.AccountID = sandbox.NoChainAccountID
	elsewhere := intent(RigStart, "q-other-env", sandbox.DestCompleted, "5")
	elsewhere.Env = "production"
	for _, e := range append(entries, other, elsewhere) {
		if err := r.App.Journal().Append(e); err != nil {
			t.Fatal(err)
		}
	}
}
