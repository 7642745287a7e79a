package tui

import (
	"errors"
	"fmt"
	"image/color"
	"strings"
	"testing"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"
)

func TestNavigation(t *testing.T) {
	m, home := newRoot(t, 80, 24)
	if home.w != 80 || home.h != 22 {
		t.Fatalf("first screen sized %dx%d, want 80x22 (24 minus status and footer)", home.w, home.h)
	}

	a := newFake(home.common, "A")
	send(m, nil) // a nil message is routed like any other
	send(m, Push(a)())
	if m.top() != a || a.inits != 1 || a.w != 80 || a.h != 22 {
		t.Fatalf("after push: top %v, inits %d, size %dx%d", m.top().Title(), a.inits, a.w, a.h)
	}

	send(m, otherMsg{1})
	if received[otherMsg](a) != 1 || received[otherMsg](home) != 0 {
		t.Fatalf("message reached top %d times, hidden screen %d times", received[otherMsg](a), received[otherMsg](home))
	}

	send(m, press("esc"))
	if m.top() != home || home.resumes != 1 {
		t.Fatalf("esc: top %q, resumes %d", m.top().Title(), home.resumes)
	}
	send(m, press("esc"))
	if len(m.stack) != 1 || m.top() != home || received[tea.KeyPressMsg](home) != 1 {
		t.Fatalf("esc on the first screen: %d screens, screen got %d keys", len(m.stack), received[tea.KeyPressMsg](home))
	}
	send(m, Pop(home)())
	if len(m.stack) != 1 {
		t.Fatal("Pop removed the last screen")
	}

	send(m, Push(newFake(home.common, "C"))())
	login := newFake(home.common, "Login")
	send(m, Reset(login)())
	if len(m.stack) != 1 || m.top() != login || login.inits != 1 {
		t.Fatalf("after reset: %d screens, top %q", len(m.stack), m.top().Title())
	}
}

// A screen keeps the tag of its current visit; a tick from an earlier visit
// is dropped, both while another screen is on top and after coming back.
func TestStaleTicksAreDropped(t *testing.T) {
	m, home := newRoot(t, 80, 24)
	a := newFake(home.common, "Quote")
	a.ticking = true
	if _, timers := send(m, PushMsg{Screen: a}); timers != 1 {
		t.Fatalf("push of a ticking screen started %d timers, want 1", timers)
	}
	firstVisit := a.tag
	send(m, tickMsg{tag: firstVisit})
	if a.ticks != 1 {
		t.Fatalf("own tick counted %d times", a.ticks)
	}

	b := newFake(home.common, "Status")
	send(m, PushMsg{Screen: b})
	send(m, tickMsg{tag: firstVisit}) // fires while a is hidden: goes to b
	if a.ticks != 1 || received[tickMsg](a) != 1 || received[tickMsg](b) != 1 {
		t.Fatalf("hidden screen ticked: a.ticks=%d a.got=%d b.got=%d", a.ticks, received[tickMsg](a), received[tickMsg](b))
	}

	if _, timers := send(m, press("esc")); timers != 1 || a.tag == firstVisit {
		t.Fatalf("resume started %d timers, tag renewed: %v", timers, a.tag != firstVisit)
	}
	send(m, tickMsg{tag: firstVisit}) // the old timer must not run a second chain
	if a.ticks != 1 {
		t.Fatalf("tick from the earlier visit counted: ticks=%d", a.ticks)
	}
	if _, timers := send(m, tickMsg{tag: a.tag}); a.ticks != 2 || timers != 1 {
		t.Fatalf("tick of the current visit: ticks=%d, next timers=%d", a.ticks, timers)
	}
}

func TestQuit(t *testing.T) {
	for _, k := range []string{"q", "ctrl+c"} {
		m, _ := newRoot(t, 80, 24)
		msgs, _ := send(m, press(k))
		if len(msgs) != 1 || msgs[0] != (tea.QuitMsg{}) {
			t.Errorf("%s when idle: %v, want tea.QuitMsg", k, msgs)
		}
	}
}

// TestQuitPromptDropsWhenDone: the answer arrives while the question is up;
// the screen is no longer busy, so the question goes and keys work again.
func TestQuitPromptDropsWhenDone(t *testing.T) {
	for _, width := range []int{80, 60} {
		m, home := newRoot(t, width, 24)
		home.busy = true
		send(m, press("ctrl+c"))
		out := ansi.Strip(checkFrame(t, m, width, 24))
		if !strings.Contains(strings.Join(strings.Fields(out), " "), "Quit anyway? (y/N)") {
			t.Fatalf("width %d: no whole quit prompt:\n%s", width, out)
		}
		home.busy = false
		send(m, otherMsg{1}) // the withdrawal's answer
		if out := ansi.Strip(checkFrame(t, m, width, 24)); strings.Contains(out, "Quit anyway") {
			t.Fatalf("width %d: prompt still up after the answer:\n%s", width, out)
		}
		before := received[tea.KeyPressMsg](home)
		if msgs, _ := send(m, press("y")); len(msgs) != 0 || received[tea.KeyPressMsg](home) != before+1 {
			t.Fatalf("width %d: y after the prompt went: quit=%v, screen got it %d times", width, msgs, received[tea.KeyPressMsg](home)-before)
		}
	}
}

