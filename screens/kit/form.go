package kit

import (
	"slices"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/svcwallet/svcwallet/tui"
)

// formKeys move through every form: one definition, so they act the same
// everywhere. shift+tab and ↑ are named by tab's help; → by ←'s.
var formKeys = struct {
	Next, Prev, Left, Right key.Binding
}{
	Next:  key.NewBinding(key.WithKeys("tab", "down"), key.WithHelp("tab", "next field")),
	Prev:  key.NewBinding(key.WithKeys("shift+tab", "up")),
	Left:  key.NewBinding(key.WithKeys("left"), key.WithHelp("←/→", "choose")),
	Right: key.NewBinding(key.WithKeys("right")),
}

// NoteKind says how a field's note is drawn.
type NoteKind int

const (
	// NoteText is drawn as given: the field may have styled its parts.
	NoteText NoteKind = iota
	// NoteHint is a muted word on what to type: "an EVM address".
	NoteHint
	// NoteOK is a check passed: "✓ valid EVM address".
	NoteOK
	// NoteWarn is allowed but worth a second look: "! this is your own account".
	NoteWarn
	// NoteBad is refused as it stands: "✗ amount has 7 decimal places".
	NoteBad
)

// Note is what a form shows beside or under a field: a hint, or what the
// domain's check says of the value as it stands. The zero Note shows
// nothing.
type Note struct {
	Text string
	Kind NoteKind
}

// BadNote is the note of a value the domain refuses with err.
func BadNote(err error) Note { return Note{Text: err.Error(), Kind: NoteBad} }

// HintNote is a muted note.
func HintNote(s string) Note { return Note{Text: s, Kind: NoteHint} }

// FormField is one row of a Form. What it holds is one of: a text field
// (Input), a choice among Options changed with ←/→ (Chosen points at the
// screen's index), or a Value the screen draws, which takes the focus only
// with Keys of its own (a switch, a picker).
type FormField struct {
	Label   string
	Input   *Input
	Options func() []string
	Chosen  *int
	// Value draws the row's value in room cells; lines after the first
	// are indented to the value column.
	Value func(room int) string
	// Keys are the field's own keys while it has the focus.
	Keys func() Bindings

	// Note is checked live, as the field is drawn: a hint, or the domain's
	// word on the value. An error Fail put on the field replaces it until
	// the field changes.
	Note func() Note
	// Beside puts the note after the value when it fits on that line;
	// otherwise it goes under the value.
	Beside bool
	// Gap leaves a blank line before the field.
	Gap bool
	// Shown says whether the field is part of the form now (nil: always).
	Shown func() bool
	// Width is the cells the value wants (0: the rest of the line). A
	// field that needs more than the room right of its label goes on its
	// own line under it.
	Width int
	// Paste cleans pasted text before the field takes it.
	Paste func(string) string

	err error // from Fail, until the field changes
}

// TextField is a form field holding the text input in.
func TextField(label string, in Input) *FormField { return &FormField{Label: label, Input: &in} }

// ChoiceField is a form field choosing one of options (at least two for it
// to take the focus; one is shown as a plain value) by the screen's index
// at chosen.
func ChoiceField(label string, chosen *int, options func() []string) *FormField {
	return &FormField{Label: label, Chosen: chosen, Options: options}
}

// Mark is "• " before a listed value while it is the text field's, so the
// one a key put there is seen among the others (› is the focus's); else
// "  ".
func (fd *FormField) Mark(c *tui.Common, listed string) string {
	if fd.Input != nil && strings.TrimSpace(fd.Input.Value()) == listed {
		return c.Styles.Cursor.Render("•") + " "
	}
	return "  "
}

func (fd *FormField) shown() bool { return fd.Shown == nil || fd.Shown() }

func (fd *FormField) isChoice() bool { return fd.Options != nil && len(fd.Options()) > 1 }

func (fd *FormField) focusable() bool {
	return fd.shown() && (fd.Input != nil || fd.Keys != nil || fd.isChoice())
}

// Form is the one form model: fields in order, the focus (tab, shift+tab,
// ↑/↓), typing and pasting into the focused text field, ←/→ on a choice,
// each field's live note, and on submit the first bad field focused with
// its error under it (Fail). What is valid is the domain's to say: a
// field's Note and the screen's submit ask it; the form only shows it.
type Form struct {
	c      *tui.Common
	fields []*FormField
	focus  *FormField
	labelW int
	w      int
	// OnChange runs after the user changes a field (text typed or pasted,
	// a choice moved); screens drop errors about what was there before.
	OnChange func(*FormField)
}

