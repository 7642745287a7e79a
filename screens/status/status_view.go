package status

import (
	"cmp"
	"fmt"
	"strings"
	"time"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/svcwallet/svcwallet/internal/safetext"
	"github.com/svcwallet/svcwallet/screens/kit"
	"github.com/svcwallet/svcwallet/screens/kit/layout"
	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/follow"
	"github.com/svcwallet/svcwallet/service/journal"
)

// statusLabelWidth lines up the values of the status screen.
const statusLabelWidth = 13

// View leaves out, while the screen is taller than the terminal, the
// explorer's link (o opens it), then the blank lines between its parts,
// then the timeline (the state line names the states), so the last lines
// (the state's end, the next check) stay; taller still, it scrolls.
func (s *statusScreen) View() string { return s.scrolled(s.full()) }

// full is the screen in the fullest layout the height takes, or in its
// shortest, however tall.
func (s *statusScreen) full() string {
	tall := func(v string) bool { return s.ht > 0 && strings.Count(strings.TrimSuffix(v, "\n"), "\n") >= s.ht }
	// Ids and a hash as long as the service may send them: the blank
	// lines between the parts give way, first first and only as many as
	// it takes, before the state's end is cut.
	tight := func(v string) string {
		for tall(v) && strings.Contains(v, "\n\n") {
			v = strings.Replace(v, "\n\n", "\n", 1)
		}
		return v
	}
	v := s.draw(true, true)
	if tall(v) {
		v = s.draw(false, true)
	}
	if tall(v) {
		// The blank lines give way before the timeline: at 60x20 it fits
		// without them, and four rows stood empty under the screen.
		v = tight(v)
	}
	if tall(v) {
		v = s.draw(false, false)
	}
	if tall(v) {
		v = tight(v)
	}
	return v
}

func (s *statusScreen) draw(explorer, timeline bool) string {
	c := s.app.Common
	st := c.Styles
	var b strings.Builder
	b.WriteString(s.fields(explorer))
	switch {
	case s.phase == phaseRejected:
		// What it came to, in the words every view has (follow.Outcome).
		b.WriteString("\n" + layout.Field(c, "State", statusLabelWidth, st.Value.Render(s.never.Name)) + "\n")
		if s.never.Reason != "" {
			b.WriteString(layout.ErrorBlock(c, "Reason", exchange.UserError{Text: safetext.Capitalized(strings.TrimSuffix(s.never.Reason, ".")) + "."}, s.wd))
		}
		b.WriteString(s.words(s.never.Words))
		return layout.Clip(b.String()+s.lookupView(), s.wd)
	case s.follow.NotFound && !s.follow.NeverExecuted():
		b.WriteString("\n" + layout.ErrorBlock(c, "Not found", s.notFoundError(), s.wd))
		stopped := "Polling stopped: press r to ask again."
		if s.look.on { // r is a letter of the next id
			stopped = "Polling stopped."
		}
		b.WriteString(st.Muted.Render(stopped) + "\n")
		return layout.Clip(b.String()+s.lookupView(), s.wd)
	}
	switch {
	case s.follow.Vanished || s.follow.NeverExecuted():
		// Said before any last record: the service does not know it, and
		// the journal says it may be under way, or was never paid.
		o := s.follow.Outcome()
		b.WriteString("\n" + layout.Field(c, "State", statusLabelWidth, st.Warning.Render(o.Name)) + "\n")
		b.WriteString(s.words(o.Words))
	case s.follow.Known:
		b.WriteString("\n" + s.progress() + "\n")
		b.WriteString(s.words(s.follow.Outcome().Sentence()))
	}
	if timeline && len(s.timeline) > 0 {
		// Each column's title over it: one note for both read as one time.
		b.WriteString("\n" + st.Label.Render("Timeline") + st.Muted.Render("      "+layout.Pad("seen here", 15)+"  updated by the service") + "\n")
		for _, x := range s.timeline {
			b.WriteString("  " + layout.Pad(x.state, 10) + "  " + layout.Pad(s.clock(x.at), 15) + "  " + st.Muted.Render(s.clock(x.updated)) + "\n")
		}
	}
	b.WriteString("\n" + s.footer())
	return layout.Clip(b.String()+s.lookupView(), s.wd)
}

