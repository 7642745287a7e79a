package kit

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/svcwallet/svcwallet/signer"
)

// TestASignatureAfterTheEndSaidNothingSentIsRefused: a send whose key is
// still signing when the end stops waiting is said to have sent nothing;
// the signature that comes afterwards is refused, and a later one is never
// asked of the key, so what was said stays true.
func TestASignatureAfterTheEndSaidNothingSentIsRefused(t *testing.T) {
	key := &heldKey{asked: make(chan struct{}, 2), release: make(chan struct{})}
	var ss Sends
	s := &Sending{What: "the withdrawal of quote q-1", Check: "check it"}
	k := s.Signed(key)
	signed := make(chan error, 1)
	go ss.Sent(s, func() {
		_, err := k.SignTypedData(context.Background(), signer.Domain{}, nil)
		signed <- err
	})
	<-key.asked
	_, _, left := (&Deps{Sends: &ss}).Ended(10 * time.Millisecond)
	if left == nil || !strings.Contains(left.Error(), "the console ended before the withdrawal of quote q-1 was signed: nothing was sent") {
		t.Fatalf("a send still signing at the end is said %v", left)
	}
	close(key.release)
	if err := <-signed; err == nil {
		t.Fatal("a signature made after the end said nothing was sent was given to the send")
	}
	if _, err := k.SignTypedData(context.Background(), signer.Domain{}, nil); err == nil || len(key.asked) != 0 {
		t.Errorf("a signature asked after the end: %v, the key asked %d more times", err, len(key.asked))
	}
}

// heldKey signs once released, saying on asked each time it is asked.
type heldKey struct {
	asked, release chan struct{}
}

func (k *heldKey) Address() common.Address { return common.Address{} }

func (k *heldKey) SignTypedData(context.Context, signer.Domain, signer.Message) ([65]byte, error) {
	k.asked <- struct{}{}
	<-k.release
	return [65]byte{1}, nil
}
