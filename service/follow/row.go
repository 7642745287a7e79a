package follow

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"strings"
	"unicode"

	"github.com/svcwallet/svcwallet/internal/safetext"
	"github.com/svcwallet/svcwallet/service/exchange"
)

// Reading the ids of a line as support staff paste them: a spreadsheet's
// row or a ticket export's (2026-11-30, ACME, q-…, 25 USDT) gives the one
// id among its columns; which of two different ids is meant is never
// guessed, and a date, a time, an amount or an address is never an id.

// ReadID is the id w names as one token, as every face reads a word it is
// given: a payout hash (TokenHash: quoted, in brackets, before
// punctuation, or an explorer's link to one) as the hash, with whether a
// link named it; anything else without the double quotes a CSV export
// puts around a field and without the '.' that ends a sentence, so "X."
// is read as X is, whatever X is: a SOLANA signature and a quote id of
// its length alike (the '.' was dropped from a signature only).
func ReadID(w string) (id string, linked bool) {
	if h, _, linked := TokenHash(w); h != "" {
		return h, linked
	}
	return strings.TrimSuffix(unquoted(strings.TrimSuffix(w, ".")), "."), false
}

// RowError is why a line of several columns gives no id: two or more
// different ids in it (Columns, counted from 1), or none (no Columns).
type RowError struct{ Columns []int }

func (e *RowError) Error() string {
	if len(e.Columns) == 0 {
		return "is a row of several columns and none is an id (a date, a time, an amount, an address or a name never is): give one id a line"
	}
	cols := make([]string, len(e.Columns))
	for i, c := range e.Columns {
		cols[i] = fmt.Sprint(c)
	}
	return fmt.Sprintf("holds %d different ids, in columns %s: which is the withdrawal's is not guessed; give the column of quote ids alone, one a line",
		len(cols), strings.Join(cols[:len(cols)-1], ", ")+" and "+cols[len(cols)-1])
}

// HexIDsError is why lines of bare hex ids, each Digits long, are refused
// together: one a line (First to Last) or Pieces on one line, they are as
// a private key (or a TRON payout hash) written in pieces is, so they may
// be either, and none is sent. It is an exchange.ErrKeyShape: never
// repeated.
type HexIDsError struct{ First, Last, Pieces, Digits int }

func (e *HexIDsError) Error() string {
	return fmt.Sprintf("%d ids of %d hex digits each, or a private key or a TRON payout hash written in pieces, whose shape they have together: svcwallet cannot tell them apart and sends none; give each such quote id alone, a payout hash whole (0x and 64 hex digits)",
		e.Pieces, e.Digits)
}

func (e *HexIDsError) Unwrap() error { return exchange.ErrKeyShape }

// LineRefusal is m's refusal naming its line or lines, never repeating
// them ("line 3 holds 2 different ids…", "lines 2–3 hold 2 ids of 32 hex
// digits each, or…"), for a refusal about a line rather than an id
// (RowError, HexIDsError); false for any other, which the face words with
// the id. Of a text of one line (one: a question's answer) the line is
// "this line". It is the one wording of a refused line: status -, the
// board and plain mode may only put their lead-in before it.
func LineRefusal(m MalformedID, one bool) (string, bool) {
	var row *RowError
	var hex *HexIDsError
	line := fmt.Sprintf("line %d", m.Line)
	if one {
		line = "this line"
	}
	switch {
	case errors.As(m.Err, &row):
		return fmt.Sprintf("%s %v", line, row), true
	case errors.As(m.Err, &hex) && (one || hex.First == hex.Last):
		if !one {
			line = fmt.Sprintf("line %d", hex.First)
		}
		return fmt.Sprintf("%s holds %v", line, hex), true
	case errors.As(m.Err, &hex):
		return fmt.Sprintf("lines %d–%d hold %v", hex.First, hex.Last, hex), true
	}
	return "", false
}

// cellKind is what a column of a row is.
type cellKind int

const (
	otherCell cellKind = iota // words, or a quote id's characters but no generated id's shape (ACME, USDT, 25)
	neverCell                 // a date, a time, an amount or an address (neverID)
	idCell                    // a payout hash, a link to one, a transfer id, or a generated quote id
)

