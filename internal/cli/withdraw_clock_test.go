package cli

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/sandbox"
)

// TestWithdrawResumeWithTheLocalClockAhead is issue 25's attack on the
// command line: the commands' clock 75 s ahead of the service's, the
// first attempt of a withdrawal held by a gateway and its retries
// answered 502. By the local clock its quote expired over 10 s ago, by
// the service's it is valid: status says CREATED, pending (exit 3);
// resume re-sends it and decides nothing; an identical withdrawal is
// still refused. The held request, delivered late, executes; resume then
// follows it to COMPLETED. One debit.
func TestWithdrawResumeWithTheLocalClockAhead(t *testing.T) {
	r := newJournalingRig(t)
	r.ahead = 75 * time.Second
	var holding atomic.Bool
	var held atomic.Pointer[http.Request]
	holding.Store(true)
	hook := func(w http.ResponseWriter, req *http.Request, _ http.Handler) bool {
		if !holding.Load() {
			return false
		}
		body, _ := io.ReadAll(req.Body)
		kept := req.Clone(context.Background())
		kept.Body = io.NopCloser(bytes.NewReader(body))
		held.CompareAndSwap(nil, kept)
		http.Error(w, "<html>502 Bad Gateway</html>", http.StatusBadGateway)
		return true
	}
	r.withdrawHook.Store(&hook)
	res := r.runWithdraw(withdrawRunOpts{}, withdrawArgs(sandbox.DestCompleted, "25", "--yes")...)
	res.want(t, exitError, "svcwallet withdraw resume q-")
	id := quoteIDOf(t, res.stderr)

	r.run(nil, id).want(t, exitPending, []string{"State        CREATED"}, nil)
	r.runWithdraw(withdrawRunOpts{}, "resume", id).want(t, exitError, "still no answer from the service to withdrawal "+id)
	r.runWithdraw(withdrawRunOpts{}, withdrawArgs(sandbox.DestCompleted, "25", "--yes")...).want(t, exitFailed, "got no answer and may have been paid")
	r.wantBalance("10000")

	holding.Store(false)
	delivered := httptest.NewRecorder()
	r.ex.ServeHTTP(delivered, held.Load())
	if delivered.Code != http.StatusAccepted {
		t.Fatalf("the held request, delivered while its quote is valid: %d %s", delivered.Code, delivered.Body)
	}
	r.runWithdraw(withdrawRunOpts{}, "resume", id).want(t, exitCompleted, "State        COMPLETED")
	r.wantBalance("9975")
}

// TestNotFoundAfterAcceptance (issue 25 item 2): the service accepted a
// withdrawal, then its status endpoint answers 404 (a lagging replica, a
// hostile answer). For a withdrawal this journal saw accepted that is a
// contradiction, never "not found": status exits 3 saying so with the
// date and "contact support"; --watch and withdraw --wait say it and go
// on asking, to COMPLETED once the service knows it again.
func TestNotFoundAfterAcceptance(t *testing.T) {
	r := newJournalingRig(t)
	var left atomic.Int32 // 404s to answer; none when 0
	gone := func(path string, body []byte) []byte {
		n := left.Load()
		if path != exchange.PathWithdrawalStatus || n <= 0 {
			return body
		}
		if left.Add(-1) == 0 {
			r.statusCode.Store(0) // the next answer is the service's own
		}
		return fmt.Appendf(nil, `{"code":%d,"message":"no withdrawal with this quote_id","status":404}`, exchange.CodeNotFound)
	}
	notFound := func(n int32) {
		left.Store(n)
		r.statusCode.Store(http.StatusNotFound)
		r.rewrite.Store(&gone)
	}
	res := r.runWithdraw(withdrawRunOpts{}, withdrawArgs(sandbox.DestCompleted, "25", "--yes")...)
	res.want(t, exitCompleted, "Withdrawal accepted")
	id := quoteIDOf(t, res.stdout)
	contradiction := "accepted this withdrawal on " + r.now().UTC().Format("2006-01-02")

	notFound(1000)
	r.run(nil, id).want(t, exitPending, nil, []string{id + ": NOT FOUND?", contradiction, "Contact support"})
	r.run(nil, "--json", id).want(t, exitPending, nil, nil)
	// --csv has its row too, NOT FOUND? as every view names it.
	r.run(nil, "--csv", id).want(t, exitPending, []string{id + ",", ",NOT FOUND?,"}, nil)

	notFound(3)
	watched := r.run(nil, "--watch", id)
	watched.want(t, exitCompleted, []string{"NOT FOUND?  " + id, contradiction, "COMPLETED"}, nil)
	if strings.Count(watched.stdout, "NOT FOUND?") != 1 {
		t.Errorf("the contradiction said %d times, want once:\n%s", strings.Count(watched.stdout, "NOT FOUND?"), watched.stdout)
	}

	notFound(3)
	r.runWithdraw(withdrawRunOpts{}, withdrawArgs(sandbox.DestRefunded, "30", "--yes", "--wait")...).want(t, exitFailed, "NOT FOUND?", contradiction, "REFUNDED")
}
