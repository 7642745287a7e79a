package screens

import (
	"os"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/svcwallet/svcwallet/internal/osguard"
	"github.com/svcwallet/svcwallet/internal/safetext"
	"github.com/svcwallet/svcwallet/screens/kit"
	"github.com/svcwallet/svcwallet/screens/login"
	"github.com/svcwallet/svcwallet/screens/screentest"
	"github.com/svcwallet/svcwallet/tui"
)

// earlierJournal is a journal an earlier svcwallet left beside the one in
// use, at a place holding an escape a terminal would act on.
var earlierJournal = osguard.Moved{
	From: "/home/ann/.local/state/svcwallet\x1b[2J/journal.jsonl",
	To:   "/home/ann/Library/Application Support/svcwallet/journal.jsonl",
	Err:  osguard.ErrLeftBeside,
}

// earlierConsole is the console with earlierJournal left beside, on a
// clock the test moves; kept opens it on a session kept between runs.
func earlierConsole(t *testing.T, w, h int, kept bool) (*screentest.Console, *time.Time) {
	now := screentest.Now
	c := screentest.NewConsole(t, w, h, screentest.ConsoleOpts{Clock: func() time.Time { return now }, Start: func(app *kit.App) tui.Screen {
		app.EarlierJournals = []osguard.Moved{earlierJournal}
		if kept {
			screentest.LogIn(t, app)
			app.Target.Kept = true
		}
		return Console(app)
	}})
	return c, &now
}

// TestEarlierJournalSaidBeforeLogin: a journal an earlier svcwallet wrote,
// left beside the one in use (osguard.ErrLeftBeside), is said by the
// console before its first screen, where standard error under the full
// screen is seen only after quitting: named escaped, what it means and
// what to do. An enter typed ahead, and a paste, neither hide it nor reach
// the login; enter, once it stood a moment, does, and the login opens.
func TestEarlierJournalSaidBeforeLogin(t *testing.T) {
	c, now := earlierConsole(t, 120, 40, false)
	v := c.Plain()
	for _, want := range []string{
		safetext.Shown(earlierJournal.From), earlierJournal.To,
		"not seen by the check that a withdrawal is sent once",
		"Quit the earlier svcwallet", "never over the journal in use",
		`"quote_id"`,
	} {
		if !strings.Contains(v, want) {
			t.Errorf("the console's first frame lacks %q:\n%s", want, v)
		}
	}
	if strings.Contains(c.View(), "\x1b[2J") {
		t.Error("the earlier journal's path is drawn with its escape")
	}
	if strings.Contains(v, "hide notice") || strings.Contains(v, "API key") {
		t.Errorf("the notice offers enter, or shows the login, before it stood a moment:\n%s", v)
	}
	// An enter typed ahead does nothing (its answer only settles the key).
	n := withEarlierNotice(c.App, login.New(c.App))
	n.Init()
	if _, cmd := screentest.Press(n, "enter"); screentest.Acts(cmd) {
		t.Error("an enter typed ahead of the notice acts on it")
	}
	c.Press("enter")
	c.Send(tea.PasteMsg{Content: "pasted-on-the-notice"})
	*now = now.Add(time.Minute)
	c.Send(tea.PasteMsg{Content: "pasted-on-the-notice"})
	if v := c.Plain(); !strings.Contains(v, "never over the journal in use") || !strings.Contains(v, "enter hide notice") {
		t.Fatalf("an enter typed ahead, or a paste, took the notice down, or its footer lacks enter:\n%s", v)
	}
	c.Press("enter")
	c.UntilShows("API key", "ctrl+d")
	if v := c.Plain(); strings.Contains(v, "earlier svcwallet") || strings.Contains(v, "pasted-on-the-notice") {
		t.Errorf("the login still shows the notice, or got the paste made on it:\n%s", v)
	}
}

// TestEarlierJournalSaidBeforeKeptHome: a session kept between runs skips
// the login, and the notice stands before Home, the top bar naming the
// notice; once hidden, Home says in a line, whole at 80x24 and 60x20, that
// the earlier journal's withdrawals are not checked for repeats.
func TestEarlierJournalSaidBeforeKeptHome(t *testing.T) {
	for _, size := range [][2]int{{80, 24}, {60, 20}} {
		c, now := earlierConsole(t, size[0], size[1], true)
		if v := c.Plain(); !strings.Contains(v, safetext.Shown(earlierJournal.From)) || strings.Contains(v, "Withdraw USDT") {
			t.Fatalf("%v: a kept session's Home opens without the notice first:\n%s", size, v)
		}
		if top := strings.SplitN(c.Plain(), "\n", 2)[0]; !strings.Contains(top, "Earlier journal found") || strings.Contains(top, "Home") {
			t.Fatalf("%v: the top bar does not say the notice is on screen: %s", size, top)
		}
		*now = now.Add(time.Minute)
		c.Press("enter")
		c.UntilShows("Withdraw USDT", "An earlier journal's withdrawals are not checked for repeats")
	}
}