func TestQuitAsksWhileBusy(t *testing.T) {
	for _, k := range []string{"q", "ctrl+c"} {
		m, home := newRoot(t, 80, 24)
		home.busy = true // busy below the top screen counts too
		send(m, Push(newFake(home.common, "Receipt"))())

		if msgs, _ := send(m, press(k)); len(msgs) != 0 {
			t.Fatalf("%s while busy quit at once: %v", k, msgs)
		}
		if out := ansi.Strip(checkFrame(t, m, 80, 24)); !strings.Contains(out, "Quit anyway? (y/N)") || !strings.Contains(out, "journaled") {
			t.Fatalf("no quit prompt:\n%s", out)
		}
		top := m.top().(*fakeScreen)
		if msgs, _ := send(m, press("n")); len(msgs) != 0 || received[tea.KeyPressMsg](top) != 0 {
			t.Fatalf("n: quit=%v, screen got the key %d times", msgs, received[tea.KeyPressMsg](top))
		}
		if strings.Contains(ansi.Strip(m.render()), "Quit anyway") {
			t.Fatal("prompt still shown after n")
		}
		send(m, press(k))
		if msgs, _ := send(m, press("y")); len(msgs) != 1 || msgs[0] != (tea.QuitMsg{}) {
			t.Fatalf("y: %v, want tea.QuitMsg", msgs)
		}
	}
}

func TestInputtingScreenGetsLetters(t *testing.T) {
	m, home := newRoot(t, 80, 24)
	form := newFake(home.common, "Amount")
	form.inputting = true
	send(m, Push(form)())

	for _, k := range []string{"q", "?"} {
		if msgs, _ := send(m, press(k)); len(msgs) != 0 {
			t.Fatalf("%s while inputting returned %v", k, msgs)
		}
	}
	if received[tea.KeyPressMsg](form) != 2 || m.fullHelp {
		t.Fatalf("screen got %d keys, full help %v", received[tea.KeyPressMsg](form), m.fullHelp)
	}
	if out := ansi.Strip(m.render()); !strings.Contains(out, "ctrl+c quit") || strings.Contains(out, "q quit") {
		t.Fatalf("footer should offer ctrl+c, not q:\n%s", out)
	}
	if msgs, _ := send(m, press("ctrl+c")); len(msgs) != 1 || msgs[0] != (tea.QuitMsg{}) {
		t.Fatalf("ctrl+c while inputting: %v", msgs)
	}
	send(m, press("esc"))
	if m.top() != home {
		t.Fatal("esc from an input screen did not go back")
	}
}

func TestEscWaitsForBusyScreen(t *testing.T) {
	m, home := newRoot(t, 80, 24)
	submit := newFake(home.common, "Submitting")
	submit.busy = true
	send(m, Push(submit)())
	send(m, press("esc"))
	if m.top() != submit || received[tea.KeyPressMsg](submit) != 1 {
		t.Fatal("esc left a screen waiting for a withdrawal reply")
	}
}

// TestEscHeldWithTheScreensKeys: while a question that signs holds its
// keys, esc goes to the screen (which drops it and holds on) instead of
// going back, and the footer offers no "esc back": the review says keys act
// in a moment, and going back is one of its answers. Once the hold is over
// esc goes back and is offered.
func TestEscHeldWithTheScreensKeys(t *testing.T) {
	m, home := newRoot(t, 80, 24)
	review := newFake(home.common, "Review")
	review.holding = true
	send(m, Push(review)())
	if out := ansi.Strip(m.render()); strings.Contains(out, "esc back") {
		t.Fatalf("the footer offers esc while the screen's keys are held:\n%s", out)
	}
	send(m, press("esc"))
	if m.top() != review || received[tea.KeyPressMsg](review) != 1 {
		t.Fatalf("esc went back while the screen's keys were held (top %q)", m.top().Title())
	}
	review.holding = false
	if out := ansi.Strip(m.render()); !strings.Contains(out, "esc back") {
		t.Fatalf("the hold is over and the footer does not offer going back:\n%s", out)
	}
	send(m, press("esc"))
	if m.top() != home {
		t.Fatal("esc did not go back once the hold was over")
	}
}

// escKeys is a key map that offers esc, as a list with a filter does.
type escKeys struct{ clear key.Binding }

func (k escKeys) ShortHelp() []key.Binding  { return []key.Binding{k.clear} }
func (k escKeys) FullHelp() [][]key.Binding { return [][]key.Binding{{k.clear}} }

// TestEscOfferedByScreen (issue 21 bug 5): a screen whose keys offer esc
// (a list clearing its filter) gets Esc instead of going back, and the
// footer names its meaning, not "esc back"; a disabled esc goes back.
func TestEscOfferedByScreen(t *testing.T) {
	m, home := newRoot(t, 80, 24)
	list := newFake(home.common, "List")
	clear := key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "clear filter"))
	list.keys = escKeys{clear}
	send(m, Push(list)())
	send(m, press("esc"))
	if m.top() != list || received[tea.KeyPressMsg](list) != 1 {
		t.Fatalf("esc offered by the screen went back (top %q, the screen got %d keys)", m.top().Title(), received[tea.KeyPressMsg](list))
	}
	if out := ansi.Strip(m.render()); !strings.Contains(out, "esc clear filter") || strings.Contains(out, "esc back") {
		t.Fatalf("footer:\n%s", out)
	}
	clear.SetEnabled(false)
	list.keys = escKeys{clear}
	if out := ansi.Strip(m.render()); !strings.Contains(out, "esc back") {
		t.Fatalf("with the screen's esc off, the footer does not offer going back:\n%s", out)
	}
	send(m, press("esc"))
	if m.top() != home {
		t.Fatal("esc did not go back once the screen stopped offering it")
	}
}

