package follow_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"github.com/svcwallet/svcwallet/internal/exchangetest"
	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/follow"
)

// TestParseQuoteIDs: the one reader of the board's field and `svcwallet
// status -`. A leading byte order mark is skipped. A line ends at \n, \r\n or \r; a # starts a comment to the
// end of its line; blank lines are skipped; duplicates are merged in
// first-seen order; ids of the wrong shape are returned apart, with their
// line. With split (the board), spaces, tabs, commas and semicolons
// separate ids too; without, a line is one id.
func TestParseQuoteIDs(t *testing.T) {
	long := "q-"
	for range 130 {
		long += "z"
	}
	type malformed struct {
		line int
		text string
	}
	for _, c := range []struct {
		name  string
		text  string
		split bool
		ids   []string
		bad   []malformed
	}{
		{"separators", "q-1, q-2\nq-1\r\n\tq-3,,q-2 q-\x1b[31mx " + long + " q-é", true,
			[]string{"q-1", "q-2", "q-3"}, []malformed{{3, "q-\x1b[31mx"}, {3, long}, {3, "q-é"}}},
		{"a comment line", "q-a\n# comment\nbad!id", true, []string{"q-a"}, []malformed{{3, "bad!id"}}},
		{"comments end at the line's end", "q-b # note, q-c\r# q-x\rq-d#q-y,q-z\n\n  #\nq-e;q-f", true,
			[]string{"q-b", "q-d", "q-e", "q-f"}, nil},
		{"one a line", "  q-1  # the first\n\n# q-2\nq-3#no space needed\r\nq-4 q-5\nq-1", false,
			[]string{"q-1", "q-3"}, []malformed{{5, "q-4 q-5"}}},
		{"commas are not separators on a line of its own", "q-1,q-2", false, nil, []malformed{{1, "q-1,q-2"}}},
		{"nothing", "\n# only a comment\r\n \t\n", false, nil, nil},
		{"a list saved by Notepad or a spreadsheet starts with a byte order mark", "\ufeffq-1\r\nq-2\r\n", false, []string{"q-1", "q-2"}, nil},
		{"a spreadsheet's CSV export quotes each field", "\"q-1\"\r\n\"q-2\",\"q-3\"\n\"q-4\n\"\"", true, []string{"q-1", "q-2", "q-3"}, []malformed{{3, "\"q-4"}}},
		{"a quoted id on a line of its own", "\"q-1\"\n \"q-2\" ", false, []string{"q-1", "q-2"}, nil},
		{"a CSV export's empty cells after an id on a line of its own", "\"q-1\",\r\nq-2,,\n\"q-3\"; \nq-4,q-5,", false, []string{"q-1", "q-2", "q-3"}, []malformed{{4, "q-4,q-5,"}}},
		{"a key, in a comment too", "q-1 # " + strings.Repeat("ab", 32) + "\nq-2", true, []string{"q-2"}, []malformed{{1, "q-1 # " + strings.Repeat("ab", 32)}}},
	} {
		t.Run(c.name, func(t *testing.T) {
			ids, _, bad := follow.ParseQuoteIDs(c.text, c.split)
			var got []malformed
			for _, b := range bad {
				if b.Err == nil {
					t.Errorf("%q is malformed without a reason", b.Text)
				}
				got = append(got, malformed{b.Line, b.Text})
			}
			if !slices.Equal(ids, c.ids) || !slices.Equal(got, c.bad) {
				t.Fatalf("ids %q, malformed %v; want %q, %v", ids, got, c.ids, c.bad)
			}
		})
	}
}

// ids are the quote ids of kept, in order.
func ids(kept []follow.Kept) []string {
	out := make([]string, len(kept))
	for i, k := range kept {
		out[i] = k.QuoteID
	}
	return out
}

