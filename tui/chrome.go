package tui

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
)

const (
	appName       = "svcwallet"
	topBarLines   = 1
	maxToastLines = 3
	errorToastFor = 8 * time.Second
	infoToastFor  = 4 * time.Second
	helpColumnGap = "    "
)

// render lays out top bar, content, toast and footer in exactly the
// terminal's height, no line wider than the terminal.
func (m *Model) render() string {
	if m.width <= 0 || m.height <= 0 {
		return ""
	}
	if m.tooSmall() {
		return m.smallNotice()
	}
	toastL, footer := m.toastLines(), m.footerLines()
	contentH := m.height - topBarLines - len(toastL) - len(footer)
	lines := make([]string, 0, m.height)
	lines = append(lines, m.topBar())
	lines = append(lines, m.fitted.fit(m.top().View(), m.width, contentH)...)
	lines = append(lines, toastL...)
	lines = append(lines, footer...)
	return strings.Join(lines, "\n")
}

// fitMemo is fit with the lines of the last frame kept: a frame is drawn
// after every message, most of them the same as the last, and cutting a
// line to the width (grapheme by grapheme) was most of a frame's cost.
type fitMemo struct {
	content string
	w, h    int
	lines   []string
	cut     map[string]string // each line of the last frame, fitted
}

func (f *fitMemo) fit(s string, w, h int) []string {
	if f.lines != nil && s == f.content && w == f.w && h == f.h {
		return f.lines
	}
	if w != f.w {
		f.cut = nil
	}
	raw := strings.Split(s, "\n")
	if len(raw) > h {
		raw = raw[:h]
	}
	lines, cut := make([]string, 0, h), make(map[string]string, len(raw))
	for _, l := range raw {
		c, ok := f.cut[l]
		if !ok {
			c = fitLine(l, w)
		}
		cut[l] = c
		lines = append(lines, c)
	}
	for len(lines) < h {
		lines = append(lines, "")
	}
	f.content, f.w, f.h, f.lines, f.cut = s, w, h, lines, cut
	return lines
}

// smallNotice fills a terminal too small for the console: the size it
// needs, the size it has, and the keys that act (smallKey), or the quit
// question while it is asked.
func (m *Model) smallNotice() string {
	text := fmt.Sprintf("Terminal too small: need at least %dx%d, have %dx%d\nMake it larger, or press q to quit",
		MinWidth, MinHeight, m.width, m.height)
	if m.confirmQuit {
		text = m.busy() + " Quit anyway? (y/N)"
	}
	notice := m.common.Styles.Warning.Align(lipgloss.Center).Render(Wrap(text, m.width))
	block := lipgloss.Place(m.width, m.height, lipgloss.Center, lipgloss.Center, notice)
	return strings.Join(fit(block, m.width, m.height), "\n")
}

// footerDrawn is the footer as last drawn with the full help's pages it
// was laid out from: ? turns them (handleKey), and laying them out tries
// the help many times over, too much to repeat on every message.
type footerDrawn struct {
	lines []string
	pages [][][]key.Binding
}

// footerLines is the quit prompt, the one-line help, or the full help
// (capped at a third of the terminal so the content keeps its room).
func (m *Model) footerLines() []string {
	lines := m.footer().lines
	if !m.toast.inFooter || m.confirmQuit { // the quit question shows
		return lines
	}
	said := m.toastText(m.toast)
	if len(said) > len(lines) {
		said = said[:len(lines)]
	}
	for len(said) < len(lines) {
		said = append(said, "")
	}
	return said
}

// footer is drawn again only when what it shows may change: the key holds
// all the pages depend on (size, help open, the root's and the screen's
// keys), and the page shown, so "? more" follows from it too.
func (m *Model) footer() footerDrawn {
	why := ""
	if m.confirmQuit {
		why = m.busy()
	}
	k := strconv.AppendInt(m.footerMemo.next(), int64(m.width), 10)
	k = strconv.AppendInt(append(k, '|'), int64(m.height), 10)
	k = strconv.AppendBool(append(k, '|'), m.common.Styles.IsDark)
	k = strconv.AppendBool(append(k, '|'), m.fullHelp)
	k = strconv.AppendInt(append(k, '|'), int64(m.helpPage), 10)
	k = append(append(append(k, '|'), why...), '|')
	for _, b := range m.globalKeys(false) {
		k = append(append(append(append(k, b.Help().Key...), '='), b.Help().Desc...), '|')
	}
	write := func(b key.Binding) {
		h := b.Help()
		k = append(append(append(append(k, h.Key...), '='), h.Desc...), '=')
		k = append(strconv.AppendBool(k, b.Enabled()), '|')
	}
	if km := m.topKeys(); km != nil {
		for _, col := range km.FullHelp() {
			for _, b := range col {
				write(b)
			}
			k = append(k, '/')
		}
		for _, b := range km.ShortHelp() {
			write(b)
		}
	}
	return m.footerMemo.get(k, m.drawFooter)
}

func (m *Model) drawFooter() footerDrawn {
	var pages [][][]key.Binding
	if m.fullHelp {
		pages = m.helpPages()
	}
	return footerDrawn{lines: m.drawFooterLines(pages), pages: pages}
}

