package withdrawal_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"testing"

	"github.com/svcwallet/svcwallet/service/journal"
	"github.com/svcwallet/svcwallet/service/sandbox"
)

// TestJournalChangedInPlaceSendsNothing: a withdrawal gets no answer; more
// are made; the journal is then rewritten in place (an editor writing into
// the same file, a copy over it), as long and ending in the same 4 KiB,
// with the unanswered one's intent no longer an intent. The identical
// withdrawal is refused by the guard before it is sent: the journal is
// not what svcwallet wrote, and the withdrawal it lost is named.
func TestJournalChangedInPlaceSendsNothing(t *testing.T) {
	r := newRig(t, 0, false)
	o, _ := r.lostWithdrawal()
	r.holding.Store(false)
	for i := range 6 {
		done := r.order(r.choice(sandbox.DestCompleted, fmt.Sprint(11+i)))
		if sent := r.withdrawer().Execute(context.Background(), done, demoKey); sent.Err != nil {
			t.Fatal(sent.Err)
		}
	}
	raw, err := os.ReadFile(r.journal.Path())
	if err != nil {
		t.Fatal(err)
	}
	at := bytes.Index(raw, []byte(o.Quote.QuoteID))
	if at < 0 {
		t.Fatal("no line of the lost withdrawal")
	}
	from := bytes.LastIndexByte(raw[:at], '\n') + 1
	kind := bytes.Index(raw[from:], []byte(`"kind":"intent"`))
	if kind < 0 || len(raw)-from < 8<<10 {
		t.Fatal("no intent of the lost withdrawal 8 KiB before the journal's end")
	}
	changed := bytes.Clone(raw)
	copy(changed[from+kind:], `"kind":"xxxxxx"`)
	if err := os.WriteFile(r.journal.Path(), changed, 0o600); err != nil {
		t.Fatal(err)
	}
	sentBefore := r.withdraws.Load()
	sent := r.withdrawer().Execute(context.Background(), r.order(r.choice(sandbox.DestCompleted, "25")), demoKey)
	var lost *journal.RolledBackError
	if !errors.As(sent.Err, &lost) || !lost.Changed || len(lost.Missing) != 1 || lost.Missing[0].QuoteID != o.Quote.QuoteID {
		t.Fatalf("on a journal changed in place: %v, want it refused naming %s lost", sent.Err, o.Quote.QuoteID)
	}
	if n := r.withdraws.Load() - sentBefore; n != 0 {
		t.Fatalf("%d withdraw requests sent on a journal changed in place", n)
	}
}
