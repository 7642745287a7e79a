package tui

// The top bar: the screen's title, the environment, the account and the
// session's countdown, fitted to the width.

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/svcwallet/svcwallet/internal/safetext"
)

// topBarSegment is one piece of the top bar. When the bar is too narrow
// the segment with the highest drop goes first; drop 0 is never dropped. The
// screen's title is never dropped either (the body does not repeat it): when
// nothing else can go, it is cut with an ellipsis.
type topBarSegment struct {
	text  string
	style lipgloss.Style
	left  bool // beside the app name rather than right-aligned
	drop  int
}

// minGap parts the title from the right-aligned segments: one space would
// run them together ("Builder authorized local │ …").
const minGap = 2

// topBarDrawn is the top bar as drawn, and whether the session's
// countdown survived its layout (sessionTick).
type topBarDrawn struct {
	line    string
	session bool
}

func (m *Model) topBar() string { return m.drawnTopBar().line }

func (m *Model) drawnTopBar() topBarDrawn {
	var s TopBar
	if m.common.TopBar != nil {
		s = m.common.TopBar()
	}
	left := ""
	if !s.SessionExpires.IsZero() {
		left = m.session.at(s.SessionExpires, m.common.Now())
	}
	// Built after every message: plain appends, no formatting.
	key := strconv.AppendInt(m.topBarMemo.next(), int64(m.width), 10)
	key = strconv.AppendBool(key, m.common.Styles.IsDark)
	for _, f := range [...]string{m.top().Title(), s.Env, s.Account, s.SubAccount, left} {
		key = append(append(key, '|'), f...)
	}
	key = strconv.AppendUint(append(key, '|'), s.ChainID, 10)
	return m.topBarMemo.get(key, func() topBarDrawn { return m.drawTopBar(s, left) })
}

func (m *Model) drawTopBar(s TopBar, left string) topBarDrawn {
	st := m.common.Styles
	segs := []topBarSegment{{text: safetext.Line(m.top().Title(), 0), style: st.TopBarTitle, left: true}}
	add := func(text string, style lipgloss.Style, drop int) {
		if text != "" {
			segs = append(segs, topBarSegment{text: text, style: style, drop: drop})
		}
	}
	add(safetext.Line(s.Env, 0), st.TopBarEnv, 0)
	// The chain id tells production from staging where the names may not:
	// it outlasts the session's countdown (issue 35 item 12).
	if s.ChainID != 0 {
		add(fmt.Sprintf("chain %d", s.ChainID), st.TopBarSegment, 3)
	}
	add(shortAccount(safetext.Line(s.Account, 0)), st.TopBarSegment, 2)
	if s.SubAccount != "" {
		add("sub "+ansi.Truncate(safetext.Line(s.SubAccount, 0), 12, "…"), st.TopBarSegment, 5)
	}
	add(left, st.TopBarSegment, 4)
	for {
		line, ok := m.layoutTopBar(segs)
		if ok {
			return topBarDrawn{line: line, session: left != "" && slices.ContainsFunc(segs, func(sg topBarSegment) bool { return sg.text == left })}
		}
		i := -1
		for j, sg := range segs {
			if sg.drop > 0 && (i < 0 || sg.drop > segs[i].drop) {
				i = j
			}
		}
		if i < 0 {
			over := ansi.StringWidth(line) - m.width + minGap
			if title := segs[0].text; over > 0 && ansi.StringWidth(title) > over+1 {
				segs[0].text = ansi.Truncate(title, ansi.StringWidth(title)-over, "…")
				continue
			}
			return topBarDrawn{line: ansi.Truncate(line, m.width, "…")}
		}
		segs = slices.Delete(segs, i, i+1)
	}
}

// layoutTopBar draws the bar with segs; ok is false when it does not fit.
func (m *Model) layoutTopBar(segs []topBarSegment) (line string, ok bool) {
	st := m.common.Styles
	left := st.AppTitle.Render(appName)
	var right []string
	for _, sg := range segs {
		switch {
		case sg.text == "":
		case sg.left:
			left += st.TopBar.Render(" ") + sg.style.Render(sg.text)
		default:
			right = append(right, sg.style.Render(sg.text))
		}
	}
	r := ""
	if len(right) > 0 {
		r = strings.Join(right, st.TopBarSep.Render(" │ ")) + st.TopBar.Render(" ")
	}
	gap := m.width - ansi.StringWidth(left) - ansi.StringWidth(r)
	if gap < minGap {
		return left + r, false
	}
	return left + st.TopBar.Render(strings.Repeat(" ", gap)) + r, true
}

