package kit

import (
	"fmt"
	"strings"

	"github.com/svcwallet/svcwallet/screens/kit/layout"
	"github.com/svcwallet/svcwallet/tui"

	"github.com/charmbracelet/x/ansi"
)

// The form's columns: the focus marker, the label, a space, the value; a
// value too wide for the room right of its label goes on its own line,
// indented stackIndent.
const (
	markerWidth = 2
	stackIndent = 4
)

func (f *Form) valueCol() int { return markerWidth + f.labelW + 1 }

// stacked: fd wants more cells (and its cursor's) than are right of its label.
func (f *Form) stacked(fd *FormField) bool { return fd.Width > 0 && fd.Width+1 > f.w-f.valueCol() }

// SetWidth lays the form out for w columns: each text field gets the cells
// it wants, at most what is left after its label (or its indent, on a
// line of its own) and a cell for the cursor, so its start never scrolls
// out of sight.
func (f *Form) SetWidth(w int) {
	f.w = w
	for _, fd := range f.fields {
		if fd.Input == nil {
			continue
		}
		room := f.w - f.valueCol() - 1
		if f.stacked(fd) {
			room = f.w - stackIndent - 1
		}
		if fd.Width > 0 {
			room = min(room, fd.Width)
		}
		fd.Input.SetWidth(max(room, 4))
	}
}

// View draws the fields shown, each with its marker, label, value and
// note (or the error Fail put on it).
func (f *Form) View() string {
	var b strings.Builder
	for _, fd := range f.fields {
		if !fd.shown() {
			continue
		}
		if fd.Gap {
			b.WriteString("\n")
		}
		b.WriteString(f.row(fd) + "\n")
	}
	return b.String()
}

// row draws one field: inline after its label, or on its own line under
// it (a note beside it then rides on the label's line when it fits there);
// a note beside the value when asked and it fits, else under it, wrapped.
func (f *Form) row(fd *FormField) string {
	ink := layout.InksFor(f.c)
	marker := layout.Focus(f.c, fd == f.focus)
	n := f.noteOf(fd)
	note := f.drawNote(n, 0)
	indent := f.valueCol()
	if f.stacked(fd) {
		indent = stackIndent
	}
	val := strings.ReplaceAll(f.value(fd, f.w-indent), "\n", "\n"+layout.Pad("", indent))
	var line string
	if f.stacked(fd) {
		head := marker + ink.Label.On(fd.Label)
		if fd.Beside && note != "" && markerWidth+ansi.StringWidth(fd.Label)+2+ansi.StringWidth(note) <= f.w {
			head, note = head+"  "+note, ""
		}
		line = head + "\n" + layout.Pad("", indent) + val
	} else {
		line = marker + layout.Field(f.c, fd.Label, f.labelW, val)
	}
	if note == "" {
		return line
	}
	last := line[strings.LastIndexByte(line, '\n')+1:]
	if fd.Beside && ansi.StringWidth(last)+2+ansi.StringWidth(note) <= f.w {
		return line + "  " + note
	}
	note = f.drawNote(n, max(f.w-indent, 10))
	return line + "\n" + layout.Pad("", indent) + strings.ReplaceAll(note, "\n", "\n"+layout.Pad("", indent))
}

// value draws what fd holds in room cells.
func (f *Form) value(fd *FormField, room int) string {
	switch {
	case fd.Input != nil:
		return fd.Input.View()
	case fd.Options != nil:
		return f.choice(fd, room)
	}
	return fd.Value(room)
}

// choiceLines is the most options a choice stacks one a line when they
// do not fit on one; more, and the chosen one is drawn alone with where
// it stands.
const choiceLines = 3

// choice draws the options, the chosen one marked (•) (layout.Choice), on
// one line or one a line, and ←/→ while it has the focus; when neither
// fits, the chosen one and where it stands. One option is a plain value.
func (f *Form) choice(fd *FormField, room int) string {
	st := f.c.Styles
	options, sel := fd.Options(), *fd.Chosen
	if len(options) == 1 {
		return st.Value.Render(options[0])
	}
	parts := make([]string, len(options))
	for i, o := range options {
		parts[i] = layout.Choice(f.c, o, i == sel)
	}
	hint := ""
	if fd == f.focus {
		hint = st.Muted.Render("   ←/→")
	}
	line := strings.Join(parts, "   ") + hint
	switch {
	case ansi.StringWidth(line) <= room:
		return line
	case len(options) <= choiceLines:
		return strings.Join(parts, "\n") + hint
	}
	return layout.Choice(f.c, options[sel], true) + st.Muted.Render(fmt.Sprintf("  %d of %d", sel+1, len(options))) + hint
}

// noteOf is what shows by fd: the error Fail put on it, else its note.
func (f *Form) noteOf(fd *FormField) Note {
	switch {
	case fd.err != nil:
		return BadNote(fd.err)
	case fd.Note != nil:
		return fd.Note()
	}
	return Note{}
}

// notePrefix marks the note kinds the form styles.
var notePrefix = map[NoteKind]string{NoteOK: "✓ ", NoteWarn: "! ", NoteBad: "✗ "}

// drawNote draws n, wrapped to room cells when room > 0; the form styles
// the kinds other than NoteText line by line, after wrapping.
func (f *Form) drawNote(n Note, room int) string {
	if n.Text == "" {
		return ""
	}
	text := notePrefix[n.Kind] + n.Text
	if room > 0 {
		text = tui.WrapAfter(text, room, "&") // permissions as sent break after an &
	}
	if n.Kind == NoteText {
		return text
	}
	style := f.c.Styles.Warning
	switch n.Kind {
	case NoteOK:
		style = f.c.Styles.InfoToast
	case NoteHint:
		style = f.c.Styles.Muted
	}
	lines := strings.Split(text, "\n")
	for i, l := range lines {
		lines[i] = style.Render(l)
	}
	return strings.Join(lines, "\n")
}
