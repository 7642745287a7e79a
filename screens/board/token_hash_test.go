package board

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/svcwallet/svcwallet/screens/screentest"
	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/journal"
)

// TestBoardTakesAPastedCSVOfHashes: a CSV export's payout hash column
// ("0x…", one a line, CRLF) pasted into the board's field is looked up
// as the hashes, and a hash in brackets with them; the field cleared the
// paste as a private key's shape. A key quoted so is still cleared, never
// shown nor asked.
func TestBoardTakesAPastedCSVOfHashes(t *testing.T) {
	r := screentest.NewStatusRig(t)
	sess, _ := r.App.Client().Session()
	own := []journal.Record{{QuoteID: "q-ownpaid1", TxHash: "0x" + strings.Repeat("9a", 32)}, {QuoteID: "q-ownpaid2", TxHash: "0x" + strings.Repeat("7c", 32)}}
	for i, rec := range own {
		for _, e := range []journal.Entry{
			{Kind: journal.KindAccepted, TxID: "tx-ownpaid" + string(rune('1'+i))},
			{Kind: journal.KindState, State: exchange.StateCompleted, TxHash: rec.TxHash},
		} {
			e.Time, e.Env, e.AccountID, e.QuoteID = r.Clock.Now(), r.App.Target.Env.Name, sess.AccountID, rec.QuoteID
			if err := r.App.Journal().Append(e); err != nil {
				t.Fatal(err)
			}
		}
	}
	br := newBoardRig(t, r)
	br.send(tea.PasteMsg{Content: `"` + screentest.KeyHex + "\",\r\n"})
	if v := screentest.OneLine(br.b.View()); !strings.Contains(v, "private key's shape, not shown") || screentest.ShowsKeyPiece(br.plain()) || br.b.input.Value() != "" {
		t.Errorf("a quoted key pasted: field %d characters, the board says:\n%s", len(br.b.input.Value()), br.plain())
	}
	br.send(tea.PasteMsg{Content: `"` + own[0].TxHash + "\",\r\n(" + own[1].TxHash + ").\r\n"})
	if ids := boardIDs(br.b); len(ids) != 2 || ids[0] != own[0].QuoteID || ids[1] != own[1].QuoteID {
		t.Errorf("after pasting a CSV column of own payout hashes the board follows %q:\n%s", ids, br.plain())
	}
}
