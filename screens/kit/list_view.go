package kit

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/svcwallet/svcwallet/internal/safetext"
	"github.com/svcwallet/svcwallet/screens/kit/layout"
)

// Column is one column of a List. When the line is too short for every
// column at its Width, the columns give way in this order: each other
// column gives up the cells its visible values leave blank, and an
// Optional Middle one shrinks toward its Min; Optional columns are left out, the
// rightmost first (a value cut at its end, "ARBIT…", says less than a
// column left out); then the others shrink toward their Min, cutting
// them, the furthest above it first; only then does the Key column shrink
// toward its Min, cut in the middle so that its tail stays visible.
type Column struct {
	Title string
	// Width is the cells it wants; the Key column also grows to its widest
	// visible value. Min is the fewest it is cut to (0: its values are
	// never cut).
	Width, Min int
	// Gap is the spaces before it (0: one); the first column has none.
	Gap int
	// Right aligns values to the right: amounts, times.
	Right bool
	// Key marks the column the user copies (an id, an address).
	Key bool
	// Middle cuts a value too long for the column in the middle, as the
	// Key column does, keeping both ends (a hash: its ends are compared).
	Middle bool
	// Optional may be left out on a short line.
	Optional bool
	// Short is the title drawn where the column is narrower than Title,
	// so a title is never cut mid-word ("DESTINAT…").
	Short string
	// Amount marks values that are a number and its unit ("23.5 USDT"):
	// too long, the unit goes first, and a number that still does not fit
	// is drawn as "…", never with digits cut off.
	Amount bool
}

// Row is how a List draws one item.
type Row struct {
	// Cells are plain text, one a column.
	Cells []string
	// Rich, where set, is a styled version of the cell of the same index,
	// drawn instead when it fits whole (the payout token being chosen).
	Rich []string
	// Ink colours the row unless it is selected; the zero Ink is none.
	Ink layout.Ink
	// Mark is one cell between the cursor and the first column (the
	// board's • on a changed row); "" is a space.
	Mark string
}

// View draws the column titles, the visible rows and the count, with note
// after it ("2 unfinished"); or, with no row to show, Empty or the empty
// filter. Every line ends with a newline.
func (l *List[T]) View(note string) string {
	k := layout.InksFor(l.common)
	switch {
	case l.all.len() == 0:
		// Wrapped, not cut: it says what to do next.
		return layout.WrapTo(l.spec.Empty, l.width) + "\n"
	case l.shown.len() == 0:
		q := layout.Truncate(safetext.Text(l.Filter()), 30, "…")
		return layout.WrapTo(fmt.Sprintf("No %s match '%s': esc clears the filter.", l.plural(), q), l.width) + "\n"
	}
	end := min(l.offset+l.rows, l.shown.len())
	rows := make([]Row, 0, end-l.offset)
	for i := l.offset; i < end; i++ {
		rows = append(rows, l.spec.Row(l.shown.at(i)))
	}
	titles := l.titles()
	widths := l.layout(titles, rows)
	for i, c := range l.spec.Columns {
		if c.Short != "" && widths[i] >= 0 && layout.Width(titles[i]) > widths[i] {
			titles[i] = strings.Replace(titles[i], c.Title, c.Short, 1)
		}
	}
	drawn, shape := make(map[string]string, len(rows)+1), fmt.Sprint(widths)
	var b strings.Builder
	b.WriteString("  " + l.memoLine(drawn, shape, titles, nil, widths, k.Label, false) + "\n")
	for j, r := range rows {
		mark := r.Mark
		if mark == "" {
			mark = " "
		}
		if l.offset+j == l.cursor && !l.Blurred {
			b.WriteString(k.Cursor.On("›") + mark + l.memoLine(drawn, shape, r.Cells, r.Rich, widths, k.Selected, true) + "\n")
			continue
		}
		b.WriteString(" " + mark + l.memoLine(drawn, shape, r.Cells, r.Rich, widths, r.Ink, true) + "\n")
	}
	l.drawn = drawn
	count := l.count(end)
	if note != "" {
		count += " · " + note
	}
	b.WriteString(k.Muted.On("  "+count) + "\n")
	return b.String()
}

