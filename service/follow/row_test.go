package follow_test

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mr-tron/base58"

	"github.com/svcwallet/svcwallet/internal/safetext"
	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/follow"
)

const rowID = "q-7mzq4d2kxw5v3c6hbf2ytjnr1e"

// TestParseTakesARowsOneID: a spreadsheet's or a ticket export's row
// (comma, semicolon or tab between its columns, a header first) gives its
// one id, in `status -`, the board's field and plain mode's look-up alike:
// its dates, times, amounts and addresses are never ids. `status -`
// refused every such line, and the board and plain mode took 2026-11-30,
// 1000.000000 and 20261130 for quote ids.
func TestParseTakesARowsOneID(t *testing.T) {
	hash := "0x" + strings.Repeat("5f0c9e1b", 8)
	evm, tron := "0x"+strings.Repeat("ab12", 10), "TJRabPrwbZy45sbavfcjinPJC18kjpRTv8"
	for _, c := range []struct{ row, want string }{
		{"2026-11-30, ACME, " + rowID + ", 25 USDT", rowID},
		{"2026-11-30\tACME Corp.\t" + rowID + "\t25.00\tUSDT", rowID},
		{`30.11.2026;"ACME, Inc.";"` + rowID + `";25,50;USDT`, rowID},
		{"11/30/2026\t" + rowID, rowID},
		{"2026-11-30T12:00:00Z, " + hash + ", 1000.000000, 20261130, 25USDT", hash},
		{"11/30/2026 12:00:00\t" + evm + "\t" + rowID + "\t18.5", rowID},
		{tron + "," + rowID + "," + rowID + ",-25.5", rowID}, // one id twice is one id
		{rowID + " 1000.50USDT", rowID},                      // an amount and its token glued: no generated id
	} {
		for _, split := range []bool{false, true} {
			ids, lookups, bad := follow.ParseQuoteIDs("date,customer,withdrawal,amount\r\n"+c.row+"\r\n", split)
			got := append(ids, func() (l []string) {
				for _, x := range lookups {
					l = append(l, x.Text)
				}
				return l
			}()...)
			if split { // the board reads a header's words as words, said apart (CheckTypedID)
				got = slices.DeleteFunc(got, func(id string) bool { return follow.CheckTypedID(id) != nil })
			}
			if len(bad) != 0 || !slices.Equal(got, []string{c.want}) {
				t.Errorf("%q split %v: read %q, malformed %+v; want %s alone", c.row, split, got, bad, c.want)
			}
		}
	}
}

// TestParseRefusesARowOfTwoIDs: a row with two different ids in different
// columns is refused, naming its line and the columns, in every face:
// which is the withdrawal's is not guessed; a row with none says so. A
// list of ids with nothing else between them is still a list in the
// board's field and plain mode's look-up.
func TestParseRefusesARowOfTwoIDs(t *testing.T) {
	const other = "q-mqekavustnsyqkfkgvnwfmhrrf"
	text := "q-1\n2026-11-30, " + rowID + ", ACME, " + other + ", 25 USDT\n2026-11-30, ACME, 25.00\n"
	for _, split := range []bool{false, true} {
		ids, _, bad := follow.ParseQuoteIDs(text, split)
		var two, none *follow.RowError
		if !slices.Equal(ids, []string{"q-1"}) || len(bad) != 2 || !errors.As(bad[0].Err, &two) || !errors.As(bad[1].Err, &none) ||
			bad[0].Line != 2 || !slices.Equal(two.Columns, []int{2, 4}) || bad[1].Line != 3 || len(none.Columns) != 0 {
			t.Fatalf("split %v: ids %q, malformed %+v", split, ids, bad)
		}
		said, ok := follow.LineRefusal(bad[0], false)
		if !ok || !strings.HasPrefix(said, "line 2 holds 2 different ids, in columns 2 and 4") || strings.Contains(said, rowID) {
			t.Errorf("split %v: said %q", split, said)
		}
		// A question's answer is one line: it is this line, unnumbered.
		if said, _ := follow.LineRefusal(bad[0], true); !strings.HasPrefix(said, "this line holds 2 different ids, in columns 2 and 4") {
			t.Errorf("split %v: of one line said %q", split, said)
		}
	}
	// A CSV's one column, its empty second after a comma, is its id.
	for _, split := range []bool{false, true} {
		if ids, _, bad := follow.ParseQuoteIDs(rowID+",\n"+other+" ;\n", split); len(bad) != 0 || !slices.Equal(ids, []string{rowID, other}) {
			t.Errorf("a column and a comma, split %v: ids %q, malformed %+v", split, ids, bad)
		}
	}
	list := rowID + ", " + other + " " + rowID
	if ids, _, bad := follow.ParseQuoteIDs(list, true); len(bad) != 0 || !slices.Equal(ids, []string{rowID, other}) {
		t.Errorf("a list in the board's field: ids %q, malformed %+v", ids, bad)
	}
	var row *follow.RowError
	if _, _, bad := follow.ParseQuoteIDs(list, false); len(bad) != 1 || !errors.As(bad[0].Err, &row) || len(row.Columns) != 2 {
		t.Errorf("two ids on a line given to status -: malformed %+v, want a row of two", bad)
	}
}

