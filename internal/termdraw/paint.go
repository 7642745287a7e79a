package termdraw

import (
	"bytes"
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	uv "github.com/charmbracelet/ultraviolet"
	"github.com/charmbracelet/x/ansi"
)

// terminal is what a draw needs to know of the terminal: its size, and
// what it answered about modes 2026 and 2027 (and whether to ask), and the
// colours it shows.
type terminal struct {
	w, h                int
	syncd, unicode, ask bool
	profile             colorprofile.Profile
}

// paint adds to out what turns the drawn frame into v: the whole screen on
// the first frame, after a resize and once widths are graphemes', else the
// cells that changed. Only what the console's views use is drawn: the
// content, always on the alternate screen with the cursor hidden, the
// mouse mode and the keyboard enhancements.
func (d *Drawer) paint(out *bytes.Buffer, v *tea.View, t terminal, resized bool) {
	if d.drawn == nil {
		d.scr = uv.NewTerminalRenderer(&d.buf, d.env)
		d.scr.SetColorProfile(t.profile)
		d.scr.SetFullscreen(true)
		d.scr.SetRelativeCursor(false)
		d.scr.SetTabStops(-1)
		// No scrolling of lines: it moves lines the frame left untouched
		// (drawCells) and does not draw them again.
		d.scr.SetScrollOptim(false)
		d.cells = uv.NewScreenBuffer(t.w, t.h)
		d.scr.Resize(t.w, t.h)
		d.scr.Erase()
		d.lines = nil
		// Bubble Tea's keyboard set-up too (modifyOtherKeys and the kitty
		// protocol's disambiguation, with what the view asks beside), so
		// keys read the same, and its question of the flags taken: the
		// answer (tea.KeyboardEnhancementsMsg) is how the model learns the
		// terminal tells a held key's repeats (tui.Common.RepeatsTold).
		out.WriteString(ansi.SetModeAltScreenSaveCursor + ansi.ResetModeTextCursorEnable + ansi.SetModeBracketedPaste +
			ansi.SetModifyOtherKeys2 + ansi.PushKittyKeyboard(kittyFlags(v.KeyboardEnhancements)) + ansi.RequestKittyKeyboard)
		if t.ask {
			// Before the first frame's erase: a terminal that prints the
			// query instead of answering it has it wiped at once.
			out.WriteString(ansi.RequestModeSynchronizedOutput + ansi.RequestModeUnicodeCore)
		}
	} else if resized || t.w != d.cells.Width() || t.h != d.cells.Height() {
		d.scr.SetColorProfile(t.profile)
		d.cells.Resize(t.w, t.h)
		d.scr.Resize(t.w, t.h)
		d.scr.Erase()
		d.lines = nil
	}
	if t.unicode && d.cells.Method != ansi.GraphemeWidth {
		out.WriteString(ansi.SetModeUnicodeCore)
		d.cells.Method = ansi.GraphemeWidth
		d.lines = nil
	}
	var was tea.MouseMode
	if d.drawn != nil {
		was = d.drawn.MouseMode
		if d.drawn.KeyboardEnhancements != v.KeyboardEnhancements {
			// The entry pushed, in place, and asked again as Bubble Tea does.
			out.WriteString(ansi.KittyKeyboard(kittyFlags(v.KeyboardEnhancements), 1) + ansi.RequestKittyKeyboard)
		}
	}
	out.WriteString(mouseModes(was, v.MouseMode))
	d.drawCells(v.Content)
	d.scr.Render(d.cells.RenderBuffer)
	_ = d.scr.Flush() // into d.buf, which cannot fail
	if d.buf.Len() > 0 {
		if t.syncd {
			out.WriteString(ansi.SetModeSynchronizedOutput)
		}
		out.Write(d.buf.Bytes())
		if t.syncd {
			out.WriteString(ansi.ResetModeSynchronizedOutput)
		}
	}
	d.buf.Reset()
	d.drawn = v
}

