package status

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/svcwallet/svcwallet/screens/screentest"
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
