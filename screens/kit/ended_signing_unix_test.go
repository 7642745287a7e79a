//go:build unix

package kit

import (
	"context"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/svcwallet/svcwallet/internal/exchangetest"
	"github.com/svcwallet/svcwallet/signer"
)

// TestEndedWaitsForASigningCommand: a signing command still running when
// the program ended (its context ended with it) is waited for at the
// console's end, within its one bound, so neither it nor its typed data
// file outlives the console.
func TestEndedWaitsForASigningCommand(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	running, end := signingHangs(t)
	end() // as the console's context ends at quit
	if journal, board, left := (&Deps{Running: running}).Ended(time.Minute); journal != nil || board != nil || left != nil {
		t.Fatal(journal, board, left)
	}
	if left, _ := os.ReadDir(tmp); len(left) != 0 {
		t.Fatalf("the end left %s in TMPDIR: the signing command was not waited for", left[0].Name())
	}
}

// TestEndedWritesWhileSigningEnds: the writes owed are made beside the
// wait for a signing command, not after it: one that ends slowly (its
// pipes held up to signer's WaitDelay) took the end's bound from them.
func TestEndedWritesWhileSigningEnds(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	running, end := signingHangs(t)
	var ws Writes
	started := make(chan struct{})
	ws.owe(false, func() error { close(started); return nil })
	ended := make(chan error, 1)
	go func() {
		journal, _, _ := (&Deps{Running: running, Writes: &ws}).Ended(time.Minute)
		ended <- journal
	}()
	select {
	case <-started:
	case <-time.After(30 * time.Second):
		t.Error("the journal's write waited for the signing command still running")
	}
	end()
	if err := <-ended; err != nil {
		t.Fatal(err)
	}
}

// signingHangs starts a signature by the fake signing command, which
// hangs once running; end kills it as the console's context does at quit.
func signingHangs(t *testing.T) (*signer.Running, func()) {
	t.Helper()
	sock := filepath.Join(t.TempDir(), "s")
	l, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	addr := exchangetest.KeyAddress(exchangetest.DemoKeyHex)
	var running signer.Running
	o := signer.Opening{Account: addr, SignCommand: exchangetest.FakeSignCommand("hang", sock, "{file}"), Start: signer.SignCommandStarter(false), Running: &running}
	op, err := o.Open(context.Background(), signer.Source{Kind: signer.SourceCommand})
	if err != nil {
		t.Fatal(err)
	}
	k, err := op.Load()
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	signed := make(chan error, 1)
	go func() {
		_, err := signer.Sign(ctx, k, signer.Domain{Name: "Service Exchange", ChainID: 327}, signer.WalletLogin{Signer: addr, Nonce: 1, Expiration: time.Now().Add(time.Minute).UnixNano()})
		signed <- err
	}()
	c, err := l.Accept() // the command is running, its file written
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	c.Close()
	t.Cleanup(func() {
		cancel()
		<-signed
	})
	return &running, cancel
}

// TestEndedSaysASigningCommandLeftRunning: a signing command still running
// at the end's bound (one a kill did not stop; no review's send, a
// login's) is said with what is known and what to do, not passed over.
func TestEndedSaysASigningCommandLeftRunning(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	running, _ := signingHangs(t) // its context never ends here
	_, _, left := (&Deps{Running: running}).Ended(50 * time.Millisecond)
	if left == nil || !strings.Contains(left.Error(), "a signing command was still making a signature when the console ended") || !strings.Contains(left.Error(), "nothing was sent with it; end it if it still runs") {
		t.Fatalf("a signing command left running is said %v", left)
	}
}
