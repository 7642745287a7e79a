package withdrawal_test

import (
	"context"
	"io"
	"net"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"github.com/svcwallet/svcwallet/internal/loopback"
	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/follow"
	"github.com/svcwallet/svcwallet/service/journal"
	"github.com/svcwallet/svcwallet/service/sandbox"
	"github.com/svcwallet/svcwallet/service/withdrawal"
	"github.com/svcwallet/svcwallet/signer"
)

// closedAddr is a loopback address nothing listens on: a dial to it is
// refused.
func closedAddr(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().String()
}

// TestNotSentIsNoRefusal: a withdraw request that never left this machine
// (every dial refused) is journaled as not sent, worded so (nothing left,
// nothing paid, safe to try again), and named NOT SENT, never the
// service's REFUSED; its re-send that never leaves keeps an unanswered one
// unanswered (Lost), never settled: a dial refused, or no session.
func TestNotSentIsNoRefusal(t *testing.T) {
	w := newWorld(t, sandbox.Options{})
	closed := closedAddr(t)
	refused := &http.Client{Transport: loopback.RoundTripFunc(func(req *http.Request) (*http.Response, error) {
		if req.URL.Path == exchange.PathWithdraw {
			req = req.Clone(req.Context())
			req.URL.Host = closed
		}
		return http.DefaultTransport.RoundTrip(req)
	})}
	c, j, wd := w.through(t, refused)
	key := func() (signer.Key, error) { return loopback.MustKey(t, sandbox.DemoPrivateKey), nil }
	sent := wd.Execute(context.Background(), w.order(c), key)
	if !exchange.NotSent(sent.Err) || sent.Lost != nil || sent.Unrecorded != nil ||
		!strings.Contains(sent.Err.Error(), "Not sent") || !strings.Contains(sent.Err.Error(), "nothing was paid") {
		t.Fatalf("sent: err %v, lost %v, unrecorded %v", sent.Err, sent.Lost, sent.Unrecorded)
	}
	recs := mustRecords(t, c, j)
	if len(recs) != 1 || !recs[0].NotSent || !recs[0].Finished() {
		t.Fatalf("journaled %+v", recs)
	}
	if o := follow.RecordOutcome(recs[0]); o.Name != follow.LabelNotSent || strings.Contains(o.Words, "refused") || !strings.Contains(o.Reason, "connection refused") {
		t.Errorf("its outcome: %+v", o)
	}
	if re := wd.Resend(context.Background(), recs[0].Request); !re.Lost || re.Refused {
		t.Errorf("a re-send that never left: %+v", re)
	}
	c.Logout()
	if re := wd.Resend(context.Background(), recs[0].Request); !re.Lost || re.Refused {
		t.Errorf("a re-send without a session: %+v", re)
	}
}

// TestSentAgainAfterNotSent: the same order signed again after its request
// never left is a request that may run: when that one reaches the service
// and its answer is lost, it is Lost, and every reader of the journal sees
// it unanswered (the record, the unfinished ones History offers to take
// up, the repeat check) and follow calls it what the service says, never
// NOT SENT, and not final while it is not.
func TestSentAgainAfterNotSent(t *testing.T) {
	w := newWorld(t, sandbox.Options{})
	closed := closedAddr(t)
	// Every withdraw is dialed to a closed port while refuse is set, else
	// passed on and its answer dropped: it pays, and nobody hears it.
	var refuse atomic.Bool
	refuse.Store(true)
	proxy := &http.Client{Transport: loopback.RoundTripFunc(func(req *http.Request) (*http.Response, error) {
		if req.URL.Path != exchange.PathWithdraw {
			return http.DefaultTransport.RoundTrip(req)
		}
		if refuse.Load() {
			req = req.Clone(req.Context())
			req.URL.Host = closed
			return http.DefaultTransport.RoundTrip(req)
		}
		resp, err := http.DefaultTransport.RoundTrip(req)
		if err == nil {
			resp.Body.Close()
			err = io.ErrUnexpectedEOF
		}
		return nil, err
	})}
	c, j, wd := w.through(t, proxy)
	key := func() (signer.Key, error) { return loopback.MustKey(t, sandbox.DemoPrivateKey), nil }
	o := w.order(c)
	if sent := wd.Execute(context.Background(), o, key); !exchange.NotSent(sent.Err) {
		t.Fatalf("first: %+v", sent)
	}
	refuse.Store(false)
	sent := wd.Execute(context.Background(), o, key)
	if sent.Lost == nil || exchange.NotSent(sent.Err) {
		t.Fatalf("again: %+v; want its answer lost", sent)
	}
	if bal := w.Ex.Balance(sandbox.DemoAccountID); !bal.Equal(decimal.RequireFromString("9975")) {
		t.Fatalf("balance %s: the second was not paid", bal)
	}
	recs := mustRecords(t, c, j)
	if len(recs) != 1 || !recs[0].Unanswered() || recs[0].NotSent || recs[0].Finished() {
		t.Fatalf("journaled %+v; want it unanswered", recs)
	}
	if o := follow.RecordOutcome(recs[0]); o.Name != follow.LabelUnanswered {
		t.Errorf("its outcome from the journal: %+v", o)
	}
	s, _ := c.Session()
	if open, _, err := j.UnfinishedRecords(journal.OwnerOf(c.Env(), s.AccountID)); err != nil || len(open) != 1 || open[0].QuoteID != o.Quote.QuoteID {
		t.Errorf("unfinished: %+v, %v; want it, to take up", open, err)
	}
	if rep := withdrawal.FindRepeat(recs, o.Choice, w.Clock.Now()); rep.Unanswered == nil {
		t.Error("an identical withdrawal is not stopped by the unanswered one")
	}
	// Followed, the service's word stands: accepted, never NOT SENT; and
	// a CREATED (as it says while the request is on its way) is no end.
	st, err := c.WithdrawalStatus(context.Background(), o.Quote.QuoteID)
	if err != nil {
		t.Fatal(err)
	}
	created := exchange.Withdrawal{QuoteID: o.Quote.QuoteID, State: exchange.StateCreated}
	for _, answer := range []exchange.Withdrawal{st, created} {
		f := &follow.Follow{QuoteID: o.Quote.QuoteID}
		follow.OwnOf(recs).Seed(f)
		f.Answer(answer, nil, time.Second, nil)
		if out := f.Outcome(); out.Name != answer.State || f.Final {
			t.Errorf("followed, the service saying %s: %+v, final %v", answer.State, out, f.Final)
		}
	}
}
