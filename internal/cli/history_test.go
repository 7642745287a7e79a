package cli

import (
	"encoding/csv"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/follow"
	"github.com/svcwallet/svcwallet/service/journal"
)

// historyJournal writes a journal with withdrawals in two environments: on
// "local" one COMPLETED, one refused, one unanswered and one SENDING.
func historyJournal(t *testing.T) {
	t.Helper()
	state := t.TempDir()
	t.Setenv("XDG_STATE_HOME", state)
	j, err := journal.Open(journal.DefaultPath())
	if err != nil {
		t.Fatal(err)
	}
	t0 := time.Date(2026, 11, 20, 10, 0, 0, 0, time.UTC)
	intent := &journal.Intent{Chain: "ARBITRUM", ToAddress: "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC", TokenIn: "USDT", TokenOut: "USDT",
		PayAmount: decimal.RequireFromString("25"), ReceiveAmount: decimal.RequireFromString("23.5")}
	add := func(min int, env, id, kind, state string) {
		t.Helper()
		e := journal.Entry{Time: t0.Add(time.Duration(min) * time.Minute), Kind: kind, Env: env, QuoteID: id, State: state}
		if kind == journal.KindIntent {
			e.Intent = intent
		}
		if kind == journal.KindRejected {
			e.Error = "destination flagged by screening"
		}
		if err := j.Append(e); err != nil {
			t.Fatal(err)
		}
	}
	add(0, "local", "q-done", journal.KindIntent, "")
	add(1, "local", "q-done", journal.KindState, exchange.StateCompleted)
	add(2, "local", "q-refused", journal.KindIntent, "")
	add(3, "local", "q-refused", journal.KindRejected, "")
	add(4, "local", "q-unanswered", journal.KindIntent, "")
	add(5, "local", "q-sending", journal.KindIntent, "")
	add(6, "local", "q-sending", journal.KindState, exchange.StateSending)
	add(7, "other", "q-elsewhere", journal.KindIntent, "")
	add(8, "local", longQuoteID, journal.KindIntent, "")
	add(9, "local", longQuoteID, journal.KindState, exchange.StateCompleted)
}

// longQuoteID is longer than any column a listing would give an id.
const longQuoteID = "q-p7blcnefrosatxsoofsvsw3k2m9x4h7d1c5b8a6e0f2g"