// TestReadIDSentenceDot: the '.' that ends a sentence does not change what
// a word is read as, either way: a SOLANA signature followed by it is the
// signature (a payout hash looked up, as it is bare), and a quote id
// followed by it is that quote id, one of a signature's length (base58,
// 88 characters, not 64 bytes) too: it was asked with the '.', as the
// signature alone lost it.
func TestReadIDSentenceDot(t *testing.T) {
	sig := base58.Encode(bytes.Repeat([]byte{0xfe}, 64))
	long := base58.Encode(append([]byte{1}, bytes.Repeat([]byte{0x7f}, 64)...))
	if len(long) < 86 || len(long) > 88 || follow.KindOf(long) != follow.QuoteID {
		t.Fatalf("%d characters of base58 of 65 bytes: not a quote id of a signature's length", len(long))
	}
	for _, w := range []string{sig, long, rowID} {
		bare, bareLinked := follow.ReadID(w)
		for _, said := range []string{w + ".", `"` + w + `".`, `"` + w + `."`} {
			if got, linked := follow.ReadID(said); got != bare || got != w || linked != bareLinked {
				t.Errorf("%.12s… as %q read as %q, bare as %q", w, said[len(said)-3:], got, bare)
			}
		}
		for _, split := range []bool{false, true} {
			ids, lookups, bad := follow.ParseQuoteIDs("Here it is: "+w+".\n"+w+".\n", split)
			if split {
				ids = slices.DeleteFunc(ids, func(id string) bool { return follow.CheckTypedID(id) != nil })
			}
			read := append(ids, func() (l []string) {
				for _, x := range lookups {
					l = append(l, x.Text)
				}
				return l
			}()...)
			if len(bad) != 0 || !slices.Equal(read, []string{w}) || (w == sig) != (len(lookups) == 1) {
				t.Errorf("%.12s… split %v: ids %q, lookups %+v, malformed %+v", w, split, ids, lookups, bad)
			}
		}
	}
}

// TestKeyLineRefusedAlone: a private key on the line after a quote id
// that ends in hex digits (a sandbox id ending in f) is refused alone,
// whole or wrapped in halves; the id, and the lines after, are read. The
// id's last digits joined the key's 64 to make 65 or 66, and the id was
// refused with it.
func TestKeyLineRefusedAlone(t *testing.T) {
	key := strings.Repeat("5e", 16) + strings.Repeat("a7", 16)
	for _, id := range []string{"q-mqekavustnsyqkfkgvnwfmhrrf", "q-3f7ptgedpktha43p3gmk7imz4ab", "q-1"} {
		for _, k := range []string{key, key[:32] + "\n" + key[32:]} {
			for _, split := range []bool{false, true} {
				ids, _, bad := follow.ParseQuoteIDs(id+"\n"+k+"\n"+rowID+"\n", split)
				if !slices.Equal(ids, []string{id, rowID}) || len(bad) == 0 || bad[0].Line != 2 || !errors.Is(bad[0].Err, exchange.ErrKeyShape) {
					t.Errorf("%s split %v: ids %q, malformed %+v", id, split, ids, bad)
				}
			}
		}
	}
}

