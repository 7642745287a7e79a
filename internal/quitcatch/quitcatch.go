// Package quitcatch catches ctrl+\ (SIGQUIT) from the first moment a Go
// program can: left to Go, a quit before the command's handler printed
// every goroutine's stack and exited 2. main imports it, and it imports
// nothing os/signal does not, so its init runs as soon as
// os/signal's has (TestQuitCatchIsArmedAsSoonAsSignalsCan). Its channel is
// the process's one catch of ctrl+\: the command's handler reads it
// (Quits), so a quit that came before is handled then, none is handled
// twice, and none falls between two catches. It holds the one rule of
// GOTRACEBACK.
package quitcatch

import (
	"os"
	"os/signal"
	"syscall"
)

// quits is registered from init to exit: a quit nobody reads is dropped
// there, not dumped. nil when GOTRACEBACK leaves ctrl+\ to Go.
var quits chan os.Signal

func init() {
	if !Caught(os.Getenv) {
		return
	}
	quits = make(chan os.Signal, 1)
	signal.Notify(quits, syscall.SIGQUIT)
}

// Caught reports whether ctrl+\ is a person's quit, as ctrl+c: unless the
// environment sets GOTRACEBACK (GOTRACEBACK=all), which gives a developer
// Go's dump of every goroutine's stack back (a hung process's).
func Caught(getenv func(string) string) bool {
	return getenv("GOTRACEBACK") == ""
}

// Quits delivers the ctrl+\ caught since the process started, the first
// held until read; nil (never ready) when ctrl+\ is left to Go.
func Quits() <-chan os.Signal {
	return quits
}

// Held reports whether a ctrl+\ came that no handler read, and takes it:
// what a command that catches nothing of its own ends at.
func Held() bool {
	select {
	case <-quits:
		return true
	default:
		return false
	}
}
