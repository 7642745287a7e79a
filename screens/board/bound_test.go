package board

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/mr-tron/base58"

	"github.com/svcwallet/svcwallet/internal/safetext"
	"github.com/svcwallet/svcwallet/screens/kit"
	"github.com/svcwallet/svcwallet/screens/screentest"
	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/follow"
	"github.com/svcwallet/svcwallet/service/sandbox"
)

// boundIDs are n ids of a generated id's shape, from the first.
func boundIDs(first, n int) []string {
	ids := make([]string, n)
	for i := range ids {
		ids[i] = fmt.Sprintf("q-bound-%06d", first+i)
	}
	return ids
}

// TestBoardBoundsItsIDs: a paste past follow.MaxFollowed adds as many as
// fit and says, in the service's words, how many were not followed and
// what to do; an id added one by one to a full board is refused alike, and
// so are removed rows put back past it.
// Unbounded, a board of about 70,000 ids wrote a file its next start
// refused whole.
func TestBoardBoundsItsIDs(t *testing.T) {
	r := screentest.NewStatusRig(t)
	br := newBoardRig(t, r)
	br.run(br.b.addText(strings.Join(boundIDs(0, follow.MaxFollowed+2), "\n")))
	said := safetext.Capitalized((&follow.TooManyError{Refused: 2}).Error())
	if n := len(br.b.rows); n != follow.MaxFollowed || br.b.err == nil || !strings.Contains(br.b.err.Error(), said) {
		t.Fatalf("a paste of %d ids: %d rows, said %v; want %d and %q", follow.MaxFollowed+2, n, br.b.err, follow.MaxFollowed, said)
	}
	br.run(br.b.addText(boundIDs(follow.MaxFollowed+5, 1)[0]))
	said = safetext.Capitalized((&follow.TooManyError{Refused: 1}).Error())
	if n := len(br.b.rows); n != follow.MaxFollowed || br.b.err == nil || !strings.Contains(br.b.err.Error(), said) {
		t.Fatalf("one id added to a full board: %d rows, said %v", n, br.b.err)
	}
}

// TestBoardPutsBackTheLastRemovalWholeOrNothing: u puts back the removal
// it undoes whole, or nothing: beside a board with room for one of the two
// removed it puts back none, keeps the undo as it was, and says how many do
// not fit and which keys make room, naming only keys that act; u is offered
// only while all of it fits. It put back one and kept the other in a queue
// that came back ahead of the next removal.
func TestBoardPutsBackTheLastRemovalWholeOrNothing(t *testing.T) {
	r := screentest.NewStatusRig(t)
	br := newBoardRig(t, r)
	ids := boundIDs(0, follow.MaxFollowed)
	br.run(br.b.addText(strings.Join(ids, "\n")))
	br.run(br.b.drop([]*boardRow{br.b.rows[ids[0]], br.b.rows[ids[1]]}, "Removed 2"))
	if !offered(br.b, "u") {
		t.Fatal("u not offered right after a removal")
	}
	br.run(br.b.addText(boundIDs(follow.MaxFollowed, 1)[0]))
	if offered(br.b, "u") {
		t.Fatalf("u offered with room for 1 of the 2 removed")
	}
	undo := slices.Clone(br.b.undo)
	br.toasts = nil
	br.send(tea.KeyPressMsg{Code: 'u', Text: "u"})
	_, back := br.b.rows[ids[0]]
	if back || len(br.b.rows) != follow.MaxFollowed-1 || !slices.Equal(br.b.undo, undo) {
		t.Fatalf("u beside room for 1 of 2: %s back %t, %d rows, undo %d; want nothing put back, the undo kept", ids[0], back, len(br.b.rows), len(br.b.undo))
	}
	said := safetext.Capitalized((&follow.TooManyError{Refused: 1, Back: 2}).Error())
	if len(br.toasts) != 1 || !strings.HasPrefix(br.toasts[0], said+"; ") || !strings.Contains(br.toasts[0], " make room") {
		t.Fatalf("u beside room for 1 of 2 said %q; want %q and what makes room", br.toasts, said)
	}
	for _, kb := range br.b.keys() {
		h := kb.Key.Help()
		if strings.Contains(br.toasts[0], "; "+h.Key+" "+h.Desc) || strings.Contains(br.toasts[0], ", "+h.Key+" "+h.Desc) {
			if !kb.On {
				t.Errorf("the toast names %s %s, which does not act: %q", h.Key, h.Desc, br.toasts[0])
			}
		}
	}
}

// offered reports whether the board's footer offers key k now.
func offered(b *boardScreen, k string) bool {
	for _, kb := range b.keys() {
		if kb.On && kb.Key.Help().Key == k {
			return true
		}
	}
	return false
}

