//go:build unix

package builder_test

import (
	"context"
	"os"
	"syscall"
	"testing"
	"time"

	"github.com/svcwallet/svcwallet/internal/osguard"
	"github.com/svcwallet/svcwallet/service/builder"
	"github.com/svcwallet/svcwallet/service/journal"
	"github.com/svcwallet/svcwallet/service/sandbox"
	"github.com/svcwallet/svcwallet/signer"
)

// TestBuilderWaitsForTheJournalsWriteLock: the check of the journal that
// guards a builder authorization the person answered, signed here or
// submitted with a signature made offline, waits for the journal's write
// lock without end while another process holds it, and the authorization
// is sent once it is let go. Given up after GiveUpAfter, it was refused
// for a lock another svcwallet held a while.
func TestBuilderWaitsForTheJournalsWriteLock(t *testing.T) {
	key := func() (signer.Key, error) { return signer.ParsePrivateKeyHex(sandbox.DemoPrivateKey) }
	for name, send := range map[string]func(*rig) func() error{
		"authorize": func(r *rig) func() error {
			a, err := builder.Check(builder.Input{Main: sandbox.DemoAddress, Builder: sandbox.BuilderAddress, FuturesFee: "0.1", SpotFee: "0.05"})
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(r.journal.Path(), nil, 0o600); err != nil { // a journal to check
				t.Fatal(err)
			}
			return func() error {
				_, _, err := builder.NewOrder(a, r.client.Env().Domain(), 1, r.clock.Now()).Authorize(context.Background(), r.client, r.journal, key)
				return err
			}
		},
		"submit": func(r *rig) func() error {
			p, sig := r.prepared(r.client.Env().Domain())
			return func() error {
				_, _, err := builder.Submit(context.Background(), r.client, r.journal, p, sig, r.clock.Now)
				return err
			}
		},
	} {
		t.Run(name, func(t *testing.T) {
			r := newRig(t)
			sent := send(r)
			other, err := os.OpenFile(journal.WrittenPath(r.journal.Path())+".lock", os.O_RDWR|os.O_CREATE, 0o600)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { other.Close() })
			if err := syscall.Flock(int(other.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
				t.Fatal(err)
			}
			ticks := 0
			t.Cleanup(osguard.SetLockWaits(osguard.LockWaits{After: func(d time.Duration) <-chan time.Time {
				if ticks++; time.Duration(ticks)*d == 2*osguard.GiveUpAfter {
					_ = syscall.Flock(int(other.Fd()), syscall.LOCK_UN)
				}
				ch := make(chan time.Time, 1)
				ch <- time.Time{}
				return ch
			}}))
			if err := sent(); err != nil || ticks == 0 || r.authors.Load() != 1 {
				t.Fatalf("the journal's write lock held past GiveUpAfter (%d ticks waited): %v, %d sent; want it waited for and the authorization sent", ticks, err, r.authors.Load())
			}
		})
	}
}
