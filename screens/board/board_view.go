package board

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/svcwallet/svcwallet/screens/kit"
	"github.com/svcwallet/svcwallet/screens/kit/layout"
	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/follow"
	"github.com/svcwallet/svcwallet/tui"
)

// boardLabelWidth lines up the id field's label with the status screen's.
const boardLabelWidth = 13

// boardIDsLabel and boardPlaceholders name what the field takes, every id
// follow.ParseQuoteIDs finds: a field saying quote ids alone hid the rest.
const boardIDsLabel = "Ids"

var boardPlaceholders = []string{
	"quote ids, payout hashes, transfer ids or explorer links",
	"quote ids, payout hashes, transfer ids or links",
	"quote ids, hashes, transfer ids or links",
}

// boardHeaderLines is the height above the list: heading, sentence, blank,
// field, blank; boardFooterLines the list's column titles and count, and
// the totals.
const (
	boardHeaderLines = 5
	boardFooterLines = 3
)

// boardChanged marks a row changed since it was last selected;
// boardUnknown an outcome no mark names; boardSigned a chain or amount the
// journal filled in.
const (
	boardChanged = "•"
	boardUnknown = "?"
	boardSigned  = "*"
)

// boardMarks mark the outcomes on the board's rows: each, what it means in
// the full help's legend (in its order), and the names it marks
// (follow.Follow.Outcome).
var boardMarks = []struct {
	glyph, means string
	labels       []string
}{
	{"✓", "COMPLETED: paid out", []string{exchange.StateCompleted}},
	{"✗", "FAILED: not paid out", []string{exchange.StateFailed}},
	{"↩", "REFUNDED: funds returned", []string{exchange.StateRefunded}},
	{"▶", "SUBMITTED or SENDING", []string{exchange.StateSubmitted, exchange.StateSending}},
	{"·", "CREATED, or not asked yet", []string{exchange.StateCreated, follow.LabelAsking, follow.LabelOtherLogin}},
	{"‖", "rate limited: asked after", []string{follow.LabelRateLimited}},
	{"○", "EXPIRED, REFUSED: not executed", []string{follow.LabelExpired, follow.LabelRefused, follow.LabelNotSent}},
	{boardUnknown, "NOT FOUND (YET), or no answer", []string{follow.LabelNotFoundYet}},
	{"!", "accepted, now CREATED or unknown", []string{follow.LabelContradicts, follow.LabelVanished}},
}

// boardGlyph marks an outcome's name at a glance.
func boardGlyph(label string) string {
	for _, m := range boardMarks {
		if slices.Contains(m.labels, label) {
			return m.glyph
		}
	}
	return boardUnknown
}

// boardLegend is the full help's legend of the marks on the board's rows.
func boardLegend() [][2]string {
	legend := [][2]string{{boardChanged, "changed since last selected"}, {boardSigned, follow.FromSigned}}
	for _, m := range boardMarks {
		legend = append(legend, [2]string{m.glyph, m.means})
	}
	return legend
}

// boardColumns: the quote id, which support copies, is drawn whole while
// the others can give way: the chain and amount shrink (the amount's unit
// first, its digits never: kit.Column.Amount), the payout hash
// (cut in the middle, as the id is when it must be) and the last check
// are left out, and only then is the id cut, its tail kept. Times are
// never cut. Two spaces part the id from the chain: one ran a full-length
// id into ARBITRUM.
var boardColumns = []kit.Column{
	{Title: "QUOTE ID", Width: 28, Min: 13, Key: true},
	{Title: "CHAIN", Width: 9, Gap: 2},
	{Title: "RECEIVE", Width: 16, Min: 8, Right: true, Amount: true},
	{Title: "STATE", Width: 15, Gap: 2},
	{Title: "SINCE", Width: 12, Gap: 2, Right: true},
	{Title: "CHECKED", Width: 12, Right: true, Optional: true},
	{Title: "PAYOUT", Width: 15, Min: 11, Gap: 2, Middle: true, Optional: true},
}

