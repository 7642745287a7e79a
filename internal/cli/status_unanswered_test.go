package cli

import (
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/follow"
	"github.com/svcwallet/svcwallet/service/journal"
	"github.com/svcwallet/svcwallet/service/sandbox"
)

// TestNotFoundOfUnansweredRequest: every try of a withdraw request is
// answered 502 (it never reached the service: the journal holds it sent,
// with no answer) and the status endpoint answers 404. Until its quote
// can no longer execute by the service's clock that is NOT FOUND YET,
// still pending (exit 3) in text, --json and --csv, never "not found"
// (4); past it, it is never paid (EXPIRED, exit 1), as resume settles it.
// Asked once, its words promise no further ask: they say how to keep
// asking; --json gives its record, as --csv its row, never an error.
func TestNotFoundOfUnansweredRequest(t *testing.T) {
	r := newJournalingRig(t)
	hook := func(w http.ResponseWriter, _ *http.Request, _ http.Handler) bool {
		http.Error(w, "<html>502 Bad Gateway</html>", http.StatusBadGateway)
		return true
	}
	r.withdrawHook.Store(&hook)
	res := r.runWithdraw(withdrawRunOpts{}, withdrawArgs(sandbox.DestCompleted, "25", "--yes")...)
	res.want(t, exitError, "svcwallet withdraw resume q-")
	id := quoteIDOf(t, res.stderr)

	gone := func(path string, body []byte) []byte {
		if path != exchange.PathWithdrawalStatus {
			return body
		}
		return fmt.Appendf(nil, `{"code":%d,"message":"no withdrawal with this quote_id","status":404}`, exchange.CodeNotFound)
	}
	r.statusCode.Store(http.StatusNotFound)
	r.rewrite.Store(&gone)
	yet := []string{id + ": " + follow.LabelNotFoundYet, "Sent, no answer yet; not found so far", "may still execute until"}
	text := r.run(nil, id)
	text.want(t, exitPending, nil, append(yet, "nothing is final. Resuming", "To keep asking, run svcwallet status "+id+" --watch"))
	js := r.run(nil, "--json", id)
	js.want(t, exitPending, []string{`{"kind":"status","quote_id":"` + id, `"outcome":"NOT FOUND YET"`, `"unanswered":true`}, nil)
	if said := text.stderr + js.stdout; strings.Contains(said, "asked again") || strings.Contains(js.stdout, `"error"`) {
		t.Errorf("asked once, it says it is asked again, or --json gives an error:\n%s", said)
	}
	csv := r.run(nil, "--csv", id)
	csv.want(t, exitPending, []string{id, follow.LabelNotFoundYet}, nil)
	if !strings.Contains(csv.stdout, ",true,false,") { // unanswered, not finished
		t.Errorf("the row does not say the request is unanswered and not finished:\n%s", csv.stdout)
	}

	if recs := recordsOf(t, id); len(recs) != 1 || !recs[0].Unanswered() {
		t.Fatalf("within the margin the journal holds %d records, want one unanswered still", len(recs))
	}

	// Past it, by the service's clock read after the 404: EXPIRED, and
	// journaled never paid, as withdraw resume would (history, the
	// repeat guard and Home's check see it settled).
	r.clock.Advance(2*time.Minute + follow.ExecutableMargin)
	r.run(nil, id).want(t, exitFailed, nil, []string{id + ": " + follow.LabelExpired, exchange.ExpiredWords})
	if recs := recordsOf(t, id); len(recs) != 1 || recs[0].Unanswered() || !recs[0].QuoteExpired || recs[0].Error != journal.NeverPaid {
		t.Fatalf("past the margin the journal holds %d records (answered %v, quote expired %v), want one never paid", len(recs), len(recs) > 0 && recs[0].Answered, len(recs) > 0 && recs[0].QuoteExpired)
	}
	r.run(nil, id).want(t, exitFailed, nil, []string{id + ": " + follow.LabelExpired})
	if n := rejectedLines(t, id); n != 1 {
		t.Errorf("never paid journaled %d times, want once", n)
	}
	r.run(nil, "--json", id).want(t, exitFailed, []string{`{"kind":"status","quote_id":"` + id, `"outcome":"EXPIRED"`}, nil)
	r.wantBalance("10000")
}

// recordsOf is the journal's records of id, every account's.
func recordsOf(t *testing.T, id string) []journal.Record {
	t.Helper()
	j, err := journal.Open(journal.DefaultPath())
	if err != nil {
		t.Fatal(err)
	}
	recs, err := j.Records()
	if err != nil {
		t.Fatal(err)
	}
	return slices.DeleteFunc(recs, func(r journal.Record) bool { return r.QuoteID != id })
}

// rejectedLines counts the journal's rejected lines of id.
func rejectedLines(t *testing.T, id string) int {
	t.Helper()
	j, err := journal.Open(journal.DefaultPath())
	if err != nil {
		t.Fatal(err)
	}
	entries, err := j.Entries()
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, e := range entries {
		if e.QuoteID == id && e.Kind == journal.KindRejected {
			n++
		}
	}
	return n
}

// TestNotFoundOfRefusedRequest: a withdraw request the service refused
// (its journal holds REFUSED, with the reason), then unknown to the
// status endpoint, is said as the journal knows it, never paid: REFUSED,
// exit 1, a record in --json; never NOT FOUND (4), which would send a
// person to look for it under another account.
func TestNotFoundOfRefusedRequest(t *testing.T) {
	r := newJournalingRig(t)
	hook := func(w http.ResponseWriter, _ *http.Request, _ http.Handler) bool {
		w.WriteHeader(http.StatusBadRequest)
		fmt.Fprintf(w, `{"code":%d,"message":"balance too low","status":400}`, exchange.CodeInsufficientBalance)
		return true
	}
	r.withdrawHook.Store(&hook)
	res := r.runWithdraw(withdrawRunOpts{}, withdrawArgs(sandbox.DestCompleted, "25", "--yes")...)
	id := quoteIDOf(t, res.stdout+res.stderr)
	gone := func(path string, body []byte) []byte {
		if path != exchange.PathWithdrawalStatus {
			return body
		}
		return fmt.Appendf(nil, `{"code":%d,"message":"no withdrawal with this quote_id","status":404}`, exchange.CodeNotFound)
	}
	r.statusCode.Store(http.StatusNotFound)
	r.rewrite.Store(&gone)
	r.run(nil, id).want(t, exitFailed, nil, []string{id + ": " + follow.LabelRefused, "Nothing was debited", "the service does not know this quote id"})
	js := r.run(nil, "--json", id)
	js.want(t, exitFailed, []string{`{"kind":"status","quote_id":"` + id, `"outcome":"REFUSED"`}, nil)
	if strings.Contains(js.stdout+js.stderr, "no withdrawal with quote id") {
		t.Errorf("said not found:\n%s%s", js.stdout, js.stderr)
	}
}
