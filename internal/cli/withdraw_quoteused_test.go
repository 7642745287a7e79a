package cli

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/svcwallet/svcwallet/service/sandbox"
)

// TestWithdrawQuoteUsedIsSaidAsAnswered: a withdraw the service executes
// and answers 409, 9108 (the quote already executed with another
// signature) is kept to resume, as one without an answer is, but is said
// as what the service answered: "no answer … after every retry" would be
// untrue, and what to do next is the same.
func TestWithdrawQuoteUsedIsSaidAsAnswered(t *testing.T) {
	withdrawState(t)
	r := newStatusRig(t)
	hook := func(w http.ResponseWriter, req *http.Request, ex http.Handler) bool {
		ex.ServeHTTP(httptest.NewRecorder(), req)
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusConflict)
		fmt.Fprint(w, `{"code":9108,"message":"this quote was already executed with another signature","status":409}`)
		return true
	}
	r.withdrawHook.Store(&hook)
	res := r.runWithdraw(withdrawRunOpts{}, withdrawArgs(sandbox.DestCompleted, "25", "--yes")...)
	res.want(t, exitError, "the service answered withdrawal q-", "its quote is already used", "may have been paid", "svcwallet withdraw resume q-")
	if strings.Contains(res.stderr, "no answer") {
		t.Errorf("an answered withdraw is said unanswered:\n%s", res.stderr)
	}
	r.wantBalance("9975")
}
