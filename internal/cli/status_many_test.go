package cli

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/svcwallet/svcwallet/service/config"
	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/follow"
	"github.com/svcwallet/svcwallet/service/sandbox"
)

// seed makes n executed withdrawals to dest and returns their quote ids.
func (r *statusRig) seed(dest string, n int) []string {
	r.t.Helper()
	var ids []string
	for range n {
		id, err := r.ex.SeedWithdrawal(sandbox.DemoAccountID, dest, "BASE", "10")
		if err != nil {
			r.t.Fatal(err)
		}
		ids = append(ids, id)
	}
	return ids
}

// takeAsks returns the status requests seen since the last call.
func (r *statusRig) takeAsks() []time.Time {
	r.mu.Lock()
	defer r.mu.Unlock()
	asks := r.asks
	r.asks = nil
	return asks
}

func jsonLines(t *testing.T, stdout string) []exchange.Withdrawal {
	t.Helper()
	var ws []exchange.Withdrawal
	for _, line := range strings.Split(strings.TrimSpace(stdout), "\n") {
		var w exchange.Withdrawal
		if err := json.Unmarshal([]byte(line), &w); err != nil || w.QuoteID == "" {
			t.Fatalf("not a JSON line with a quote_id: %q (%v)", line, err)
		}
		ws = append(ws, w)
	}
	return ws
}

// TestStatusStdinWatchJSON: `status - --watch --json` follows 30
// withdrawals (10 each to COMPLETED, FAILED and REFUNDED) through one
// budget, prints each change once, ends with every id's final record in
// the order read, and exits 1 (the largest: not paid out).
func TestStatusStdinWatchJSON(t *testing.T) {
	r := newStatusRig(t)
	fates := map[string]string{}
	var stdin strings.Builder
	stdin.WriteString("# ticket 4711: the morning's payouts\n\n")
	for _, d := range []struct{ dest, fate string }{
		{sandbox.DestCompleted, exchange.StateCompleted}, {sandbox.DestFailed, exchange.StateFailed}, {sandbox.DestRefunded, exchange.StateRefunded},
	} {
		for _, id := range r.seed(d.dest, 10) {
			fates[id] = d.fate
			fmt.Fprintf(&stdin, "  %s  # to %s\n", id, d.fate)
		}
		stdin.WriteString("\n")
	}
	order := strings.Fields(regexpComments(stdin.String()))
	r.takeAsks()

	res := r.runStdin(stdin.String(), "-", "--watch", "--json")
	res.want(t, exitFailed, nil, nil)
	ws := jsonLines(t, res.stdout)
	if len(ws) < 30 {
		t.Fatalf("%d JSON lines", len(ws))
	}
	final := ws[len(ws)-30:]
	for i, w := range final {
		if w.QuoteID != order[i] || w.State != fates[w.QuoteID] {
			t.Errorf("final record %d: %s %s, want %s %s", i, w.QuoteID, w.State, order[i], fates[order[i]])
		}
	}
	changes := map[string][]string{}
	for _, w := range ws[:len(ws)-30] {
		changes[w.QuoteID] = append(changes[w.QuoteID], w.State)
	}
	for id, fate := range fates {
		got := changes[id]
		seen := map[string]bool{}
		for _, st := range got {
			if seen[st] {
				t.Errorf("%s: state %s printed twice in %v", id, st, got)
			}
			seen[st] = true
		}
		if len(got) == 0 || got[len(got)-1] != fate {
			t.Errorf("%s: changes %v, want each state once ending %s", id, got, fate)
		}
	}
	// One shared budget: never more than 5 asks in any second.
	asks := r.takeAsks()
	for i := range asks {
		if i >= config.DefaultFollowRate && asks[i].Sub(asks[i-config.DefaultFollowRate]) < time.Second {
			t.Fatalf("ask %d at %s: %d asks within a second", i, asks[i], config.DefaultFollowRate+1)
		}
	}
}

