package status

import (
	"slices"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/svcwallet/svcwallet/screens/screentest"
	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/journal"
	"github.com/svcwallet/svcwallet/service/sandbox"
)

// TestStatusShowsTheKeptRequestsIntent: opened on a withdrawal whose
// journal holds an intent that never left, then the same quote sent again
// with another intent line (a hand edit: a quote pins where it pays), the
// status screen shows where the request the journal keeps pays (the later
// one, the one that may have run), as History and resume do, not the
// first line's.
func TestStatusShowsTheKeptRequestsIntent(t *testing.T) {
	r := screentest.NewStatusRig(t)
	req, first := r.Signed(r.App.Client(), sandbox.DemoPrivateKey, sandbox.DestCompleted, "12")
	rec := r.Intent(req, first)
	if err := r.App.Journal().Append(journal.Entry{Time: r.Clock.Now(), Kind: journal.KindRejected, Env: rec.Env, AccountID: rec.AccountID,
		QuoteID: req.QuoteID, Error: "Cannot reach api.example (connection refused)", NotSent: true}); err != nil {
		t.Fatal(err)
	}
	again := first
	again.ToAddress = sandbox.DestRefunded
	r.Intent(req, again)
	if kept := r.Record(req.QuoteID); kept.Intent.ToAddress != sandbox.DestRefunded {
		t.Fatalf("the journal keeps the intent to %s, want the later one's", kept.Intent.ToAddress)
	}
	s := New(r.App, req.QuoteID).(*statusScreen)
	s.SetSize(120, 40)
	screentest.RecordTimers(r.App)
	screentest.Drive(s, s.Init())
	view := ansi.Strip(s.View())
	if !strings.Contains(view, sandbox.DestRefunded) || strings.Contains(view, sandbox.DestCompleted) {
		t.Errorf("the status screen does not show the kept request's destination %s:\n%s", sandbox.DestRefunded, view)
	}
}

// TestStatusTimelineKeepsOneAcceptance: an acceptance journaled again
// after a state (a hand edit, a backup put back) does not put SUBMITTED
// back in the timeline: once accepted, only a state moves a withdrawal on
// (journal's answerOf), on this screen too.
func TestStatusTimelineKeepsOneAcceptance(t *testing.T) {
	r := screentest.NewStatusRig(t)
	id := r.Made(sandbox.DestCompleted, "12")
	r.Clock.Advance(sandbox.DefaultSettle)
	rec := r.Record(id)
	for _, e := range []journal.Entry{{Kind: journal.KindState, State: exchange.StateCompleted}, {Kind: journal.KindAccepted}} {
		e.Time, e.Env, e.AccountID, e.QuoteID = r.Clock.Now(), rec.Env, rec.AccountID, id
		if err := r.App.Journal().Append(e); err != nil {
			t.Fatal(err)
		}
	}
	s := New(r.App, id).(*statusScreen)
	s.SetSize(120, 40)
	screentest.RecordTimers(r.App)
	screentest.Drive(s, s.Init())
	var states []string
	for _, x := range s.timeline {
		states = append(states, x.state)
	}
	if want := []string{exchange.StateSubmitted, exchange.StateCompleted}; !slices.Equal(states, want) {
		t.Errorf("the timeline is %v, want %v", states, want)
	}
}
