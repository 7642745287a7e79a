//go:build e2e && unix

package cli

import (
	"strings"
	"testing"
	"time"

	"github.com/svcwallet/svcwallet/service/sandbox"
)

// keyRepeat is a terminal's repeat of a key held down: 30 a second.
const keyRepeat = 33 * time.Millisecond

// holdEnter sends enter as a key held down for d sends it, during calls
// meanwhile (a resize), every keyRepeat: the repeat is what is tested.
func (r *withdrawRig) holdEnter(d time.Duration, meanwhile func()) {
	done := make(chan struct{})
	go func() {
		defer close(done)
		for end := time.Now().Add(d); time.Now().Before(end); time.Sleep(keyRepeat) {
			_, _ = r.tmux("send-keys", "-t", "main", "Enter")
		}
	}()
	if meanwhile != nil {
		meanwhile()
	}
	<-done
}

// TestTmuxHeldEnterSignsNothing: an enter held down from the amount field
// takes the withdrawal to its quote and review, and signs nothing however
// long it is held, nor when the terminal was too small meanwhile and is
// made larger while it is held; once let go, the review offers enter when
// keys act, and an enter signs.
func TestTmuxHeldEnterSignsNothing(t *testing.T) {
	for name, meanwhile := range map[string]func(r *withdrawRig){
		"held":                nil,
		"across a small size": func(r *withdrawRig) { r.must("resize-window", "-t", "main", "-x", "40", "-y", "15") },
	} {
		t.Run(name, func(t *testing.T) {
			r := newWithdrawRig(t, sandbox.Options{})
			r.login()
			r.keys("w")
			r.waitShows("DESTINATION", "ARBITRUM")
			r.keys("Enter")
			r.waitShows("Withdraw: destination")
			r.keys("-l", sandbox.DestCompleted)
			r.keys("Tab")
			r.keys("-l", "25")
			r.waitShows("valid EVM address")
			var grow func()
			if meanwhile != nil {
				grow = func() {
					r.waitShows("Withdraw: review and sign")
					meanwhile(r)
					time.Sleep(time.Second) // too small for a while, the enter still held
					r.must("resize-window", "-t", "main", "-x", "120", "-y", "40")
				}
			}
			r.holdEnter(3*time.Second, grow)
			r.waitShows("enter sign and withdraw")
			if p := r.pane(); !strings.Contains(p, "Withdraw: review and sign") || strings.Contains(p, "SUBMITTED") {
				t.Fatalf("an enter held down signed:\n%s", p)
			}
			r.keys("Enter")
			r.waitShows("Withdrawal SUBMITTED")
		})
	}
}
