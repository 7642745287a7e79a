package withdrawal_test

import (
	"context"
	"errors"
	"path/filepath"
	"testing"

	"github.com/svcwallet/svcwallet/internal/loopback"
	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/journal"
	"github.com/svcwallet/svcwallet/service/sandbox"
	"github.com/svcwallet/svcwallet/service/withdrawal"
	"github.com/svcwallet/svcwallet/signer"
)

// TestNoWithdrawerSignsWithoutAJournal: a Withdrawer that may sign is not
// made without a journal (a journal that could not be opened), and one made
// for a dry run, or never made by NewWithdrawer, refuses to sign or
// prepare: no key is loaded, no request leaves, nothing is journaled.
func TestNoWithdrawerSignsWithoutAJournal(t *testing.T) {
	w := newWorld(t, sandbox.Options{})
	rec := &loopback.Recorder{}
	c := w.Login(sandbox.DemoAPIKey, exchange.Options{HTTPClient: rec.HTTPClient()})
	if _, err := withdrawal.NewWithdrawer(withdrawal.Setup{Client: c, Now: w.Clock.Now}); !errors.Is(err, withdrawal.ErrNoJournal) {
		t.Fatalf("made without a journal: err %v, want ErrNoJournal", err)
	}
	j, err := journal.Open(filepath.Join(t.TempDir(), "journal.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	dry := mustWithdrawer(t, withdrawal.Setup{Client: c, Now: w.Clock.Now, DryRun: true})
	dryWithJournal := mustWithdrawer(t, withdrawal.Setup{Client: c, Journal: j, Now: w.Clock.Now, DryRun: true})
	loads := 0
	key := func() (signer.Key, error) { loads++; return loopback.MustKey(t, sandbox.DemoPrivateKey), nil }
	for name, wd := range map[string]withdrawal.Withdrawer{"a dry run's": dry, "a dry run's with a journal": dryWithJournal, "the zero one": {}} {
		if sent := wd.Execute(context.Background(), w.order(c), key); sent.Err == nil {
			t.Errorf("%s Withdrawer executed: %+v", name, sent)
		}
		if _, err := wd.Prepare(context.Background(), w.order(c), loopback.MustKey(t, sandbox.DemoPrivateKey).Address()); err == nil {
			t.Errorf("%s Withdrawer prepared a Transfer", name)
		}
	}
	if entries, err := j.Entries(); loads != 0 || rec.Count(exchange.PathWithdraw) != 0 || err != nil || len(entries) != 0 {
		t.Fatalf("%d keys loaded, %d withdraw requests, %d journal lines (%v): want none", loads, rec.Count(exchange.PathWithdraw), len(entries), err)
	}
}
