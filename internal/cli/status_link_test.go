package cli

import (
	"bytes"
	"strings"
	"testing"

	"github.com/mr-tron/base58"

	"github.com/svcwallet/svcwallet/service/follow"
	"github.com/svcwallet/svcwallet/service/sandbox"
)

// TestStatusFindsAnExplorerLink: a customer pastes the explorer's link to
// the payout; status (an argument or a line of -) finds the withdrawal by
// the hash the link ends with, as by the hash alone, and sends only its
// quote id. It was refused as a private key, told to put 0x in front of a
// hash that had it. A key elsewhere in a link is still refused.
func TestStatusFindsAnExplorerLink(t *testing.T) {
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	r := newStatusRig(t)
	done, w := r.paidOut(t)
	onBoard(t, w)
	r.takeAsks()
	link := "https://arbiscan.io/tx/" + w.WithdrawTxHash
	r.run(nil, link).want(t, exitCompleted, []string{"Quote id     " + done}, nil)
	r.runStdin(link+"\n", "-").want(t, exitCompleted, []string{done}, nil)
	if n := len(r.takeAsks()); n != 2 {
		t.Errorf("%d status requests, want the quote id's, once a run", n)
	}
	key := strings.TrimPrefix(sandbox.DemoPrivateKey, "0x")
	r.run(nil, "https://arbiscan.io/address/0x"+key+"/tx/"+w.WithdrawTxHash).want(t, exitUsage, nil, []string{"refusing a private key"})
	if n := len(r.takeAsks()); n != 0 {
		t.Errorf("%d status requests for a link holding a key", n)
	}
}

// TestStatusNeverAsksALinkedSolanaSignature: a SOLANA signature read from
// an explorer's link (an argument or a line of -) is a transaction's, never
// a quote id: one not seen here is said as not seen, and asks nothing. It
// was asked as a quote id, as a bare one is, so part of the link was sent.
func TestStatusNeverAsksALinkedSolanaSignature(t *testing.T) {
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	r := newStatusRig(t)
	r.takeAsks()
	link := "https://solscan.io/tx/" + base58.Encode(bytes.Repeat([]byte{0xfe}, 64)) + "?cluster=devnet"
	r.run(nil, link).want(t, exitNotFound, nil, []string{"was not found"})
	r.runStdin(link+"\n", "-").want(t, exitNotFound, nil, []string{"was not found"})
	if asks := r.takeAsks(); len(asks) != 0 {
		t.Errorf("a linked SOLANA signature not seen was asked: %q", asks)
	}
}

// TestStatusRefusedLinkAdvisesTheHashAlone: a link on the command line
// refused for a private key's shape is advised to be given as its hash
// alone, not to put 0x in front of a hash that has it; a TRON explorer's,
// whose hash is bare, to give the hash with 0x in front.
func TestStatusRefusedLinkAdvisesTheHashAlone(t *testing.T) {
	r := newStatusRig(t)
	hash := "0x" + strings.Repeat("5f0c9e1b", 8)
	res := r.run(nil, "https://user:pw@arbiscan.io/tx/"+hash)
	res.want(t, exitUsage, nil, []string{follow.LinkAdvice})
	if strings.Contains(res.stderr, "0x in front") {
		t.Errorf("a link advised to take 0x:\n%s", res.stderr)
	}
	// A TRON explorer's link ends with the hash bare, refused alone too:
	// its advice is the 0x that finds it, not the hash alone.
	r.run(nil, "https://tronscan.org/#/transaction/"+hash[2:]).want(t, exitUsage, nil, []string{follow.TronLinkAdvice})
}