// shortAccount turns an EVM address into 0xf39F…2266 and caps anything else.
func shortAccount(s string) string {
	if len(s) == 42 && strings.HasPrefix(s, "0x") && safetext.HexDigits(s[2:], 40) {
		return ShortAddress(s)
	}
	return ansi.Truncate(s, 16, "…")
}

// ShortAddress shortens an address (of any chain) to the parts people
// compare, its first 6 and last 4 characters: 0xf39F…2266. One of 13
// characters or fewer is kept whole. Every view shortens addresses here.
func ShortAddress(a string) string {
	if len(a) <= 13 {
		return a
	}
	return a[:6] + "…" + a[len(a)-4:]
}

// sessionLeft shows the remaining session at minute resolution, rounded
// down: the bar changes once a minute (sessionChange), and is redrawn then.
// Two days or more (a session lives 30 days) are shown in days and hours,
// changing once an hour.
func sessionLeft(expires, now time.Time) string {
	left := expires.Sub(now)
	switch {
	case left >= sessionDays:
		return fmt.Sprintf("session %dd%02dh", int(left/(24*time.Hour)), int(left%(24*time.Hour)/time.Hour))
	case left <= 0:
		return "session expired"
	case left < time.Minute:
		return "session <1m"
	case left < time.Hour:
		return fmt.Sprintf("session %dm", int(left/time.Minute))
	}
	return fmt.Sprintf("session %dh%02dm", int(left/time.Hour), int(left%time.Hour/time.Minute))
}

// sessionText is sessionLeft kept until it next changes (sessionChange):
// the top bar is looked at after every message.
type sessionText struct {
	expires, from, until time.Time
	text                 string
}

func (c *sessionText) at(expires, now time.Time) string {
	if !expires.Equal(c.expires) || now.Before(c.from) || !now.Before(c.until) {
		c.expires, c.from, c.until, c.text = expires, now, sessionChange(expires, now), sessionLeft(expires, now)
	}
	return c.text
}

// sessionDays is the time left from which the countdown shows days.
const sessionDays = 48 * time.Hour

// sessionChange is when sessionLeft(expires, …) next shows other text
// than at now: the next whole hour left while days are shown, the next
// whole minute after, then the expiry; zero once expired, as nothing
// changes after.
func sessionChange(expires, now time.Time) time.Time {
	left := expires.Sub(now)
	switch {
	case left <= 0:
		return time.Time{}
	case left < time.Minute:
		return expires
	case left >= sessionDays:
		k := left / time.Hour
		return expires.Add(-k*time.Hour + time.Nanosecond)
	}
	// It shows k minutes while k minutes or more are left.
	k := left / time.Minute
	return expires.Add(-k*time.Minute + time.Nanosecond)
}

// sessionTickMsg redraws the top bar when the countdown it shows changes;
// due tells the pending tick from an earlier one.
type sessionTickMsg struct{ due time.Time }

// sessionTick keeps one timer pending while the top bar shows the
// session's countdown, due when its text changes, so an idle screen shows
// it right (DESIGN.md §5: nothing ticks unless what is shown changes).
// Without a countdown on screen nothing is scheduled.
func (m *Model) sessionTick() tea.Cmd {
	if m.common.TopBar == nil || m.tooSmall() {
		return nil
	}
	if !m.drawnTopBar().session {
		return nil
	}
	now := m.common.Now()
	due := sessionChange(m.common.TopBar().SessionExpires, now)
	if due.IsZero() || !due.After(m.sessionFired) || !m.sessionDue.IsZero() && !due.Before(m.sessionDue) {
		return nil // nothing to change, or a tick no later is pending
	}
	m.sessionDue = due
	return After(m.timer, due.Sub(now), sessionTickMsg{due: due})
}