// kindOfCell is what w, one word of a row, is, and the id it reads as.
func kindOfCell(w string) (cellKind, string) {
	id, _ := ReadID(w)
	switch {
	case id == "":
		return otherCell, id
	case KindOf(id) != QuoteID:
		return idCell, id
	case neverID(id): // 11/30/2026 too, which no quote id's check takes
		return neverCell, id
	case exchange.CheckQuoteID(id) != nil:
		return otherCell, id
	case CheckTypedID(id) == nil:
		return idCell, id
	}
	return otherCell, id
}

// table is what the lines read so far say of the next: whether a header
// may still stand there (first: nothing but blank lines read), and the
// column its header names the quote id's (idColumn, from 0; -1 none).
type table struct {
	first    bool
	idColumn int
}

func newTable() table { return table{first: true, idColumn: -1} }

// header reports whether line, the first, is a header naming a quote id
// column (quote_id, "Quote ID"), and keeps the column. A header split at
// whitespace is not one: its columns are not a row's (QUOTE ID  STATE).
func (t *table) header(line string) bool {
	if strings.ContainsAny(line, "0123456789") {
		return false
	}
	cs := []string{line}
	if delimited(line) {
		cs = cells(line)
	}
	for i, c := range cs {
		name := strings.NewReplacer(" ", "", "_", "", "-", "").Replace(strings.ToLower(unquoted(c)))
		if name == "quoteid" || name == "quote" {
			t.idColumn = i
			return true
		}
	}
	return false
}

// named is the id in line's column its header named, when line is a row
// and that cell is an id (svcwallet's --csv puts the transfer id, the
// payout hash and its link beside the quote id); false otherwise, and
// the row is read as one without a header.
func (t *table) named(line string) (string, bool) {
	if t.idColumn < 0 || !delimited(line) {
		return "", false
	}
	cs := cells(line)
	if t.idColumn >= len(cs) {
		return "", false
	}
	if kind, _ := kindOfCell(cs[t.idColumn]); kind != idCell {
		return "", false
	}
	return cs[t.idColumn], true
}

// delimited reports whether line has columns apart by tabs, or by
// semicolons or commas outside double quotes.
func delimited(line string) bool {
	return strings.IndexByte(line, '\t') >= 0 || unquotedIndex(line, ';') >= 0 || unquotedIndex(line, ',') >= 0
}

// isWordSeparator is what stands between ids in a line of the board's
// field or plain mode's look-up.
func isWordSeparator(r rune) bool { return r == ',' || r == ';' || r == ' ' || r == '\t' }

// rowWords is the words of line (its comment cut) to read as ids: with
// split (the board's field, plain mode's look-up) every word of a list of
// ids, or of one id a line (status -) the line. A row of columns (cells,
// each read word by word: a ticket's sentence too) gives its one id: with
// split, a line with a date, a time, an amount or an address in it is
// such a row, else a list; without, any line of several words is. A row
// of two different ids is refused (*RowError), and so is one of none with
// a date, a time, an amount or an address (else it is read as one id and
// refused as that, "q-bad id" said as given); a first line of several
// words with no id and no digit is a spreadsheet's header, skipped. A
// header naming a quote id column (svcwallet's own --csv) makes that
// column's id each row's, whatever else the row holds (table.named).
//
// one is where the line alone goes: as 10,000 lines of ids are read, no
// slice is made for each.
func (t *table) rowWords(one []string, line string, split bool) ([]string, error) {
	line = strings.TrimSpace(line)
	first := t.first
	t.first = first && line == ""
	if first && t.header(line) {
		return nil, nil
	}
	if alone := strings.TrimSpace(strings.TrimRight(line, ",;")); !strings.ContainsFunc(alone, isWordSeparator) {
		return append(one[:0], alone), nil // one id (`"0x…",` as a CSV's column writes it): no columns to read
	}
	if !split && strings.ContainsFunc(line, func(r rune) bool { return r != '\t' && unicode.IsControl(r) }) {
		return append(one[:0], line), nil // an escape sequence's ; lists no columns: refused as one id, cleaned
	}
	if id, ok := t.named(line); ok {
		return append(one[:0], id), nil
	}
	if split {
		words := strings.FieldsFunc(line, isWordSeparator)
		if !slices.ContainsFunc(words, func(w string) bool { id, _ := ReadID(w); return neverID(id) }) {
			return words, nil // a list of ids, each read as it stands
		}
	}
	cs := cells(line)
	if !split && filledCells(cs) < 2 {
		return append(one[:0], line), nil // one column
	}
	ids, never := map[string]bool{}, false
	var idWord string
	var columns []int
	for col, c := range cs {
		for _, w := range strings.FieldsFunc(c, isWordSeparator) {
			kind, id := kindOfCell(w)
			never = never || kind == neverCell
			if kind == idCell && !ids[id] {
				ids[id], idWord = true, w
				columns = append(columns, col+1)
			}
		}
	}
	switch {
	case len(columns) == 1:
		return append(one[:0], idWord), nil
	case len(columns) > 1:
		return nil, &RowError{Columns: columns}
	case first && !strings.ContainsAny(line, "0123456789"):
		return nil, nil
	case !never:
		return append(one[:0], line), nil // words, or an id with a space in it: refused as one id, said as given
	}
	return nil, &RowError{}
}