func (m *Model) drawFooterLines(pages [][][]key.Binding) []string {
	if m.confirmQuit {
		// Wrapped, not cut: the question and its (y/N) must stay visible.
		lines := strings.Split(Wrap(m.busy()+" Quit anyway? (y/N)", max(m.width, 1)), "\n")
		for i, l := range lines {
			lines[i] = m.common.Styles.Warning.Render(strings.TrimRight(l, " "))
		}
		return lines
	}
	h := m.helpModel()
	// ? turns the full help's page while another follows.
	globals := m.globalKeys(m.fullHelp && m.helpPage+1 < len(pages))
	km := m.topKeys()
	if !m.fullHelp {
		g := h.ShortHelpView(globals)
		sep := h.Styles.ShortSeparator.Render(h.ShortSeparator)
		line := g
		if km != nil {
			if s := shortHelp(h, km.ShortHelp(), m.width-ansi.StringWidth(g)-ansi.StringWidth(sep)); s != "" {
				line = s + sep + g
			}
		}
		return []string{ansi.Truncate(line, m.width, "…")}
	}
	g := h.FullHelpView([][]key.Binding{globals})
	block := g
	if len(pages) > 0 {
		block, _ = m.fullHelpBlock(h, pages[min(m.helpPage, len(pages)-1)], g)
	}
	lines := strings.Split(block, "\n")
	return fit(block, m.width, min(len(lines), m.helpRows(len(lines))))
}

// minContentLines is what the full help leaves the screen at least.
const minContentLines = 5

// helpRows is the most lines the full help may take: a third of the
// terminal, or, when the screen's keys need more to be seen whole (want),
// all but minContentLines and the top bar.
func (m *Model) helpRows(want int) int {
	return max(min(want, m.height-topBarLines-minContentLines), m.height/3, 1)
}

// helpPages is the screen's full help in pages, each shown whole
// (fullHelpBlock): as many of its columns on a page as fit with the
// root's keys, so a small terminal shows every key over several presses of
// ? rather than cut short. One page when all fit; none without a KeyMap.
// Only drawFooter calls it: the footer's memo keeps what it returns.
func (m *Model) helpPages() [][][]key.Binding {
	km := m.topKeys()
	if km == nil {
		return nil
	}
	h := m.helpModel()
	g := h.FullHelpView([][]key.Binding{m.globalKeys(false)})
	var pages [][][]key.Binding
	for cols := km.FullHelp(); len(cols) > 0; {
		n := len(cols)
		for ; n > 1; n-- {
			if _, ok := m.fullHelpBlock(h, cols[:n], g); ok {
				break
			}
		}
		pages, cols = append(pages, cols[:n]), cols[n:]
	}
	return pages
}

// fullHelpBlock lays the screen's full help (cols) and the root's keys (g)
// out in the width, so every key is seen: g to the right of the screen's
// columns; when that is too wide (a screen that takes q offers ctrl+c to
// quit, wider), g under the screen's last column; when even that is too
// wide, side by side with the pieces that do not fit giving way to a "…"
// (ok false).
func (m *Model) fullHelpBlock(h help.Model, cols [][]key.Binding, g string) (block string, ok bool) {
	if !slices.ContainsFunc(cols, func(c []key.Binding) bool { return len(c) > 0 }) {
		return g, true
	}
	h.SetWidth(0)
	beside := func(split [][]key.Binding) string {
		return lipgloss.JoinHorizontal(lipgloss.Top, h.FullHelpView(split), helpColumnGap, g)
	}
	under := func(split [][]key.Binding) string {
		n := len(split) - 1
		last := lipgloss.JoinVertical(lipgloss.Left, h.FullHelpView(split[n:]), "", g)
		if n == 0 {
			return last
		}
		return lipgloss.JoinHorizontal(lipgloss.Top, h.FullHelpView(split[:n]), helpColumnGap, last)
	}
	if s, ok := m.screenHelp(cols, beside, under); ok {
		return s, true
	}
	h.SetWidth(max(m.width-lipgloss.Width(g)-len(helpColumnGap), 1))
	s, _ := m.screenHelp(cols, beside)
	return s, false
}

// screenHelp lays the screen's full help out with the first of draws
// that gives the fewest lines: each of its columns is split into pieces
// of rows lines, from a third of the terminal up to helpRows, and the
// block must fit the width and helpRows. The fewest lines leave the screen
// the most (at 60x20 the board's help took 12 rows beside, 10 under, and
// hid two of its rows). ok is false when none fits, and s is then the
// last tried.
func (m *Model) screenHelp(cols [][]key.Binding, draws ...func([][]key.Binding) string) (s string, ok bool) {
	most := 0
	for _, c := range cols {
		most = max(most, len(c))
	}
	top := max(min(m.helpRows(most), most), 1)
	least := 0 // the lines of s, once one fits
	for rows := min(max(m.height/3, 1), top); rows <= top; rows++ {
		var split [][]key.Binding
		for _, c := range cols {
			for len(c) > rows {
				split, c = append(split, c[:rows]), c[rows:]
			}
			split = append(split, c)
		}
		for _, draw := range draws {
			d := draw(split)
			h := lipgloss.Height(d)
			switch {
			case lipgloss.Width(d) <= m.width && h <= m.helpRows(h) && (!ok || h < least):
				s, ok, least = d, true, h
			case !ok:
				s = d
			}
		}
	}
	return s, ok
}