func TestHistoryCommand(t *testing.T) {
	historyJournal(t)
	cfg, _ := localConfig(t)

	r := depositCmd(t, nil, "history", "--config", cfg, "--env", "local", "--json")
	var out []follow.Record
	if r.code != 0 || json.Unmarshal([]byte(r.stdout), &out) != nil {
		t.Fatalf("exit %d: %s %s", r.code, r.stdout, r.stderr)
	}
	var order []string
	for _, e := range out {
		order = append(order, e.QuoteID)
	}
	if got := strings.Join(order, " "); got != "q-sending q-unanswered "+longQuoteID+" q-refused q-done" {
		t.Fatalf("order %q: want the unfinished first, each group newest first, and no other environment", got)
	}
	if !out[1].Unanswered || out[1].Finished || out[3].State != "" || out[3].Error == "" || out[4].State != exchange.StateCompleted ||
		out[0].ReceiveAmount != "23.5" || out[0].Chain != "ARBITRUM" {
		t.Errorf("entries %+v", out)
	}

	r = depositCmd(t, nil, "history", "--config", cfg, "--env", "local")
	lines := strings.Split(strings.TrimSpace(r.stdout), "\n")
	// An unfinished one says the command that resumes or follows it, on
	// this environment of this config.
	if r.code != 0 || len(lines) != 6 || !strings.HasSuffix(lines[2], "UNANSWERED: resume it with svcwallet withdraw resume q-unanswered --env local --config "+cfg) ||
		!strings.HasSuffix(lines[1], "SENDING: follow it with svcwallet status q-sending --watch --env local --config "+cfg) ||
		!strings.Contains(lines[4], "REFUSED: destination flagged") || strings.Contains(r.stdout, "console") {
		t.Fatalf("text listing, exit %d:\n%s", r.code, r.stdout)
	}
	// The id support copies is whole, piped or not, and the columns line up.
	if !strings.Contains(lines[3], " "+longQuoteID+"  ") || strings.Contains(r.stdout, "…") ||
		strings.Index(lines[0], "CHAIN") != strings.Index(lines[3], "ARBITRUM") {
		t.Fatalf("text listing cuts or misaligns the quote id:\n%s", r.stdout)
	}

	// Empty, it names the environments the journal holds withdrawals of,
	// and how to list them.
	r = depositCmd(t, nil, "history", "--config", cfg, "--env", "sandbox")
	if r.code != 0 || r.stdout != "" || !strings.Contains(r.stderr, "ends with its console") ||
		!strings.Contains(r.stderr, "list them with --env NAME") ||
		!strings.Contains(r.stderr, "  local  5 withdrawals  svcwallet history --env local --config "+cfg+"\n") ||
		!strings.Contains(r.stderr, "  other  1 withdrawal   svcwallet history --env other --config "+cfg+"\n") {
		t.Fatalf("sandbox: exit %d: %q %q", r.code, r.stdout, r.stderr)
	}
	// No --env, no default_env: the sandbox, said the same way.
	empty := filepath.Join(t.TempDir(), "empty.toml")
	if err := os.WriteFile(empty, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	r = depositCmd(t, nil, "history", "--config", empty)
	if r.code != 0 || !strings.Contains(r.stderr, "No withdrawals on sandbox") ||
		!strings.Contains(r.stderr, "svcwallet history --env local --config "+empty) {
		t.Fatalf("no --env: exit %d: %q", r.code, r.stderr)
	}
	r = depositCmd(t, nil, "history", "--config", cfg, "--env", "sandbox", "--json")
	if r.code != 0 || strings.TrimSpace(r.stdout) != "[]" {
		t.Fatalf("sandbox --json: exit %d: %q", r.code, r.stdout)
	}
	if r := depositCmd(t, nil, "history", "extra"); r.code != 2 {
		t.Errorf("an argument: exit %d", r.code)
	}
	if r := depositCmd(t, nil, "history", "--config", filepath.Join(t.TempDir(), "none.toml")); r.code != 1 {
		t.Errorf("missing config: exit %d", r.code)
	}
}

// TestHistoryCSV (issue 21 item 13): --csv lists what --json does, in the
// same order, through the one CSV writer: a field a spreadsheet would run
// as a formula gets a leading '; --csv with --json is a usage error.
func TestHistoryCSV(t *testing.T) {
	historyJournal(t)
	cfg, _ := localConfig(t)
	j, err := journal.Open(journal.DefaultPath())
	if err != nil {
		t.Fatal(err)
	}
	if err := j.Append(journal.Entry{Time: time.Date(2026, 11, 20, 11, 0, 0, 0, time.UTC), Kind: journal.KindRejected, Env: "local",
		QuoteID: "q-refused", Error: "=HYPERLINK(\"http://x\")"}); err != nil {
		t.Fatal(err)
	}
	r := depositCmd(t, nil, "history", "--config", cfg, "--env", "local", "--csv")
	rows, err := csv.NewReader(strings.NewReader(r.stdout)).ReadAll()
	if r.code != 0 || err != nil || len(rows) != 6 || !slices.Equal(rows[0], follow.CSVHeader) {
		t.Fatalf("exit %d, CSV %q (%v)", r.code, rows, err)
	}
	var order []string
	for _, row := range rows[1:] {
		order = append(order, row[0])
	}
	if got := strings.Join(order, " "); got != "q-sending q-unanswered "+longQuoteID+" q-refused q-done" {
		t.Errorf("order %q", got)
	}
	if column(rows, 4, "error") != "'=HYPERLINK(\"http://x\")" || column(rows, 4, "started_at") != "2026-11-20T10:02:00Z" || column(rows, 4, "unanswered") != "false" {
		t.Errorf("the refused row %q", rows[4])
	}
	if r := depositCmd(t, nil, "history", "--config", cfg, "--env", "local", "--csv", "--json"); r.code != 2 || !strings.Contains(r.stderr+r.stdout, "--csv and --json: choose one") {
		t.Errorf("--csv --json: exit %d: %s %s", r.code, r.stdout, r.stderr)
	}
}

// emptyHistory is a config with the environment "local", the journal
// history reads (empty), a time to journal from, and an intent of 25 USDT
// to ARBITRUM.
func emptyHistory(t *testing.T) (cfg string, j *journal.Journal, t0 time.Time, intent *journal.Intent) {
	t.Helper()
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	cfg, _ = localConfig(t)
	j, err := journal.Open(journal.DefaultPath())
	if err != nil {
		t.Fatal(err)
	}
	return cfg, j, time.Date(2026, 11, 20, 10, 0, 0, 0, time.UTC), &journal.Intent{Chain: "ARBITRUM",
		ToAddress: "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC", TokenIn: "USDT", TokenOut: "USDT",
		PayAmount: decimal.RequireFromString("25"), ReceiveAmount: decimal.RequireFromString("23.5")}
}

// TestHistoryNamesOutcomes: a withdrawal that never happened is named as
// every view names it: REFUSED with the service's reason, or EXPIRED for a
// quote that expired unexecuted, whether the journal says so (a 410, a
// resume that found it never executed) or an older journal only holds
// journal.NeverPaid; --json and --csv keep the wire state ("") and carry
// the name in outcome.
func TestHistoryNamesOutcomes(t *testing.T) {
	cfg, j, t0, intent := emptyHistory(t)
	for i, e := range []journal.Entry{
		{Kind: journal.KindRejected, QuoteID: "q-balance", Error: "Insufficient balance in the funding account: enter a smaller amount"},
		{Kind: journal.KindRejected, QuoteID: "q-gone", Error: exchange.QuoteExpiredWords, QuoteExpired: true},
		{Kind: journal.KindRejected, QuoteID: "q-gone-older", Error: "Quote expired: press r to get a new one and sign again"},
		{Kind: journal.KindRejected, QuoteID: "q-resumed", Error: journal.NeverPaid, QuoteExpired: true},
		{Kind: journal.KindRejected, QuoteID: "q-older", Error: journal.NeverPaid},
	} {
		at := t0.Add(time.Duration(i) * time.Minute)
		for _, e := range []journal.Entry{{Kind: journal.KindIntent, QuoteID: e.QuoteID, Intent: intent}, e} {
			e.Time, e.Env = at, "local"
			if err := j.Append(e); err != nil {
				t.Fatal(err)
			}
		}
	}
	want := map[string]string{"q-balance": "REFUSED", "q-gone": "EXPIRED", "q-gone-older": "EXPIRED", "q-resumed": "EXPIRED", "q-older": "EXPIRED"}

	r := depositCmd(t, nil, "history", "--config", cfg, "--env", "local")
	lines := strings.Split(strings.TrimSpace(r.stdout), "\n")
	if r.code != 0 || len(lines) != 6 {
		t.Fatalf("exit %d:\n%s", r.code, r.stdout)
	}
	for _, l := range lines[1:] {
		id := strings.Fields(l)[2]
		state := string([]rune(l)[len([]rune(lines[0]))-len("STATE"):]) // columns, not bytes: the account's "—"
		if !strings.HasPrefix(state, want[id]) || strings.Count(l, "EXPIRED")+strings.Count(l, "REFUSED") != 1 {
			t.Errorf("%s is listed as %q, want %s", id, state, want[id])
		}
	}
	if !strings.Contains(r.stdout, "REFUSED: Insufficient balance in the funding account") {
		t.Errorf("the refusal's reason is not said:\n%s", r.stdout)
	}

	r = depositCmd(t, nil, "history", "--config", cfg, "--env", "local", "--json")
	var out []follow.Record
	if r.code != 0 || json.Unmarshal([]byte(r.stdout), &out) != nil || len(out) != 5 {
		t.Fatalf("exit %d: %s", r.code, r.stdout)
	}
	for _, e := range out {
		if e.Outcome != want[e.QuoteID] || e.State != "" || !e.Finished {
			t.Errorf("%s: outcome %q, state %q, finished %v; want %s, the wire's \"\", finished", e.QuoteID, e.Outcome, e.State, e.Finished, want[e.QuoteID])
		}
	}

	r = depositCmd(t, nil, "history", "--config", cfg, "--env", "local", "--csv")
	rows, err := csv.NewReader(strings.NewReader(r.stdout)).ReadAll()
	if r.code != 0 || err != nil || len(rows) != 6 || !slices.Equal(rows[0], follow.CSVHeader) {
		t.Fatalf("exit %d, CSV %q (%v)", r.code, rows, err)
	}
	for i, row := range rows[1:] {
		if got := column(rows, i+1, "outcome"); got != want[row[0]] {
			t.Errorf("CSV row %q: outcome %q, want %s", row[0], got, want[row[0]])
		}
	}
}

// TestHistoryPlantedJournalIsInert: a journal with escape sequences planted
// in its fields (support staff open customers' journals) prints inert bytes,
// as text and as JSON; the lines that fail their shapes are skipped.
func TestHistoryPlantedJournalIsInert(t *testing.T) {
	state := t.TempDir()
	t.Setenv("XDG_STATE_HOME", state)
	path := journal.DefaultPath()
	if _, err := journal.Open(path); err != nil {
		t.Fatal(err)
	}
	lines := []string{
		`{"time":"2026-11-20T10:00:00Z","kind":"intent","env":"local","quote_id":"q-\u001b]0;owned\u0007","intent":{"chain":"ARBITRUM","token_in":"USDT","token_out":"USDT","pay_amount":"1","receive_amount":"1"}}`,
		`{"time":"2026-11-20T10:00:00Z","kind":"intent","env":"local","quote_id":"q-chain","intent":{"chain":"ARB\u001b[2J","token_in":"USDT","token_out":"USDT","pay_amount":"1","receive_amount":"1"}}`,
		`{"time":"2026-11-20T10:01:00Z","kind":"intent","env":"local","quote_id":"q-ok","intent":{"chain":"ARBITRUM","token_in":"USDT","token_out":"USDT","pay_amount":"25","receive_amount":"23.5"}}`,
		`{"time":"2026-11-20T10:02:00Z","kind":"rejected","env":"local","quote_id":"q-ok","error":"flagged\u001b]0;owned\u0007\u001b[31m\u202e by screening"}`,
	}
	if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	cfg, _ := localConfig(t)
	for _, args := range [][]string{{"history", "--config", cfg, "--env", "local"}, {"history", "--config", cfg, "--env", "local", "--json"}} {
		r := depositCmd(t, nil, args...)
		requireInert(t, strings.Join(args, " "), []byte(r.stdout+r.stderr))
		if r.code != 0 || !strings.Contains(r.stdout, "q-ok") || !strings.Contains(r.stdout, "flagged") || strings.Contains(r.stdout, "q-chain") ||
			!strings.Contains(r.stderr, "2 lines of the journal") {
			t.Fatalf("%v: exit %d\n%s\n%s", args, r.code, r.stdout, r.stderr)
		}
	}
}

// TestJSONArrayAsWhole: a listing written an element at a time is byte
// for byte the slice written whole.
func TestJSONArrayAsWhole(t *testing.T) {
	all := []follow.Record{{QuoteID: "q-1", Error: "a <b> & \u2028 c\u202e"}, {QuoteID: "q-2", Chain: "BASE"}, {QuoteID: "q-3"}}
	for n := range len(all) + 1 {
		var whole, streamed strings.Builder
		if err := writeJSON(&whole, all[:n]); err != nil {
			t.Fatal(err)
		}
		arr := &jsonArray{w: &streamed}
		for _, e := range all[:n] {
			if err := arr.add(e); err != nil {
				t.Fatal(err)
			}
		}
		if err := arr.end(); err != nil {
			t.Fatal(err)
		}
		if streamed.String() != whole.String() {
			t.Errorf("%d elements streamed:\n%s\nwhole:\n%s", n, streamed.String(), whole.String())
		}
	}
}

// TestHistoryLimitSince: -n lists the first N of the listing, --since
// those started then or later, in the listing's order; a bad value is a
// usage error.
func TestHistoryLimitSince(t *testing.T) {
	historyJournal(t)
	cfg, _ := localConfig(t)
	ids := func(args ...string) string {
		t.Helper()
		r := depositCmd(t, nil, append([]string{"history", "--config", cfg, "--env", "local", "--json"}, args...)...)
		var out []follow.Record
		if r.code != 0 || json.Unmarshal([]byte(r.stdout), &out) != nil {
			t.Fatalf("%v: exit %d: %s %s", args, r.code, r.stdout, r.stderr)
		}
		var order []string
		for _, e := range out {
			order = append(order, e.QuoteID)
		}
		return strings.Join(order, " ")
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"-n", "2"}, "q-sending q-unanswered"},
		{[]string{"--limit", "4"}, "q-sending q-unanswered " + longQuoteID + " q-refused"},
		{[]string{"--since", "2026-11-20T10:04:00Z"}, "q-sending q-unanswered " + longQuoteID},
		{[]string{"--since", "2026-11-21"}, ""},
		{[]string{"--since", "2026-11-20", "-n", "1"}, "q-sending"},
	} {
		if got := ids(tc.args...); got != tc.want {
			t.Errorf("%v: %q, want %q", tc.args, got, tc.want)
		}
	}
	r := depositCmd(t, nil, "history", "--config", cfg, "--env", "local", "--since", "2026-11-21")
	if r.code != 0 || r.stdout != "" || !strings.Contains(r.stderr, "No withdrawals on local since 2026-11-21T00:00:00Z") {
		t.Errorf("none since: exit %d: %q %q", r.code, r.stdout, r.stderr)
	}
	for _, bad := range [][]string{{"--since", "tuesday"}, {"-n", "-1"}, {"--since", "-5h"}} {
		if r := depositCmd(t, nil, append([]string{"history", "--config", cfg, "--env", "local"}, bad...)...); r.code != 2 {
			t.Errorf("%v: exit %d, want 2: %s", bad, r.code, r.stderr)
		}
	}
}