// TestWatchlist: what the board keeps, per environment in a 0600 file; a
// missing file is an empty board; a broken one is an error, not an empty
// board; adding ids keeps what is known of the others.
func TestWatchlist(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state", follow.WatchlistFile)
	if kept, err := (&follow.WatchFile{Path: path, Env: "sandbox"}).Load(); err != nil || len(kept) != 0 {
		t.Fatalf("missing file: %v %v", kept, err)
	}
	done := &exchange.Withdrawal{QuoteID: "q-1", State: exchange.StateCompleted, Chain: "ARBITRUM", TokenOut: "USDT",
		ReceiveAmount: decimal.RequireFromString("24.5"), WithdrawTxHash: "0x" + strings.Repeat("ab", 32), UpdatedAt: time.Date(2026, 3, 2, 10, 0, 0, 0, time.UTC)}
	seen := time.Date(2026, 3, 2, 10, 0, 5, 0, time.UTC)
	if err := (&follow.WatchFile{Path: path, Env: "sandbox"}).Append([]follow.Kept{{QuoteID: "q-1", Record: done, Since: seen, Checked: seen}, {QuoteID: "q-2", NotFound: true}}, nil); err != nil {
		t.Fatal(err)
	}
	if n, err := follow.AddToWatchlist(path, "production", "", []string{"q-9"}); n != 1 || err != nil {
		t.Fatal(n, err)
	}
	if n, err := follow.AddToWatchlist(path, "sandbox", "", []string{"q-2", "q-3"}); n != 1 || err != nil {
		t.Fatal(n, err)
	}
	kept, _ := (&follow.WatchFile{Path: path, Env: "sandbox"}).Load()
	if !slices.Equal(ids(kept), []string{"q-1", "q-2", "q-3"}) {
		t.Fatalf("sandbox holds %q", ids(kept))
	}
	if k := kept[0]; k.Record == nil || !k.Record.ReceiveAmount.Equal(done.ReceiveAmount) || k.Record.WithdrawTxHash != done.WithdrawTxHash ||
		!k.Record.UpdatedAt.Equal(done.UpdatedAt) || !k.Since.Equal(seen) || !k.Checked.Equal(seen) || !kept[1].NotFound || kept[2].Record != nil {
		t.Errorf("what is known did not read back: %+v", kept)
	}
	if kept, _ := (&follow.WatchFile{Path: path, Env: "production"}).Load(); !slices.Equal(ids(kept), []string{"q-9"}) {
		t.Fatalf("production holds %q", ids(kept))
	}
	if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("file mode: %v %v", fi, err)
	}
	os.WriteFile(path, []byte("{not json"), 0o600)
	if _, err := (&follow.WatchFile{Path: path, Env: "sandbox"}).Load(); err == nil {
		t.Fatal("a broken file read as an empty board")
	}
}

// TestWatchlistReadBackChecked (issue 21 bug 2): a file written before
// records were kept (bare ids) still reads; what the file says of an id
// is checked as an answer would be: a record of another id, of an unknown
// state, with a payout hash of the wrong shape or an amount out of bounds
// is dropped, its id kept to be asked again; an id twice is kept once.
func TestWatchlistReadBackChecked(t *testing.T) {
	path := filepath.Join(t.TempDir(), follow.WatchlistFile)
	exchangetest.Must(t, os.WriteFile(path, []byte(`{"envs":{"sandbox":[
		"q-old",
		{"quote_id":"q-a","record":{"quote_id":"q-b","state":"COMPLETED","chain":"ARBITRUM","token_out":"USDT","receive_amount":"1","withdraw_tx_hash":"0x`+strings.Repeat("ab", 32)+`"}},
		{"quote_id":"q-c","record":{"quote_id":"q-c","state":"PAID","chain":"ARBITRUM","token_out":"USDT","receive_amount":"1"}},
		{"quote_id":"q-d","record":{"quote_id":"q-d","state":"COMPLETED","chain":"ARBITRUM","token_out":"USDT","receive_amount":"1","withdraw_tx_hash":"0x12\u001b[2J"}},
		{"quote_id":"q-e","record":{"quote_id":"q-e","state":"SENDING","chain":"ARBITRUM","token_out":"USDT","receive_amount":"1e400"}},
		{"quote_id":"q-f","record":{"quote_id":"q-f","state":"SENDING","chain":"ARBITRUM","token_out":"USDT","receive_amount":"2.5"}},
		{"quote_id":"q-f"},
		{"quote_id":"q-$(x)"}
	]}}`), 0o600))
	kept, err := (&follow.WatchFile{Path: path, Env: "sandbox"}).Load()
	if err != nil {
		t.Fatalf("one bad record refused the file: %v", err)
	}
	if !slices.Equal(ids(kept), []string{"q-old", "q-a", "q-c", "q-d", "q-e", "q-f"}) {
		t.Fatalf("ids read back: %q", ids(kept))
	}
	for _, k := range kept[:5] {
		if k.Record != nil {
			t.Errorf("%s: a record that fails an answer's checks was kept: %+v", k.QuoteID, *k.Record)
		}
	}
	if r := kept[5].Record; r == nil || r.State != exchange.StateSending || r.ReceiveAmount.String() != "2.5" {
		t.Errorf("a good record was dropped: %+v", kept[5])
	}
}