// words are an outcome's words, muted and wrapped to the width.
func (s *statusScreen) words(text string) string {
	var b strings.Builder
	for _, l := range strings.Split(layout.WrapTo(text, max(s.wd, 20)), "\n") {
		b.WriteString(s.app.Common.Styles.Muted.Render(strings.TrimRight(l, " ")) + "\n")
	}
	return b.String()
}

// fields are the withdrawal's particulars; the payout hash and its explorer
// link wrap rather than being cut, so they can be read in full.
func (s *statusScreen) fields(explorer bool) string {
	c := s.app.Common
	st := c.Styles
	var b strings.Builder
	add := func(label, value string) {
		if value != "" {
			b.WriteString(s.wrapped(label, value, func(l string) string { return st.Value.Render(l) }))
		}
	}
	add("Quote id", s.quoteID)
	add("Transfer id", s.follow.Last.TxID)
	var own journal.Intent
	if s.intent != nil {
		own = *s.intent
	}
	// What the record leaves out, filled from what was signed, says so.
	chain, receive, token := s.follow.Filled(own)
	signed := func(v follow.Value, note string) string {
		if v.Signed {
			return strings.TrimSpace("(" + follow.FromSigned + ") " + note)
		}
		return note
	}
	// noted adds a muted remark after the value, on the same line when it
	// fits, so a refunded withdrawal's amounts do not read as a payout.
	noted := func(label, value, note string) {
		switch {
		case note == "":
			add(label, value)
		case statusLabelWidth+1+layout.Width(value)+2+layout.Width(note) <= s.wd:
			b.WriteString(st.Label.Render(layout.Pad(label, statusLabelWidth)) + " " + st.Value.Render(value) + st.Muted.Render("  "+note) + "\n")
		default:
			add(label, value+"  "+note)
		}
	}
	var paidNote, receiveNote string
	if s.follow.Known {
		switch s.follow.Last.State {
		case exchange.StateRefunded:
			paidNote, receiveNote = "(returned to the funding account)", "(not paid out)"
		case exchange.StateFailed:
			receiveNote = "(not paid out)"
		}
	}
	if s.intent != nil {
		add("Destination", s.intent.ToAddress)
		// Paid only once the service took the withdrawal: a refused or
		// unexecuted one shows what was asked, and the lines below say why
		// nothing moved.
		label := "Paid"
		if !s.follow.Known || s.follow.Last.State == exchange.StateCreated || s.phase == phaseRejected {
			label = "Asked to pay"
		}
		noted(label, s.intent.PayAmount.String()+" "+s.intent.TokenIn, paidNote)
	}
	if chain.Text != "" || s.follow.Known {
		noted("Chain", follow.ChainText(chain), signed(chain, ""))
	}
	if receive.Text != "" {
		noted("Receive", receive.Text+" "+token, signed(receive, receiveNote))
	}
	if h := s.follow.Last.WithdrawTxHash; h != "" {
		add("Payout hash", h)
		if link := s.explorerLink(); link != "" && explorer {
			// Each wrapped line is a link of its own, so no escape sequence
			// is split and every piece opens the same page.
			b.WriteString(s.wrapped("Explorer", link, func(l string) string {
				return ansi.SetHyperlink(link) + st.Value.Underline(true).Render(l) + ansi.ResetHyperlink()
			}))
		}
	}
	return b.String()
}

// ended: following can stop, by the quote's own expiry when known.
func (s *statusScreen) ended() bool { return s.follow.Ended() }

// heading is the screen's title, shown in the top bar: the name of what
// the withdrawal came to as last seen (follow.Outcome).
func (s *statusScreen) heading() string {
	switch {
	case s.phase == phaseRejected:
		return "Withdrawal " + s.never.Name
	case s.follow.Known || s.follow.Vanished || s.follow.NeverExecuted():
		return "Withdrawal " + s.follow.Outcome().Name
	default:
		return "Withdrawal status"
	}
}

// explorerLink is the payout's block-explorer page, "" without one.
func (s *statusScreen) explorerLink() string {
	if !s.copyable() {
		return ""
	}
	return s.app.Target.Env.ExplorerTxURL(s.follow.Last.Chain, s.follow.Last.WithdrawTxHash)
}