// TestProgressLine: a read that ends within a second says nothing; a
// longer one says how far it has come on one line, rewritten, and clears
// it at the end.
func TestProgressLine(t *testing.T) {
	now := time.Date(2026, 3, 2, 10, 0, 0, 0, time.UTC)
	clock := func() time.Time { return now }
	var w strings.Builder
	tell := progressLine(&w, "svcwallet history", clock)
	tell(0, 300<<20)
	now = now.Add(900 * time.Millisecond)
	tell(100<<20, 300<<20)
	tell(300<<20, 300<<20)
	if w.String() != "" {
		t.Fatalf("a read within a second said %q", w.String())
	}
	tell(0, 300<<20)
	now = now.Add(1500 * time.Millisecond)
	tell(150<<20, 300<<20)
	tell(300<<20, 300<<20)
	if want := "\r\x1b[Ksvcwallet history: reading the journal into its index: 50% of 300 MB\r\x1b[K"; w.String() != want {
		t.Fatalf("a long read said %q, want %q", w.String(), want)
	}
}

// column is the cell of row i (0 is the header) in the column named name
// (follow.CSVHeader).
func column(rows [][]string, i int, name string) string {
	return rows[i][slices.Index(rows[0], name)]
}

// TestHistorySaysWhoseAccount: `history` lists an environment's
// withdrawals of every account the journal holds (it needs no session), so
// each says whose it is: the table's ACCOUNT (shortened), account_id in
// --json and --csv.
func TestHistorySaysWhoseAccount(t *testing.T) {
	cfg, j, t0, intent := emptyHistory(t)
	accounts := map[string]string{"q-first-acct": "0x5f1c2e9a3b7d4c1308a6e2f9b0c4d7e1a2b3c4d5", "q-second-acct": "0x1111222233334444555566667777888899990000"}
	i := 0
	for id, acct := range accounts {
		for _, e := range []journal.Entry{{Kind: journal.KindIntent, Intent: intent}, {Kind: journal.KindAccepted}} {
			e.Time, e.Env, e.AccountID, e.QuoteID = t0.Add(time.Duration(i)*time.Minute), "local", acct, id
			if err := j.Append(e); err != nil {
				t.Fatal(err)
			}
		}
		i++
	}
	r := depositCmd(t, nil, "history", "--config", cfg, "--env", "local")
	for _, l := range strings.Split(strings.TrimSpace(r.stdout), "\n")[1:] {
		id := strings.Fields(l)[2]
		if want := accounts[id][:6] + "…" + accounts[id][38:]; !strings.Contains(l, want) {
			t.Errorf("%s is listed without its account %s:\n%s", id, want, r.stdout)
		}
	}
	r = depositCmd(t, nil, "history", "--config", cfg, "--env", "local", "--json")
	var out []follow.Record
	if err := json.Unmarshal([]byte(r.stdout), &out); err != nil || len(out) != 2 {
		t.Fatalf("exit %d: %s", r.code, r.stdout)
	}
	for _, rec := range out {
		if rec.AccountID != accounts[rec.QuoteID] {
			t.Errorf("--json: %s has account_id %q, want %q", rec.QuoteID, rec.AccountID, accounts[rec.QuoteID])
		}
	}
	r = depositCmd(t, nil, "history", "--config", cfg, "--env", "local", "--csv")
	rows, err := csv.NewReader(strings.NewReader(r.stdout)).ReadAll()
	if err != nil || len(rows) != 3 {
		t.Fatalf("--csv: %v\n%s", err, r.stdout)
	}
	col := slices.Index(rows[0], "account_id")
	for _, row := range rows[1:] {
		if col < 0 || row[col] != accounts[row[0]] {
			t.Errorf("--csv: row %v lacks its account in column %d of %v", row, col, rows[0])
		}
	}
}

