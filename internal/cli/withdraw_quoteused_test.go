package cli

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/svcwallet/svcwallet/internal/exchangetest"
	"github.com/svcwallet/svcwallet/service/sandbox"
)

// TestWithdrawQuoteUsedIsSaidAsAnswered: a withdraw the service executes
// and answers 409 (9108, the quote already executed with another
// signature, or a 409 without a code of its own), or a 4xx the interface
// gives no meaning (exchangetest.Conflicts), is kept to resume, as one
// without an answer is, but is said as what the service answered: "no
// answer … after every retry" would be untrue, and "refused" too (it may
// have been paid). Said once, with resume as its one next step.
func TestWithdrawQuoteUsedIsSaidAsAnswered(t *testing.T) {
	for name, c := range exchangetest.Conflicts {
		t.Run(name, func(t *testing.T) {
			withdrawState(t)
			r := newStatusRig(t)
			hook := func(w http.ResponseWriter, req *http.Request, ex http.Handler) bool {
				ex.ServeHTTP(httptest.NewRecorder(), req)
				w.Header().Set("Content-Type", "application/json")
				w.WriteHeader(c.Status)
				fmt.Fprint(w, c.Body)
				return true
			}
			r.withdrawHook.Store(&hook)
			res := r.runWithdraw(withdrawRunOpts{}, withdrawArgs(sandbox.DestCompleted, "25", "--yes")...)
			res.want(t, exitError, "The service answered withdrawal q-", c.Says, "may have been paid", "svcwallet withdraw resume q-")
			if strings.Contains(res.stderr, "no answer") || strings.Contains(res.stderr, "refused") {
				t.Errorf("an answered withdraw that may have paid is said unanswered or refused:\n%s", res.stderr)
			}
			// Up to the resume's --env: the test's own name is in --config.
			if said, _, _ := strings.Cut(res.stderr, " --env "); exchangetest.SaidTwice(said) {
				t.Errorf("the answer is said twice, or with a next step besides resume:\n%s", res.stderr)
			}
			if exchangetest.Nested(res.stderr) {
				t.Errorf("the answer nests parentheses:\n%s", res.stderr)
			}
			r.wantBalance("9975")
		})
	}
}