// TestEarlierJournalGolden: the notice at every golden size, nothing cut
// (the paths whole, wrapped), its words fewer where the terminal is short.
func TestEarlierJournalGolden(t *testing.T) {
	c, now := earlierConsole(t, 120, 40, false)
	// Shown again larger, the notice holds enter a moment again (kit.KeyHold).
	raw := screentest.GoldenFrames(t, c.Root, func() { *now = now.Add(time.Minute) })
	for size, frame := range raw {
		for _, want := range []string{"enter hide notice", "sent once", "journal in use:"} {
			if !strings.Contains(strings.Join(strings.Fields(strings.ReplaceAll(ansi.Strip(frame), "\n", " ")), " "), want) {
				t.Errorf("%s: the notice lacks %q", size, want)
			}
		}
	}
}

// TestEarlierJournalPathsKeepTheirSpaces: a path wider than the terminal
// (macOS's Application Support at 60 columns) is broken where the width
// ends, as the board's export names its file: broken at its space, the
// space would vanish at the line's end and the path read otherwise.
func TestEarlierJournalPathsKeepTheirSpaces(t *testing.T) {
	c, _ := earlierConsole(t, 60, 20, false)
	lines := strings.Split(c.Plain(), "\n")
	i := slices.IndexFunc(lines, func(l string) bool { return strings.HasPrefix(l, "  /home/ann/Library/") })
	if i < 0 {
		t.Fatalf("the journal in use is not named:\n%s", c.Plain())
	}
	var read string
	for _, l := range lines[i:] {
		if !strings.HasPrefix(l, "  ") {
			break
		}
		read += strings.TrimPrefix(l, "  ")
	}
	if read = strings.TrimRight(read, " "); read != earlierJournal.To {
		t.Errorf("the journal in use reads %q over its lines, not %q:\n%s", read, earlierJournal.To, c.Plain())
	}
}

// TestEarlierJournalNotMovedSaysWhy: a journal whose move failed stands on
// the notice with where it could not go, the system's reason and that the
// next run moves it, whole at 60x20; never with the advice to move it
// elsewhere, where it would stay unseen for good.
func TestEarlierJournalNotMovedSaysWhy(t *testing.T) {
	notMoved := earlierJournal
	notMoved.Err = &osguard.NotMovedError{Cause: &os.PathError{Op: "mkdir", Path: "/home/ann/Library", Err: syscall.EACCES}}
	for _, size := range [][2]int{{120, 40}, {60, 20}} {
		c := screentest.NewConsole(t, size[0], size[1], screentest.ConsoleOpts{Start: func(app *kit.App) tui.Screen {
			app.EarlierJournals = []osguard.Moved{notMoved}
			return Console(app)
		}})
		v := strings.Join(strings.Fields(c.Plain()), " ")
		for _, want := range []string{"It could not be moved (mkdir: permission denied) to:", "not seen by the check", "The next run moves the file once nothing stops it."} {
			if !strings.Contains(v, want) {
				t.Errorf("%dx%d: the notice lacks %q:\n%s", size[0], size[1], want, c.Plain())
			}
		}
		if strings.Contains(v, "elsewhere") || strings.Contains(v, "journal in use") {
			t.Errorf("%dx%d: a journal not moved is said as one beside the journal in use:\n%s", size[0], size[1], c.Plain())
		}
	}
}

// TestEarlierNoticeSaysADroppedKeyActsOnlyWhereItDoes: while the notice
// holds enter, an enter typed is said not taken (it hides the notice once
// enabled); n, and esc, which goes back from nothing on the first screen,
// are said to do nothing on it.
func TestEarlierNoticeSaysADroppedKeyActsOnlyWhereItDoes(t *testing.T) {
	c, _ := earlierConsole(t, 80, 24, false)
	press := func(k string) { c.Press(k) }
	screentest.RequireDroppedSaid(t, "the earlier journal notice", press, c.Plain,
		screentest.Dropped{Key: "n"}, screentest.Dropped{Key: "enter", Acts: true}, screentest.Dropped{Key: "esc"})
}

// TestEarlierNoticeSaysWhenEnterActs: while the notice holds enter it says
// when enter acts, in seconds, and an enter typed meanwhile is said not
// taken, never dropped unsaid; once enter acts the line is gone.
func TestEarlierNoticeSaysWhenEnterActs(t *testing.T) {
	c, now := earlierConsole(t, 80, 24, false)
	if v := c.Plain(); !strings.Contains(v, "Keys are enabled in 2 s.") {
		t.Fatalf("the held notice does not say when enter acts:\n%s", v)
	}
	*now = now.Add(time.Second)
	c.Press("enter")
	if v := screentest.OneLine(c.Plain()); !strings.Contains(v, kit.NotTaken("enter")+"keys are enabled in 1 s.") {
		t.Fatalf("an enter in the hold is not said:\n%s", v)
	}
	*now = now.Add(kit.ShownGuard)
	c.Send(struct{}{}) // any message: the frame is drawn again
	if v := c.Plain(); strings.Contains(v, "Keys are enabled") || strings.Contains(v, "not taken") {
		t.Fatalf("once enter acts the notice still says it is held:\n%s", v)
	}
}