// drawCells puts content in the cells. Only the lines that changed since
// the last frame are parsed and touched, so the renderer compares only
// those: a board whose answers change a count and a row each second
// parsed and compared all of its screen (most of a frame's cost). That
// holds while every line starts in no style and no link; otherwise the
// whole frame is drawn again.
func (d *Drawer) drawCells(content string) {
	lines := strings.Split(content, "\n")
	if len(lines) > d.cells.Height() {
		lines = lines[:d.cells.Height()]
	}
	if d.lines == nil || !linesApart(content) {
		d.cells.Clear()
		uv.NewStyledString(content).Draw(d.cells, d.cells.Bounds())
		d.lines = nil
		if linesApart(content) {
			d.lines = lines
		}
		return
	}
	for y := range max(len(lines), len(d.lines)) {
		var line string
		if y < len(lines) {
			line = lines[y]
		}
		if y < len(d.lines) && y < len(lines) && d.lines[y] == line {
			continue
		}
		uv.NewStyledString(line).Draw(d.cells, uv.Rect(0, y, d.cells.Width(), 1))
		// The renderer may erase the screen below a line that went blank
		// from the line above it, and then draws that line again only if
		// it is touched.
		d.cells.TouchLine(0, y-1, d.cells.Width())
	}
	d.lines = lines
}

// linesApart: every line of content starts in no style and no link, as
// the console's do (lipgloss ends each styled run with a reset), so each
// line draws the same alone as within the frame. No hyperlinks, no
// carriage returns, and each line's last escape sequence, if any, a reset.
func linesApart(content string) bool {
	if strings.Contains(content, "\x1b]") || strings.Contains(content, "\r") {
		return false
	}
	for line := range strings.SplitSeq(content, "\n") {
		i := strings.LastIndex(line, "\x1b")
		if i >= 0 && !strings.HasPrefix(line[i:], "\x1b[m") && !strings.HasPrefix(line[i:], "\x1b[0m") {
			return false
		}
	}
	return true
}

// kittyFlags are the kitty keyboard protocol's flags for what a view asks,
// as Bubble Tea's renderer sets them: disambiguation always, and each
// enhancement asked (the console asks them all: tui.KeyboardAsked).
func kittyFlags(k tea.KeyboardEnhancements) int {
	flags := ansi.KittyDisambiguateEscapeCodes
	for _, f := range []struct {
		asked bool
		flag  int
	}{
		{k.ReportEventTypes, ansi.KittyReportEventTypes},
		{k.ReportAlternateKeys, ansi.KittyReportAlternateKeys},
		{k.ReportAllKeysAsEscapeCodes, ansi.KittyReportAllKeysAsEscapeCodes},
		{k.ReportAssociatedText, ansi.KittyReportAssociatedKeys},
	} {
		if f.asked {
			flags |= f.flag
		}
	}
	return flags
}

// mouseModes is what turns the terminal's mouse reports from was to now.
func mouseModes(was, now tea.MouseMode) string {
	if was == now {
		return ""
	}
	var s string
	if was != tea.MouseModeNone {
		s = ansi.ResetModeMouseButtonEvent + ansi.ResetModeMouseAnyEvent + ansi.ResetModeMouseExtSgr
	}
	switch now {
	case tea.MouseModeCellMotion:
		s += ansi.SetModeMouseButtonEvent + ansi.SetModeMouseExtSgr
	case tea.MouseModeAllMotion:
		s += ansi.SetModeMouseAnyEvent + ansi.SetModeMouseExtSgr
	}
	return s
}

// teardown undoes what the first frame and the last one set, in the
// alternate screen before leaving it (the kitty keyboard stack is one a
// screen).
func teardown(last *tea.View, unicode bool) string {
	var s string
	if unicode {
		s = ansi.ResetModeUnicodeCore
	}
	return s + mouseModes(last.MouseMode, tea.MouseModeNone) + ansi.ResetModifyOtherKeys + ansi.PopKittyKeyboard(1) +
		ansi.ResetModeBracketedPaste + ansi.SetModeTextCursorEnable + ansi.ResetModeAltScreenSaveCursor
}

// sameView: a frame that would draw the same as the last one.
func sameView(a, b *tea.View) bool {
	return a.Content == b.Content && a.MouseMode == b.MouseMode && a.AltScreen == b.AltScreen && a.KeyboardEnhancements == b.KeyboardEnhancements
}
