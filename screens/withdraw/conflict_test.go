package withdraw

import (
	"strings"
	"testing"

	"github.com/svcwallet/svcwallet/internal/exchangetest"
	"github.com/svcwallet/svcwallet/screens/kit"
	"github.com/svcwallet/svcwallet/screens/screentest"
	"github.com/svcwallet/svcwallet/service/journal"
	"github.com/svcwallet/svcwallet/tui"
)

// TestConflictIsSaidAsAnswered: a withdraw the service executed and
// answered 409 (9108, or a 409 without a code of its own), or a 4xx the
// interface gives no meaning (exchangetest.Conflicts), is taken up to
// settle, as one without an answer is, but the console says what the
// service answered, as the command line does: "no clear answer" would be
// untrue, and "refused" too (it may have been paid). Said once, the check
// its next step.
func TestConflictIsSaidAsAnswered(t *testing.T) {
	for name, c := range exchangetest.Conflicts {
		t.Run(name, func(t *testing.T) {
			app, h, now := hostileApp(t, true)
			var resumed bool
			app.Makers.Resume = func(a *kit.App, rec journal.Record) tui.Screen {
				resumed = true
				return screentest.NewHome(a)
			}
			r := hostileReview(t, app, now)
			h.conflict = c
			msg := signAndSend(t, r)
			var said string
			for _, m := range screentest.SequenceMsgs(t, r.executed(msg)) {
				if e, ok := m.(tui.ErrorMsg); ok {
					said = e.Err.Error()
				}
			}
			if !resumed || !strings.Contains(said, c.Says) || !strings.Contains(said, "may have been paid") || !strings.Contains(said, "being checked") {
				t.Fatalf("taken up to settle %t; said %q", resumed, said)
			}
			if exchangetest.SaidTwice(said) {
				t.Errorf("the answer is said twice, or with a next step besides the check: %q", said)
			}
			if exchangetest.Nested(said) {
				t.Errorf("the answer nests parentheses: %q", said)
			}
			if strings.Contains(said, "No clear answer") || strings.Contains(said, "refused") {
				t.Errorf("an answered withdraw that may have paid is said unanswered or refused: %q", said)
			}
		})
	}
}
