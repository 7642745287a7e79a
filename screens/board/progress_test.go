package board

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/svcwallet/svcwallet/screens/screentest"
	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/journal"
)

// TestBoardProgressCountsJournaledEndsStillToAsk: own withdrawals the
// journal holds as ended show the journal's state at once, and the
// progress counts them still to be asked ("asked 1 of 2") until the
// service has been asked: the count went with a record, so 200 ids
// pasted among which this machine's own showed every row ended and no
// progress, while F, which clears what the service confirmed, cleared
// 192 and left 8 rows reading FAILED or COMPLETED, seen in tmux.
func TestBoardProgressCountsJournaledEndsStillToAsk(t *testing.T) {
	r := screentest.NewStatusRig(t)
	sess, _ := r.App.Client().Session()
	ids := []string{"q-ownended1", "q-ownended2"}
	for _, id := range ids {
		for _, e := range []journal.Entry{
			{Kind: journal.KindAccepted, TxID: "tx-" + id[2:]},
			{Kind: journal.KindState, State: exchange.StateCompleted, TxHash: "0x" + strings.Repeat("7b", 32)},
		} {
			e.Time, e.Env, e.AccountID, e.QuoteID = r.Clock.Now(), r.App.Target.Env.Name, sess.AccountID, id
			if err := r.App.Journal().Append(e); err != nil {
				t.Fatal(err)
			}
		}
	}
	br := newBoardRig(t, r)
	br.send(tea.PasteMsg{Content: strings.Join(ids, "\n")})
	if v := br.plain(); !strings.Contains(v, "2 withdrawals · asked 1 of 2") || !strings.Contains(v, "✓ COMPLETED") {
		t.Fatalf("after the paste (one asked at once), the other reads COMPLETED as the journal has it, still to ask:\n%s", v)
	}
	for i := 0; i < 100 && br.fire(); i++ {
	}
	if v := br.plain(); strings.Contains(v, "asked") {
		t.Fatalf("once both were asked, the progress stays:\n%s", v)
	}
}
