package kit_test

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/svcwallet/svcwallet/screens/kit"
	"github.com/svcwallet/svcwallet/screens/screentest"
	"github.com/svcwallet/svcwallet/tui"
)

// formRig is a form as a screen drives it: its keys first, then the rest
// (text, pastes) to the focused field.
type formRig struct {
	form    *kit.Form
	changed []string
}

func (r *formRig) send(msg tea.Msg) {
	if k, ok := msg.(tea.KeyPressMsg); ok {
		if cmd, ok := r.form.Bindings().Handle(k); ok {
			if cmd != nil {
				cmd()
			}
			return
		}
	}
	r.form.Update(msg)
}

func (r *formRig) press(keys ...string) {
	for _, k := range keys {
		r.send(screentest.Key(k))
	}
}

func (r *formRig) typeText(s string) {
	for _, c := range s {
		r.send(tea.KeyPressMsg{Code: c, Text: string(c)})
	}
}

func (r *formRig) view() string { return ansi.Strip(r.form.View()) }

// testForm: a shown-only row, a text field, a choice of one option (shown,
// never focused), a choice of three, a text field shown only when asked, a
// row with keys of its own.
type testForm struct {
	formRig
	account, name, single, color, extra, toggle *kit.FormField
	colorAt, singleAt                           int
	showExtra, on                               bool
}

func newTestForm() *testForm {
	c := tui.NewCommon(true, nil)
	f := &testForm{}
	f.account = &kit.FormField{Label: "Account", Value: func(int) string { return "0xabc" }}
	f.name = kit.TextField("Name", kit.NewInput(c, "", false))
	f.name.Paste = strings.TrimSpace
	f.single = kit.ChoiceField("Single", &f.singleAt, func() []string { return []string{"only"} })
	f.color = kit.ChoiceField("Color", &f.colorAt, func() []string { return []string{"red", "green", "blue"} })
	f.extra = kit.TextField("Extra", kit.NewInput(c, "", false))
	f.extra.Shown = func() bool { return f.showExtra }
	flip := key.NewBinding(key.WithKeys("space"), key.WithHelp("space", "flip"))
	f.toggle = &kit.FormField{Label: "Toggle", Value: func(int) string { return "[ ]" },
		Keys: func() kit.Bindings {
			return kit.Bindings{{Key: flip, On: true, Do: func() tea.Cmd { f.on = !f.on; return nil }}}
		}}
	f.form = kit.NewForm(c, 10, f.account, f.name, f.single, f.color, f.extra, f.toggle)
	f.form.OnChange = func(fd *kit.FormField) { f.changed = append(f.changed, fd.Label) }
	f.form.SetWidth(80)
	f.form.Focus(f.name)
	return f
}

// TestFormFocusCycles: tab and ↓ go to the next field that takes the focus,
// shift+tab and ↑ back, wrapping round; shown-only rows, one-option
// choices and hidden fields are passed over; a field shown later joins.
func TestFormFocusCycles(t *testing.T) {
	f := newTestForm()
	order := func(k string) []string {
		f.form.Focus(f.name)
		var got []string
		for range 4 {
			f.press(k)
			got = append(got, f.form.Focused().Label)
		}
		return got
	}
	for k, want := range map[string]string{
		"tab": "Color Toggle Name Color", "down": "Color Toggle Name Color",
		"shift+tab": "Toggle Color Name Toggle", "up": "Toggle Color Name Toggle",
	} {
		if got := strings.Join(order(k), " "); got != want {
			t.Errorf("%s: %s, want %s", k, got, want)
		}
	}
	f.showExtra = true
	f.form.Focus(f.color)
	f.press("tab")
	if f.form.Focused() != f.extra || !f.form.Inputting() {
		t.Errorf("a field shown later is passed over: focus on %s", f.form.Focused().Label)
	}
	if v := f.view(); strings.Count(v, "› ") != 1 || !strings.Contains(v, "› Extra") {
		t.Errorf("the marker is not on the focused field alone:\n%s", v)
	}
}

// TestFormTextTakesKeys: while a text field has the focus, letters, q and
// a paste (cleaned by its Paste) go into it and count as a change; keys
// that move the focus do not; a row with keys of its own takes no text.
func TestFormTextTakesKeys(t *testing.T) {
	f := newTestForm()
	f.typeText("q?")
	f.send(tea.PasteMsg{Content: "  pasted \n"})
	if got := f.name.Input.Value(); got != "q?pasted" {
		t.Errorf("the field holds %q", got)
	}
	if len(f.changed) != 3 || f.changed[0] != "Name" {
		t.Errorf("changes seen: %v", f.changed)
	}
	f.form.Focus(f.toggle)
	if f.form.Inputting() {
		t.Error("a row with keys of its own counts as a text field")
	}
	f.typeText("x")
	f.press("space")
	if f.name.Input.Value() != "q?pasted" || !f.on {
		t.Errorf("on the toggle, typing reached the text (%q) or space did not act (%v)", f.name.Input.Value(), f.on)
	}
}

