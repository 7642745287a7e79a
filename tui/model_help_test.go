package tui

import (
	"fmt"
	"strings"
	"testing"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
)

// keyList is a screen's key map of any length.
type keyList []key.Binding

func (k keyList) ShortHelp() []key.Binding { return k }

func (k keyList) FullHelp() [][]key.Binding { return [][]key.Binding{k} }

// TestFooterKeepsGlobalKeys: however many keys a screen has, and wherever
// the cut falls, its keys give way ("…", an item of its own, not read as
// the last hint cut short) and the global ones stay whole
// (help.Model would add a key past its width when its "…" did not fit).
func TestFooterKeepsGlobalKeys(t *testing.T) {
	m, home := newRoot(t, 80, 24)
	many := newFake(home.common, "Many keys")
	send(m, Push(many)())
	for n := range 12 {
		keys := keyList{key.NewBinding(key.WithKeys("a"), key.WithHelp("a", strings.Repeat("x", n)))}
		for _, d := range []string{"destination chain", "filter", "continue", "payout token", "source token", "refresh"} {
			keys = append(keys, key.NewBinding(key.WithKeys(d[:1]), key.WithHelp(d[:1], d)))
		}
		many.keys = keys
		footer := ansi.Strip(m.render())
		footer = footer[strings.LastIndex(footer, "\n")+1:]
		if !strings.HasSuffix(footer, "? help • esc back • q quit") || !strings.Contains(footer, " • … • ") || ansi.StringWidth(footer) > 80 {
			t.Errorf("footer with a first key of %d letters: %q", n, footer)
		}
	}
}

// TestShortFooterKeepsActionsOverMoves: a footer too short for every key
// leaves out every list's keys first (↑/↓, /, home/end), so a screen's own keys stay in sight (at
// 60x20 the route's "enter continue" and Deposit addresses' "c copy"
// gave way to "↑/↓ select"); with room, every key shows in its order.
func TestShortFooterKeepsActionsOverMoves(t *testing.T) {
	keys := keyList{
		key.NewBinding(key.WithKeys("up"), key.WithHelp("↑/↓", "select")),
		key.NewBinding(key.WithKeys("/"), key.WithHelp("/", "filter")),
		key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "QR code")),
		key.NewBinding(key.WithKeys("c"), key.WithHelp("c", "copy")),
		key.NewBinding(key.WithKeys("r"), key.WithHelp("r", "refresh")),
		key.NewBinding(key.WithKeys("home"), key.WithHelp("home/end", "first/last")),
	}
	for _, tc := range []struct {
		w    int
		want string
	}{
		{60, "enter QR code • c copy • … • ? help • esc back • q quit"},
		{120, "↑/↓ select • / filter • enter QR code • c copy • r refresh • home/end first/last • ? help • esc back • q quit"},
	} {
		m, home := newRoot(t, tc.w, 20)
		many := newFake(home.common, "Many keys")
		send(m, Push(many)())
		many.keys = keys
		footer := ansi.Strip(m.render())
		if footer = footer[strings.LastIndex(footer, "\n")+1:]; footer != tc.want {
			t.Errorf("%d columns: footer %q, want %q", tc.w, footer, tc.want)
		}
	}
}

// TestShortFooterSaysNoMoreForMovesAlone: when every key of the screen's
// own fits once the list's moves give way, each is in sight and no "…"
// takes the room of the last: Home's L at 60 columns was cut for it,
// though the menu names it.
func TestShortFooterSaysNoMoreForMovesAlone(t *testing.T) {
	m, home := newRoot(t, 60, 20)
	many := newFake(home.common, "Many keys")
	send(m, Push(many)())
	many.keys = keyList{
		key.NewBinding(key.WithKeys("up"), key.WithHelp("↑/↓", "move")),
		key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "open")),
		key.NewBinding(key.WithKeys("L"), key.WithHelp("L", "log out")),
		key.NewBinding(key.WithKeys("d"), key.WithHelp("d/w", "go")),
		key.NewBinding(key.WithKeys("home"), key.WithHelp("home/end", "first/last")),
	}
	footer := ansi.Strip(m.render())
	if footer = footer[strings.LastIndex(footer, "\n")+1:]; footer != "enter open • L log out • d/w go • ? help • esc back • q quit" {
		t.Errorf("footer %q", footer)
	}
}