// wrapped renders "label value" with the value cut into lines that fit the
// width after the label, each drawn by render.
func (s *statusScreen) wrapped(label, value string, render func(string) string) string {
	room := max(s.wd-statusLabelWidth-1, 16)
	lines := strings.Split(ansi.Hardwrap(value, room, false), "\n")
	var b strings.Builder
	for i, l := range lines {
		head := layout.Pad("", statusLabelWidth)
		if i == 0 {
			head = layout.Pad(label, statusLabelWidth)
		}
		b.WriteString(s.app.Common.Styles.Label.Render(head) + " " + render(l) + "\n")
	}
	return b.String()
}

// progress draws the way from SUBMITTED to the end, the current step marked:
// ✓ passed, ▶ now, · to come, ✗ a failed end. The poll redraws it, so it
// needs no animation of its own. Before SUBMITTED it is the outcome's
// name: CREATED, EXPIRED or CREATED?.
func (s *statusScreen) progress() string {
	st := s.app.Common.Styles
	if s.follow.Last.State == exchange.StateCreated {
		name, note := s.follow.Outcome().Name, ""
		if name == exchange.StateCreated {
			note = "  (not executed)"
		}
		return layout.Field(s.app.Common, "State", statusLabelWidth, st.Value.Render(name)+st.Muted.Render(note))
	}
	end := exchange.StateCompleted
	if exchange.Terminal(s.follow.Last.State) {
		end = s.follow.Last.State
	}
	steps := []string{exchange.StateSubmitted, exchange.StateSending, end}
	at := 0
	for i, x := range steps {
		if x == s.follow.Last.State {
			at = i
		}
	}
	parts := make([]string, len(steps))
	for i, x := range steps {
		var mark string
		var style lipgloss.Style
		switch {
		case i == at && (x == exchange.StateFailed || x == exchange.StateRefunded):
			mark, style = "✗ ", st.Danger
		case i < at || i == at && x == exchange.StateCompleted:
			mark, style = "✓ ", st.Value
		case i == at:
			mark, style = "▶ ", st.Selected
		default:
			mark, style = "· ", st.Muted
		}
		parts[i] = style.Render(mark + x)
	}
	return layout.Field(s.app.Common, "State", statusLabelWidth, strings.Join(parts, st.Muted.Render(" ─ ")))
}

// footer says what the screen is doing now and what comes next. Times are
// absolute: nothing ticks between polls to keep a countdown right.
func (s *statusScreen) footer() string {
	c := s.app.Common
	st := c.Styles
	var b strings.Builder
	switch {
	case s.sending:
		b.WriteString(st.Warning.Render("Settling the request that never got an answer: re-sent while its quote is valid (same signature and nonce: it cannot pay twice), else the service is asked whether it arrived…") + "\n")
	case s.ended():
		b.WriteString(st.Muted.Render("Final state: no more checks. Checked "+s.clock(s.checked)+".") + "\n")
	case s.inflight && s.checked.IsZero():
		b.WriteString(st.Muted.Render("Asking the service…") + "\n")
	}
	if s.err != nil {
		b.WriteString(layout.ErrorBlock(c, "Cannot check", s.err, s.wd))
	}
	if left := s.limited.Sub(c.Now()); left > 0 && (s.polling() || !s.asked) {
		b.WriteString(st.Warning.Render("The service says too many requests: "+kit.RateLimited(left)+".") + "\n")
		return b.String()
	}
	if !s.next.IsZero() && s.polling() {
		what := "Next check"
		if s.err != nil {
			what = fmt.Sprintf("Retrying (failed %d× in a row) at", s.follow.Failures)
		}
		b.WriteString(st.Muted.Render(fmt.Sprintf("Last checked %s · %s %s", s.clock(s.checked), what, s.clock(s.next))) + "\n")
	}
	return b.String()
}

// notFoundError explains a 404: the service does not say whether the quote
// is unknown or another account's.
func (s *statusScreen) notFoundError() error {
	if s.follow.Own {
		return exchange.UserError{Text: fmt.Sprintf("the service shows no withdrawal with quote id %s on this account; check that you are logged in to the account and environment that made it", s.quoteID)}
	}
	return exchange.UserError{Text: follow.NotFoundSentence(s.quoteID)}
}

// clock shows a time in the zone of Common.Now (kit.ClockSeconds); "—"
// for none.
func (s *statusScreen) clock(t time.Time) string {
	return cmp.Or(kit.ClockSeconds(t, s.app.Common.Now()), "—")
}