// titles are the columns' titles, the one the order in effect reads
// marked ↑ (smallest or earliest first) or ↓.
func (l *List[T]) titles() []string {
	titles := make([]string, len(l.spec.Columns))
	for i, c := range l.spec.Columns {
		titles[i] = c.Title
	}
	if len(l.spec.Sorts) > 0 {
		s, mark := l.spec.Sorts[l.sort], "↑"
		if s.Desc != l.turned {
			mark = "↓"
		}
		titles[s.Column] += mark
	}
	return titles
}

// count says how many rows there are and, when not all fit or a filter
// narrows them, which are shown.
func (l *List[T]) count(end int) string {
	n, m := l.all.len(), l.shown.len()
	noun := l.spec.Noun
	if n != 1 {
		noun = l.plural()
	}
	switch {
	case l.Filter() == "" && m <= l.rows:
		return fmt.Sprintf("%d %s", n, noun)
	case l.Filter() == "":
		return fmt.Sprintf("%d–%d of %d %s", l.offset+1, end, n, noun)
	case m <= l.rows:
		return fmt.Sprintf("%d of %d %s shown", m, n, noun)
	}
	return fmt.Sprintf("%d–%d · %d of %d %s shown", l.offset+1, end, m, n, noun)
}

func (l *List[T]) plural() string { return l.spec.Noun + "s" }

// memoLine is line, taken from the last frame when it drew the same
// (a board's answer changes one row at most, and a frame is drawn after
// every message); drawn keeps this frame's, shape is widths as text.
func (l *List[T]) memoLine(drawn map[string]string, shape string, cells, rich []string, widths []int, ink layout.Ink, values bool) string {
	var key strings.Builder
	for _, c := range cells {
		key.WriteString(c + "\x00")
	}
	key.WriteString("\x01")
	for _, c := range rich {
		key.WriteString(c + "\x00")
	}
	key.WriteString("\x01" + ink.On("") + shape + strconv.FormatBool(values))
	k := key.String()
	out, ok := l.drawn[k]
	if !ok {
		out = l.line(cells, rich, widths, ink, values)
	}
	drawn[k] = out
	return out
}

// line lays cells out in widths (a column of width -1 is left out): each
// cut to its column (values as their Column says, titles at the end) and
// padded, all but the last; a rich cell that fits is drawn as it is, the
// rest in ink.
func (l *List[T]) line(cells, rich []string, widths []int, ink layout.Ink, values bool) string {
	var out, run strings.Builder
	last := len(widths) - 1
	for last >= 0 && widths[last] < 0 {
		last--
	}
	started := false
	for i, c := range l.spec.Columns {
		w := widths[i]
		if w < 0 {
			continue
		}
		if started {
			run.WriteString(strings.Repeat(" ", max(c.Gap, 1)))
		}
		started = true
		text := ""
		if i < len(cells) {
			text = cells[i]
		}
		if i < len(rich) && rich[i] != "" && ansi.StringWidth(rich[i]) <= w {
			out.WriteString(ink.On(run.String()))
			run.Reset()
			out.WriteString(rich[i])
			if i < last {
				run.WriteString(strings.Repeat(" ", w-ansi.StringWidth(rich[i])))
			}
			continue
		}
		if values && c.Amount {
			text = fitAmount(text, w)
		}
		text = fit(text, w, values && (c.Key || c.Middle))
		switch pad := w - layout.Width(text); {
		case c.Right:
			run.WriteString(strings.Repeat(" ", pad) + text)
		case i < last:
			run.WriteString(text + strings.Repeat(" ", pad))
		default:
			run.WriteString(text)
		}
	}
	if run.Len() > 0 {
		out.WriteString(ink.On(run.String()))
	}
	return out.String()
}

