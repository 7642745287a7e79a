package tui

import (
	"image/color"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	uv "github.com/charmbracelet/ultraviolet"
	"github.com/charmbracelet/x/ansi"
)

// settledAs is the last SettledMsg f was given for tag, and whether one was.
func settledAs(f *fakeScreen, tag Tag) (SettledMsg, bool) {
	for i := len(f.got) - 1; i >= 0; i-- {
		if s, ok := f.got[i].(SettledMsg); ok && s.Tag == tag {
			return s, true
		}
	}
	return SettledMsg{}, false
}

// answered makes the terminal one that answers: a key asked about and
// answered, its quiet over.
func answered(t *testing.T, m *Model, q *quiets, home *fakeScreen) {
	t.Helper()
	send(m, SettleMsg{Tag: 100})
	send(m, da1)
	q.quiet(m)
	if s, ok := settledAs(home, 100); !ok || s.Crossed {
		t.Fatalf("a key answered with nothing between settled %v (%+v)", ok, s)
	}
}

// TestInputBetweenCrossesTheKey: any input the terminal sends between a
// key and its settling (a raw paste padded with focus events, mouse
// reports, unknown sequences, releases, answers nobody asked) crosses it:
// the screen is told so (SettledMsg.Crossed) and the key answers nothing.
// The key's own release, and a modifier's, cross nothing.
func TestInputBetweenCrossesTheKey(t *testing.T) {
	between := map[string][]tea.Msg{
		"focus":                {tea.FocusMsg{}},
		"blur":                 {tea.BlurMsg{}},
		"mouse":                {tea.MouseWheelMsg{Button: tea.MouseWheelDown}},
		"paste marks":          {tea.PasteStartMsg{}, tea.PasteEndMsg{}},
		"unknown sequence":     {uv.UnknownEvent("\x1b[999z")},
		"another key released": {tea.KeyReleaseMsg{Code: 'x'}},
		"released three times": {tea.KeyReleaseMsg{Code: tea.KeyEnter}, tea.KeyReleaseMsg{Code: tea.KeyEnter}, tea.KeyReleaseMsg{Code: tea.KeyEnter}},
		"a modifier pressed":   {tea.KeyPressMsg{Code: tea.KeyLeftShift}},
		"background colour":    {tea.BackgroundColorMsg{Color: color.Black}},
		"mode report":          {tea.ModeReportMsg{Mode: ansi.ModeBracketedPaste, Value: ansi.ModeSet}},
		"a key":                {press("x")},
	}
	for name, msgs := range between {
		m, home, q := quietRoot(t)
		send(m, press("enter"))
		send(m, SettleMsg{Tag: 1})
		for _, msg := range msgs {
			send(m, msg)
		}
		send(m, da1)
		q.quiet(m)
		if s, ok := settledAs(home, 1); !ok || !s.Crossed {
			t.Errorf("%s between a key and its answer: settled %v, crossed %v", name, ok, s.Crossed)
		}
	}
	m, home, q := quietRoot(t)
	send(m, press("Y"))
	send(m, SettleMsg{Tag: 1})
	send(m, tea.KeyReleaseMsg{Code: 'Y'})
	send(m, tea.KeyReleaseMsg{Code: tea.KeyLeftShift})
	send(m, da1)
	q.quiet(m)
	if s, ok := settledAs(home, 1); !ok || s.Crossed {
		t.Fatalf("a key's own release and shift's: settled %v, crossed %v", ok, s.Crossed)
	}
}

// TestAnswerNobodyAskedCrosses: a Primary Device Attributes answer with no
// question out is a paste's (ESC[?62c): it crosses the key waiting.
func TestAnswerNobodyAskedCrosses(t *testing.T) {
	m, home, q := quietRoot(t)
	send(m, SettleMsg{Tag: 1})
	send(m, da1)
	send(m, SettleMsg{Tag: 2})
	send(m, da1)
	send(m, da1) // nobody asked: crosses 1 and 2 in their quiet
	q.quiet(m)
	for _, tag := range []Tag{1, 2} {
		if s, ok := settledAs(home, tag); !ok || !s.Crossed {
			t.Errorf("key %d: settled %v, crossed %v after an answer nobody asked", tag, ok, s.Crossed)
		}
	}
}