// boardSorts are the orders S cycles through, one a column, each then
// turned round: by state, grouped (stateRank: the moving rows first), then
// by quote id, chain, amount (largest first), the time in the state
// (longest first), the last check (oldest first) and payout hash; rows
// without a value last, ties in the order added.
var boardSorts = []kit.ListSort[*boardRow]{
	{Column: 3, Compare: func(a, b *boardRow) int { return tie(a, b, cmp.Compare(a.rank, b.rank)) }},
	{Column: 0, Compare: func(a, b *boardRow) int { return strings.Compare(a.QuoteID, b.QuoteID) }},
	{Column: 1, Compare: func(a, b *boardRow) int { return tie(a, b, textOrder(a.Last.Chain, b.Last.Chain)) }},
	{Column: 2, Desc: true, Compare: func(a, b *boardRow) int {
		return tie(a, b, cmp.Or(boolOrder(!a.Known, !b.Known), b.Last.ReceiveAmount.Cmp(a.Last.ReceiveAmount)))
	}},
	{Column: 4, Compare: func(a, b *boardRow) int { return tie(a, b, timeOrder(a.since(), b.since())) }},
	{Column: 5, Compare: func(a, b *boardRow) int { return tie(a, b, timeOrder(a.LastChecked, b.LastChecked)) }},
	{Column: 6, Compare: func(a, b *boardRow) int {
		return tie(a, b, textOrder(a.Last.WithdrawTxHash, b.Last.WithdrawTxHash))
	}},
}

// stateRank orders the states of the rows, each its own group: not asked
// or not answered yet, moving, contradicting the journal, then the ends,
// those that need a look before COMPLETED.
var stateRank = map[string]int{
	follow.LabelAsking: 0, follow.LabelOtherLogin: 0, follow.LabelRateLimited: 1, follow.LabelNoAnswer: 2,
	exchange.StateCreated: 3, exchange.StateSubmitted: 4, exchange.StateSending: 5,
	follow.LabelContradicts: 6, follow.LabelVanished: 7, follow.LabelNotFoundYet: 7,
	exchange.StateFailed: 8, exchange.StateRefunded: 9, follow.LabelRefused: 10, follow.LabelNotSent: 11, follow.LabelExpired: 12,
	follow.LabelNotFound: 13, exchange.StateCompleted: 14,
}

// tie breaks a tie of an order by the order added, then the quote id, so
// that no two rows are equal.
func tie(a, b *boardRow, c int) int {
	return cmp.Or(c, cmp.Compare(a.seq, b.seq), strings.Compare(a.QuoteID, b.QuoteID))
}

// boolOrder puts false first.
func boolOrder(a, b bool) int {
	switch {
	case a == b:
		return 0
	case a:
		return 1
	}
	return -1
}

// textOrder orders text, the empty last.
func textOrder(a, b string) int {
	return cmp.Or(boolOrder(a == "", b == ""), strings.Compare(a, b))
}

// timeOrder orders times, earliest first, the zero last.
func timeOrder(a, b time.Time) int {
	return cmp.Or(boolOrder(a.IsZero(), b.IsZero()), a.Compare(b))
}

// since is when the row's state began: the service's updated_at, or when
// this console first saw it if that is earlier; zero before any answer.
func (r *boardRow) since() time.Time {
	t, u := r.Since, r.Last.UpdatedAt
	if t.IsZero() || !u.IsZero() && u.Before(t) {
		return u
	}
	return t
}

// sizeList gives the list what the heading, the field and any error or
// export note leave.
func (b *boardScreen) sizeList() {
	lines := boardHeaderLines + boardFooterLines + strings.Count(b.notes(), "\n")
	if b.exporting() {
		lines++ // the export's path
	}
	b.list.SetSize(b.w, max(b.h-lines, 3))
}

// notes are the lines under the field: an error, or the rows another
// login followed (held), where the last export went (wrapped whole, as it
// is a path to copy) and what is said of its folder (wrapped at spaces: no
// word cut in two).
func (b *boardScreen) notes() string {
	err := b.err
	if err == nil {
		err = b.otherLogin // it stays: nothing more is asked
	}
	if err != nil {
		return layout.ErrorBlock(b.app.Common, "Error", err, b.w)
	}
	var lines []string
	if held := b.heldNote(); held != "" {
		lines = append(lines, strings.Split(tui.Wrap(held, max(b.w, 1)), "\n")...)
	}
	if b.exportedTo != "" {
		lines = append(lines, strings.Split(ansi.Hardwrap(b.exportedTo, max(b.w, 1), true), "\n")...)
	}
	if b.lasts != "" {
		lines = append(lines, strings.Split(tui.Wrap(b.lasts, max(b.w, 1)), "\n")...)
	}
	var s strings.Builder
	for _, l := range lines {
		s.WriteString(b.app.Common.Styles.Muted.Render(l) + "\n")
	}
	return s.String()
}

