package quitcatch

import (
	"os"
	"syscall"
	"testing"
)

// TestHeldTakesAQuitNoHandlerRead: a command that reads no catch of its
// own learns, once, that ctrl+\ came; with none caught (GOTRACEBACK set,
// a nil catch) nothing is ever held.
func TestHeldTakesAQuitNoHandlerRead(t *testing.T) {
	was := quits
	t.Cleanup(func() { quits = was })
	quits = make(chan os.Signal, 1)
	if Held() {
		t.Error("a quit is held before any came")
	}
	quits <- syscall.SIGQUIT
	if !Held() {
		t.Error("the quit that came is not held")
	}
	if Held() {
		t.Error("one quit was held twice")
	}
	quits = nil
	if Held() {
		t.Error("a quit is held with none caught")
	}
}

// TestCaughtUnlessGotraceback: ctrl+\ is a person's quit unless the
// environment sets GOTRACEBACK, whatever its value.
func TestCaughtUnlessGotraceback(t *testing.T) {
	env := func(v string) func(string) string {
		return func(string) string { return v }
	}
	if !Caught(env("")) || Caught(env("all")) || Caught(env("none")) {
		t.Errorf("Caught: unset %v, all %v, none %v; want true, false, false", Caught(env("")), Caught(env("all")), Caught(env("none")))
	}
}