// fit cuts s to w cells with a "…": at the end, or in the middle keeping
// both ends (the tail gets the odd cell).
func fit(s string, w int, middle bool) string {
	n := layout.Width(s)
	switch {
	case n <= w:
		return s
	case !middle || w < 3:
		return ansi.Truncate(s, w, "…")
	}
	head := (w - 1) / 2
	tail := w - 1 - head
	return ansi.Truncate(s, head, "") + "…" + ansi.TruncateLeft(s, n-tail, "")
}

// fitAmount is an amount and its unit in w cells: whole, else the number
// alone, else "…".
func fitAmount(s string, w int) string {
	if layout.Width(s) <= w {
		return s
	}
	if number, _, _ := strings.Cut(s, " "); layout.Width(number) <= w {
		return number
	}
	return "…"
}

// layout gives each column its width for the line, -1 for one left out
// (see Column for the order in which they give way). Before any value is
// cut, a column gives up the cells its visible values leave blank; none
// is narrower than its title.
func (l *List[T]) layout(titles []string, rows []Row) []int {
	cols := l.spec.Columns
	want := make([]int, len(cols))
	blank := make([]int, len(cols)) // the fewest cells that cut nothing shown
	for i, c := range cols {
		blank[i] = layout.Width(titles[i])
		for _, r := range rows {
			if i < len(r.Cells) {
				blank[i] = max(blank[i], layout.Width(r.Cells[i]))
			}
		}
		want[i] = max(c.Width, layout.Width(titles[i]))
		if c.Key {
			want[i] = max(want[i], blank[i])
		}
	}
	uncut := func(i int) int { return min(blank[i], want[i]) }
	least := func(i int) int {
		if cols[i].Min == 0 {
			return uncut(i)
		}
		return min(cols[i].Min, want[i])
	}
	// floor is each column's least at a step: the Key column's and the
	// others' cuts wait for their steps; an Optional Middle column, which
	// keeps both ends, is cut before it is left out.
	floor := func(key, others bool) func(i int) int {
		return func(i int) int {
			switch {
			case cols[i].Key && !key:
				return want[i]
			case cols[i].Key, cols[i].Middle && cols[i].Optional, others:
				return least(i)
			}
			return uncut(i)
		}
	}
	avail := l.width - 2 // the cursor and the mark
	widths := make([]int, len(cols))
	for hidden := len(cols); ; hidden-- {
		copy(widths, want)
		// Leave out the Optional columns from index hidden on.
		for i := hidden; i < len(cols); i++ {
			if cols[i].Optional {
				widths[i] = -1
			}
		}
		over := shrink(widths, lineWidth(cols, widths)-avail, floor(false, false))
		if over <= 0 {
			return widths
		}
		if !hasOptional(cols[:hidden]) {
			over = shrink(widths, over, floor(false, true))
			shrink(widths, over, floor(true, true))
			return widths
		}
	}
}

func hasOptional(cols []Column) bool {
	for _, c := range cols {
		if c.Optional {
			return true
		}
	}
	return false
}

// lineWidth is the cells a row takes in widths, gaps included.
func lineWidth(cols []Column, widths []int) int {
	n, started := 0, false
	for i, w := range widths {
		if w < 0 {
			continue
		}
		if started {
			n += max(cols[i].Gap, 1)
		}
		started = true
		n += w
	}
	return n
}

// shrink takes over cells from the columns shown, one at a time from the
// one furthest above its floor; it returns what is still over.
func shrink(widths []int, over int, floor func(i int) int) int {
	for over > 0 {
		best, slack := -1, 0
		for i, w := range widths {
			if w < 0 {
				continue
			}
			if s := w - floor(i); s > slack {
				best, slack = i, s
			}
		}
		if best < 0 {
			return over
		}
		widths[best]--
		over--
	}
	return over
}