// regexpComments drops # comments, keeping the ids, for the expected order.
func regexpComments(s string) string {
	var b strings.Builder
	for _, line := range strings.Split(s, "\n") {
		if i := strings.Index(line, "#"); i >= 0 {
			line = line[:i]
		}
		b.WriteString(line + "\n")
	}
	return b.String()
}

// TestStatusManyIDs: several ids as arguments without --watch are each
// asked once; the exit is the largest of their statuses.
func TestStatusManyIDs(t *testing.T) {
	r := newStatusRig(t)
	done, failed := r.seed(sandbox.DestCompleted, 1)[0], r.seed(sandbox.DestFailed, 1)[0]
	r.clock.Advance(sandbox.DefaultSettle)
	created := r.withdraw(sandbox.DemoAPIKey, sandbox.DemoPrivateKey, sandbox.DestCompleted, false)
	r.takeAsks()

	res := r.run(nil, done, failed, done)
	res.want(t, exitFailed, []string{done + "  COMPLETED", failed + "  FAILED"}, nil)
	lines := strings.Split(strings.TrimSpace(res.stdout), "\n")
	if len(lines) != 3 || !regexp.MustCompile(`^QUOTE ID +STATE +RECEIVE +CHAIN +PAYOUT HASH$`).MatchString(lines[0]) ||
		strings.Index(lines[0], "STATE") != strings.Index(lines[1], "COMPLETED") {
		t.Errorf("want a header row over one line per distinct id, lined up (issue 28 item 21):\n%s", res.stdout)
	}
	if n := len(r.takeAsks()); n != 2 {
		t.Errorf("%d status requests, want each id asked once", n)
	}

	res = r.run(nil, "--json", done, created, failed)
	res.want(t, exitPending, nil, nil)
	ws := jsonLines(t, res.stdout)
	if len(ws) != 3 || ws[0].State != exchange.StateCompleted || ws[1].State != exchange.StateCreated || ws[2].State != exchange.StateFailed {
		t.Errorf("records %+v", ws)
	}

	// A quote left unexecuted past its lifetime is not paid out, and says so.
	r.clock.Advance(follow.LongestQuoteLife + follow.ExecutableMargin + time.Second)
	r.run(nil, done, created).want(t, exitFailed, []string{created + "  EXPIRED "}, nil)
}

// TestStatusCSV (issue 21 item 13): --csv prints a header and a row of
// each id with a record, in the order given, through the one CSV writer;
// an unknown id is said on stderr and has its NOT FOUND row, as the
// board's export gives it: a spreadsheet's column of ids matched against
// the rows lost the unknown ones; --csv with --json is a usage error.
func TestStatusCSV(t *testing.T) {
	r := newStatusRig(t)
	done, failed := r.seed(sandbox.DestCompleted, 1)[0], r.seed(sandbox.DestFailed, 1)[0]
	r.clock.Advance(sandbox.DefaultSettle)
	res := r.run(nil, "--csv", failed, "q-doesnotexist", done)
	if res.code != exitNotFound || !strings.Contains(res.stderr, "q-doesnotexist") {
		t.Fatalf("exit %d, stderr %q", res.code, res.stderr)
	}
	rows, err := csv.NewReader(strings.NewReader(res.stdout)).ReadAll()
	if err != nil || len(rows) != 4 || !slices.Equal(rows[0], follow.CSVHeader) {
		t.Fatalf("CSV %q (%v):\n%s", rows, err, res.stdout)
	}
	if rows[1][0] != failed || column(rows, 1, "outcome") != exchange.StateFailed || rows[3][0] != done ||
		column(rows, 3, "state") != exchange.StateCompleted || !strings.HasPrefix(column(rows, 3, "withdraw_tx_hash"), "0x") ||
		column(rows, 3, "state_seen") == "" || column(rows, 3, "tx_id") == "" {
		t.Errorf("rows %q", rows[1:])
	}
	if rows[2][0] != "q-doesnotexist" || column(rows, 2, "outcome") != "NOT FOUND" || column(rows, 2, "state") != "" ||
		column(rows, 2, "finished") != "true" || !strings.Contains(column(rows, 2, "meaning"), "on this account") {
		t.Errorf("the unknown id's row %q", rows[2])
	}
	if res := r.run(nil, "--csv", "--json", done); res.code != exitUsage || !strings.Contains(res.stdout+res.stderr, "--csv and --json: choose one") {
		t.Errorf("--csv --json: exit %d: %s %s", res.code, res.stdout, res.stderr)
	}
}