// TestHexIDListsSaidAmbiguous: what bare hex ids are. One a line, 8
// digits, or 16 fewer than 4 in a row, or 32 alone, are quote ids; 16 four
// or more in a row, 32 two or more, or 8 columns of 8 on one line, are
// also a private key's (or a TRON payout hash's) shape in pieces: refused
// without being repeated, saying they may be either (never guessed); 0x
// and 64 digits is a payout hash, and 64 bare digits a key's shape or a
// TRON hash, as before.
func TestHexIDListsSaidAmbiguous(t *testing.T) {
	hexes := func(n, digits int, sep string) string {
		out := make([]string, n)
		for i := range out {
			out[i] = strings.Repeat(fmt.Sprintf("%x", 0xa0+i), digits/2)
		}
		return strings.Join(out, sep)
	}
	for _, c := range []struct {
		text         string
		ids, lookups int
		hex          *follow.HexIDsError // want each line refused with it
	}{
		{hexes(8, 8, "\n"), 8, 0, nil},
		{hexes(3, 16, "\n"), 3, 0, nil},
		{hexes(1, 32, "\n"), 1, 0, nil},
		{hexes(4, 16, "\n"), 0, 0, &follow.HexIDsError{First: 1, Last: 4, Pieces: 4, Digits: 16}},
		{hexes(3, 32, "\r\n"), 0, 0, &follow.HexIDsError{First: 1, Last: 3, Pieces: 3, Digits: 32}},
		{hexes(8, 8, ","), 0, 0, &follow.HexIDsError{First: 1, Last: 1, Pieces: 8, Digits: 8}},
		{"0x" + hexes(1, 64, ""), 0, 1, nil},
	} {
		for _, split := range []bool{false, true} {
			ids, lookups, bad := follow.ParseQuoteIDs(c.text, split)
			if c.hex == nil && (len(ids) != c.ids || len(lookups) != c.lookups || len(bad) != 0) {
				t.Errorf("%.20q split %v: ids %q, %d lookups, malformed %+v", c.text, split, ids, len(lookups), bad)
			}
			if c.hex == nil {
				continue
			}
			var hex *follow.HexIDsError
			if len(ids) != 0 || len(bad) != c.hex.Last-c.hex.First+1 || !errors.As(bad[0].Err, &hex) || *hex != *c.hex || !errors.Is(bad[0].Err, exchange.ErrKeyShape) {
				t.Errorf("%.20q split %v: ids %q, malformed %+v; want %+v", c.text, split, ids, bad, c.hex)
				continue
			}
			said, _ := follow.LineRefusal(bad[0], false)
			lines := fmt.Sprintf("lines %d–%d hold %d ids of %d hex digits each, or a private key", c.hex.First, c.hex.Last, c.hex.Pieces, c.hex.Digits)
			if c.hex.First == c.hex.Last {
				lines = fmt.Sprintf("line %d holds %d ids of %d hex digits each, or a private key", c.hex.First, c.hex.Pieces, c.hex.Digits)
			}
			if !strings.HasPrefix(said, lines) || strings.Contains(said, hexes(1, 8, "")) {
				t.Errorf("said %q; want it to start %q", said, lines)
			}
		}
	}
	for _, text := range []string{hexes(1, 64, ""), "0x" + hexes(1, 32, "") + "\n" + hexes(1, 32, "")} {
		var hex *follow.HexIDsError
		if _, _, bad := follow.ParseQuoteIDs(text, false); len(bad) == 0 || !errors.Is(bad[0].Err, exchange.ErrKeyShape) || errors.As(bad[0].Err, &hex) {
			t.Errorf("%.20q: malformed %+v, want a key's shape, not ids", text, bad)
		}
	}
}

// TestRowIDsThatAreAKeySaidAmbiguous: a private key's halves, each the id
// of a dated row (2026-11-30,<32 hex>), are refused as bare hex ids that
// are a key's shape together are, in every face (split or not), never
// repeated; a lookup after them keeps its place among the ids left. Both
// halves were asked as quote ids: the dates hid the key from KeySpans.
// One such row alone, or rows of ids that make no key, are read.
func TestRowIDsThatAreAKeySaidAmbiguous(t *testing.T) {
	key := strings.Repeat("5e", 16) + strings.Repeat("a7", 16)
	hash := "0x" + strings.Repeat("5f0c9e1b", 8)
	for _, c := range []struct {
		text string
		ids  []string
		hex  *follow.HexIDsError
	}{
		{rowID + "\n2026-11-30," + key[:32] + "\n2026-11-30," + key[32:] + "\n" + hash + "\n", []string{rowID},
			&follow.HexIDsError{First: 2, Last: 3, Pieces: 2, Digits: 32}},
		{"2026-11-30,ACME," + key[:32] + ",25.50\n" + key[32:] + "\n", nil, &follow.HexIDsError{First: 1, Last: 2, Pieces: 2, Digits: 32}},
		{"2026-11-30," + key[:32] + "\n", []string{key[:32]}, nil},
		{"2026-11-30," + key[:16] + "\n2026-11-30," + key[32:48] + "\n", []string{key[:16], key[32:48]}, nil},
	} {
		for _, split := range []bool{false, true} {
			ids, lookups, bad := follow.ParseQuoteIDs(c.text, split)
			if c.hex == nil {
				if !slices.Equal(ids, c.ids) || len(bad) != 0 {
					t.Errorf("%.30q split %v: ids %q, malformed %+v", c.text, split, ids, bad)
				}
				continue
			}
			var hex *follow.HexIDsError
			if !slices.Equal(ids, c.ids) || len(bad) != 2 || bad[0].Line != c.hex.First || bad[1].Line != c.hex.Last ||
				!errors.As(bad[0].Err, &hex) || *hex != *c.hex || !errors.Is(bad[1].Err, exchange.ErrKeyShape) {
				t.Errorf("%.30q split %v: ids %q, malformed %+v; want lines refused with %+v", c.text, split, ids, bad, c.hex)
				continue
			}
			if c.ids != nil && (len(lookups) != 1 || lookups[0].At != 1) {
				t.Errorf("split %v: lookups %+v, want the hash after the one id", split, lookups)
			}
			if said, _ := follow.LineRefusal(bad[0], false); !strings.Contains(said, "or a private key") || strings.Contains(said, key[:8]) || strings.Contains(said, key[32:40]) {
				t.Errorf("said %q", said)
			}
		}
	}
}

