package status

import (
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/svcwallet/svcwallet/screens/screentest"
	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/follow"
	"github.com/svcwallet/svcwallet/service/sandbox"
)

// TestBoardStatusShowsUpdatedAt: the status screen the board opens on a
// withdrawal it followed to its end shows the service's updated_at in the
// timeline, as the screen does for one it follows itself: for an own
// withdrawal (its earlier states from the journal) and one made elsewhere.
func TestBoardStatusShowsUpdatedAt(t *testing.T) {
	r := screentest.NewStatusRig(t)
	own := r.Made(sandbox.DestCompleted, "12")
	elsewhere := screentest.Seed(t, r, sandbox.DestCompleted)
	r.Clock.Advance(sandbox.DefaultSettle)
	for name, id := range map[string]string{"own": own, "made elsewhere": elsewhere} {
		w, err := r.App.Client().WithdrawalStatus(t.Context(), id)
		if err != nil || w.State != exchange.StateCompleted || w.UpdatedAt.IsZero() {
			t.Fatalf("%s: the withdrawal is %+v (%v)", name, w, err)
		}
		sched := follow.NewScheduler(5)
		sched.Add(id, r.Clock.Now())
		sched.Next(r.Clock.Now())
		sched.Answer(id, w, nil, r.Clock.Now())
		f, _ := sched.Get(id)
		detail := NewBoardStatus(r.App, f, 0, nil).(*statusScreen)
		detail.SetSize(100, 40)
		screentest.RecordTimers(r.App)
		screentest.Drive(detail, detail.Init())
		view := ansi.Strip(detail.View())
		updated := detail.clock(w.UpdatedAt)
		if none := detail.clock(time.Time{}); none != "—" {
			t.Errorf("no time is shown as %q, want —", none)
		}
		line := ""
		for _, l := range strings.Split(view, "\n") {
			if strings.HasPrefix(strings.TrimSpace(l), exchange.StateCompleted+" ") {
				line = l
			}
		}
		if !strings.HasSuffix(strings.TrimSpace(line), updated) {
			t.Errorf("%s: the timeline's COMPLETED line %q does not end in the service's updated_at %s:\n%s", name, line, updated, view)
		}
	}
}
