package cli

import (
	"encoding/json"
	"fmt"
	"net/http"
	"testing"

	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/follow"
	"github.com/svcwallet/svcwallet/service/journal"
	"github.com/svcwallet/svcwallet/service/sandbox"
)

// TestEarlierRefusalOfARedirectIsUnanswered: a withdraw answered 303,
// which versions up to 970b8053 journaled as a rejected line in their
// words alone ("The service refused: … (HTTP 303)"), then unknown to the
// status endpoint, is unanswered in every read: status says NOT FOUND
// YET, pending (exit 3), never REFUSED (exit 1, "nothing was debited"),
// and history lists it unfinished and unanswered, never REFUSED.
func TestEarlierRefusalOfARedirectIsUnanswered(t *testing.T) {
	r := newJournalingRig(t)
	hook := func(w http.ResponseWriter, _ *http.Request, _ http.Handler) bool {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusSeeOther)
		fmt.Fprint(w, `{"message":"see the withdrawal's status"}`)
		return true
	}
	r.withdrawHook.Store(&hook)
	res := r.runWithdraw(withdrawRunOpts{}, withdrawArgs(sandbox.DestCompleted, "25", "--yes")...)
	id := quoteIDOf(t, res.stdout+res.stderr)
	if n := rejectedLines(t, id); n != 0 {
		t.Fatalf("today's withdraw journaled the 303 as %d rejected lines, want none", n)
	}
	j, err := journal.Open(journal.DefaultPath())
	if err != nil {
		t.Fatal(err)
	}
	recs := recordsOf(t, id)
	if len(recs) != 1 {
		t.Fatalf("%d records of %s", len(recs), id)
	}
	// What an earlier version journaled of the same answer.
	old := journal.Entry{Time: r.clock.Now(), Kind: journal.KindRejected, Env: recs[0].Env, AccountID: recs[0].AccountID,
		QuoteID: id, Error: "The service refused: see the withdrawal's status (HTTP 303)"}
	if err := j.Append(old); err != nil {
		t.Fatal(err)
	}

	gone := func(path string, body []byte) []byte {
		if path != exchange.PathWithdrawalStatus {
			return body
		}
		return fmt.Appendf(nil, `{"code":%d,"message":"no withdrawal with this quote_id","status":404}`, exchange.CodeNotFound)
	}
	r.statusCode.Store(http.StatusNotFound)
	r.rewrite.Store(&gone)
	r.run(nil, id).want(t, exitPending, nil, []string{id + ": " + follow.LabelNotFoundYet, "may still execute until"})
	r.run(nil, "--json", id).want(t, exitPending, []string{`"outcome":"NOT FOUND YET"`, `"unanswered":true`}, nil)

	list := r.runLine(nil, statusCmd.runHistoryLine, "--env", "local", "--json")
	var out []follow.Record
	if list.code != 0 || json.Unmarshal([]byte(list.stdout), &out) != nil || len(out) != 1 {
		t.Fatalf("history: exit %d: %s%s", list.code, list.stdout, list.stderr)
	}
	if out[0].QuoteID != id || out[0].Outcome != follow.LabelUnanswered || out[0].Finished {
		t.Errorf("history lists %s as %q, finished %v; want %s, unfinished", out[0].QuoteID, out[0].Outcome, out[0].Finished, follow.LabelUnanswered)
	}
}
