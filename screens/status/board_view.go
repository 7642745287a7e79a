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

// boardHeaderLines is the height above the list: heading, sentence, blank,
// field, blank; boardFooterLines the list's column titles and count.
const (
	boardHeaderLines = 5
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

// boardColumns: the quote id, which support copies, is drawn whole while
// the others can give way: the amounts and times shrink, the payout hash
// (cut in the middle, as the id is when it must be) and the last check
// are left out, and only then is the id cut, its tail kept.
var boardColumns = []kit.Column{
	{Title: "QUOTE ID", Width: 28, Min: 13, Key: true},
	{Title: "CHAIN", Width: 9, Min: 5},
	{Title: "RECEIVE", Width: 16, Min: 8, Right: true},
	{Title: "STATE", Width: 12, Gap: 2},
	{Title: "SINCE", Width: 8, Min: 5, Right: true},
	{Title: "CHECKED", Width: 8, Min: 5, Right: true, Optional: true},
	{Title: "PAYOUT", Width: 15, Min: 11, Gap: 2, Middle: true, Optional: true},
}

// sizeList gives the list what the heading, the field and any error leave.
func (b *boardScreen) sizeList() {
	b.list.SetSize(b.w, max(b.h-boardHeaderLines-boardFooterLines-b.errLines(), 3))
}

func (b *boardScreen) errLines() int {
	if b.err == nil {
		return 0
	}
	return strings.Count(kit.ErrorBlock(b.app.Common, "Error", b.err, b.w), "\n")
}

func (b *boardScreen) View() string {
	c := b.app.Common
	st := c.Styles
	var s strings.Builder
	s.WriteString(st.Muted.Render(b.app.Target.Env.Name + " · withdrawals followed by quote id"))
	if f := b.list.FilterView(); f != "" {
		s.WriteString("  " + f)
	}
	s.WriteString("\n" + st.Muted.Render("Paste or type quote ids, separated by spaces, commas or new lines.") + "\n\n")
	s.WriteString(kit.Field(c, "Quote ids", statusLabelWidth, b.input.View()) + "\n")
	if b.err != nil {
		s.WriteString(kit.ErrorBlock(c, "Error", b.err, b.w))
	}
	s.WriteString("\n")
	moving := b.sched.Moving() + len(b.inflight)
	s.WriteString(b.list.View(fmt.Sprintf("%d moving · at most %d requests a second", moving, b.app.Target.Env.EffectiveFollowRate())))
	return kit.Clip(s.String(), b.w)
}

// since says when something began: how long ago on a moving row, which
// is redrawn with every answer, and the clock time on a final row, which
// is not (to the minute on a narrow board). The service's updated_at is
// preferred to when this console saw it first.
func (b *boardScreen) since(seen, updated time.Time, final bool, now time.Time) string {
	t := seen
	if !updated.IsZero() && updated.Before(seen) {
		t = updated
	}
	if !final {
		return ago(now.Sub(t))
	}
	if b.w < 100 {
		return t.In(now.Location()).Format("15:04")
	}
	return t.In(now.Location()).Format("15:04:05")
}

// row draws one followed id; a row whose state changed since it was last
// selected carries a •.
func (b *boardScreen) row(id string) kit.Row {
	k := kit.InksFor(b.app.Common)
	now := b.app.Common.Now()
	f, _ := b.sched.Get(id)
	state := boardState(f)
	receive, inState, checked := "", "", "never"
	if f.Known {
		receive = f.Last.ReceiveAmount.String() + " " + f.Last.TokenOut
		inState = b.since(f.Since, f.Last.UpdatedAt, f.Final, now)
	}
	if !f.LastChecked.IsZero() {
		checked = b.since(f.LastChecked, time.Time{}, f.Final, now)
	}
	r := kit.Row{Cells: []string{id, f.Last.Chain, receive, boardGlyph(state) + " " + state, inState, checked, f.Last.WithdrawTxHash}}
	if b.marked[id] {
		r.Mark = "•"
	}
	switch {
	case f.Final && (f.NotFound || f.Last.State != service.StateCompleted):
		r.Ink = k.Warning
	case f.Final:
		r.Ink = k.Value
	}
	return r
}
