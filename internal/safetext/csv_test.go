package safetext_test

import (
	"bytes"
	"encoding/csv"
	"slices"
	"strings"
	"testing"

	"github.com/svcwallet/svcwallet/internal/safetext"
)

// TestWriteCSV (issue 21 item 13): cells a spreadsheet would read as a
// formula get a leading ' (also behind spaces or a tab), escapes are
// dropped, line breaks become spaces, and commas and quotes are quoted so
// the file reads back to the same cells.
func TestWriteCSV(t *testing.T) {
	rows := [][]string{
		{"quote_id", "note"},
		{"=HYPERLINK(\"http://x\")", "+1"},
		{"-2+3", "@SUM(A1)"},
		{"\t-1", "a,b \"c\"\nd"},
		{" =1", "\x1b]0;title\x07ok"},
	}
	var b bytes.Buffer
	if err := safetext.WriteCSV(&b, rows); err != nil {
		t.Fatal(err)
	}
	got, err := csv.NewReader(&b).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	want := [][]string{
		{"quote_id", "note"},
		{"'=HYPERLINK(\"http://x\")", "'+1"},
		{"'-2+3", "'@SUM(A1)"},
		{"'-1", "a,b \"c\" d"},
		{"'=1", "ok"},
	}
	if !slices.EqualFunc(got, want, slices.Equal) {
		t.Errorf("read back %q\nwant %q", got, want)
	}
}

// TestWriteCSVReadWithSemicolons: a spreadsheet set for most of Europe
// (Excel's list separator in Germany, France, Italy…) reads a .csv with
// ';' between cells, so a cell holding one, as a service's refusal may,
// is quoted: unquoted, "refused;=cmd|' /C calc'!A0" read as two cells, the
// second a formula the leading ' never reached. Read either way, no cell
// starts with a formula's character, and read with ',' each is whole.
func TestWriteCSVReadWithSemicolons(t *testing.T) {
	cells := []string{"refused;=cmd|' /C calc'!A0", "a; +1", "x;-2", "y;@SUM(A1)", "plain"}
	var b bytes.Buffer
	if err := safetext.WriteCSV(&b, [][]string{cells}); err != nil {
		t.Fatal(err)
	}
	for _, sep := range []rune{',', ';'} {
		r := csv.NewReader(bytes.NewReader(b.Bytes()))
		r.Comma, r.LazyQuotes = sep, true
		got, err := r.ReadAll()
		if err != nil {
			t.Fatalf("read with %q: %v", sep, err)
		}
		for _, c := range got[0] {
			if c = strings.TrimLeft(c, " "); c != "" && strings.ContainsRune("=+-@", rune(c[0])) {
				t.Errorf("read with %q, %q is a cell: a formula (%s)", sep, c, b.String())
			}
		}
		if sep == ',' && !slices.Equal(got[0], cells) {
			t.Errorf("read back %q, want %q", got[0], cells)
		}
	}
}

// FuzzWriteCSV: WriteCSV, its own writer, writes what encoding/csv writes
// of the same cells made safe (CSVCell) wherever no cell holds ';', which
// it alone quotes, and what it writes reads back with encoding/csv (RFC
// 4180) to those cells, ';' or not, and read with ';' between cells to
// cells of which none starts a formula.
func FuzzWriteCSV(f *testing.F) {
	for _, s := range []string{"a|b", "=1|+2|-3|@4", "a,b|\"c\"|d\ne", `\.|x`, "a;=cmd|' /C calc'!A0", "|", " \u00a0x", "\u3000=1|\t;", "\"|\"\";"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		row := strings.Split(s, "|")
		safe := make([]string, len(row))
		for i, c := range row {
			safe[i] = safetext.CSVCell(c)
		}
		var got bytes.Buffer
		if err := safetext.WriteCSV(&got, [][]string{row}); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(strings.Join(safe, ""), ";") {
			var want bytes.Buffer
			w := csv.NewWriter(&want)
			if err := w.Write(safe); err != nil {
				t.Fatal(err)
			}
			if w.Flush(); got.String() != want.String() {
				t.Fatalf("WriteCSV wrote %q, encoding/csv %q", got.String(), want.String())
			}
		}
		read, err := csv.NewReader(bytes.NewReader(got.Bytes())).ReadAll()
		if len(safe) == 1 && safe[0] == "" {
			return // an empty line: no row, with either writer
		}
		if err != nil || len(read) != 1 || !slices.Equal(read[0], safe) {
			t.Fatalf("%q read back as %q (%v), want %q", got.String(), read, err, safe)
		}
		r := csv.NewReader(bytes.NewReader(got.Bytes()))
		r.Comma, r.LazyQuotes, r.FieldsPerRecord = ';', true, -1
		bySemicolon, err := r.ReadAll()
		if err != nil {
			t.Fatalf("%q read with ';': %v", got.String(), err)
		}
		for _, c := range bySemicolon[0] {
			if c = strings.TrimLeft(c, " "); c != "" && strings.ContainsRune("=+-@", rune(c[0])) {
				t.Fatalf("%q read with ';' has the cell %q, a formula", got.String(), c)
			}
		}
	})
}
