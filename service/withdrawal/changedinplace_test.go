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
	"github.com/svcwallet/svcwallet/signer"
)

// TestJournalChangedInPlaceSendsNothing: a withdrawal gets no answer; more
// are made; the journal is then rewritten in place (an editor writing into
// the same file, a copy over it), as long and ending in the same 4 KiB,
// with the unanswered one's intent no longer an intent. The identical
// withdrawal is refused before it is signed, naming the one lost, and
// nothing is sent.
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
	changeIntentInPlace(t, r.journal.Path(), o.Quote.QuoteID)
	sentBefore, loads := r.withdraws.Load(), 0
	key := func() (signer.Key, error) { loads++; return demoKey() }
	sent := r.withdrawer().Execute(context.Background(), r.order(r.choice(sandbox.DestCompleted, "25")), key)
	var lost *journal.RolledBackError
	if !errors.As(sent.Err, &lost) || !lost.Changed || len(lost.Missing) != 1 || lost.Missing[0].QuoteID != o.Quote.QuoteID {
		t.Fatalf("on a journal changed in place: %v, want it refused naming %s lost", sent.Err, o.Quote.QuoteID)
	}
	if n := r.withdraws.Load() - sentBefore; n != 0 || loads != 0 {
		t.Fatalf("%d keys loaded, %d withdraw requests sent on a journal changed in place", loads, n)
	}
}

// changeIntentInPlace rewrites the journal at path in place, as long, the
// intent of quoteID made a line of an unknown kind; it must lie more than
// 8 KiB before the end.
func changeIntentInPlace(t *testing.T, path, quoteID string) {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	at := bytes.Index(raw, []byte(quoteID))
	if at < 0 {
		t.Fatal("no line of the lost withdrawal")
	}
	from := bytes.LastIndexByte(raw[:at], '\n') + 1
	kind := bytes.Index(raw[from:], []byte(`"kind":"intent"`))
	if kind < 0 || len(raw)-from < 8<<10 {
		t.Fatal("no intent of the lost withdrawal 8 KiB before the journal's end")
	}
	copy(raw[from+kind:], `"kind":"xxxxxx"`)
	if err := os.WriteFile(path, raw, 0o600); err != nil {
		t.Fatal(err)
	}
}

// TestJournalChangedWhileSigningIsStillNoticed: the journal is rewritten
// in place, as long and ending as it did, its unanswered withdrawal's
// intent gone, while another withdrawal is signed (after the check made
// once the person answered, before the send). That one goes; the record
// of what was written, brought up after its intent, must not take the
// rewrite as written: the identical withdrawal of the one lost is then
// refused before it is signed.
func TestJournalChangedWhileSigningIsStillNoticed(t *testing.T) {
	r := newRig(t, 0, false)
	o, _ := r.lostWithdrawal()
	r.holding.Store(false)
	for i := range 6 {
		done := r.order(r.choice(sandbox.DestCompleted, fmt.Sprint(11+i)))
		if sent := r.withdrawer().Execute(context.Background(), done, demoKey); sent.Err != nil {
			t.Fatal(sent.Err)
		}
	}
	change := func() (signer.Key, error) {
		changeIntentInPlace(t, r.journal.Path(), o.Quote.QuoteID)
		return demoKey()
	}
	if sent := r.withdrawer().Execute(context.Background(), r.order(r.choice(sandbox.DestCompleted, "31")), change); sent.Err != nil {
		t.Logf("the other withdrawal: %v", sent.Err)
	}
	sentBefore := r.withdraws.Load()
	sent := r.withdrawer().Execute(context.Background(), r.order(r.choice(sandbox.DestCompleted, "25")), demoKey)
	var lost *journal.RolledBackError
	if !errors.As(sent.Err, &lost) || !lost.Changed {
		t.Errorf("the identical withdrawal on a journal changed while another was signed: %v, want it refused as changed", sent.Err)
	}
	if n := r.withdraws.Load() - sentBefore; n != 0 {
		t.Fatalf("%d withdraw requests sent on a journal changed while another was signed", n)
	}
}
