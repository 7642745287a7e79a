package status

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/svcwallet/svcwallet/screens/screentest"
	"github.com/svcwallet/svcwallet/service/sandbox"
	"github.com/svcwallet/svcwallet/tui"
)

// TestResumeAcceptanceUnlikeJournalSaid: the console's resume shows a 202
// naming another receive amount than the journaled quote locked with the
// journal's, and says the acceptance does not add up and to tell support,
// as withdraw resume does; it was shown so without a word.
func TestResumeAcceptanceUnlikeJournalSaid(t *testing.T) {
	r := screentest.NewStatusRig(t)
	req, in := r.Signed(r.App.Client(), sandbox.DemoPrivateKey, sandbox.DestCompleted, "25")
	rec := r.Intent(req, in)
	h := http.HandlerFunc(func(w http.ResponseWriter, q *http.Request) {
		got := httptest.NewRecorder()
		r.Exchange.ServeHTTP(got, q)
		var v map[string]any
		if err := json.Unmarshal(got.Body.Bytes(), &v); err != nil {
			t.Fatalf("the 202: %v", err)
		}
		v["receive_amount"] = "9999"
		w.WriteHeader(got.Code)
		json.NewEncoder(w).Encode(v)
	})
	r.WithdrawAnswer.Store(&h)
	s := NewResume(r.App, rec).(*statusScreen)
	s.SetSize(100, 40)
	screentest.RecordTimers(s.app)
	said := ""
	for queue := []tea.Cmd{s.Init()}; len(queue) > 0; queue = queue[1:] {
		if queue[0] == nil {
			continue
		}
		switch m := queue[0]().(type) {
		case tea.BatchMsg:
			queue = append(queue, m...)
		case tui.ErrorMsg:
			said += m.Err.Error()
		case nil:
		default:
			_, next := s.Update(m)
			queue = append(queue, next)
		}
	}
	if s.phase != phaseFollow || !s.follow.Last.ReceiveAmount.Equal(in.ReceiveAmount) {
		t.Fatalf("phase %v, shown receive amount %s; want followed with the journal's %s", s.phase, s.follow.Last.ReceiveAmount, in.ReceiveAmount)
	}
	if !strings.Contains(said, "does not add up: it names a receive amount of 9999") || !strings.Contains(said, "tell support") {
		t.Fatalf("said %q; want the acceptance named as not adding up", said)
	}
}
