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

// TestWithdrawResumeJSONNamesNoFeeNotGiven: withdraw resume --json of a 202
// that left the fee out writes no fee (withdrawal.Order.Figures, the rule
// its words follow): it wrote "fee":"0" and "fee_usd":"0", a bridge that
// took nothing. The amount the journal locked is written.
func TestWithdrawResumeJSONNamesNoFeeNotGiven(t *testing.T) {
	withdrawState(t)
	r := newStatusRig(t)
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
		delete(v, "fee")
		delete(v, "fee_usd")
		w.WriteHeader(got.Code)
		json.NewEncoder(w).Encode(v)
		return true
	}
	r.withdrawHook.Store(&hook)
	out := r.runWithdraw(withdrawRunOpts{}, "resume", id, "--json")
	for line := range strings.Lines(out.stdout) {
		var acc map[string]any
		if json.Unmarshal([]byte(line), &acc) != nil || acc["kind"] != "accepted" {
			continue
		}
		_, fee := acc["fee"]
		_, feeUSD := acc["fee_usd"]
		if fee || feeUSD || acc["receive_amount"] == nil || acc["receive_amount"] == "0" || acc["chain"] == "" {
			t.Fatalf("the accepted line of a 202 without a fee: %s", line)
		}
		return
	}
	t.Fatalf("no accepted line:\nstdout:\n%s\nstderr:\n%s", out.stdout, out.stderr)
}
