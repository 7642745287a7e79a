package screens

import (
	"strings"
	"unicode"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"

	"svcwallet/tui"
)

var lookupKeys = struct {
	Submit, Result, Again key.Binding
}{
	Submit: key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "look up")),
	Result: key.NewBinding(key.WithKeys("tab"), key.WithHelp("tab", "to the result")),
	Again:  key.NewBinding(key.WithKeys("/", "tab"), key.WithHelp("/", "another quote id")),
}

// maxQuoteIDLen bounds what is sent as a quote id; real ones are far shorter.
const maxQuoteIDLen = 128

// lookupHeaderLines is the height above the embedded status.
const lookupHeaderLines = 6

// Lookup is the support screen: it follows any quote id the account can see,
// with the status screen embedded under the input, so one id after another
// can be looked up without leaving.
type Lookup struct {
	app   *App
	input textinput.Model
	child *Status // nil until the first lookup
	err   error
	// looked is set after a lookup: the id looked up stays in the focused
	// field, and the next character typed or pasted starts a new id.
	looked bool
	w, h   int
}

// NewLookup builds the support lookup screen.
func NewLookup(app *App) *Lookup {
	return &Lookup{app: app, input: newInput(app.Common, "quote id, e.g. q-…", false)}
}

func (l *Lookup) Init() tea.Cmd { return l.input.Focus() }

// Resume hands the return to the embedded status, which restarts polling.
func (l *Lookup) Resume() tea.Cmd {
	if l.child == nil {
		return nil
	}
	return l.child.Resume()
}

func (l *Lookup) Title() string { return "Status lookup" }

func (l *Lookup) SetSize(w, h int) {
	l.w, l.h = w, h
	l.input.SetWidth(max(w-statusLabelWidth-2, 10))
	if l.child != nil {
		l.child.SetSize(w, max(h-lookupHeaderLines, 1))
	}
}

// Inputting: while the quote id is typed, q and ? are text.
func (l *Lookup) Inputting() bool { return l.input.Focused() }

func (l *Lookup) KeyMap() help.KeyMap {
	if l.child == nil {
		return keyMap{lookupKeys.Submit}
	}
	if l.input.Focused() {
		return keyMap{lookupKeys.Submit, lookupKeys.Result}
	}
	if l.child.copyable() {
		return keyMap{statusKeys.Refresh, statusKeys.Copy, lookupKeys.Again}
	}
	return keyMap{statusKeys.Refresh, lookupKeys.Again}
}

func (l *Lookup) Update(msg tea.Msg) (tui.Screen, tea.Cmd) {
	k, isKey := msg.(tea.KeyPressMsg)
	paste, isPaste := msg.(tea.PasteMsg)
	switch {
	case isKey && l.input.Focused() && key.Matches(k, lookupKeys.Submit):
		return l, l.lookUp()
	case isKey && l.input.Focused() && l.child != nil && key.Matches(k, lookupKeys.Result):
		l.input.Blur()
		return l, nil
	case isKey && l.input.Focused():
		if l.looked && k.Text != "" {
			l.input.SetValue("")
		}
		return l, l.edit(k)
	case isPaste && l.input.Focused():
		if l.looked {
			l.input.SetValue("")
		}
		return l, l.edit(paste)
	case isKey && key.Matches(k, lookupKeys.Again):
		// Emptied, so a pasted id is not appended to the last one, and the
		// old result goes with the old id.
		l.input.SetValue("")
		l.child, l.err, l.looked = nil, nil, false
		return l, l.input.Focus()
	case l.child != nil && !isPaste:
		// Keys for the status, and its poll ticks and answers.
		_, cmd := l.child.Update(msg)
		return l, cmd
	}
	return l, nil
}

// edit hands a key or a paste to the focused field.
func (l *Lookup) edit(msg tea.Msg) tea.Cmd {
	l.err = nil
	before := l.input.Value()
	var cmd tea.Cmd
	l.input, cmd = l.input.Update(msg)
	if l.input.Value() != before {
		// The result below belongs to the id before: it goes, with its
		// timer (its tag dies with it).
		l.child, l.looked = nil, false
	}
	return cmd
}

// lookUp checks the typed id and starts following it; the status of the id
// before, if any, is dropped together with its timer (its tag dies with it).
func (l *Lookup) lookUp() tea.Cmd {
	id := strings.TrimSpace(l.input.Value())
	switch {
	case id == "":
		l.err = userError{"Type a quote id first: it is in the withdrawal's confirmation, or ask the user for it"}
		return nil
	case len(id) > maxQuoteIDLen || strings.IndexFunc(id, func(r rune) bool { return unicode.IsSpace(r) || !unicode.IsPrint(r) }) >= 0:
		l.err = userError{"That is not a quote id: quote ids have no spaces and are at most 128 characters; paste it again"}
		return nil
	}
	l.err = nil
	l.input.SetValue(id)
	l.looked = true
	l.child = NewStatus(l.app, id, false)
	l.child.embedded = true
	l.child.SetSize(l.w, max(l.h-lookupHeaderLines, 1))
	return l.child.Init()
}

func (l *Lookup) View() string {
	c := l.app.Common
	st := c.Styles
	var b strings.Builder
	b.WriteString(st.Heading.Render("Status lookup") + "\n")
	b.WriteString(st.Muted.Render("Follow any withdrawal by its quote id; the service shows only this account's.") + "\n\n")
	b.WriteString(field(c, "Quote id", statusLabelWidth, l.input.View()) + "\n")
	if l.err != nil {
		b.WriteString(errorBlock(c, "Error", l.err, l.w))
	}
	if l.child != nil {
		b.WriteString("\n" + strings.TrimLeft(l.child.View(), "\n"))
	}
	return clip(b.String(), l.w)
}