// TestStatusManyNotFound: an unknown id among found ones exits 4, names
// that id on stderr, and still prints the others' records.
func TestStatusManyNotFound(t *testing.T) {
	r := newStatusRig(t)
	done, refunded := r.seed(sandbox.DestCompleted, 1)[0], r.seed(sandbox.DestRefunded, 1)[0]
	r.clock.Advance(sandbox.DefaultSettle)
	res := r.runStdin(done+"\nq-doesnotexist\n"+refunded+"\n", "-", "--watch")
	res.want(t, exitNotFound, []string{"COMPLETED  " + done, "REFUNDED   " + refunded, done + "  COMPLETED", refunded + "  REFUNDED"},
		[]string{"no withdrawal with quote id q-doesnotexist on this account"})
	if strings.Contains(res.stdout, "q-doesnotexist") {
		t.Errorf("a record for the unknown id:\n%s", res.stdout)
	}
	// None known: no table, not a header over no row.
	res = r.run(nil, "q-doesnotexist", "q-noristhis")
	if res.code != exitNotFound || res.stdout != "" || strings.Count(res.stderr, "no withdrawal with quote id") != 2 {
		t.Errorf("every id unknown: exit %d, stdout %q, stderr %q", res.code, res.stdout, res.stderr)
	}
}

// TestStatusStdinUsage: comments and blank lines are skipped, but a
// malformed id is a usage error naming its line, before any request.
func TestStatusStdinUsage(t *testing.T) {
	r := newStatusRig(t)
	done := r.seed(sandbox.DestCompleted, 1)[0]
	r.takeAsks()
	r.runStdin("# from the ticket\n\n"+done+"\nq-bad id\n", "-").want(t, exitUsage, nil,
		[]string{`standard input line 4: "q-bad id" is not a quote id`, "for usage"})
	r.runStdin("q-ok\nq-\x01ctl\n", "-").want(t, exitUsage, nil, []string{"standard input line 2", "a character other than letters, digits"})
	r.runStdin("q-long\n"+strings.Repeat("q", 129)+"\n", "-").want(t, exitUsage, nil, []string{"standard input line 2", "at most 128"})
	r.runStdin("# nothing\n\n", "-").want(t, exitUsage, nil, []string{"no quote id on standard input"})
	// What the board's field is given reads the same: the comment is
	// skipped, the malformed id after it named (follow.ParseQuoteIDs).
	r.runStdin(done+"\n# comment\nbad!id\n", "-").want(t, exitUsage, nil, []string{`standard input line 3: "bad!id" is not a quote id`})
	r.runStdin(done, "-", "-").want(t, exitUsage, nil, []string{"- is given twice"})
	if n := len(r.takeAsks()); n != 0 {
		t.Errorf("%d status requests after usage errors, want none", n)
	}
	// The same input without the bad line is read: comments, blank lines
	// and a trailing comment skipped, a duplicate merged.
	r.clock.Advance(sandbox.DefaultSettle)
	res := r.runStdin("# from the ticket\n\n"+done+"  # paid?\n"+done+"#again\r\n", "-")
	res.want(t, exitCompleted, []string{"State        COMPLETED"}, nil)
}