// cells is line's columns: at tabs where it has one (a spreadsheet's
// copy), else at semicolons outside double quotes (a CSV export whose
// amounts keep their decimal commas), else at commas outside them, else
// at whitespace; each trimmed, empty ones kept so columns count as the
// spreadsheet's.
func cells(line string) []string {
	var sep byte
	switch {
	case strings.IndexByte(line, '\t') >= 0:
		return trimmed(strings.Split(line, "\t"))
	case unquotedIndex(line, ';') >= 0:
		sep = ';'
	case unquotedIndex(line, ',') >= 0:
		sep = ','
	default:
		return strings.Fields(line)
	}
	var out []string
	for {
		i := unquotedIndex(line, sep)
		if i < 0 {
			return trimmed(append(out, line))
		}
		out, line = append(out, line[:i]), line[i+1:]
	}
}

// unquotedIndex is where c first stands in s outside double quotes, -1
// for nowhere.
func unquotedIndex(s string, c byte) int {
	quoted := false
	for i := range len(s) {
		switch s[i] {
		case '"':
			quoted = !quoted
		case c:
			if !quoted {
				return i
			}
		}
	}
	return -1
}

// filledCells is how many of cs are not empty.
func filledCells(cs []string) int {
	n := 0
	for _, c := range cs {
		if c != "" {
			n++
		}
	}
	return n
}

func trimmed(cs []string) []string {
	for i, c := range cs {
		cs[i] = strings.TrimSpace(c)
	}
	return cs
}

// neverID reports whether w, a word of a row, is a date, a time, an
// amount or an address: a spreadsheet's or a ticket's other columns,
// never taken for its id. A word of only digits and - / . : , + (and a
// T or Z, as RFC 3339 writes a time) is one of the first three, as are 8
// digits that are a date (20261130) and a number with a token's name
// glued to it (25USDT); an EVM address (0x and 40 hex digits) or a TRON
// one (base58 with its checksum) is the last.
func neverID(w string) bool {
	return dateTimeOrAmount(w) || compactDate(w) || amountWithUnit(w) || evmAddress(w) || tronAddress(w)
}

// dateTimeOrAmount: two or more runs of digits apart by - / . : , + T or
// Z and nothing else (2026-11-30, 12:00, 25.50, 2026-11-30T12:00:00Z); a
// number alone, -1234567 too, may be an id.
func dateTimeOrAmount(w string) bool {
	runs, in := 0, false
	for i := range len(w) {
		switch c := w[i]; {
		case c >= '0' && c <= '9':
			if !in {
				runs++
			}
			in = true
		case strings.IndexByte("-/.:,+TZtz", c) >= 0:
			in = false
		default:
			return false
		}
	}
	return runs >= 2
}

func compactDate(w string) bool {
	if !safetext.DecimalDigits(w, 8) || len(w) != 8 {
		return false
	}
	century, month, day := w[:2], (w[4]-'0')*10+w[5]-'0', (w[6]-'0')*10+w[7]-'0'
	return (century == "19" || century == "20") && month >= 1 && month <= 12 && day >= 1 && day <= 31
}

