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