// TestInputInTheQuietCrosses (⏎ESC[?62c⏎ pasted, the faked answer taken
// after the question was asked): an answer settles its key only after
// SettleQuiet with no input; what the paste carries after it comes in
// that quiet and crosses the key.
func TestInputInTheQuietCrosses(t *testing.T) {
	m, home, q := quietRoot(t)
	send(m, press("enter"))
	send(m, SettleMsg{Tag: 1})
	send(m, da1) // the paste's
	if _, ok := settledAs(home, 1); ok {
		t.Fatal("an answer settled its key before its quiet")
	}
	send(m, press("enter"))
	q.quiet(m)
	if s, ok := settledAs(home, 1); !ok || !s.Crossed {
		t.Fatalf("a key after the answer, in its quiet: settled %v, crossed %v", ok, s.Crossed)
	}
}

// TestTimeSettlesOnlyWhereNoAnswerCame (⏎ + 3000×ESC[I + ⏎ pasted: the
// padding took longer than the screen's timer): where no answer ever came,
// the timer settles a key (crossed if input came since). Once the terminal
// answered in this run, the timer settles nothing: the answer comes after
// the padding. A key whose answer never came is given up AnswerWithin on
// (Late), said, and the questions up to it with it, so a lost answer
// shifts no later key's settling.
func TestTimeSettlesOnlyWhereNoAnswerCame(t *testing.T) {
	m, home, q := quietRoot(t)
	send(m, SettleMsg{Tag: 1})
	send(m, SettledMsg{Tag: 1})
	send(m, SettleMsg{Tag: 2})
	send(m, tea.FocusMsg{})
	send(m, SettledMsg{Tag: 2})
	if s, ok := settledAs(home, 1); !ok || s.Crossed {
		t.Fatalf("a terminal that never answered: the timer settled %v, crossed %v", ok, s.Crossed)
	}
	if s, ok := settledAs(home, 2); !ok || !s.Crossed {
		t.Fatalf("focus before the timer: settled %v, crossed %v", ok, s.Crossed)
	}
	send(m, da1) // 1's, late
	send(m, da1) // 2's
	q.quiet(m)
	answered(t, m, q, home)

	send(m, SettleMsg{Tag: 3})
	send(m, SettleMsg{Tag: 4})
	send(m, SettledMsg{Tag: 4})
	if _, ok := settledAs(home, 4); ok {
		t.Fatal("a terminal that answers: the timer settled the key")
	}
	q.late(m)
	if s, ok := settledAs(home, 4); !ok || !s.Late || !strings.Contains(m.toast.text, NoAnswer) {
		t.Fatalf("no answer AnswerWithin on: settled %v, late %v, said %q", ok, s.Late, m.toast.text)
	}
	now := fixedNow.Add(AnswerWithin) // no input since: the answers were lost
	m.common.Now = func() time.Time { return now }
	q.late(m)
	send(m, SettleMsg{Tag: 5})
	send(m, da1)
	q.quiet(m)
	send(m, SettledMsg{Tag: 5})
	q.late(m)
	if s, ok := settledAs(home, 5); !ok || s.Crossed || s.Late {
		t.Fatalf("after answers lost, the next key's own answer settled it %v, crossed %v, late %v", ok, s.Crossed, s.Late)
	}
}

// TestSlowPaddingKeepsTheQuestion (⏎ + padding read for longer than
// AnswerWithin + ⏎): the first enter is given up, but its question stays
// out while input still comes, and the second enter, taken before that
// answer, came with it: crossed, even settled by its own answer.
func TestSlowPaddingKeepsTheQuestion(t *testing.T) {
	m, home, q := quietRoot(t)
	answered(t, m, q, home)
	send(m, SettleMsg{Tag: 1})
	send(m, tea.FocusMsg{})
	send(m, SettledMsg{Tag: 1})
	q.late(m)
	send(m, press("enter"))
	send(m, SettleMsg{Tag: 2})
	send(m, da1) // 1's
	q.quiet(m)
	send(m, da1) // 2's
	q.quiet(m)
	if s, ok := settledAs(home, 2); !ok || !s.Crossed {
		t.Fatalf("an enter taken before the answer to the key before: settled %v, crossed %v", ok, s.Crossed)
	}
}

