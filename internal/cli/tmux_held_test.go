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
// meanwhile (a resize): once, then after delay (the terminal's repeat
// delay) every keyRepeat. The repeat is what is tested.
func (r *withdrawRig) holdEnter(delay, d time.Duration, meanwhile func()) {
	done := make(chan struct{})
	go func() {
		defer close(done)
		start := time.Now()
		_, _ = r.tmux("send-keys", "-t", "main", "Enter")
		time.Sleep(delay) // a terminal's repeat delay: nothing comes meanwhile
		for end := start.Add(d); time.Now().Before(end); time.Sleep(keyRepeat) {
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
// made larger while it is held; nor does one held on the quote screen that
// repeats first 700 ms after it was pressed, as X11's does, into the
// review it opened. Once let go, the review offers enter when keys act,
// and an enter signs.
func TestTmuxHeldEnterSignsNothing(t *testing.T) {
	for name, c := range map[string]struct {
		onQuote   bool          // pressed on the quote screen, not the amount field
		delay     time.Duration // before the first repeat
		meanwhile func(r *withdrawRig)
	}{
		"held":                {delay: keyRepeat},
		"across a small size": {delay: keyRepeat, meanwhile: func(r *withdrawRig) { r.must("resize-window", "-t", "main", "-x", "40", "-y", "15") }},
		"on the quote, repeating first after 700 ms": {onQuote: true, delay: 700 * time.Millisecond},
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
			if c.onQuote {
				r.keys("Enter")
				r.waitShows("enter review and sign") // the quote's keys act
			}
			var grow func()
			if c.meanwhile != nil {
				grow = func() {
					r.waitShows("Withdraw: review and sign")
					c.meanwhile(r)
					time.Sleep(time.Second) // too small for a while, the enter still held
					r.must("resize-window", "-t", "main", "-x", "120", "-y", "40")
				}
			}
			r.holdEnter(c.delay, 3*time.Second, grow)
			r.waitShows("withdraw • r new quote") // "enter sign and withdraw", or short
			if p := r.pane(); !strings.Contains(p, "Withdraw: review and sign") || strings.Contains(p, "SUBMITTED") {
				t.Fatalf("an enter held down signed:\n%s", p)
			}
			r.keys("Enter")
			r.waitShows("Withdrawal SUBMITTED")
		})
	}
}