// TestHistorySaysTheJournalEscaped: a journal in a state folder holding a
// no-break space, whose lines could not all be read, is named escaped where
// history says so, never as a path with a space.
func TestHistorySaysTheJournalEscaped(t *testing.T) {
	state := filepath.Join(t.TempDir(), "st\u00a0ate")
	t.Setenv("XDG_STATE_HOME", state)
	j, err := journal.Open(journal.DefaultPath())
	if err != nil {
		t.Fatal(err)
	}
	if err := j.Append(journal.Entry{Time: time.Date(2026, 11, 20, 10, 0, 0, 0, time.UTC), Kind: journal.KindIntent, Env: "local", QuoteID: "q-1",
		Intent: &journal.Intent{Chain: "ARBITRUM", ToAddress: "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC", TokenIn: "USDT", TokenOut: "USDT",
			PayAmount: decimal.RequireFromString("25"), ReceiveAmount: decimal.RequireFromString("23.5")}}); err != nil {
		t.Fatal(err)
	}
	f, err := os.OpenFile(journal.DefaultPath(), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("not a line of the journal\n")
	f.Close()
	cfg, _ := localConfig(t)
	r := depositCmd(t, nil, "history", "--config", cfg, "--env", "local")
	if !strings.Contains(r.stderr, "could not be read") || strings.Contains(r.stderr, "\u00a0") || !strings.Contains(r.stderr, `st\u00a0ate`) {
		t.Errorf("exit %d, the journal not named escaped:\n%q", r.code, r.stderr)
	}
}
