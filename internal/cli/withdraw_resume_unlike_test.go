package cli

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/svcwallet/svcwallet/service/sandbox"
)

// resumeWith202 leaves a withdrawal of 25 USDT unanswered (a 502 before the
// service commits it), then runs withdraw resume with args after its quote
// id, the service's 202 to the re-sent request changed by edit.
func resumeWith202(t *testing.T, edit func(map[string]any), args ...string) withdrawRun {
	t.Helper()
	r := newJournalingRig(t)
	var down atomic.Bool
	down.Store(true)
	r.faultWhile(&down, sandbox.PhaseBeforeCommit, sandbox.FaultBadGateway)
	res := r.runWithdraw(withdrawRunOpts{}, withdrawArgs(sandbox.DestCompleted, "25", "--yes")...)
	res.want(t, exitError, "run svcwallet withdraw resume q-")
	id := quoteIDOf(t, res.stderr)
	down.Store(false)
	hook := func(w http.ResponseWriter, req *http.Request, ex http.Handler) bool {
		got := httptest.NewRecorder()
		ex.ServeHTTP(got, req)
		var v map[string]any
		if err := json.Unmarshal(got.Body.Bytes(), &v); err != nil {
			t.Errorf("the 202: %v", err)
			return false
		}
		edit(v)
		w.WriteHeader(got.Code)
		json.NewEncoder(w).Encode(v)
		return true
	}
	r.withdrawHook.Store(&hook)
	return r.runWithdraw(withdrawRunOpts{}, append([]string{"resume", id}, args...)...)
}

// TestWithdrawResumeAcceptanceAgainstItsJournal: withdraw resume shows
// its re-sent request's 202 with the receive amount the journaled intent
// locked, and says one naming another does not add up (withdrawal.Resumed):
// the 202's own amount was printed as what is on its way.
func TestWithdrawResumeAcceptanceAgainstItsJournal(t *testing.T) {
	out := resumeWith202(t, func(v map[string]any) { v["receive_amount"] = "9999" })
	if !strings.Contains(out.stdout, "Withdrawal accepted") || strings.Contains(out.stdout, "9999 USDT on its way") ||
		!strings.Contains(out.stdout+out.stderr, "does not add up: it names a receive amount of 9999") {
		t.Fatalf("resume of a 202 naming 9999:\nstdout:\n%s\nstderr:\n%s", out.stdout, out.stderr)
	}
}