// TestHintReadsWholeWhereThereIsRoom: a hint made by WithHelp says its
// whole words in a footer with room and in the full help, and its short
// ones only in a footer too narrow for the whole ("ctrl+r fill in" read
// poorly at every width).
func TestHintReadsWholeWhereThereIsRoom(t *testing.T) {
	book := key.NewBinding(key.WithKeys("ctrl+r"), WithHelp("ctrl+r", "fill in from the address book", "fill in"))
	for _, c := range []struct {
		w, h int
		want string
	}{
		{80, 24, "enter go • ctrl+r fill in from the address book • ? help • esc back • q quit"},
		{60, 20, "enter go • ctrl+r fill in • ? help • esc back • q quit"},
	} {
		m, home := newRoot(t, c.w, c.h)
		hinted := newFake(home.common, "Hinted")
		send(m, Push(hinted)())
		hinted.keys = keyList{key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "go")), book}
		footer := ansi.Strip(m.render())
		if footer = footer[strings.LastIndex(footer, "\n")+1:]; footer != c.want {
			t.Errorf("%dx%d: footer %q, want %q", c.w, c.h, footer, c.want)
		}
		send(m, press("?"))
		if full := ansi.Strip(checkFrame(t, m, c.w, c.h)); !strings.Contains(full, "ctrl+r fill in from the address book") {
			t.Errorf("%dx%d: the full help does not say the whole hint:\n%s", c.w, c.h, full)
		}
	}
}

// TestFullHelpShowsEveryKey (issue 21 item 8): a screen with more keys
// than a third of the terminal has lines sees all of them in the full
// help, its column split into pieces side by side, or taller when they do
// not fit side by side; the content keeps some lines.
func TestFullHelpShowsEveryKey(t *testing.T) {
	for _, sz := range []struct{ w, h int }{{80, 24}, {60, 20}, {120, 40}} {
		m, home := newRoot(t, sz.w, sz.h)
		many := newFake(home.common, "Many keys")
		send(m, Push(many)())
		var keys keyList
		for i := range 20 {
			keys = append(keys, key.NewBinding(key.WithKeys("legend"), key.WithHelp(fmt.Sprintf("k%02d", i), fmt.Sprintf("does thing %02d", i))))
		}
		many.keys = keys
		send(m, press("?"))
		full := ansi.Strip(checkFrame(t, m, sz.w, sz.h))
		for i := range 20 {
			if !strings.Contains(full, fmt.Sprintf("k%02d does thing %02d", i, i)) {
				t.Errorf("%dx%d: key %d not in the full help:\n%s", sz.w, sz.h, i, full)
				break
			}
		}
		if !strings.Contains(full, "close help") || many.h < minContentLines {
			t.Errorf("%dx%d: the global keys are not shown, or the content has %d lines", sz.w, sz.h, many.h)
		}
	}
}

// columns is a KeyMap of several full-help columns.
type columns [][]key.Binding

func (c columns) ShortHelp() []key.Binding { return c[0] }

func (c columns) FullHelp() [][]key.Binding { return c }

// TestFullHelpPages: a screen whose full help does not fit whole (two wide
// columns at 60x20) sees it in pages, none cut short: "? more" turns the
// page while one follows, the last says "? close help" and ? closes it;
// esc closes it on any page, and ? opens it again on the first. Where it
// all fits, one page, as before.
func TestFullHelpPages(t *testing.T) {
	m, home := newRoot(t, 60, 20)
	many := newFake(home.common, "Many keys")
	send(m, Push(many)())
	many.keys = columns{longHelpColumn("a"), longHelpColumn("b")}
	pageOf := func() string {
		return strings.Join(strings.Fields(ansi.Strip(checkFrame(t, m, 60, 20))), " ")
	}
	send(m, press("?"))
	first := pageOf()
	send(m, press("?"))
	second := pageOf()
	for i := range 10 {
		a, b := fmt.Sprintf("a%d a long description of key a%d", i, i), fmt.Sprintf("b%d a long description of key b%d", i, i)
		if !strings.Contains(first, a) || !strings.Contains(second, b) {
			t.Fatalf("pages cut short or missing a%d, b%d:\n%s\n%s", i, i, first, second)
		}
	}
	if !strings.Contains(first, "? more") || !strings.Contains(second, "? close help") {
		t.Fatalf("? does not say what it does:\n%s\n%s", first, second)
	}
	if send(m, press("?")); m.fullHelp {
		t.Fatal("? on the last page did not close the help")
	}
	send(m, press("?"))
	send(m, press("?"))
	if send(m, press("esc")); m.fullHelp {
		t.Fatal("esc on the second page did not close the help")
	}
	if send(m, press("?")); !strings.Contains(pageOf(), "a0 a long") {
		t.Fatal("? did not open the help on its first page")
	}
	send(m, tea.WindowSizeMsg{Width: 160, Height: 40})
	if all := strings.Join(strings.Fields(ansi.Strip(checkFrame(t, m, 160, 40))), " "); !strings.Contains(all, "a9 a long") || !strings.Contains(all, "b9 a long") || !strings.Contains(all, "? close help") {
		t.Fatalf("at 160x40 the help is not one page:\n%s", all)
	}
}