// TestStatusRateLimited: against a sandbox allowing 2 requests a second,
// the 429s pause the shared budget until Retry-After (the next second),
// and every id still reaches its final record; each pause is said on
// stderr as one, and the watch ends with one summary line there: how many
// came to each outcome, and the time it took (issue 28 item 6).
func TestStatusRateLimited(t *testing.T) {
	r := newStatusRigWith(t, sandbox.Options{RateLimit: 2})
	ids := append(r.seed(sandbox.DestCompleted, 5), r.seed(sandbox.DestRefunded, 5)...)
	r.takeAsks()
	res := r.run(nil, append([]string{"--watch", "--json"}, ids...)...)
	res.want(t, exitFailed, nil, nil)
	ws := jsonLines(t, res.stdout)
	for i, w := range ws[len(ws)-len(ids):] {
		if w.QuoteID != ids[i] || !exchange.Terminal(w.State) {
			t.Errorf("final record %d: %s %s, want %s terminal", i, w.QuoteID, w.State, ids[i])
		}
	}
	asks := r.takeAsks()
	r.mu.Lock()
	rejected := r.rejected
	r.mu.Unlock()
	if len(rejected) == 0 {
		t.Fatal("no 429: the test does not exercise the pause")
	}
	t.Logf("%d asks, %d refused with 429", len(asks), len(rejected))
	lines := strings.Split(strings.TrimSpace(res.stderr), "\n")
	if n := strings.Count(res.stderr, "svcwallet status: rate limited by the service: resuming in 1s\n"); n == 0 || n > len(rejected) {
		t.Errorf("%d pauses said for %d 429s:\n%s", n, len(rejected), res.stderr)
	}
	if last := lines[len(lines)-1]; !regexp.MustCompile(`^svcwallet status: 10 withdrawals in \d+s: (5 completed, 5 refunded|5 refunded, 5 completed)$`).MatchString(last) {
		t.Errorf("the last line on stderr %q, want the summary", last)
	}
	for _, at := range rejected {
		resume := at.Truncate(time.Second).Add(time.Second)
		for _, a := range asks {
			if a.After(at) && a.Before(resume) {
				t.Errorf("asked at %s, after a 429 at %s and before its Retry-After (%s)", a, at, resume)
			}
		}
	}
}

// TestStatusFollowRateFromConfig: the environment's follow_rate sets the
// shared budget: at 2 a second against a sandbox that allows 2, no 429.
func TestStatusFollowRateFromConfig(t *testing.T) {
	r := newStatusRigWith(t, sandbox.Options{RateLimit: 2})
	b, err := os.ReadFile(r.config)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(r.config, append(b, []byte("follow_rate = 2\n")...), 0o600); err != nil {
		t.Fatal(err)
	}
	ids := append(r.seed(sandbox.DestCompleted, 5), r.seed(sandbox.DestRefunded, 5)...)
	r.run(nil, append([]string{"--watch", "--json"}, ids...)...).want(t, exitFailed, nil, nil)
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.rejected) != 0 {
		t.Fatalf("%d requests refused with 429 at follow_rate = 2", len(r.rejected))
	}
}

// TestStatusStdinProgress (issue 35 item 9): `status -` of several ids on
// a terminal says on stderr how many were asked as it goes, in one line
// drawn over, cleared before the records, and ends with the totals line
// --watch has; to a file or a pipe it says neither.
func TestStatusStdinProgress(t *testing.T) {
	r := newStatusRig(t)
	ids := append(r.seed(sandbox.DestCompleted, 3), r.seed(sandbox.DestFailed, 2)...)
	r.terminal = true
	res := r.runStdin(strings.Join(ids, "\n"), "-")
	res.want(t, exitPending, ids, []string{"svcwallet status: 1 of 5 asked…", "\r\x1b[Ksvcwallet status: 5 of 5 asked…", "asked…\r\x1b[Ksvcwallet status: 5 withdrawals",
		"svcwallet status: 5 withdrawals in "})
	if !strings.HasSuffix(res.stderr, ": 5 submitted\n") {
		t.Errorf("the totals are not the last line:\n%q", res.stderr)
	}
	r.terminal = false
	if res := r.runStdin(strings.Join(ids, "\n"), "-"); res.stderr != "" {
		t.Errorf("not on a terminal, stderr says %q", res.stderr)
	}
	// Ids that take a minute or more to ask say so once, as the run
	// starts, off a terminal too: a script's log shows it is not stuck.
	many := make([]string, 300)
	for i := range many {
		many[i] = fmt.Sprintf("q-unknown%d", i)
	}
	res = r.runStdin(strings.Join(many, "\n"), "-", "--json")
	if want := "svcwallet status: 300 ids at 5 a second take about 1m0s; the records print once every id is answered (an interrupt prints those answered so far)\n"; !strings.HasPrefix(res.stderr, want) {
		t.Errorf("300 ids off a terminal: stderr starts %.200q, want %q", res.stderr, want)
	}
	if res := r.runStdin(strings.Join(many[:299], "\n"), "-", "--json"); strings.Contains(res.stderr, " take about ") {
		t.Errorf("299 ids (under a minute) say how long they take")
	}
}

