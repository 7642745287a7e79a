package tui

import (
	"errors"
	"fmt"
	"image/color"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"
)

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