// TestFormKeysAreOfferedWhereTheyAct: the footer names tab everywhere,
// ←/→ only on a choice (where they move it, wrapping round), a row's own
// keys only on that row.
func TestFormKeysAreOfferedWhereTheyAct(t *testing.T) {
	f := newTestForm()
	offers := func(k string) bool { return screentest.Offers(f.form.Bindings().KeyMap(), k) }
	if !offers("tab") || offers("left") || offers("space") {
		t.Errorf("on a text field the footer offers %v", f.form.Bindings().KeyMap().ShortHelp())
	}
	f.press("left")
	if f.colorAt != 0 || len(f.changed) != 0 {
		t.Error("← on a text field moved the choice")
	}
	f.form.Focus(f.color)
	if !offers("left") || offers("space") {
		t.Errorf("on a choice the footer offers %v", f.form.Bindings().KeyMap().ShortHelp())
	}
	var got []int
	for _, k := range []string{"left", "left", "right", "right", "right"} {
		f.press(k)
		got = append(got, f.colorAt)
	}
	if want := []int{2, 1, 2, 0, 1}; !slices.Equal(got, want) {
		t.Errorf("←/→ chose %v, want %v", got, want)
	}
	if len(f.changed) != 5 {
		t.Errorf("%d changes seen, want 5", len(f.changed))
	}
	if v := f.view(); !strings.Contains(v, "› Color      ( ) red   (•) green   ( ) blue   ←/→") {
		t.Errorf("the choice is not drawn with ←/→:\n%s", v)
	}
	f.form.Focus(f.toggle)
	if !offers("space") || offers("left") {
		t.Errorf("on the toggle the footer offers %v", f.form.Bindings().KeyMap().ShortHelp())
	}
}

// TestFormFailFocusesTheField: Fail puts the reason under the field in
// place of its note and gives it the focus; the reason goes when the field
// changes, and a note checked live comes back.
func TestFormFailFocusesTheField(t *testing.T) {
	f := newTestForm()
	f.name.Note = func() kit.Note {
		if f.name.Input.Value() == "" {
			return kit.HintNote("your name")
		}
		return kit.Note{Text: "fine", Kind: kit.NoteOK}
	}
	f.form.Focus(f.toggle)
	under := func() string { return strings.TrimSpace(screentest.LineAfter(f.view(), "Name ")) }
	if under() != "your name" {
		t.Fatalf("the hint is not under the field: %q", under())
	}
	f.form.Fail(f.name, errors.New("enter a name"))
	if f.form.Focused() != f.name || under() != "✗ enter a name" {
		t.Fatalf("after Fail: focus on %s, under the field %q", f.form.Focused().Label, under())
	}
	f.typeText("a")
	if under() != "✓ fine" {
		t.Errorf("after typing, under the field %q", under())
	}
	f.form.Fail(f.account, errors.New("no account"))
	if f.form.Focused() != f.name || screentest.LineAfter(f.view(), "Account ") == "" {
		t.Errorf("Fail on a shown-only row: focus on %s\n%s", f.form.Focused().Label, f.view())
	}
}

// TestFormLayout: a note beside its value when it fits, else under it,
// wrapped in the value column; a value wider than the room right of its
// label on a line of its own; a text field as wide as it wants, at most
// the room left.
func TestFormLayout(t *testing.T) {
	c := tui.NewCommon(true, nil)
	addr := kit.TextField("Address", kit.NewInput(c, "", false))
	addr.Width, addr.Beside = 42, true
	addr.Input.SetValue("0x" + strings.Repeat("ab", 20))
	note := "checked"
	addr.Note = func() kit.Note { return kit.Note{Text: note, Kind: kit.NoteOK} }
	fee := kit.TextField("Fee", kit.NewInput(c, "", false))
	fee.Width = 8
	fee.Note = func() kit.Note { return kit.BadNote(errors.New("too many decimals in this fee for the service")) }
	form := kit.NewForm(c, 10, addr, fee)
	lines := func(w int) []string {
		form.SetWidth(w)
		return strings.Split(ansi.Strip(form.View()), "\n")
	}
	l := lines(80)
	if want := "  Address    0x" + strings.Repeat("ab", 20) + "   ✓ checked"; l[0] != want {
		t.Errorf("at 80, a short note is not beside the value:\n%q\n%q", l[0], want)
	}
	if !strings.HasPrefix(l[1], "  Fee        ") || strings.TrimSpace(l[2]) != "✗ too many decimals in this fee for the service" || !strings.HasPrefix(l[2], strings.Repeat(" ", 13)+"✗") {
		t.Errorf("at 80, a note not beside is not under the value:\n%s", strings.Join(l, "\n"))
	}
	note = strings.Repeat("long ", 8)
	if l := lines(80); !strings.HasPrefix(l[1], strings.Repeat(" ", 13)+"✓ long") {
		t.Errorf("at 80, a note too long to go beside is not under the value:\n%s", strings.Join(l, "\n"))
	}
	note = "checked"
	l = lines(50)
	if l[0] != "  Address  ✓ checked" || !strings.HasPrefix(l[1], "    0x"+strings.Repeat("ab", 20)) {
		t.Errorf("at 50, the address is not on a line of its own:\n%s", strings.Join(l, "\n"))
	}
	if under := l[len(l)-3:]; !strings.HasPrefix(under[0], strings.Repeat(" ", 13)+"✗ too many decimals in") || !strings.HasPrefix(under[1], strings.Repeat(" ", 13)+"the service") {
		t.Errorf("at 50, the error is not wrapped in the value column:\n%s", strings.Join(l, "\n"))
	}
	for _, l := range lines(50) {
		if ansi.StringWidth(l) > 50 {
			t.Errorf("line %q is wider than 50", l)
		}
	}
}