// TestBoardFileBeyondTheBound: a board's file holding more than
// follow.MaxFollowed ids (another console's, or an earlier version's) opens
// on as many as fit, the first added, and says the rest were not followed.
func TestBoardFileBeyondTheBound(t *testing.T) {
	r := screentest.NewStatusRig(t)
	ids := boundIDs(0, follow.MaxFollowed+3)
	kept := make([]follow.Kept, len(ids))
	for i, id := range ids {
		kept[i] = follow.Kept{QuoteID: id}
	}
	if err := (&follow.WatchFile{Path: kit.WatchlistPath(r.App), Env: r.App.Target.Env.Name}).Append(kept, nil); err != nil {
		t.Fatal(err)
	}
	br, _ := loadOnly(t, r)
	said := safetext.Capitalized((&follow.TooManyError{Refused: 3}).Error())
	if _, last := br.b.rows[ids[follow.MaxFollowed-1]]; len(br.b.rows) != follow.MaxFollowed || !last || br.b.err == nil || !strings.Contains(br.b.err.Error(), said) {
		t.Fatalf("a file of %d ids: %d rows, said %v", len(ids), len(br.b.rows), br.b.err)
	}
}

// TestBoardSaysAFoundIDLeftOff: a transfer id pasted into a full board is
// said as the quote id it names and as not added, never as found alone
// ("transfer id tx-… is q-…"), which read as a row the board holds; one
// asked as the quote id it may be is said as not added alike.
func TestBoardSaysAFoundIDLeftOff(t *testing.T) {
	r := screentest.NewStatusRig(t)
	br := newBoardRig(t, r)
	br.run(br.b.addText(strings.Join(boundIDs(0, follow.MaxFollowed), "\n")))
	br.b.known.AddWithdrawal(exchange.Withdrawal{QuoteID: "q-bound-left-off", TxID: "tx-boundleftoff1"})
	br.toasts = nil
	br.run(br.b.addText("tx-boundleftoff1"))
	want := "transfer id tx-boundleftoff1 is withdrawal q-bound-left-off, not added: the board is full"
	if _, on := br.b.rows["q-bound-left-off"]; on || len(br.toasts) != 1 || br.toasts[0] != want {
		t.Fatalf("a transfer id pasted into a full board: on it %t, said %q; want %q", on, br.toasts, want)
	}
	// One asked as the quote id it may be (a SOLANA payout hash's shape
	// not seen here) is said as not added either.
	sig := make([]byte, 64)
	for i := range sig {
		sig[i] = byte(i*13 + 2)
	}
	br.toasts = nil
	br.run(br.b.addText(base58.Encode(sig)))
	if _, on := br.b.rows[base58.Encode(sig)]; on || len(br.toasts) != 1 || !strings.HasSuffix(br.toasts[0], "was not added as the quote id it may be: the board is full") {
		t.Fatalf("a SOLANA payout hash's shape pasted into a full board: on it %t, said %q", on, br.toasts)
	}
	// Room made, the same paste is found and added.
	br.run(br.b.drop([]*boardRow{br.b.rows[boundIDs(0, 1)[0]]}, "Removed 1"))
	br.toasts = nil
	br.run(br.b.addText("tx-boundleftoff1"))
	want = "transfer id tx-boundleftoff1 is withdrawal q-bound-left-off"
	if _, on := br.b.rows["q-bound-left-off"]; !on || len(br.toasts) != 1 || br.toasts[0] != want {
		t.Fatalf("a transfer id pasted beside room: on it %t, said %q; want %q", on, br.toasts, want)
	}
}

// TestBoardFoundOwnSecretNotSaid: a transfer id a planted board file gives
// the session's API key as its quote id is said as not seen, never as the
// key it names; it was said as found ("transfer id tx-… is <the key>").
func TestBoardFoundOwnSecretNotSaid(t *testing.T) {
	r := screentest.NewStatusRig(t)
	br := newBoardRig(t, r)
	br.b.known.AddWithdrawal(exchange.Withdrawal{QuoteID: sandbox.DemoAPIKey + "1", TxID: "tx-plantedkey1"})
	br.toasts = nil
	br.run(br.b.addText("tx-plantedkey1"))
	if said := fmt.Sprint(br.toasts, br.b.err, br.plain()); strings.Contains(said, sandbox.DemoAPIKey) || !strings.Contains(said, "tx-plantedkey1 was not found") {
		t.Fatalf("a transfer id naming the API key: %s", strings.ReplaceAll(said, sandbox.DemoAPIKey, "<the API key>"))
	}
}
