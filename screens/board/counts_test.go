package board

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/svcwallet/svcwallet/screens/screentest"
	"github.com/svcwallet/svcwallet/service/sandbox"
)

// TestBoardProgressCountsAnswers: "asked N of M" counts the rows the
// service answered; an ask a 429 refused answered nothing, so its row is
// still to be asked (it counted as asked).
func TestBoardProgressCountsAnswers(t *testing.T) {
	r := screentest.NewStatusRig(t)
	br := newBoardRig(t, r)
	done := screentest.Seed(t, r, sandbox.DestCompleted)
	br.send(tea.PasteMsg{Content: done})
	for i := 0; i < 1000 && br.fire(); i++ {
	}
	a, b := screentest.Seed(t, r, sandbox.DestCompleted), screentest.Seed(t, r, sandbox.DestCompleted)
	r.LimitStatus.Store(3)
	br.send(tea.PasteMsg{Content: a + " " + b})
	for i := 0; i < 3 && !strings.Contains(br.rowOf(b), "RATE LIMITED"); i++ {
		br.fire()
	}
	if !strings.Contains(br.rowOf(b), "RATE LIMITED") {
		t.Fatalf("no 429 on the board:\n%s", br.plain())
	}
	if p := br.b.progress(); !strings.HasPrefix(p, "asked 1 of 3 · ") {
		t.Errorf("progress %q with one row answered and one rate limited; want asked 1 of 3", p)
	}
}
