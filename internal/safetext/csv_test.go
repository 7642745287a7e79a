package safetext_test

import (
	"bytes"
	"encoding/csv"
	"slices"
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
