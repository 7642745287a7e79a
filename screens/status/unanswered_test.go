package status

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/svcwallet/svcwallet/screens/screentest"
	"github.com/svcwallet/svcwallet/service/follow"
	"github.com/svcwallet/svcwallet/service/sandbox"
)

// TestStatusNotFoundOfUnansweredRequest: a withdrawal this journal holds
// sent with no answer, which the service does not know, is NOT FOUND YET
// with the time it may still execute until, and asked again; once the
// service's clock is past its quote's margin it is EXPIRED, never "not
// found".
func TestStatusNotFoundOfUnansweredRequest(t *testing.T) {
	r := screentest.NewStatusRig(t)
	const id = "q-answer-lost" // sent, its answer lost; unknown so far
	req, in := r.Signed(r.App.Client(), sandbox.DemoPrivateKey, sandbox.DestCompleted, "25")
	req.QuoteID = id
	r.Intent(req, in)
	s := newStatus(r.App, id)
	s.SetSize(100, 40)
	timers := screentest.RecordTimers(s.app)
	screentest.Drive(s, s.Init())
	until := in.ExpiresAt.Add(follow.ExecutableMargin).UTC().Format("15:04:05") + " UTC"
	view := s.Title() + "\n" + screentest.OneLine(s.View())
	if s.follow.Final || !s.polling() || len(*timers) != 1 || !strings.Contains(view, "Withdrawal "+follow.LabelNotFoundYet) ||
		!strings.Contains(view, "may still execute until "+until) || strings.Contains(view, "Not found") {
		t.Fatalf("sent, unanswered, unknown so far:\n%s", view)
	}
	next := (*timers)[0]
	r.Clock.Set(in.ExpiresAt.Add(follow.ExecutableMargin + next.D))
	screentest.Drive(s, func() tea.Msg { return next.Msg })
	view = s.Title() + "\n" + screentest.OneLine(s.View())
	if !s.follow.Final || !strings.Contains(view, "Withdrawal "+follow.LabelExpired) || strings.Contains(view, "Not found") {
		t.Fatalf("unknown past its quote's margin:\n%s", view)
	}
}
