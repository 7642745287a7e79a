package status

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"svcwallet/screens/kit"
	"svcwallet/service"
	"svcwallet/service/follow"
)

// boardHeaderLines is the height above the rows: heading, sentence, blank,
// field, blank, column names; boardFooterLines the count under them.
const (
	boardHeaderLines = 6
	boardFooterLines = 2
)

// boardState names a followed id's state for the board: the service's
// state, or what stands in for one.
func boardState(f follow.Followed) string {
	switch {
	case f.NotFound:
		return "NOT FOUND"
	case !f.Known && f.Err != nil:
		return "NO ANSWER"
	case !f.Known:
		return "ASKING"
	case f.Final && f.Last.State == service.StateCreated:
		return "EXPIRED"
	case f.Last.State == service.StateCreated && !f.AcceptedAt.IsZero():
		// The journal saw it accepted: not a quote waiting to be executed.
		return boardContradicts
	}
	return f.Last.State
}

// boardContradicts stands for a CREATED record of a withdrawal this
// account's journal saw accepted; its detail says to contact support.
const boardContradicts = "CREATED?"

// boardGlyph marks a state at a glance: ✓ paid, ✗ failed, ↩ refunded,
// ▶ in motion, · waiting to be executed, ? unknown, ○ expired unexecuted,
// ! a record that contradicts the journal.
func boardGlyph(state string) string {
	switch state {
	case service.StateCompleted:
		return "✓"
	case service.StateFailed:
		return "✗"
	case service.StateRefunded:
		return "↩"
	case service.StateSubmitted, service.StateSending:
		return "▶"
	case service.StateCreated, "ASKING":
		return "·"
	case "EXPIRED":
		return "○"
	case boardContradicts:
		return "!"
	}
	return "?"
}

// ago says a duration in at most two units: 9s, 4m05s, 2h10m, 3d04h.
func ago(d time.Duration) string {
	s := int64(max(d, 0) / time.Second)
	switch {
	case s < 60:
		return strconv.FormatInt(s, 10) + "s"
	case s < 3600:
		return fmt.Sprintf("%dm%02ds", s/60, s%60)
	case s < 86400:
		return fmt.Sprintf("%dh%02dm", s/3600, s%3600/60)
	}
	return fmt.Sprintf("%dd%02dh", s/86400, s%86400/3600)
}

// shortHash shows a payout hash's first and last n characters.
func shortHash(h string, n int) string {
	if len(h) <= 2*n+1 {
		return h
	}
	return h[:n] + "…" + h[len(h)-n:]
}

func (b *boardScreen) listRows() int {
	return max(b.h-boardHeaderLines-boardFooterLines-b.errLines(), 3)
}

func (b *boardScreen) errLines() int {
	if b.err == nil {
		return 0
	}
	return strings.Count(kit.ErrorBlock(b.app.Common, "Error", b.err, b.w), "\n")
}

// scroll keeps the cursor inside the visible rows.
func (b *boardScreen) scroll() {
	b.offset = kit.ScrollOffset(b.cursor, b.offset, b.listRows(), len(b.rows))
}

// boardColumns are the widths of the columns that shrink on a narrow
// terminal: quote id, chain, receive amount, the two times; and how many
// characters of each end of the payout hash are shown.
type boardColumns struct{ id, chain, receive, time, hash int }

func (b *boardScreen) columns() boardColumns {
	if b.w < 100 {
		return boardColumns{13, 8, 12, 7, 5}
	}
	return boardColumns{26, 9, 16, 8, 7}
}

func (b *boardScreen) View() string {
	c := b.app.Common
	st := c.Styles
	var s strings.Builder
	s.WriteString(st.Muted.Render(b.app.Target.Env.Name + " · withdrawals followed by quote id"))
	if b.filter.Shown() {
		s.WriteString("  " + b.filter.View())
	}
	s.WriteString("\n" + st.Muted.Render("Paste or type quote ids, separated by spaces, commas or new lines.") + "\n\n")
	s.WriteString(kit.Field(c, "Quote ids", statusLabelWidth, b.input.View()) + "\n")
	if b.err != nil {
		s.WriteString(kit.ErrorBlock(c, "Error", b.err, b.w))
	}
	s.WriteString("\n")
	switch {
	case len(b.ids) == 0:
		s.WriteString("No withdrawals on the board yet: paste quote ids above, or press w on History to add this account's.\n")
		return kit.Clip(s.String(), b.w)
	case len(b.rows) == 0:
		s.WriteString("No withdrawal matches the filter: press / to change it.\n")
		return kit.Clip(s.String(), b.w)
	}
	cols := b.columns()
	s.WriteString(st.Label.Render(fmt.Sprintf("  %-*s %-*s %*s  %-12s %*s %*s  %s",
		cols.id, "QUOTE ID", cols.chain, "CHAIN", cols.receive, "RECEIVE", "STATE", cols.time, "SINCE", cols.time, "CHECKED", "PAYOUT")) + "\n")
	now := c.Now()
	end := min(b.offset+b.listRows(), len(b.rows))
	for i := b.offset; i < end; i++ {
		s.WriteString(b.row(i, cols, now) + "\n")
	}
	moving := b.sched.Moving() + len(b.inflight)
	s.WriteString(st.Muted.Render(fmt.Sprintf("  %d–%d of %d · %d moving · at most %d requests a second",
		b.offset+1, end, len(b.rows), moving, b.app.Target.Env.EffectiveFollowRate())) + "\n")
	return kit.Clip(s.String(), b.w)
}

// since says when something began: how long ago on a moving row, which
// is redrawn with every answer, and the clock time on a final row, which
// is not. The service's updated_at is preferred to when this console saw
// it first.
func (b *boardScreen) since(seen, updated time.Time, final bool, now time.Time, cols boardColumns) string {
	t := seen
	if !updated.IsZero() && updated.Before(seen) {
		t = updated
	}
	if !final {
		return ago(now.Sub(t))
	}
	if cols.time < 8 {
		return t.In(now.Location()).Format("15:04")
	}
	return t.In(now.Location()).Format("15:04:05")
}

// row draws one followed id; a row whose state changed since it was last
// selected carries a •.
func (b *boardScreen) row(i int, cols boardColumns, now time.Time) string {
	st := b.app.Common.Styles
	id := b.rows[i]
	f, _ := b.sched.Get(id)
	state := boardState(f)
	receive, inState, checked := "", "", "never"
	if f.Known {
		receive = f.Last.ReceiveAmount.String() + " " + f.Last.TokenOut
		inState = b.since(f.Since, f.Last.UpdatedAt, f.Final, now, cols)
	}
	if !f.LastChecked.IsZero() {
		checked = b.since(f.LastChecked, time.Time{}, f.Final, now, cols)
	}
	mark := " "
	if b.marked[id] {
		mark = "•"
	}
	line := fmt.Sprintf("%-*s %-*s %*s  %s %-10s %*s %*s  %s",
		cols.id, kit.Truncate(id, cols.id, "…"), cols.chain, kit.Truncate(f.Last.Chain, cols.chain, "…"), cols.receive, kit.Truncate(receive, cols.receive, "…"),
		boardGlyph(state), state, cols.time, inState, cols.time, checked, shortHash(f.Last.WithdrawTxHash, cols.hash))
	switch {
	case i == b.cursor && !b.input.Focused():
		return st.Cursor.Render("›") + mark + st.Selected.Render(line)
	case f.Final && (f.NotFound || f.Last.State != service.StateCompleted):
		return " " + mark + st.Warning.Render(line)
	case f.Final:
		return " " + mark + st.Value.Render(line)
	}
	return " " + mark + line
}
