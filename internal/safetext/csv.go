package safetext

import (
	"encoding/csv"
	"io"
	"strings"
)

// WriteCSV writes rows as CSV (RFC 4180: a cell holding a comma, a quote
// or a line break is quoted), each cell made safe first (CSVCell): the one
// CSV writer of the board's export, `history --csv` and `status --csv`.
func WriteCSV(w io.Writer, rows [][]string) error {
	cw := csv.NewWriter(w)
	cells := []string{}
	for _, r := range rows {
		cells = cells[:0]
		for _, c := range r {
			cells = append(cells, CSVCell(c))
		}
		if err := cw.Write(cells); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// CSVCell is s as a CSV cell: cleaned to one line (Line: no escapes, tabs
// or line breaks, no spaces around), and, so that a spreadsheet never
// takes it for a formula, with a leading ' when it starts with =, +, - or
// @ (OWASP's advice against CSV injection).
func CSVCell(s string) string {
	s = Line(s, 0)
	if s != "" && strings.ContainsRune("=+-@", rune(s[0])) {
		return "'" + s
	}
	return s
}