// boardDrawEvery is the least time between two frames that answers alone
// change: at 5 answers a second, each moving the count and the rows, the
// board is drawn once a second rather than five times, as the terminal's
// diff and write of a changed frame were most of an answer's cost
// (docs/testing.md).
const boardDrawEvery = time.Second

// boardDrawHandOver is the least time between two frames that a span's
// answers draw as they come: spans end about a second apart, so each is
// drawn with its answers; a burst of short ones waits for boardDrawEvery.
const boardDrawHandOver = boardDrawEvery / 2

// boardDrawMsg draws what answers changed since the last frame, for the
// visit tag.
type boardDrawMsg struct{ tag tui.Tag }

// redraw drops the frame msg changed: at once for what the user did, and
// for answers once boardDrawEvery has passed since it was drawn (a
// boardDrawMsg is sent for then). The footer's keys are true at once.
func (b *boardScreen) redraw(msg tea.Msg) tea.Cmd {
	if b.quiet(msg) {
		return nil
	}
	switch msg := msg.(type) {
	case boardDrawMsg:
		if msg.tag == b.tag {
			b.drawDue = false
			if b.stale {
				b.drawn, b.stale = drawn{}, false
			}
		}
		return nil
	case boardAskedMsg, boardToldMsg:
		now := b.app.Common.Now()
		b.drawn.keys = nil
		gap := boardDrawEvery
		if _, ok := msg.(boardAskedMsg); ok {
			gap = boardDrawHandOver
		}
		if b.drawn.frame != "" && now.Sub(b.drawnAt) < gap {
			b.stale = true
			if b.drawDue {
				return nil
			}
			b.drawDue = true
			return b.app.After(b.drawnAt.Add(boardDrawEvery).Sub(now), boardDrawMsg{tag: b.tag})
		}
	}
	b.drawn, b.stale = drawn{}, false
	return nil
}

func (b *boardScreen) View() string {
	if b.drawn.frame == "" {
		b.drawn.frame, b.drawnAt = b.draw(), b.app.Common.Now()
	}
	return b.drawn.frame
}

// heading is the board's first line, drawn once for its theme and width;
// heading2 is its second. Each is the longest of its wordings that fits.
func (b *boardScreen) heading() string {
	st := b.app.Common.Styles
	if b.headingDark != st.IsDark || b.headingW != b.w || b.heading1 == "" {
		b.headingDark, b.headingW = st.IsDark, b.w
		env, rate := b.app.Target.Env.Name, b.app.Target.Env.EffectiveFollowRate()
		b.heading1 = st.Muted.Render(layout.Fitting(b.w,
			fmt.Sprintf("%s · withdrawals followed by quote id · at most %d requests a second", env, rate),
			fmt.Sprintf("%s · at most %d requests a second", env, rate), env))
		b.heading2 = st.Muted.Render(layout.Fitting(b.w,
			"Paste quote ids, payout hashes, transfer ids or explorer links, separated by spaces or lines.",
			"Paste quote ids, payout hashes or transfer ids, separated by spaces or lines.",
			"Paste quote ids, payout hashes or transfer ids.", "Paste quote ids."))
	}
	return b.heading1
}