// TestStatusKeepsTheOrderGiven (seen in a walk): an id the service does
// not know is said in its place among the others, not before them: a line
// each in the order given with --json; after the table in text.
func TestStatusKeepsTheOrderGiven(t *testing.T) {
	r := newStatusRig(t)
	ids := r.seed(sandbox.DestCompleted, 2)
	res := r.run(nil, ids[0], "q-unknownid", ids[1], "--json")
	lines := strings.Split(strings.TrimSpace(res.stdout), "\n")
	if res.code != exitNotFound || len(lines) != 3 || !strings.Contains(lines[0], ids[0]) ||
		!strings.Contains(lines[1], `"quote_id":"q-unknownid"`) || !strings.Contains(lines[2], ids[1]) {
		t.Errorf("status --json of three ids: exit %d\n%s%s", res.code, res.stdout, res.stderr)
	}
}

// TestStatusUnknownIDsAskTheClockOnce: `status -` of 20 ids the service
// does not know asks each once and the service's clock once, not once a
// not found: a 404's /time doubled a column's asks against the rate limit.
func TestStatusUnknownIDsAskTheClockOnce(t *testing.T) {
	r := newStatusRig(t)
	var stdin strings.Builder
	for i := range 20 {
		fmt.Fprintf(&stdin, "q-unknownid%02d\n", i)
	}
	before := r.times.Load() // the login's
	res := r.runStdin(stdin.String(), "-")
	if res.code != exitNotFound || strings.Count(res.stderr, "no withdrawal with quote id") != 20 {
		t.Fatalf("exit %d, want 4 and 20 not found:\n%s", res.code, res.stderr)
	}
	r.mu.Lock()
	asks := len(r.asks)
	r.mu.Unlock()
	if n := r.times.Load() - before; asks != 20 || n != 1 {
		t.Errorf("%d status asks and %d /time asks, want 20 and 1", asks, n)
	}
}

// TestStatusWatchClearsItsProgress: on a terminal, a change line of
// `status --watch` of several ids, and a pause's note, start at the left
// edge, the progress line ("1 of 2 ended…") cleared before them: after
// it, they began mid-row, and their fit to the terminal split a word
// where the edge fell.
func TestStatusWatchClearsItsProgress(t *testing.T) {
	r := newStatusRigWith(t, sandbox.Options{RateLimit: 2})
	ids := r.seed(sandbox.DestCompleted, 6)
	var shown bytes.Buffer // stdout and stderr, one terminal
	r.stdout, r.stderr, r.terminal = &shown, &shown, true
	r.clock.Advance(sandbox.DefaultSettle)
	r.run(nil, append([]string{"--watch"}, ids...)...)
	starts := regexp.MustCompile(`^(\d{4}-\d\d-\d\dT|svcwallet status: rate limited)`)
	said := 0
	for _, l := range strings.Split(shown.String(), "\n") {
		if !strings.Contains(l, "Z  COMPLETED  ") && !strings.Contains(l, "rate limited") { // a record's row names no time
			continue
		}
		said++
		// What a terminal shows of it: the text after the last erase.
		if at := strings.LastIndex(l, "\r\x1b[K"); at >= 0 {
			l = l[at+len("\r\x1b[K"):]
		}
		if !starts.MatchString(l) {
			t.Errorf("a line after the progress line: %q", l)
		}
	}
	if said < len(ids)+1 {
		t.Errorf("%d change lines and pauses, want %d and one at least:\n%q", said, len(ids), shown.String())
	}
}