// TestEscWithHelpOpenDoesWhatTheHelpSays: with the help open, a screen
// that offers esc itself (a 429's wait to cancel, a filter to clear) is
// listed with its esc, not "esc close help": esc does it, and the help
// closes with it.
func TestEscWithHelpOpenDoesWhatTheHelpSays(t *testing.T) {
	m, home := newRoot(t, 80, 24)
	list := newFake(home.common, "List")
	list.keys = escKeys{key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "cancel the wait"))}
	send(m, Push(list)())
	send(m, press("?"))
	if out := strings.Join(strings.Fields(ansi.Strip(m.render())), " "); !strings.Contains(out, "esc cancel the wait") || strings.Contains(out, "esc close help") {
		t.Fatalf("the help does not list the screen's esc alone:\n%s", out)
	}
	send(m, press("esc"))
	if m.fullHelp || m.top() != list || received[tea.KeyPressMsg](list) != 1 {
		t.Fatalf("esc with the help open: help %v, on %q, the screen got %d keys", m.fullHelp, m.top().Title(), received[tea.KeyPressMsg](list))
	}
}

// keyList is a screen's key map of any length.
type keyList []key.Binding

func (k keyList) ShortHelp() []key.Binding  { return k }
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

func (c columns) ShortHelp() []key.Binding  { return c[0] }
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

// wheelScreen scrolls with the wheel while wheel is set.
type wheelScreen struct {
	*fakeScreen
	wheel bool
}

func (w *wheelScreen) Wheel() bool { return w.wheel }

