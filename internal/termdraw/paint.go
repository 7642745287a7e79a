package termdraw

import (
	"bytes"

	tea "charm.land/bubbletea/v2"
	uv "github.com/charmbracelet/ultraviolet"
	"github.com/charmbracelet/x/ansi"
)

// paint adds to out what turns the drawn frame into v: the whole screen on
// the first frame and after a resize, else the cells that changed. Only what
// the console's views use is drawn: the content, always on the alternate
// screen with the cursor hidden, and the mouse mode.
func (d *Drawer) paint(out *bytes.Buffer, v *tea.View, w, h int, resized, syncd bool) {
	if d.drawn == nil {
		d.scr = uv.NewTerminalRenderer(&d.buf, d.env)
		d.scr.SetColorProfile(d.profile)
		d.scr.SetFullscreen(true)
		d.scr.SetRelativeCursor(false)
		d.scr.SetTabStops(-1)
		d.scr.SetScrollOptim(true)
		d.cells = uv.NewScreenBuffer(w, h)
		d.scr.Resize(w, h)
		d.scr.Erase()
		// Bubble Tea's keyboard set-up too (modifyOtherKeys and the kitty
		// protocol's disambiguation), so keys read the same.
		out.WriteString(ansi.SetModeAltScreenSaveCursor + ansi.ResetModeTextCursorEnable + ansi.SetModeBracketedPaste +
			ansi.SetModifyOtherKeys2 + ansi.PushKittyKeyboard(1))
	} else if resized || w != d.cells.Width() || h != d.cells.Height() {
		d.cells.Resize(w, h)
		d.cells.Touched = nil
		d.scr.Resize(w, h)
		d.scr.Erase()
	}
	var was tea.MouseMode
	if d.drawn != nil {
		was = d.drawn.MouseMode
	}
	out.WriteString(mouseModes(was, v.MouseMode))
	d.cells.Clear()
	uv.NewStyledString(v.Content).Draw(d.cells, d.cells.Bounds())
	d.scr.Render(d.cells.RenderBuffer)
	_ = d.scr.Flush() // into d.buf, which cannot fail
	if d.buf.Len() > 0 {
		if syncd {
			out.WriteString(ansi.SetModeSynchronizedOutput)
		}
		out.Write(d.buf.Bytes())
		if syncd {
			out.WriteString(ansi.ResetModeSynchronizedOutput)
		}
	}
	d.buf.Reset()
	d.drawn = v
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
func teardown(last *tea.View) string {
	return mouseModes(last.MouseMode, tea.MouseModeNone) + ansi.ResetModifyOtherKeys + ansi.PopKittyKeyboard(1) +
		ansi.ResetModeBracketedPaste + ansi.SetModeTextCursorEnable + ansi.ResetModeAltScreenSaveCursor
}

// sameView: a frame that would draw the same as the last one.
func sameView(a, b *tea.View) bool {
	return a.Content == b.Content && a.MouseMode == b.MouseMode && a.AltScreen == b.AltScreen
}
