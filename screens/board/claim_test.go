package board

import (
	"bytes"
	"os"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/svcwallet/svcwallet/screens/kit"
	"github.com/svcwallet/svcwallet/screens/screentest"
	"github.com/svcwallet/svcwallet/service/sandbox"
)

// TestBoardKeepsTheClaim: a final record naming another chain than the
// quote signed is shown with what was signed, its claim said in the
// details; the board's file keeps the claim, so a board started from it
// says it again at once, before any request, and never shows the claimed
// chain as the withdrawal's. A hostile file's claim puts no text on the
// screen.
func TestBoardKeepsTheClaim(t *testing.T) {
	r := screentest.NewStatusRig(t)
	id := r.Made(sandbox.DestCompleted, "25")
	r.Clock.Advance(sandbox.DefaultSettle)
	rewrite := func(b []byte) []byte {
		return bytes.Replace(b, []byte(`"chain":"ARBITRUM"`), []byte(`"chain":"BASE"`), 1)
	}
	r.StatusRewrite.Store(&rewrite)
	br := newBoardRig(t, r)
	br.send(tea.PasteMsg{Content: id})
	for i := 0; i < 1000 && br.fire(); i++ {
	}
	const claim = "names the chain BASE (payout hash 0x"
	if f := br.b.rows[id]; !f.Final || !strings.Contains(f.Outcome().Words, claim) {
		t.Fatalf("the first board's row is %s (final %v): %q, want the claim", f.label, f.Final, f.Outcome().Words)
	}
	if err := br.b.flush(); err != nil {
		t.Fatal(err)
	}
	calls := r.StatusCalls.Load()
	again, _ := loadOnly(t, r)
	if row := again.rowOf(id); !strings.Contains(row, "✓ COMPLETED") || !strings.Contains(row, "ARBITRUM") || strings.Contains(again.plain(), "BASE") {
		t.Fatalf("after a restart the row is %q:\n%s", row, again.plain())
	}
	again.toList()
	again.send(tea.KeyPressMsg{Code: tea.KeyEnter})
	if again.opened == nil || !strings.Contains(again.opened.f.Outcome().Words, claim) {
		t.Fatalf("after a restart the details say nothing of the claim: %+v", again.opened)
	}
	if n := r.StatusCalls.Load() - calls; n != 0 {
		t.Fatalf("the claim was learned again by %d requests, not read from the file", n)
	}

	// The same line with text for the claimed chain: the claim is
	// dropped, the record with it (a COMPLETED record shown without its
	// payout hash holds only beside another chain), and the id asked again.
	path := kit.WatchlistPath(r.App)
	b, err := os.ReadFile(path)
	if err != nil || !bytes.Contains(b, []byte(`"claim":{"chain":"BASE"`)) {
		t.Fatalf("the file does not keep the claim as data (%v):\n%s", err, b)
	}
	hostile := bytes.ReplaceAll(b, []byte(`"claim":{"chain":"BASE"`), []byte(`"claim":{"chain":"CALL\u001b[31mSUPPORT"`))
	if err := os.WriteFile(path, hostile, 0o600); err != nil {
		t.Fatal(err)
	}
	third, _ := loadOnly(t, r)
	if v := third.plain(); strings.Contains(v, "CALL") || strings.Contains(v, "SUPPORT") || strings.Contains(third.b.rows[id].Outcome().Words, "names") {
		t.Fatalf("a hostile claim reached the screen:\n%s\n%s", v, third.b.rows[id].Outcome().Words)
	}
}