// TestResumeGivesUpTheQuestionsOut: the shell reads what the terminal
// answers while the console is stopped (ctrl+z); continued (fg), an enter
// settles on its own answer, not taken for the lost one's, and a key that
// waited through the stop answers nothing, even where no answer comes.
func TestResumeGivesUpTheQuestionsOut(t *testing.T) {
	m, home, q := quietRoot(t)
	answered(t, m, q, home)
	send(m, SettleMsg{Tag: 1}) // its answer goes to the shell
	send(m, tea.ResumeMsg{})
	send(m, press("enter"))
	send(m, SettleMsg{Tag: 2})
	send(m, da1)
	q.quiet(m)
	if s, ok := settledAs(home, 2); !ok || s.Crossed {
		t.Fatalf("an enter after fg: settled %v, crossed %v", ok, s.Crossed)
	}

	m, home, _ = quietRoot(t) // a terminal that never answers
	send(m, SettleMsg{Tag: 1})
	send(m, tea.ResumeMsg{})
	send(m, SettledMsg{Tag: 1})
	if s, ok := settledAs(home, 1); !ok || !s.Crossed {
		t.Fatalf("a key waiting through the stop: settled %v, crossed %v", ok, s.Crossed)
	}
}

// TestLostAnswerHoldsNoKeyAfterIt: a question whose answer was lost (a
// key that answers nothing, so no screen's timer waits on it) is given up
// once no input came for AnswerWithin: an enter after it is no paste's.
func TestLostAnswerHoldsNoKeyAfterIt(t *testing.T) {
	m, home, q := quietRoot(t)
	answered(t, m, q, home)
	send(m, press("x"))
	send(m, SettleMsg{Tag: 1}) // its answer lost
	now := fixedNow.Add(AnswerWithin)
	m.common.Now = func() time.Time { return now }
	q.late(m)
	if _, ok := settledAs(home, 1); ok || m.toast.text != "" {
		t.Fatalf("a key no timer waits on was said to be given up (%q)", m.toast.text)
	}
	send(m, press("enter"))
	send(m, SettleMsg{Tag: 2})
	send(m, da1)
	q.quiet(m)
	if s, ok := settledAs(home, 2); !ok || s.Crossed {
		t.Fatalf("an enter after a lost answer: settled %v, crossed %v", ok, s.Crossed)
	}
}

// TestRolledReleaseCrossesNothing: a person typing fast presses enter
// before lifting the letter before it (kitty's event types report the
// release after the enter): that release was not input between, its press
// came first. A release of a key not down when the enter came still
// crosses, and each key down passes once.
func TestRolledReleaseCrossesNothing(t *testing.T) {
	for _, tc := range []struct {
		name    string
		before  []tea.Msg
		between []tea.Msg
		crossed bool
	}{
		{"the letter before lifted after", []tea.Msg{press("s")}, []tea.Msg{tea.KeyReleaseMsg{Code: 's'}}, false},
		{"a letter lifted and released again", []tea.Msg{press("s")}, []tea.Msg{tea.KeyReleaseMsg{Code: 's'}, tea.KeyReleaseMsg{Code: 's'}, tea.KeyReleaseMsg{Code: 's'}}, true},
		{"a letter lifted before", []tea.Msg{press("s"), tea.KeyReleaseMsg{Code: 's'}}, []tea.Msg{tea.KeyReleaseMsg{Code: 's'}, tea.KeyReleaseMsg{Code: 's'}, tea.KeyReleaseMsg{Code: 's'}}, true},
		{"a letter never pressed", nil, []tea.Msg{tea.KeyReleaseMsg{Code: 'q'}}, true},
	} {
		m, home, q := quietRoot(t)
		for _, msg := range tc.before {
			send(m, msg)
		}
		send(m, press("enter"))
		send(m, SettleMsg{Tag: 1})
		for _, msg := range tc.between {
			send(m, msg)
		}
		send(m, da1)
		q.quiet(m)
		if s, ok := settledAs(home, 1); !ok || s.Crossed != tc.crossed {
			t.Errorf("%s: settled %v, crossed %v, want %v", tc.name, ok, s.Crossed, tc.crossed)
		}
	}
}