func TestHelpToggle(t *testing.T) {
	m, home := newRoot(t, 80, 24)
	short := ansi.Strip(checkFrame(t, m, 80, 24))
	if !strings.Contains(short, "enter select") || !strings.Contains(short, "? help") || strings.Contains(short, "refresh") {
		t.Fatalf("short help:\n%s", short)
	}
	send(m, press("?"))
	full := ansi.Strip(checkFrame(t, m, 80, 24))
	if !strings.Contains(full, "refresh") || !strings.Contains(full, "close help") {
		t.Fatalf("full help:\n%s", full)
	}
	if home.h >= 22 {
		t.Fatalf("content area not reduced for full help: %d", home.h)
	}
	send(m, press("esc"))
	if m.fullHelp || home.h != 22 || received[tea.KeyPressMsg](home) != 0 {
		t.Fatalf("esc should close help only: open=%v h=%d keys=%d", m.fullHelp, home.h, received[tea.KeyPressMsg](home))
	}
}

// TestEscClosesHelpAsItSays: while the full help is open esc closes it
// (never goes back), and the footer says so where it offered "esc back".
func TestEscClosesHelpAsItSays(t *testing.T) {
	m, home := newRoot(t, 100, 30)
	send(m, Push(newFake(home.common, "Second"))())
	if frame := strings.Join(strings.Fields(ansi.Strip(checkFrame(t, m, 100, 30))), " "); !strings.Contains(frame, "esc back") {
		t.Fatalf("the second screen offers no esc back:\n%s", frame)
	}
	send(m, press("?"))
	frame := strings.Join(strings.Fields(ansi.Strip(checkFrame(t, m, 100, 30))), " ")
	if strings.Contains(frame, "esc back") || !strings.Contains(frame, "esc close help") {
		t.Fatalf("with the help open the footer says:\n%s", frame)
	}
	if send(m, press("esc")); m.fullHelp || m.top().Title() != "Second" {
		t.Fatalf("esc with the help open: help %v, on %s", m.fullHelp, m.top().Title())
	}
}

// TestHelpPageOutlivesAResize: on the help's second page a resize that
// fits every key on one shows that page, and ? then closes the help.
func TestHelpPageOutlivesAResize(t *testing.T) {
	m, home := newRoot(t, 60, 20)
	many := newFake(home.common, "Many keys")
	send(m, Push(many)())
	many.keys = columns{longHelpColumn("a"), longHelpColumn("b")}
	send(m, press("?"))
	send(m, press("?"))
	send(m, tea.WindowSizeMsg{Width: 160, Height: 40})
	if all := strings.Join(strings.Fields(ansi.Strip(checkFrame(t, m, 160, 40))), " "); !strings.Contains(all, "a0 a long") || !strings.Contains(all, "b9 a long") || !strings.Contains(all, "? close help") {
		t.Fatalf("after the resize the help shows:\n%s", all)
	}
	if send(m, press("?")); m.fullHelp {
		t.Fatal("? on the one page left did not close the help")
	}
}

// askCounter is a KeyMap that counts how often its full help is asked for.
type askCounter struct {
	columns
	asked int
}

func (c *askCounter) FullHelp() [][]key.Binding { c.asked++; return c.columns }

// TestHelpPagesLaidOutOnce: with the full help open, a message that changes
// nothing the footer shows (the watch board's answers, five a second) asks
// the screen's keys no more often than with the help closed: the pages are
// laid out when the screen, size or help changes, not again to build the
// footer's key and to draw it. ? still turns them as before.
func TestHelpPagesLaidOutOnce(t *testing.T) {
	m, home := newRoot(t, 60, 20)
	many := newFake(home.common, "Many keys")
	send(m, Push(many)())
	keys := &askCounter{columns: columns{longHelpColumn("a"), longHelpColumn("b")}}
	many.keys = keys
	asks := func() int {
		checkFrame(t, m, 60, 20)
		before := keys.asked
		for range 10 {
			send(m, otherMsg{})
			checkFrame(t, m, 60, 20)
		}
		return keys.asked - before
	}
	closed := asks()
	send(m, press("?"))
	if open := asks(); open > closed {
		t.Fatalf("10 messages with the help open asked the screen's keys %d times, %d with it closed: the pages are laid out again", open, closed)
	}
	if frame := strings.Join(strings.Fields(ansi.Strip(checkFrame(t, m, 60, 20))), " "); !strings.Contains(frame, "? more") {
		t.Fatalf("the first page does not offer the next:\n%s", frame)
	}
	send(m, press("?"))
	if frame := strings.Join(strings.Fields(ansi.Strip(checkFrame(t, m, 60, 20))), " "); !strings.Contains(frame, "b9 a long") || !strings.Contains(frame, "? close help") {
		t.Fatalf("? did not turn to the last page:\n%s", frame)
	}
}

// longHelpColumn is ten keys named name0 to name9 with long
// descriptions: two such columns take two pages of help at 60x20.
func longHelpColumn(name string) []key.Binding {
	var c []key.Binding
	for i := range 10 {
		c = append(c, key.NewBinding(key.WithKeys("legend"), key.WithHelp(fmt.Sprintf("%s%d", name, i), fmt.Sprintf("a long description of key %s%d", name, i))))
	}
	return c
}