// TestWatchlistIDsReadBackChecked: the watch board's file is read back as
// answers are: an id that is not a token is dropped, and an environment
// named twice refuses the file.
func TestWatchlistIDsReadBackChecked(t *testing.T) {
	board := filepath.Join(t.TempDir(), "board.json")
	exchangetest.Must(t, os.WriteFile(board, []byte(`{"envs":{"sandbox":["q-1$(touch${IFS}/tmp/x)","q-ok","q-\u001b]0;t\u0007"]}}`), 0o600))
	if kept, err := (&follow.WatchFile{Path: board, Env: "sandbox"}).Load(); err != nil || len(kept) != 1 || kept[0].QuoteID != "q-ok" {
		t.Fatalf("board ids %q, %v; want only q-ok", ids(kept), err)
	}
	exchangetest.Must(t, os.WriteFile(board, []byte(`{"envs":{"sandbox":["q-a"],"SANDBOX":["q-b"]}}`), 0o600))
	if _, err := (&follow.WatchFile{Path: board, Env: "sandbox"}).Load(); err == nil {
		t.Fatal("a board file naming an environment twice was read")
	}
}

// TestWatchlistSecretReadBackDropped: ids an earlier version kept that
// are together a wallet's secret (a recovery phrase's numbered lines, a
// key's halves), each a token alone, are neither shown nor asked once
// read back, as ParseQuoteIDs refuses them given now; the others stay.
func TestWatchlistSecretReadBackDropped(t *testing.T) {
	board := filepath.Join(t.TempDir(), "board.json")
	key := "ac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80"
	saved := []string{"q-ok"}
	for i, w := range strings.Fields("legal winner thank year wave sausage worth useful legal winner thank yellow") {
		saved = append(saved, fmt.Sprintf("%02d.%s", i+1, w))
	}
	saved = append(saved, "q-go", key[:32], key[32:], "q-hi")
	b, err := json.Marshal(map[string]any{"envs": map[string]any{"sandbox": saved}})
	exchangetest.Must(t, err)
	exchangetest.Must(t, os.WriteFile(board, b, 0o600))
	kept, err := (&follow.WatchFile{Path: board, Env: "sandbox"}).Load()
	if err != nil || !slices.Equal(ids(kept), []string{"q-ok", "q-go", "q-hi"}) {
		t.Fatalf("%d board ids, %v; want q-ok, q-go and q-hi", len(kept), err)
	}
}

// TestWatchlistAccountReadBackChecked: the account a row was followed as
// is read back as a session's is (exchange.CheckID): one that is not an
// account id (a terminal's escape, a name over-long for the board's line
// naming who to log in as) is dropped, the row asked as whichever login
// opens the board, as a row of an earlier version is.
func TestWatchlistAccountReadBackChecked(t *testing.T) {
	board := filepath.Join(t.TempDir(), "board.json")
	exchangetest.Must(t, os.WriteFile(board, []byte(`{"envs":{"sandbox":[
		{"quote_id":"q-a","as":"acct-\u001b]0;t\u0007"},
		{"quote_id":"q-b","as":"`+strings.Repeat("a", 10000)+`"},
		{"quote_id":"q-c","as":"acct-c"}
	]}}`), 0o600))
	kept, err := (&follow.WatchFile{Path: board, Env: "sandbox"}).Load()
	if err != nil || len(kept) != 3 {
		t.Fatalf("read back %d rows: %v", len(kept), err)
	}
	for i, want := range []string{"", "", "acct-c"} {
		if kept[i].As != want {
			t.Errorf("%s kept as %.40q; want %q", kept[i].QuoteID, kept[i].As, want)
		}
	}
}
