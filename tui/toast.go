package tui

import (
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/svcwallet/svcwallet/internal/safetext"
)

// dismissToastMsg ends the toast carrying the same tag; a newer toast has
// another tag, so an old timer cannot remove it.
type dismissToastMsg struct{ tag Tag }

// toast is the message under the content area; the zero value is none.
type toast struct {
	text  string
	isErr bool
	tag   Tag
	// brief is the text in fewer words, drawn where text takes more than
	// maxToastLines (WarningMsg.Brief); "" for none.
	brief string
	// inFooter: drawn in the footer's rows, the footer's keys hidden
	// meanwhile, so the screen keeps every row it had (footerLines), only
	// while on, the question it came on, is on top and asks (footerMoot).
	inFooter bool
	on       Screen
}

// footerMoot drops a toast in the footer's rows once the question it came
// on is replaced or asks no more: the footer names the keys that act now,
// not after the toast's lifetime.
func (m *Model) footerMoot() {
	if !m.toast.inFooter {
		return
	}
	if a, ok := m.top().(Asking); !ok || m.top() != m.toast.on || !a.Asks() {
		m.toast = toast{}
	}
}

// showToast replaces any toast and schedules its one-shot dismissal.
func (m *Model) showToast(isErr bool, text string) tea.Cmd {
	text = safetext.Line(text, 0)
	if text == "" {
		return nil
	}
	return m.showToastOf(toast{text: text, isErr: isErr})
}

// showToastOf is showToast of t, cleaned already.
func (m *Model) showToastOf(t toast) tea.Cmd {
	tag := NextTag()
	t.tag = tag
	m.toast = t
	d := infoToastFor
	isErr := t.isErr
	if isErr {
		d = errorToastFor
	}
	return tea.Tick(d, func(time.Time) tea.Msg { return dismissToastMsg{tag: tag} })
}

// toastLines are the standing words (StandingMsg), the warning
// (WarningMsg), then the toast. The
// standing words share one toast's lines, oldest first: each wait its own
// lines, several waits at once left the content area no rows, or fewer
// than none.
func (m *Model) toastLines() []string {
	var standing []string
	for _, s := range m.standing {
		standing = append(standing, s.text)
	}
	lines := append(m.toastText(toast{text: strings.Join(standing, "; ")}), m.toastText(m.warning)...)
	if m.toast.inFooter {
		return lines
	}
	return append(lines, m.toastText(m.toast)...)
}

// toastText is one toast's lines, wrapped, at most maxToastLines.
func (m *Model) toastText(t toast) []string {
	if t.text == "" {
		return nil
	}
	st := m.common.Styles
	style, text := st.InfoToast, t.text
	if t.isErr {
		style, text = st.ErrorToast, "Error: "+text
	}
	if t.inFooter {
		text = t.text
	}
	lines := strings.Split(Wrap(text, m.width), "\n")
	if len(lines) > maxToastLines && t.brief != "" {
		lines = strings.Split(Wrap(t.brief, m.width), "\n")
	}
	if len(lines) > maxToastLines {
		lines = lines[:maxToastLines]
		lines[maxToastLines-1] = ansi.Truncate(lines[maxToastLines-1], m.width-1, "") + "…"
	}
	for i, l := range lines {
		lines[i] = style.Render(ansi.Truncate(strings.TrimRight(l, " "), m.width, ""))
	}
	return lines
}