// draw is the board's frame.
func (b *boardScreen) draw() string {
	c := b.app.Common
	st := c.Styles
	var s strings.Builder
	// The filter being typed is drawn whole: the heading gives way to it.
	line := b.heading()
	if f := b.list.FilterView(); f != "" {
		line = st.Muted.Render(b.app.Target.Env.Name) + "  " + f
	}
	s.WriteString(line)
	s.WriteString("\n" + b.heading2 + "\n\n")
	// The field with the keys is marked ›, as the board's row is when it has them.
	s.WriteString(layout.Focus(c, b.input.Focused()) + layout.Field(c, boardIDsLabel, boardLabelWidth-2, b.input.View()) + "\n")
	if b.exporting() {
		s.WriteString(layout.Focus(c, true) + layout.Field(c, "Export to", boardLabelWidth-2, b.exportTo.View()) + "\n")
	}
	s.WriteString(b.notes())
	s.WriteString("\n")
	if len(b.rows) == 0 && b.cleared != "" {
		s.WriteString(b.cleared + ".\n")
		return layout.Clip(s.String(), b.w)
	}
	s.WriteString(b.list.View(b.progress()))
	if len(b.rows) > 0 {
		s.WriteString(st.Muted.Render("  "+b.totals()) + "\n")
	}
	return layout.Clip(s.String(), b.w)
}

// progress is said after the count: how many rows have a record while
// some are still to be asked ("asked 57 of 200"), and the pause while the
// service's rate limit holds the asks.
func (b *boardScreen) progress() string {
	var parts []string
	if n := len(b.rows); b.tally.unasked > 0 {
		parts = append(parts, fmt.Sprintf("asked %d of %d", n-b.tally.unasked, n))
	}
	if p := b.sched.PausedFor(b.app.Common.Now()); p > 0 {
		parts = append(parts, kit.RateLimited(p))
	}
	return strings.Join(parts, " · ")
}

// totalsOrder is the order the totals name the outcomes in.
var totalsOrder = []string{exchange.StateCompleted, exchange.StateFailed, exchange.StateRefunded, follow.LabelRefused, follow.LabelNotSent, follow.LabelExpired,
	follow.LabelNotFound, follow.LabelVanished, follow.LabelNotFoundYet, follow.LabelContradicts, exchange.StateCreated}

// totals counts the rows per outcome ("180 completed · 10 failed ·
// 10 refunded · 0 moving"): the ends there are, those that contradict the
// journal, and always how many move.
func (b *boardScreen) totals() string {
	var parts []string
	for _, label := range totalsOrder {
		if n := b.tally.by[label]; n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", n, strings.ToLower(label)))
		}
	}
	return strings.Join(append(parts, fmt.Sprintf("%d moving", b.tally.moving)), " · ")
}

// row draws one followed id; a row whose state changed since it was last
// selected carries a •, a chain or amount the journal filled in a *.
func (b *boardScreen) row(r *boardRow) kit.Row {
	k := layout.InksFor(b.app.Common)
	now := b.app.Common.Now()
	label := r.label
	receive, checked := "", "never"
	own, _ := b.sched.Record(r.QuoteID)
	chain, amount, token := r.Filled(own.Intent)
	switch {
	case r.Known && amount.Text == "":
		receive = "—" // a record without its amount, as the status screen shows it
	case r.Known:
		// The mark on the number: a narrow column keeps the number alone
		// (kit's fitAmount), and a filled amount must never read as given.
		receive = amount.Text + signedMark(amount) + " " + token
	}
	if !r.LastChecked.IsZero() {
		checked = kit.Clock(r.LastChecked, now)
	}
	where := chain.Text + signedMark(chain)
	if r.Known && chain.Text == "" {
		where = "—" // follow.NoChain, as the column says what is not given
	}
	row := kit.Row{Cells: []string{r.QuoteID, where, receive, boardGlyph(label) + " " + label,
		kit.Clock(r.since(), now), checked, r.Last.WithdrawTxHash}}
	if b.marked[r.QuoteID] {
		row.Mark = boardChanged
	}
	switch {
	case r.Final && (r.NotFound || r.Last.State != exchange.StateCompleted):
		row.Ink = k.Warning
	case r.Final:
		row.Ink = k.Value
	}
	return row
}

// heldNote says the rows other logins followed and which account to log
// in as to follow them (follow.HeldSaid). "" when there are none.
func (b *boardScreen) heldNote() string { return follow.HeldSaid(b.tally.heldBy) }

// signedMark is boardSigned for a value filled from what was signed
// (follow.Filled).
func signedMark(v follow.Value) string {
	if v.Signed {
		return boardSigned
	}
	return ""
}
