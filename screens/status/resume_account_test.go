package status

import (
	"strings"
	"testing"

	"github.com/svcwallet/svcwallet/screens/screentest"
	"github.com/svcwallet/svcwallet/service/sandbox"
)

// TestResumeOfAnotherAccountsRecordSaysWhoToLogInAs: an unanswered
// withdrawal journaled as another account's than the session's is not
// settled here (withdrawal.SettledOtherAccount): the screen says which
// account to log in as, nothing is sent, and r, which would only say so
// again, is not offered. It said "whether it arrived cannot be told yet"
// and offered r to ask again.
func TestResumeOfAnotherAccountsRecordSaysWhoToLogInAs(t *testing.T) {
	r := screentest.NewStatusRig(t)
	req, in := r.Signed(r.App.Client(), sandbox.DemoPrivateKey, sandbox.DestCompleted, "25")
	rec := r.Intent(req, in)
	rec.AccountID = "acct-someone-else"
	s := NewResume(r.App, rec).(*statusScreen)
	s.SetSize(100, 40)
	screentest.RecordTimers(s.app)
	screentest.Drive(s, s.Init())
	said := screentest.OneLine(s.View())
	if !strings.Contains(said, "log in as account acct-someone-else, then take it up again from History") || strings.Contains(said, "cannot be told") {
		t.Errorf("the screen does not say which account to log in as:\n%s", s.View())
	}
	screentest.RequireNamedKeysAct(t, "another account's", s.View(), func(k string) bool { return screentest.Offers(s.KeyMap(), k) })
	if screentest.Offers(s.KeyMap(), "r") {
		t.Errorf("r is offered, and would only say the same again:\n%s", s.View())
	}
	if n := len(r.WithdrawBodies()); n != 0 {
		t.Errorf("%d withdraw requests on another account's session", n)
	}
}
