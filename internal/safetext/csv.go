package safetext

import (
	"bufio"
	"io"
	"strings"
)

// WriteCSV writes rows as CSV (RFC 4180: a cell holding a comma, a
// semicolon, a quote or a line break is quoted), each cell made safe first
// (CSVCell): the one CSV writer of the board's export, `history --csv` and
// `status --csv`.
func WriteCSV(w io.Writer, rows [][]string) error {
	cw := NewCSVWriter(w)
	for _, r := range rows {
		if err := cw.Write(r); err != nil {
			return err
		}
	}
	return cw.Flush()
}

// CSVWriter writes rows as WriteCSV does, one at a time. Not encoding/csv's
// writer, which leaves a cell holding ';' unquoted: a spreadsheet set for
// most of Europe (Excel's list separator there) reads the file with ';'
// between cells, and "refused;=cmd|…" was two, the second a formula.
type CSVWriter struct{ w *bufio.Writer }

// NewCSVWriter is a CSVWriter writing to w.
func NewCSVWriter(w io.Writer) *CSVWriter { return &CSVWriter{w: bufio.NewWriter(w)} }

// Write writes one row, each cell made safe first (CSVCell).
func (c *CSVWriter) Write(row []string) error {
	for i, cell := range row {
		if i > 0 {
			c.w.WriteByte(',')
		}
		if cell = CSVCell(cell); csvQuoted(cell) {
			cell = `"` + strings.ReplaceAll(cell, `"`, `""`) + `"`
		}
		c.w.WriteString(cell)
	}
	_, err := c.w.WriteString("\n") // bufio keeps the first error it met
	return err
}

// Flush writes what is buffered, and says any error met writing.
func (c *CSVWriter) Flush() error { return c.w.Flush() }

// csvQuoted: a cell read as one only when quoted, with ',' or with ';'
// between cells (CSVCell leaves no line break nor space around it), and
// \. as encoding/csv quotes it: PostgreSQL's COPY reads it as the end.
func csvQuoted(cell string) bool {
	return strings.ContainsAny(cell, ",;\"") || cell == `\.`
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
