//go:build unix

package kit

import (
	"context"
	"net"
	"os"
	"path/filepath"
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
		t.Fatal(err)
	}
	c.Close()
	cancel() // as the console's context ends at quit
	if journal, board := (&Deps{Running: &running}).Ended(time.Minute); journal != nil || board != nil {
		t.Fatal(journal, board)
	}
	if left, _ := os.ReadDir(tmp); len(left) != 0 {
		t.Fatalf("the end left %s in TMPDIR: the signing command was not waited for", left[0].Name())
	}
	<-signed
}