// TestMouseOnlyForTheWheel (issue 21 item 13): the root asks the terminal
// for mouse events only while the top screen scrolls with the wheel, and
// hands it the wheel.
func TestMouseOnlyForTheWheel(t *testing.T) {
	m, home := newRoot(t, 80, 24)
	if mode := m.View().MouseMode; mode != tea.MouseModeNone {
		t.Fatalf("a screen without a wheel: mouse mode %v", mode)
	}
	list := &wheelScreen{fakeScreen: newFake(home.common, "List"), wheel: true}
	send(m, Push(list)())
	if mode := m.View().MouseMode; mode != tea.MouseModeCellMotion {
		t.Fatalf("a screen with a wheel: mouse mode %v", mode)
	}
	send(m, tea.MouseWheelMsg{Button: tea.MouseWheelDown})
	if received[tea.MouseWheelMsg](list.fakeScreen) != 1 {
		t.Fatal("the wheel did not reach the screen")
	}
	list.wheel = false
	if mode := m.View().MouseMode; mode != tea.MouseModeNone {
		t.Errorf("a screen whose wheel has no use: mouse mode %v", mode)
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

func TestToast(t *testing.T) {
	m, home := newRoot(t, 80, 24)
	_, timers := send(m, ShowError(errors.New("quote expired,\n\x1b[31mrequest a new one\x1b[0m"))())
	if timers != 1 {
		t.Fatalf("error toast scheduled %d dismiss timers, want 1", timers)
	}
	out := checkFrame(t, m, 80, 24)
	if !strings.Contains(ansi.Strip(out), "Error: quote expired, request a new one") || strings.Contains(out, "\x1b[31m") {
		t.Fatalf("toast not cleaned to one user-facing line:\n%q", out)
	}
	if home.h != 21 {
		t.Fatalf("content area with a one-line toast: %d, want 21", home.h)
	}
	stale := m.toast.tag

	send(m, ShowInfo("Address copied")())
	send(m, dismissToastMsg{tag: stale})
	if !strings.Contains(ansi.Strip(m.render()), "Address copied") {
		t.Fatal("an old dismiss timer removed a newer toast")
	}
	send(m, dismissToastMsg{tag: m.toast.tag})
	m.View() // the content area is given back with the frame drawn
	if m.toast.text != "" || home.h != 22 {
		t.Fatalf("own dismiss timer did not clear the toast: %q, h=%d", m.toast.text, home.h)
	}

	send(m, ShowInfo("Saved")())
	send(m, press("j"))
	if m.toast.text != "" || received[tea.KeyPressMsg](home) != 1 {
		t.Fatal("a key press should dismiss the toast and still reach the screen")
	}
	if ShowError(nil) != nil {
		t.Fatal("ShowError(nil) should show nothing")
	}
}

func TestTopBar(t *testing.T) {
	m, _ := newRoot(t, 120, 40)
	setTopBar(m, TopBar{
		Env: "staging", ChainID: 327, Account: "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266",
		SubAccount: "1234", SessionExpires: fixedNow.Add(24*time.Hour - 30*time.Second),
	})
	bar := ansi.Strip(strings.Split(checkFrame(t, m, 120, 40), "\n")[0])
	for _, want := range []string{"svcwallet", "Home", "staging", "chain 327", "0xf39F…2266", "sub 1234", "session 23h59m"} {
		if !strings.Contains(bar, want) {
			t.Errorf("top bar %q lacks %q", bar, want)
		}
	}
	send(m, tea.WindowSizeMsg{Width: 60, Height: 20})
	bar = ansi.Strip(strings.Split(checkFrame(t, m, 60, 20), "\n")[0])
	if !strings.Contains(bar, "staging") || !strings.Contains(bar, "0xf39F…2266") || !strings.Contains(bar, "chain 327") || strings.Contains(bar, "session") {
		t.Errorf("narrow top bar should keep env, chain and account, drop the session: %q", bar)
	}
}

// TestTopBarKeepsTheChain: at 80 columns the review's long title leaves room
// for the environment and its chain id, not for the session's countdown too;
// the chain goes before the session does (issue 35 item 12).
func TestTopBarKeepsTheChain(t *testing.T) {
	m, home := newRoot(t, 80, 24)
	setTopBar(m, TopBar{Env: "local", ChainID: 327, Account: "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266",
		SessionExpires: fixedNow.Add(29*24*time.Hour + 23*time.Hour)})
	home.title = "Withdraw: review and sign"
	bar := ansi.Strip(strings.Split(checkFrame(t, m, 80, 24), "\n")[0])
	if !strings.Contains(bar, "local │ chain 327") || !strings.Contains(bar, home.title) {
		t.Errorf("the review's top bar at 80 columns should keep the environment and its chain: %q", bar)
	}
}

// TestTopBarKeepsTheTitle: the body does not repeat a screen's title, so
// a narrow bar drops account and session before it, and cuts a title too
// long for the bar with an ellipsis instead of dropping it.
func TestTopBarKeepsTheTitle(t *testing.T) {
	m, home := newRoot(t, 60, 20)
	setTopBar(m, TopBar{Env: "staging", Account: "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266",
		SessionExpires: fixedNow.Add(time.Hour)})
	home.title = "Withdraw: destination and amount"
	bar := ansi.Strip(strings.Split(checkFrame(t, m, 60, 20), "\n")[0])
	if !strings.Contains(bar, home.title) || !strings.Contains(bar, "staging") || strings.Contains(bar, "session") {
		t.Errorf("narrow top bar should keep the title and the env, drop the session: %q", bar)
	}
	home.title = "Withdrawal never executed: the quote expired, long ago"
	bar = ansi.Strip(strings.Split(checkFrame(t, m, 60, 20), "\n")[0])
	if !strings.Contains(bar, "Withdrawal never executed") || !strings.Contains(bar, "…") || !strings.Contains(bar, "staging") {
		t.Errorf("a title too long for the bar should be cut, not dropped: %q", bar)
	}
}

func TestSessionLeft(t *testing.T) {
	for _, c := range []struct {
		left time.Duration
		want string
	}{
		{30 * 24 * time.Hour, "session 30d00h"},
		{48*time.Hour + 59*time.Minute, "session 2d00h"},
		{48*time.Hour - time.Second, "session 47h59m"},
		{24 * time.Hour, "session 24h00m"},
		{24*time.Hour - time.Second, "session 23h59m"},
		{61 * time.Minute, "session 1h01m"},
		{59*time.Minute + 59*time.Second, "session 59m"},
		{30 * time.Second, "session <1m"},
		{0, "session expired"},
		{-time.Hour, "session expired"},
	} {
		if got := sessionLeft(fixedNow.Add(c.left), fixedNow); got != c.want {
			t.Errorf("%v left: %q, want %q", c.left, got, c.want)
		}
	}
}

func TestShortAccount(t *testing.T) {
	for in, want := range map[string]string{
		"0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266": "0xf39F…2266",
		"acct-7":                           "acct-7",
		"an-opaque-account-identifier-123": "an-opaque-accou…",
		"0xf39Fd6e51aad88F6F4ce6aB8827279cffFb9226Z": "0xf39Fd6e51aad8…",
	} {
		if got := shortAccount(in); got != want {
			t.Errorf("shortAccount(%q) = %q, want %q", in, got, want)
		}
	}
	for in, want := range map[string]string{
		"0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC":  "0x3C44…93BC",
		"TN3W4H6rK2ce4vX9YnFQHwKENnHjoxb3m9":          "TN3W4H…b3m9",
		"7EcDhSYGxXyscszYEp35KHN8vvw3svAuLKTzXwCFLtV": "7EcDhS…FLtV",
		"short-13-char": "short-13-char",
	} {
		if got := ShortAddress(in); got != want {
			t.Errorf("ShortAddress(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestThemeDetection(t *testing.T) {
	// The first frame is drawn at once, in the theme Common was made with
	// (light here), while the terminal is asked; no timer waits for it.
	c := NewCommon(false, nil)
	m := New(newFake(c, "Home"), Options{Common: c})
	msgs, timers := run(m.Init())
	if len(msgs) != 1 || msgs[0] != tea.Raw(ansi.RequestBackgroundColor)() || timers != 0 {
		t.Fatalf("Init should ask for the background colour and not wait: got %v and %d timers", msgs, timers)
	}
	m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	if v := m.View(); !strings.Contains(ansi.Strip(v.Content), "Home") || !v.AltScreen || c.Styles.IsDark {
		t.Fatalf("no first frame before the answer, or not in the theme given (dark=%v): %q", c.Styles.IsDark, v.Content)
	}
	m.Update(tea.BackgroundColorMsg{Color: color.Black})
	if !c.Styles.IsDark {
		t.Fatal("black background kept light styles")
	}
	m.Update(tea.BackgroundColorMsg{Color: color.White})
	if c.Styles.IsDark {
		t.Fatal("white background kept dark styles")
	}

	c = NewCommon(true, nil)
	m = New(newFake(c, "Home"), Options{Common: c, Theme: "light"})
	if msgs, _ := run(m.Init()); len(msgs) != 0 || c.Styles.IsDark {
		t.Fatalf("forced light: Init sent %v, dark=%v", msgs, c.Styles.IsDark)
	}
	m.Update(tea.BackgroundColorMsg{Color: color.Black})
	if c.Styles.IsDark {
		t.Fatal("a forced theme was overridden by detection")
	}
}

// The root must not wake the program when nothing changes: after start-up
// with no session countdown on screen no command it returns may wait on a
// timer, and what commands there are must settle. The timer detector
// itself is checked first, so the test cannot pass by failing to notice a
// tick. It uses tea.Tick, not tea.Every: Every fires at the next whole
// minute, which may be within the wait.
func TestIdleRootSchedulesNoTimer(t *testing.T) {
	if _, timers := run(tea.Batch(tea.Raw(ansi.RequestBackgroundColor), tea.Tick(time.Minute, func(time.Time) tea.Msg { return nil }))); timers != 1 {
		t.Fatalf("detector missed a periodic tick (%d)", timers)
	}
	for _, bar := range []TopBar{{Env: "staging"}, {Env: "staging", SessionExpires: fixedNow.Add(-time.Minute)}} {
		c := NewCommon(true, func() time.Time { return fixedNow })
		m := New(newFake(c, "Home"), Options{Common: c})
		pending, timers := run(m.Init())
		if timers != 0 {
			t.Fatalf("start-up waits on %d timers; nothing waits for the background colour", timers)
		}
		pending = append(pending, tea.WindowSizeMsg{Width: 80, Height: 24},
			tea.BackgroundColorMsg{Color: color.Black})
		setTopBar(m, bar)
		for round := 0; len(pending) > 0; round++ {
			if round > 10 {
				t.Fatalf("root keeps producing messages: %v", pending)
			}
			var next []tea.Msg
			for _, msg := range pending {
				_, cmd := m.Update(msg)
				out, tm := run(cmd)
				next, timers = append(next, out...), timers+tm
			}
			pending = next
			m.View()
		}
		if timers != 0 {
			t.Fatalf("idle root with top bar %+v scheduled %d timers", bar, timers)
		}
	}
}

// TestSessionCountdownTicks (issue 28 item 18): while the top bar shows
// the session's countdown, one timer is pending, due when its text
// changes; when it fires the bar shows the new text on an idle screen and
// the next one is set; an expired session, a countdown the bar has no
// room for, or none, set none.
func TestSessionCountdownTicks(t *testing.T) {
	now := fixedNow
	c := NewCommon(true, func() time.Time { return now })
	type timer struct {
		d   time.Duration
		msg tea.Msg
	}
	var timers []timer
	m := New(newFake(c, "Home"), Options{Theme: "dark", Common: c, Timer: func(d time.Duration, msg tea.Msg) tea.Cmd {
		timers = append(timers, timer{d, msg})
		return nil
	}})
	setTopBar(m, TopBar{Env: "staging", SessionExpires: fixedNow.Add(time.Hour + 30*time.Second)})
	send(m, tea.WindowSizeMsg{Width: 80, Height: 24})
	bar := func() string { s, _, _ := strings.Cut(ansi.Strip(m.View().Content), "\n"); return s }
	if len(timers) != 1 || timers[0].d != 30*time.Second+time.Nanosecond || !strings.Contains(bar(), "session 1h00m") {
		t.Fatalf("timers %v, bar %q: want one, due in 30s, with 1h00m shown", timers, bar())
	}
	send(m, press("down")) // other updates add no timer while one is pending
	if len(timers) != 1 {
		t.Fatalf("%d timers pending, want 1", len(timers))
	}
	now = now.Add(timers[0].d)
	send(m, timers[0].msg)
	if !strings.Contains(bar(), "session 59m") || len(timers) != 2 || timers[1].d != time.Minute {
		t.Fatalf("after the tick: bar %q, timers %v; want 59m and the next a minute on", bar(), timers)
	}
	send(m, timers[0].msg) // a stale tick sets none
	if len(timers) != 2 {
		t.Fatalf("a stale tick set a timer: %v", timers)
	}
	now = fixedNow.Add(time.Hour + 30*time.Second - 10*time.Second)
	send(m, timers[1].msg)
	if !strings.Contains(bar(), "session <1m") || len(timers) != 3 || timers[2].d != 10*time.Second {
		t.Fatalf("under a minute: bar %q, timers %v; want <1m and a tick at the expiry", bar(), timers)
	}
	now = now.Add(timers[2].d)
	send(m, timers[2].msg)
	if !strings.Contains(bar(), "session expired") || len(timers) != 3 {
		t.Fatalf("expired: bar %q, timers %v; want no more", bar(), timers)
	}

	// A tick that finds the clock where it was (a test's frozen clock) sets
	// no other for the same instant: it would fire at once, for ever.
	timers = nil
	setTopBar(m, TopBar{Env: "staging", SessionExpires: now.Add(time.Hour)})
	send(m, press("down"))
	if len(timers) != 1 || timers[0].d != time.Nanosecond {
		t.Fatalf("timers %v, want one in 1ns (1h00m shown, 59m next)", timers)
	}
	send(m, timers[0].msg)
	if len(timers) != 1 {
		t.Fatalf("a tick on a clock that did not move set another: %v", timers)
	}

	// At 60 columns with a long environment name the countdown is left out
	// of the bar: nothing ticks for it.
	timers = nil
	m2 := New(newFake(c, "A long screen title here"), Options{Theme: "dark", Common: c, Timer: func(d time.Duration, msg tea.Msg) tea.Cmd {
		timers = append(timers, timer{d, msg})
		return nil
	}})
	setTopBar(m2, TopBar{Env: "production-eu-west-with-a-long-name", ChainID: 325, Account: "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266",
		SessionExpires: now.Add(time.Hour)})
	send(m2, tea.WindowSizeMsg{Width: 60, Height: 20})
	if top, _, _ := strings.Cut(ansi.Strip(m2.View().Content), "\n"); strings.Contains(top, "session") || len(timers) != 0 {
		t.Fatalf("bar %q without the countdown set %d timers", top, len(timers))
	}
}

func TestResizeKeepsFrameInsideTerminal(t *testing.T) {
	m, home := newRoot(t, 120, 40)
	home.wide = true
	setTopBar(m, TopBar{Env: "production-eu-west-with-a-long-name", ChainID: 325,
		Account: "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266", SubAccount: "99999999999999999999",
		SessionExpires: fixedNow.Add(90 * time.Minute)})
	send(m, ShowError(errors.New(strings.Repeat("the bridge refused the quote because of a long reason ", 6)))())
	for _, size := range [][2]int{{120, 40}, {60, 20}, {59, 19}, {20, 5}, {1, 1}, {200, 60}, {80, 24}} {
		w, h := size[0], size[1]
		send(m, tea.WindowSizeMsg{Width: w, Height: h})
		for _, fullHelp := range []bool{false, true} {
			m.fullHelp = fullHelp
			out := checkFrame(t, m, w, h)
			small := strings.Contains(ansi.Strip(out), "Terminal too small")
			if w >= 20 && small != (w < MinWidth || h < MinHeight) {
				t.Errorf("%dx%d: too-small notice shown=%v", w, h, small)
			}
			if !small && len(strings.Split(out, "\n")) != h {
				t.Errorf("%dx%d: frame is %d lines, want exactly %d", w, h, len(strings.Split(out, "\n")), h)
			}
		}
	}
	send(m, tea.WindowSizeMsg{Width: 59, Height: 19})
	if out := ansi.Strip(m.render()); !strings.Contains(out, "need at least 60x20, have 59x19") {
		t.Fatalf("notice:\n%s", out)
	}
}

// goldenRoot is a two-screen stack with a top bar: the state most screens
// are drawn in. Styles render full-colour escape codes whatever the
// terminal, since lipgloss v2 leaves downsampling to the renderer, so the
// goldens do not depend on the machine.
func goldenRoot(t *testing.T, w, h int, theme string) *Model {
	t.Helper()
	c := NewCommon(true, func() time.Time { return fixedNow })
	m := New(newFake(c, "Home"), Options{Theme: theme, Common: c})
	m.Init()
	m.Update(tea.WindowSizeMsg{Width: w, Height: h})
	setTopBar(m, TopBar{
		Env: "staging", ChainID: 327, Account: "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266",
		SessionExpires: fixedNow.Add(23*time.Hour + 59*time.Minute + 30*time.Second),
	})
	send(m, Push(newFake(c, "Review withdrawal"))())
	return m
}

func TestGolden(t *testing.T) {
	for _, size := range [][2]int{{80, 24}, {120, 40}} {
		for _, theme := range []string{"dark", "light"} {
			w, h := size[0], size[1]
			t.Run(fmt.Sprintf("%dx%d_%s", w, h, theme), func(t *testing.T) {
				m := goldenRoot(t, w, h, theme)
				send(m, ShowInfo("Quote refreshed: fee 0.50 USDT")())
				golden.RequireEqual(t, []byte(checkFrame(t, m, w, h)))
			})
		}
	}
}

// TestGoldenPlain keeps escape-free goldens that read as the user sees them.
func TestGoldenPlain(t *testing.T) {
	t.Run("80x24", func(t *testing.T) {
		m := goldenRoot(t, 80, 24, "dark")
		send(m, ShowError(errors.New("quote expired; request a new one"))())
		golden.RequireEqual(t, []byte(ansi.Strip(checkFrame(t, m, 80, 24))))
	})
	t.Run("120x40_full_help", func(t *testing.T) {
		m := goldenRoot(t, 120, 40, "dark")
		send(m, press("?"))
		golden.RequireEqual(t, []byte(ansi.Strip(checkFrame(t, m, 120, 40))))
	})
	t.Run("80x24_quit_prompt", func(t *testing.T) {
		m := goldenRoot(t, 80, 24, "dark")
		m.top().(*fakeScreen).busy = true
		send(m, press("q"))
		golden.RequireEqual(t, []byte(ansi.Strip(checkFrame(t, m, 80, 24))))
	})
	t.Run("59x19", func(t *testing.T) {
		m := goldenRoot(t, 59, 19, "dark")
		golden.RequireEqual(t, []byte(ansi.Strip(checkFrame(t, m, 59, 19))))
	})
}

// TestLeaveWhenRemoved: a screen hears Leave once when it leaves the stack
// (popped, reset away), never while it is only covered.
func TestLeaveWhenRemoved(t *testing.T) {
	m, home := newRoot(t, 80, 24)
	a, b, c := newFake(m.common, "A"), newFake(m.common, "B"), newFake(m.common, "C")
	send(m, Push(a)())
	send(m, Push(b)())
	if a.leaves != 0 {
		t.Fatal("a covered screen was told it left")
	}
	send(m, Pop(b)())
	send(m, Pop(a)())
	send(m, Push(c)())
	if b.leaves != 1 || a.leaves != 1 || c.leaves != 0 {
		t.Fatalf("leaves: popped %d and %d, new %d; want 1 1 0", b.leaves, a.leaves, c.leaves)
	}
	send(m, Reset(newFake(m.common, "D"))())
	if home.leaves != 1 || c.leaves != 1 {
		t.Fatalf("reset: home %d, top %d; want 1 1", home.leaves, c.leaves)
	}
}

// followerScreen is a fakeScreen that goes on working while hidden
// (Follower): its Owned ticks reach it under another screen.
type followerScreen struct{ *fakeScreen }

func (f followerScreen) Holds(tag Tag) bool { return tag == f.tag }

// ownedTick is a tick that names its owner (Owned).
type ownedTick struct{ tag Tag }

func (o ownedTick) Owner() Tag { return o.tag }

// TestFollowerKeepsItsMessages (issue 35 item 1b): an Owned message
// reaches the Follower below the top that holds its tag, so the watch
// board goes on following under a row it opened; one no screen holds goes
// to the top, as other messages do.
func TestFollowerKeepsItsMessages(t *testing.T) {
	m, home := newRoot(t, 80, 24)
	a := followerScreen{newFake(home.common, "Board")}
	send(m, PushMsg{Screen: a})
	a.tag = NextTag()
	b := newFake(home.common, "Status")
	send(m, PushMsg{Screen: b})
	send(m, ownedTick{tag: a.tag})
	if received[ownedTick](a.fakeScreen) != 1 || received[ownedTick](b) != 0 {
		t.Fatalf("the hidden follower's tick: follower got %d, top got %d", received[ownedTick](a.fakeScreen), received[ownedTick](b))
	}
	send(m, ownedTick{tag: NextTag()})
	if received[ownedTick](b) != 1 {
		t.Fatalf("a tick no screen holds did not go to the top")
	}
}

// TestSessionChangeIsWhenTheTextChanges: the countdown's next redraw is the
// first instant its text differs, whether it shows days, hours or minutes.
func TestSessionChangeIsWhenTheTextChanges(t *testing.T) {
	for _, left := range []time.Duration{30 * 24 * time.Hour, 72*time.Hour + 30*time.Minute, 48*time.Hour + time.Second, 48 * time.Hour, 47*time.Hour + 30*time.Second, 61 * time.Minute, 90 * time.Second, 30 * time.Second} {
		expires := fixedNow.Add(left)
		next := sessionChange(expires, fixedNow)
		if sessionLeft(expires, next) == sessionLeft(expires, fixedNow) || sessionLeft(expires, next.Add(-time.Nanosecond)) != sessionLeft(expires, fixedNow) {
			t.Errorf("%v left: next change at %v shows %q, just before %q, now %q", left, next.Sub(fixedNow),
				sessionLeft(expires, next), sessionLeft(expires, next.Add(-time.Nanosecond)), sessionLeft(expires, fixedNow))
		}
	}
}

// TestPopTakesOnlyItsScreen: a screen that asks to go back twice before the
// first is taken (a key and a tick at once) goes back once, never past the
// screen under it.
func TestPopTakesOnlyItsScreen(t *testing.T) {
	m, home := newRoot(t, 80, 24)
	a, b := newFake(home.common, "A"), newFake(home.common, "B")
	send(m, Push(a)())
	send(m, Push(b)())
	twice := Pop(b)
	send(m, twice())
	send(m, twice())
	if m.top() != a || len(m.stack) != 3-1 {
		t.Fatalf("after a screen asked twice to go back: top %q, %d screens; want A, 2", m.top().Title(), len(m.stack))
	}
}

// TestFirstFrameStartsOnce: FirstFrame starts the first screen (Init, then
// its size) and draws it; Bubble Tea's Init afterwards starts nothing again
// and hands over the commands the first Init gave, once.
func TestFirstFrameStartsOnce(t *testing.T) {
	c := NewCommon(true, nil)
	first := newFake(c, "First")
	first.ticking = true
	m := New(first, Options{Theme: "dark", Common: c})
	frame := m.FirstFrame(80, 24)
	if first.inits != 1 || first.w != 80 || first.h != 22 || !strings.Contains(ansi.Strip(frame), "First") {
		t.Fatalf("FirstFrame: %d inits, sized %dx%d, frame %q; want one Init, 80x22, the screen drawn", first.inits, first.w, first.h, ansi.Strip(frame))
	}
	if cmd := m.Init(); cmd == nil || first.inits != 1 {
		t.Fatalf("Init after FirstFrame: cmd %v, %d inits; want the first Init's tick and no second Init", cmd, first.inits)
	}
	if m.Init(); first.inits != 2 {
		t.Fatalf("a second Init did not start the screen (%d inits)", first.inits)
	}
}

// TestAnswersResizeWhenDrawn: after a message that is not input (an answer,
// a timer, a toast) the screens are resized when the frame is drawn, not at
// once (the footer is rebuilt from every key binding to learn the content
// area: most of the watch board's cost an answer); a key finds the content
// area of the frame it answers.
func TestAnswersResizeWhenDrawn(t *testing.T) {
	m, home := newRoot(t, 80, 24)
	send(m, ShowInfo("Saved")())
	if home.h != 22 {
		t.Fatalf("resized at once after a toast: %d, want 22 until drawn", home.h)
	}
	send(m, press("j"))
	if len(home.keyH) != 1 || home.keyH[0] != 21 {
		t.Fatalf("the key found the content area %v, want 21 (the toast's frame)", home.keyH)
	}
	if home.h != 22 {
		t.Fatalf("after the key dismissed the toast: %d, want 22", home.h)
	}
	send(m, ShowInfo("Saved")())
	m.View()
	if home.h != 21 {
		t.Fatalf("the frame drawn did not resize the screen: %d, want 21", home.h)
	}
}

// TestTopBarKeepsTheTitleApart (seen in tmux at 80 columns): whatever the
// title's length, at least two spaces part it from the environment, so
// "Builder authorized" never reads as one phrase with "local".
func TestTopBarKeepsTheTitleApart(t *testing.T) {
	m, home := newRoot(t, 80, 24)
	setTopBar(m, TopBar{Env: "local", ChainID: 327, Account: "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266",
		SessionExpires: fixedNow.Add(29*24*time.Hour + 23*time.Hour)})
	for n := 1; n <= 70; n++ {
		home.title = strings.Repeat("t", n)
		bar := ansi.Strip(strings.Split(checkFrame(t, m, 80, 24), "\n")[0])
		before, _, ok := strings.Cut(bar, "local")
		if !ok || !strings.HasSuffix(before, "  ") {
			t.Fatalf("title of %d: the environment is not two spaces from it: %q", n, bar)
		}
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

// TestStandingStaysUntilOver: a standing word (a wait on another
// process's lock) shows above the toast and stays through keys, toasts
// and their timers, until its own StandingOverMsg, which gives its rows
// back; another's over leaves it up.
func TestStandingStaysUntilOver(t *testing.T) {
	m, home := newRoot(t, 80, 24)
	tag := NextTag()
	send(m, StandingMsg{Tag: tag, Text: "waiting for another process\x1b[31m; svcwallet waits for it to finish…"})
	m.View()
	if home.h != 21 {
		t.Fatalf("content area with a one-line standing word: %d, want 21", home.h)
	}
	send(m, ShowInfo("Saved")())
	send(m, dismissToastMsg{tag: m.toast.tag})
	send(m, press("j"))
	send(m, StandingOverMsg{Tag: NextTag()})
	if out := ansi.Strip(checkFrame(t, m, 80, 24)); !strings.Contains(out, "waiting for another process; svcwallet waits for it to finish…") {
		t.Fatalf("the standing word went before its wait was over:\n%s", out)
	}
	send(m, ShowInfo("Saved")())
	if out := ansi.Strip(checkFrame(t, m, 80, 24)); !strings.Contains(out, "waits for it to finish…") || !strings.Contains(out, "Saved") {
		t.Fatalf("a toast beside the standing word is not shown:\n%s", out)
	}
	send(m, press("j"))
	send(m, StandingOverMsg{Tag: tag})
	m.View()
	if out := ansi.Strip(m.render()); strings.Contains(out, "waits for it to finish") || home.h != 22 {
		t.Fatalf("the standing word stayed after its wait was over (h=%d):\n%s", home.h, out)
	}
}

// TestStandingWordsKeepTheContentRows: however many waits stand at once,
// their words take one toast's rows at most, the oldest first, so the
// content area keeps its rows at 60x20 beside a toast and the full help.
func TestStandingWordsKeepTheContentRows(t *testing.T) {
	m, home := newRoot(t, 60, 20)
	many := newFake(home.common, "Many keys")
	send(m, Push(many)())
	many.keys = columns{longHelpColumn("a"), longHelpColumn("b")}
	send(m, press("?"))
	for i := range 8 {
		send(m, StandingMsg{Tag: NextTag(), Text: fmt.Sprintf("wait %d: waiting for another process on /a/long/path/to/a/file.lock; svcwallet waits for it to finish…", i)})
	}
	send(m, ErrorMsg{Err: errors.New(strings.Repeat("something failed on a long path ", 6))})
	out := ansi.Strip(checkFrame(t, m, 60, 20))
	if many.h < 3 || !strings.Contains(out, "wait 0: waiting for another process") {
		t.Fatalf("eight standing words left the content %d rows:\n%s", many.h, out)
	}
}
