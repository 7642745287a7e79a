package withdrawal_test

import (
	"context"
	"net"
	"net/http"
	"path/filepath"
	"strings"
	"testing"

	"github.com/svcwallet/svcwallet/internal/loopback"
	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/follow"
	"github.com/svcwallet/svcwallet/service/journal"
	"github.com/svcwallet/svcwallet/service/sandbox"
	"github.com/svcwallet/svcwallet/service/withdrawal"
	"github.com/svcwallet/svcwallet/signer"
)

// TestNotSentIsNoRefusal: a withdraw request that never left this machine
// (every dial refused) is journaled as not sent, worded so (nothing left,
// nothing paid, safe to try again), and named NOT SENT, never the
// service's REFUSED; its re-send that never leaves keeps an unanswered one
// unanswered (Lost), never settled: a dial refused, or no session.
func TestNotSentIsNoRefusal(t *testing.T) {
	w := newWorld(t, sandbox.Options{})
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := l.Addr().String()
	l.Close()
	refused := &http.Client{Transport: loopback.RoundTripFunc(func(req *http.Request) (*http.Response, error) {
		if req.URL.Path == exchange.PathWithdraw {
			req = req.Clone(req.Context())
			req.URL.Host = closed
		}
		return http.DefaultTransport.RoundTrip(req)
	})}
	c := w.Login(sandbox.DemoAPIKey, exchange.Options{HTTPClient: refused, Retry: exchange.RetryPolicy{Attempts: 2, Sleep: loopback.NoSleep}})
	j, err := journal.Open(filepath.Join(t.TempDir(), "journal.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	wd := mustWithdrawer(t, withdrawal.Setup{Client: c, Journal: j, Now: w.Clock.Now})
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