// shortHelp is the screen's keys on one line of at most w cells: as many
// as fit, then "…" as an item of its own when some were left out ("c copy
// quote id …" read as a hint cut short). (help.Model adds a key that
// does not fit when its "…" would not fit either, and the line then
// pushes the global keys off the screen.)
//
// When they do not all fit, the keys every list has (↑/↓, / filter,
// home/end, pgup/pgdn) and every form has (tab, ←/→) give way first, as
// the full help names them: the others are what the screen does ("enter
// continue", "c copy"), each in sight without "…" when they fit (Home's L
// was cut for the "…"). Only then do hints say their short words
// (WithHelp): plain English where there is room.
func shortHelp(h help.Model, bs []key.Binding, w int) string {
	h.SetWidth(0)
	if s := h.ShortHelpView(bs); ansi.StringWidth(s) <= w {
		return s
	}
	bs = slices.DeleteFunc(slices.Clone(bs), isMove)
	// Every key of the screen's own in sight, none is left out that "…"
	// should say: the moves are the full help's, as on every list.
	if s := h.ShortHelpView(bs); ansi.StringWidth(s) <= w {
		return s
	}
	// Then the short words of the hints that have them (WithHelp), all
	// at once so that one footer does not mix whole and short words.
	bs = shortened(bs)
	if s := h.ShortHelpView(bs); ansi.StringWidth(s) <= w {
		return s
	}
	more := h.Styles.ShortSeparator.Inline(true).Render(h.ShortSeparator) + h.Styles.Ellipsis.Inline(true).Render(h.Ellipsis)
	for n := len(bs); n > 0; n-- {
		s := h.ShortHelpView(bs[:n]) + more
		if ansi.StringWidth(s) <= w {
			return s
		}
	}
	return ""
}

// listHelp are the help keys of every list's keys, and formMoves the
// helps of every form's (kit's formKeys), which a short footer leaves out
// first: the destination's and the builder's ctrl+r, which their bodies
// name, gave way to "tab next field".
var (
	listHelp  = map[string]bool{"↑/↓": true, "/": true, "home/end": true, "pgup/pgdn": true}
	formMoves = map[key.Help]bool{{Key: "tab", Desc: "next field"}: true, {Key: "←/→", Desc: "choose"}: true}
)

func isMove(b key.Binding) bool { return listHelp[b.Help().Key] || formMoves[b.Help()] }

// globalKeys are the root's keys, ? saying "more" when more says what it
// does; esc, where it goes back, says "close help" while the help is
// open, which it closes first (handleKey).
func (m *Model) globalKeys(more bool) []key.Binding {
	helpKey := globalKeys.Help
	switch {
	case more:
		helpKey.SetHelp("?", "more")
	case m.fullHelp:
		helpKey.SetHelp("?", "close help")
	}
	var out []key.Binding
	if !m.inputting() {
		out = append(out, helpKey)
	}
	if back := globalKeys.Back; m.canGoBack() {
		if m.fullHelp { // esc closes the help first (handleKey)
			back.SetHelp("esc", "close help")
		}
		out = append(out, back)
	}
	if m.inputting() || m.screenOffers(globalKeys.Quit) {
		return append(out, globalKeys.Interrupt)
	}
	return append(out, globalKeys.Quit)
}

func (m *Model) helpModel() help.Model {
	st := m.common.Styles
	h := help.New()
	h.Styles = help.Styles{
		Ellipsis:       st.HelpSep,
		ShortKey:       st.HelpKey,
		ShortDesc:      st.HelpDesc,
		ShortSeparator: st.HelpSep,
		FullKey:        st.HelpKey,
		FullDesc:       st.HelpDesc,
		FullSeparator:  st.HelpSep,
	}
	h.SetWidth(m.width)
	return h
}

// fit cuts or pads s to exactly h lines of at most w cells each. Tabs become
// spaces because their width depends on the column they land in.
func fit(s string, w, h int) []string {
	lines := strings.Split(s, "\n")
	if len(lines) > h {
		lines = lines[:h]
	}
	for i, l := range lines {
		lines[i] = fitLine(l, w)
	}
	for len(lines) < h {
		lines = append(lines, "")
	}
	return lines
}

// fitLine cuts one line to w cells, tabs as four spaces, never silently.
func fitLine(l string, w int) string {
	return ansi.Truncate(strings.ReplaceAll(l, "\t", "    "), w, "…")
}

// After is the Cmd that delivers msg after d: through timer, which tests
// fake (Options.Timer, the console's Hooks.Timer), else a tea.Tick.
func After(timer func(time.Duration, tea.Msg) tea.Cmd, d time.Duration, msg tea.Msg) tea.Cmd {
	if timer != nil {
		return timer(d, msg)
	}
	return tea.Tick(d, func(time.Time) tea.Msg { return msg })
}
