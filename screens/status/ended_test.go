package status

import (
	"testing"

	"github.com/svcwallet/svcwallet/screens/screentest"
	"github.com/svcwallet/svcwallet/service/sandbox"
	"github.com/svcwallet/svcwallet/service/withdrawal"
)

// TestSettleSessionEndedOpensLogin: taking up an unanswered withdrawal
// whose re-send or status ask met a session that ended takes the person to
// the login, saying the withdrawal is saved, still unanswered, and where
// to take it up again; nothing is journaled.
func TestSettleSessionEndedOpensLogin(t *testing.T) {
	ended := screentest.SessionEnded()
	for _, outcome := range []withdrawal.SettledOutcome{withdrawal.SettledLost, withdrawal.SettledUndecided} {
		r := screentest.NewStatusRig(t)
		req, in := r.Signed(r.App.Client(), sandbox.DemoPrivateKey, sandbox.DestCompleted, "25")
		s := NewResume(r.App, r.Intent(req, in)).(*statusScreen)
		s.SetSize(100, 40)
		s.Init()
		_, cmd := s.Update(settleMsg{Settled: withdrawal.Settled{Outcome: outcome, Err: ended}, tag: s.tag})
		login, said := screentest.ToLogin(t, cmd, "it is saved, still unanswered; log in again, then take it up from History")
		if !login || !said {
			t.Errorf("outcome %v: to the login %v, said %v", outcome, login, said)
		}
		if rec := r.Record(req.QuoteID); rec.Answered {
			t.Errorf("outcome %v: journaled %+v", outcome, rec)
		}
	}
}
