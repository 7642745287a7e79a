package board

import (
	"slices"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/svcwallet/svcwallet/screens/screentest"
	"github.com/svcwallet/svcwallet/service/follow"
	"github.com/svcwallet/svcwallet/service/sandbox"
)

// TestBoardNotFoundOfUnansweredRequest: a row of a withdrawal this
// journal holds sent with no answer, which the service does not know, is
// NOT FOUND YET and keeps moving (asked again), never NOT FOUND, until
// the service's clock is past its quote's margin: then EXPIRED.
func TestBoardNotFoundOfUnansweredRequest(t *testing.T) {
	r := screentest.NewStatusRig(t)
	req, in := r.Signed(r.App.Client(), sandbox.DemoPrivateKey, sandbox.DestCompleted, "25")
	req.QuoteID = "q-answer-lost" // unknown to the service so far
	r.Intent(req, in)
	br := newBoardRig(t, r)
	br.run(br.b.addText(req.QuoteID))
	for i := 0; i < 5 && br.b.rows[req.QuoteID].label != follow.LabelNotFoundYet && br.fire(); i++ {
	}
	if row := br.b.rows[req.QuoteID]; row.label != follow.LabelNotFoundYet || row.Final || br.b.sched.Moving() != 1 {
		t.Fatalf("the row of a request sent, unanswered, unknown so far: %s, final %v, %d moving", row.label, row.Final, br.b.sched.Moving())
	}
	r.Clock.Set(in.ExpiresAt.Add(follow.ExecutableMargin + follow.DefaultPollInterval))
	for i := 0; i < 5 && br.b.rows[req.QuoteID].label != follow.LabelExpired && br.fire(); i++ {
	}
	if row := br.b.rows[req.QuoteID]; row.label != follow.LabelExpired || !row.Final {
		t.Fatalf("the row past its quote's margin: %s, final %v", row.label, row.Final)
	}
	// n clears the ids not found, never this one: it ended never paid.
	br.send(tea.PasteMsg{Content: "q-gone-1"})
	for i := 0; i < 5 && br.fire(); i++ {
	}
	br.toList()
	br.send(tea.KeyPressMsg{Code: 'n', Text: "n"})
	if got := boardIDs(br.b); !slices.Equal(got, []string{req.QuoteID}) {
		t.Fatalf("n left %q:\n%s", got, br.plain())
	}
}
