package tui

import (
	"image/color"
	"strings"
	"testing"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
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

func (k escKeys) ShortHelp() []key.Binding { return []key.Binding{k.clear} }

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
