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
	cw := NewCSVWriter(w)
	for _, r := range rows {
		if err := cw.Write(r); err != nil {
			return err
		}
	}
	return cw.Flush()
}

// CSVWriter writes rows as WriteCSV does, one at a time.
type CSVWriter struct {
	cw    *csv.Writer
	cells []string
}

// NewCSVWriter is a CSVWriter writing to w.
func NewCSVWriter(w io.Writer) *CSVWriter { return &CSVWriter{cw: csv.NewWriter(w)} }

// Write writes one row, each cell made safe first (CSVCell).
func (c *CSVWriter) Write(row []string) error {
	c.cells = c.cells[:0]
	for _, cell := range row {
		c.cells = append(c.cells, CSVCell(cell))
	}
	return c.cw.Write(c.cells)
}

// Flush writes what is buffered, and says any error met writing.
func (c *CSVWriter) Flush() error {
	c.cw.Flush()
	return c.cw.Error()
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