// amountWithUnit: a number, its decimals too, then 2 to 5 letters one of
// which is no hex digit (25USDT, 0.5eth; not 1234abcd, a hex id).
func amountWithUnit(w string) bool {
	end := strings.TrimRight(w, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
	unit := w[len(end):]
	if len(unit) < 2 || len(unit) > 5 || !strings.ContainsFunc(unit, func(r rune) bool { return !strings.ContainsRune("abcdefABCDEF", r) }) {
		return false
	}
	whole, decimals, dotted := strings.Cut(strings.Replace(end, ",", ".", 1), ".")
	return safetext.DecimalDigits(whole, 40) && (!dotted || safetext.DecimalDigits(decimals, 40))
}

func evmAddress(w string) bool {
	return len(w) == 42 && (w[:2] == "0x" || w[:2] == "0X") && safetext.HexDigits(w[2:], 40)
}

// tronAddress: a Tron address as a withdrawal's destination is one
// (exchange.ValidateAddress), after the cheap look at its length and T.
func tronAddress(w string) bool {
	return len(w) == 34 && w[0] == 'T' && exchange.ValidateAddress(exchange.ChainTypeTron, w) == nil
}

// hexIDs is, for each line a key's shape touches (keys), the
// *HexIDsError that line gets when it is one of bare hex ids of one length
// one a line, two or more in a row, or holds only such ids in its columns,
// nil otherwise: a key's other shapes are refused as before.
func hexIDs(lines []string, keys []bool) []error {
	out := make([]error, len(lines))
	for i := 0; i < len(lines); {
		if !keys[i] {
			i++
			continue
		}
		j, digits := i, hexID(lines[i])
		for j < len(lines) && keys[j] && hexID(lines[j]) == digits {
			j++
		}
		if digits > 0 && j-i >= 2 {
			e := &HexIDsError{First: i + 1, Last: j, Pieces: j - i, Digits: digits}
			for k := i; k < j; k++ {
				out[k] = e
			}
			i = j
			continue
		}
		if n, digits := hexColumns(lines[i]); n >= 2 {
			out[i] = &HexIDsError{First: i + 1, Last: i + 1, Pieces: n, Digits: digits}
		}
		i++
	}
	return out
}

// hexID is how many hex digits w is (its comment cut, quotes and a CSV's
// comma aside) when it is bare hex of an id's length, fewer than a key's,
// 0 otherwise.
func hexID(w string) int {
	w, _, _ = strings.Cut(w, "#")
	w = strings.Trim(w, " \t\"',;")
	if len(w) < MinTypedIDLen || len(w) >= 62 || !safetext.HexDigits(w, len(w)) {
		return 0
	}
	return len(w)
}

// hexColumns is how many columns line has and their digits when each is
// bare hex of an id's length, all one length; 0 otherwise.
func hexColumns(line string) (n, digits int) {
	line, _, _ = strings.Cut(line, "#")
	cs := cells(strings.TrimSpace(line))
	for _, c := range cs {
		d := hexID(c)
		if d == 0 || digits != 0 && d != digits {
			return 0, 0
		}
		digits = d
	}
	return len(cs), digits
}

// rowHex is a bare hex id ParseQuoteIDs read alone on a line or from a
// row's columns: its line (from 0), its place among the ids, and itself.
type rowHex struct {
	line, at int
	id       string
}

// withoutRowKeys is ids, lookups and malformed with the ids of read that
// are a key's shape together as ids one a line are (hexIDs), read from
// rows: 2026-11-30,<32 hex> on two lines gives a private key's halves,
// which the dates between hid from safetext.KeySpans and both were asked.
// Each such line is refused as bare hex ids are, in line order with the
// others; lookups keep their place among the ids left.
func withoutRowKeys(lines []string, read []rowHex, ids []string, lookups []Lookup, malformed []MalformedID) ([]string, []Lookup, []MalformedID) {
	asLines := slices.Clone(lines)
	for _, r := range read {
		asLines[r.line] = r.id
	}
	keys := linesTouched(asLines, safetext.KeySpans(MaskHashes(strings.Join(asLines, "\n"))))
	hex := hexIDs(asLines, keys)
	dropped := map[int]bool{} // places among ids
	for _, r := range read {
		if keys[r.line] {
			dropped[r.at] = true
			malformed = append(malformed, MalformedID{Line: r.line + 1, Text: lines[r.line], Err: cmp.Or(hex[r.line], exchange.ErrKeyShape)})
		}
	}
	if len(dropped) == 0 {
		return ids, lookups, malformed
	}
	kept, before := ids[:0], make([]int, len(ids)+1) // before[k]: ids kept of the first k
	for k, id := range ids {
		before[k+1] = before[k]
		if !dropped[k] {
			kept, before[k+1] = append(kept, id), before[k]+1
		}
	}
	for i := range lookups {
		lookups[i].At = before[lookups[i].At]
	}
	slices.SortStableFunc(malformed, func(a, b MalformedID) int { return cmp.Compare(a.Line, b.Line) })
	return kept, lookups, malformed
}