// NewForm lays out fields under labels labelWidth cells wide. Nothing has
// the focus until Focus.
func NewForm(c *tui.Common, labelWidth int, fields ...*FormField) *Form {
	return &Form{c: c, fields: fields, labelW: labelWidth}
}

// Focus gives fd the focus: a text field then takes typed keys.
func (f *Form) Focus(fd *FormField) tea.Cmd {
	for _, o := range f.fields {
		if o.Input != nil {
			o.Input.Blur()
		}
	}
	f.focus = fd
	if fd.Input != nil {
		return fd.Input.Focus()
	}
	return nil
}

// Focused is the field with the focus.
func (f *Form) Focused() *FormField { return f.focus }

// Inputting: a text field has the focus, so keys are text (tui.Inputting).
func (f *Form) Inputting() bool { return f.focus != nil && f.focus.Input != nil && f.focus.shown() }

// move gives the focus to the field delta places on among those that take
// it now, wrapping around.
func (f *Form) move(delta int) tea.Cmd {
	var order []*FormField
	for _, fd := range f.fields {
		if fd.focusable() {
			order = append(order, fd)
		}
	}
	if len(order) == 0 {
		return nil
	}
	i := slices.Index(order, f.focus)
	if i < 0 && delta < 0 {
		i = 0
	}
	n := len(order)
	return f.Focus(order[((i+delta)%n+n)%n])
}

// Bindings are the form's keys now: the focused field's own (←/→ on a
// choice), then tab (and ↓) to the next field and shift+tab (and ↑) back.
// A screen puts its submit key before them and its extras after, so every
// footer reads "enter …, what this field does, tab next field".
func (f *Form) Bindings() Bindings {
	var bs Bindings
	fd := f.focus
	switch {
	case fd == nil || !fd.shown():
	case fd.isChoice():
		bs = Bindings{
			{Key: formKeys.Left, On: true, Do: func() tea.Cmd { return f.choose(-1) }},
			{Key: formKeys.Right, On: true, Do: func() tea.Cmd { return f.choose(1) }},
		}
	case fd.Keys != nil:
		bs = fd.Keys()
	}
	return append(bs,
		Binding{Key: formKeys.Next, On: true, Do: func() tea.Cmd { return f.move(1) }},
		Binding{Key: formKeys.Prev, On: true, Do: func() tea.Cmd { return f.move(-1) }})
}

// choose moves the focused choice by delta, wrapping around.
func (f *Form) choose(delta int) tea.Cmd {
	fd := f.focus
	n := len(fd.Options())
	*fd.Chosen = ((*fd.Chosen+delta)%n + n) % n
	f.Changed(fd)
	return nil
}

// Changed records that the user changed fd by the field's own keys: the
// error on it goes, and OnChange runs.
func (f *Form) Changed(fd *FormField) {
	fd.err = nil
	if f.OnChange != nil {
		f.OnChange(fd)
	}
}

// Update hands the focused text field what the screen's keys did not take:
// typed keys and pastes (cleaned by its Paste). Call it after Bindings.
func (f *Form) Update(msg tea.Msg) tea.Cmd {
	fd := f.focus
	if fd == nil || fd.Input == nil || !fd.shown() {
		return nil
	}
	if p, ok := msg.(tea.PasteMsg); ok && fd.Paste != nil {
		p.Content = fd.Paste(p.Content)
		msg = p
	}
	before := fd.Input.Value()
	var cmd tea.Cmd
	*fd.Input, cmd = fd.Input.Update(msg)
	if fd.Input.Value() != before {
		f.Changed(fd)
	}
	return cmd
}

// Guard is the focused text field's key guard (Input.Guard), before the
// screen's keys: call it first with every key press.
func (f *Form) Guard(msg tea.Msg) tea.Cmd {
	fd := f.focus
	if fd == nil || fd.Input == nil || !fd.shown() {
		return nil
	}
	before := fd.Input.Value()
	cmd := fd.Input.Guard(msg)
	if fd.Input.Value() != before {
		f.Changed(fd)
	}
	return cmd
}

// Fail shows err under fd, in place of its note until it changes, and
// gives it the focus if it takes it: a submit calls it with the first
// field the domain refuses.
func (f *Form) Fail(fd *FormField, err error) tea.Cmd {
	fd.err = err
	if fd.focusable() {
		return f.Focus(fd)
	}
	return nil
}