// BenchmarkParseRows10000: 10,000 rows of a ticket export (a date, a
// name, the quote id, an amount) read as `status -` and the board's field
// read them, without a header and under one naming the quote id column.
func BenchmarkParseRows10000(b *testing.B) {
	var text strings.Builder
	for i := range 10_000 {
		fmt.Fprintf(&text, "2026-11-30,ACME %d,q-%026d,25.50 USDT\n", i, i)
	}
	for _, header := range []string{"", "date,customer,quote id,amount\n"} {
		for _, split := range []bool{true, false} {
			b.Run(fmt.Sprintf("header=%v/split=%v", header != "", split), func(b *testing.B) {
				for b.Loop() {
					follow.ParseQuoteIDs(header+text.String(), split)
				}
			})
		}
	}
}

// TestParseReadsAHeadersIDColumn: svcwallet's own `status --csv` and
// `history --csv` (follow.CSVHeader: a quote id, a transfer id, a payout
// hash and its link a row), and a ticket export whose header names a
// quote id column, give that column's id a row, in every face: each such
// row was refused as holding two or three different ids. Without the
// header, or where the named column holds no id, which is meant is still
// not guessed.
func TestParseReadsAHeadersIDColumn(t *testing.T) {
	const other = "q-mqekavustnsyqkfkgvnwfmhrrf"
	hash := "0x" + strings.Repeat("5f0c9e1b", 8)
	rec := follow.Record{QuoteID: rowID, TxID: "tx-7mzq4d2kxw", Env: "sandbox", State: "COMPLETED", Chain: "ARBITRUM",
		ToAddress: "0x" + strings.Repeat("ab12", 10), PayAmount: "10.5", ReceiveAmount: "10", WithdrawTxHash: hash,
		ExplorerURL: "https://arbiscan.io/tx/" + hash, StartedAt: time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC), AccountID: "0x" + strings.Repeat("cd34", 10)}
	second := rec
	second.QuoteID, second.TxID, second.WithdrawTxHash, second.ExplorerURL = other, "", "", ""
	var csv strings.Builder
	if err := safetext.WriteCSV(&csv, [][]string{follow.CSVHeader, rec.CSVRow(), second.CSVRow()}); err != nil {
		t.Fatal(err)
	}
	ticket := "Date;Customer;Payout hash;Quote ID;Amount\n2026-11-30;ACME;" + hash + ";" + rowID + ";25,50\n2026-11-30;Beta;;" + other + ";18\n2026-12-01;" + other + "\n"
	for _, text := range []string{csv.String(), ticket} {
		for _, split := range []bool{false, true} {
			if ids, lookups, bad := follow.ParseQuoteIDs(text, split); len(bad) != 0 || len(lookups) != 0 || !slices.Equal(ids, []string{rowID, other}) {
				t.Errorf("%.30q split %v: ids %q, lookups %+v, malformed %+v", text, split, ids, lookups, bad)
			}
		}
	}
	// A first row with a cell saying Quote is a row, not a header: it has digits.
	if ids, _, bad := follow.ParseQuoteIDs("2026-11-30;Quote;"+rowID+";25\n", false); len(bad) != 0 || !slices.Equal(ids, []string{rowID}) {
		t.Errorf("a first row with a Quote cell: ids %q, malformed %+v", ids, bad)
	}
	_, rows, _ := strings.Cut(ticket, "\n")
	// A row or a header apart by spaces has no columns to name or be named
	// (ACME Corp, Quote ID).
	spaced := "Date;Customer;Payout hash;Quote ID\n2026-12-01 ACME Corp " + hash + " " + rowID + "\n"
	spacedHeader := "Date Customer Quote ID\n2026-12-01;ACME;" + hash + ";" + rowID + "\n"
	for _, text := range []string{rows, "Date;Payout hash;Quote ID;Transfer\n2026-11-30;" + hash + ";;tx-7mzq4d2kxw\n", spaced, spacedHeader} {
		var row *follow.RowError
		if _, _, bad := follow.ParseQuoteIDs(text, false); len(bad) == 0 || !errors.As(bad[0].Err, &row) {
			t.Errorf("%.30q: malformed %+v, want a row of two ids refused", text, bad)
		}
	}
}
