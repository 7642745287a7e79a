package screentest

import (
	"reflect"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/svcwallet/svcwallet/tui"
)

// SequenceMsgs runs a tea.Sequence's commands in order and returns their
// messages (the sequence type is unexported: it is a slice of Cmds).
func SequenceMsgs(t *testing.T, cmd tea.Cmd) []tea.Msg {
	t.Helper()
	v := reflect.ValueOf(cmd())
	if v.Kind() != reflect.Slice || v.Type().Elem() != reflect.TypeOf(tea.Cmd(nil)) {
		t.Fatalf("not a sequence: %T", v.Interface())
	}
	var out []tea.Msg
	for i := range v.Len() {
		if c := v.Index(i).Interface().(tea.Cmd); c != nil {
			out = append(out, c())
		}
	}
	return out
}

// RunAll runs a command and any batch it returns, without timers: a timer
// (IsTimer) is left unfired rather than waited for.
func RunAll(cmd tea.Cmd) []tea.Msg {
	if cmd == nil || IsTimer(cmd) {
		return nil
	}
	switch msg := cmd().(type) {
	case nil:
		return nil
	case tea.BatchMsg:
		var out []tea.Msg
		for _, c := range msg {
			out = append(out, RunAll(c)...)
		}
		return out
	default:
		return []tea.Msg{msg}
	}
}

// Feed hands msg to the root and runs what follows, timers excepted (the
// screens here schedule none that matter to the frame).
func Feed(root *tui.Model, msg tea.Msg) {
	_, cmd := root.Update(msg)
	for _, m := range RunAll(cmd) {
		Feed(root, m)
	}
}

// Drive runs cmd and every command that follows from the messages it makes,
// handing each message to s, until nothing is left. Commands run in this
// goroutine: s must schedule no real timers (see RecordTimers).
func Drive(s tui.Screen, cmd tea.Cmd) tui.Screen {
	queue := []tea.Cmd{cmd}
	for len(queue) > 0 {
		c := queue[0]
		queue = queue[1:]
		if c == nil {
			continue
		}
		switch msg := c().(type) {
		case nil:
		case tea.BatchMsg:
			queue = append(queue, msg...)
		default:
			var next tea.Cmd
			s, next = s.Update(msg)
			queue = append(queue, next)
		}
	}
	return s
}

// RunCmdSync runs cmd and the batches inside it, returning every message. Only
// for commands that answer at once or over the network: a timer here is a
// bug, so a command still running after a few seconds fails the test.
func RunCmdSync(t testing.TB, cmd tea.Cmd) []tea.Msg {
	t.Helper()
	if cmd == nil {
		return nil
	}
	done := make(chan tea.Msg, 1)
	go func() { done <- cmd() }()
	var msg tea.Msg
	select {
	case msg = <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("a command did not return: a timer where none was expected")
	}
	if b, ok := msg.(tea.BatchMsg); ok {
		var out []tea.Msg
		for _, c := range b {
			out = append(out, RunCmdSync(t, c)...)
		}
		return out
	}
	if msg == nil {
		return nil
	}
	return []tea.Msg{msg}
}

// FindMsg returns the first message of type T.
func FindMsg[T any](t testing.TB, msgs []tea.Msg) T {
	t.Helper()
	for _, m := range msgs {
		if v, ok := m.(T); ok {
			return v
		}
	}
	var zero T
	t.Fatalf("no %T among %#v", zero, msgs)
	return zero
}

// RequireIdle fails if any message of msgs makes the screen schedule anything.
func RequireIdle(t *testing.T, s tui.Screen, what string, msgs ...tea.Msg) {
	t.Helper()
	for _, m := range msgs {
		if _, cmd := s.Update(m); cmd != nil {
			t.Errorf("%s: %T returned a command; an idle screen must not tick", what, m)
		}
	}
}

// OtherMsgs are messages an idle screen may receive that change nothing it shows.
func OtherMsgs() []tea.Msg {
	return []tea.Msg{tea.FocusMsg{}, tea.BlurMsg{}, struct{ other int }{1}}
}

// BenchView benchmarks a screen's own View, without the root's top bar
// and footer.
func BenchView(b *testing.B, s interface{ View() string }) {
	b.Helper()
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		_ = s.View()
	}
}
