package main

import (
	"os"
	"strings"
	"testing"
)

// TestDocTablesRowsFitTheirHeader: every row of a docs table has as many
// cells as its header: a row of testing.md's five columns pasted under a
// table of three read its tests as the rule's next cells, and GitHub drops
// a row's extra cells, its tests unseen.
func TestDocTablesRowsFitTheirHeader(t *testing.T) {
	for _, page := range docPages(t) {
		b, err := os.ReadFile(page)
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(mdFence.ReplaceAllString(string(b), ""), "\n")
		header := 0
		for i, l := range lines {
			switch {
			case !strings.HasPrefix(l, "|"):
				header = 0
			case strings.HasPrefix(l, "|---") || strings.HasPrefix(l, "| ---"):
				header = cells(lines[i-1])
			case header > 0 && cells(l) != header:
				t.Errorf("%s: a row of %d cells under a header of %d: %.100s", page, cells(l), header, l)
			}
		}
	}
}

// cells counts a table row's cells: its pipes, an escaped one (\|) none.
// A pipe in a code span splits the cell too (GitHub's tables split a row
// before they read its spans): only \| keeps it in the text.
func cells(row string) int {
	n := 0
	for i := 0; i < len(row); i++ {
		switch row[i] {
		case '\\':
			i++
		case '|':
			n++
		}
	}
	return n - 1
}
