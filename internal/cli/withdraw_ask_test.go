package cli

import (
	"strings"
	"testing"

	"github.com/svcwallet/svcwallet/service/sandbox"
)

// TestWithdrawAsksMissingFlags: on a terminal, the --chain, --to and
// --amount not given are asked for on stderr, one a line as plain mode
// asks them (an amount checked as typed, an empty line asking again),
// then the withdrawal goes on as if they were given; without a terminal
// a missing flag is still a usage error, and nothing is asked.
func TestWithdrawAsksMissingFlags(t *testing.T) {
	r := newJournalingRig(t)
	res := r.runWithdraw(withdrawRunOpts{terminal: true, stdin: "arbitrum\n\n" + sandbox.DestCompleted + "\n25 USDT\n25\ny\n"})
	res.want(t, exitCompleted, "Destination chain (ARBITRUM, BASE, BSC, KAIA, POLYGON, TRON or SOLANA): ",
		"Destination address on ARBITRUM (an EVM address from the account's withdrawal address book): ",
		"Amount of USDT to pay (such as 25 or 25.5): Not accepted: ", "Withdrawal accepted (SUBMITTED)")
	if n := strings.Count(res.stderr, "Destination address on ARBITRUM"); n != 2 {
		t.Errorf("the destination was asked %d times, want 2 (an empty line asks again):\n%s", n, res.stderr)
	}
	if strings.Contains(res.stdout, "Destination chain") {
		t.Errorf("a question on stdout:\n%s", res.stdout)
	}
	r.runWithdraw(withdrawRunOpts{terminal: true, stdin: "arbitrum\n"}, "--amount", "25").
		want(t, exitUsage, "give --to, the destination address")
	res = r.runWithdraw(withdrawRunOpts{stdin: "arbitrum\n"}, "--to", sandbox.DestCompleted, "--amount", "25")
	res.want(t, exitUsage, "give --chain, the destination chain")
	if strings.Contains(res.stderr, "Destination chain (") {
		t.Errorf("asked without a terminal:\n%s", res.stderr)
	}
	if n := r.withdraws.Load(); n != 1 {
		t.Errorf("%d withdraw requests, want 1", n)
	}
}

// TestWithdrawAskedChainChecked: on a terminal, a chain typed at the
// question is checked against the service's routes as typed
// (withdrawal.RouteTo): an unknown one is refused naming the chains, and
// asked again before the address; an address not of that chain is asked
// again too. A --chain the routes lack is refused at once, with nothing
// asked.
func TestWithdrawAskedChainChecked(t *testing.T) {
	r := newJournalingRig(t)
	res := r.runWithdraw(withdrawRunOpts{terminal: true, stdin: "dogecoin\narbitrum\nTXYZ\n" + sandbox.DestCompleted + "\n25\ny\n"})
	res.want(t, exitCompleted, `Destination chain (ARBITRUM, BASE, BSC, KAIA, POLYGON, TRON or SOLANA): Not accepted: "dogecoin" is not a USDT withdrawal chain; the chains are: ARBITRUM, BASE, BSC, KAIA, POLYGON, TRON, SOLANA.
Destination chain (ARBITRUM, BASE, BSC, KAIA, POLYGON, TRON or SOLANA): Destination address on ARBITRUM`,
		"Destination address on ARBITRUM (an EVM address from the account's withdrawal address book): Not accepted: ", "Withdrawal accepted (SUBMITTED)")
	if n := strings.Count(res.stderr, "Destination address on ARBITRUM"); n != 2 {
		t.Errorf("the destination was asked %d times, want 2 (one not of the chain asks again):\n%s", n, res.stderr)
	}
	res = r.runWithdraw(withdrawRunOpts{terminal: true, stdin: sandbox.DestCompleted + "\n25\ny\n"}, "--chain", "dogecoin")
	res.want(t, exitUsage)
	if !strings.Contains(res.stderr, `--chain "dogecoin" is not a USDT withdrawal chain of local; its chains are: ARBITRUM, BASE`) ||
		strings.Contains(res.stderr, "Destination address") || strings.Contains(res.stderr, "Amount of USDT") {
		t.Errorf("an unknown --chain was not refused before the questions:\n%s", res.stderr)
	}
	if n := r.withdraws.Load(); n != 1 {
		t.Errorf("%d withdraw requests, want 1", n)
	}
}

// TestWithdrawAskedDestinationOnTheSandbox: on the embedded sandbox the
// destination's question names the book's address of the chain that pays
// out, and where the others are listed: a first `svcwallet withdraw` on a
// fresh machine asked for an address from a book nothing had shown.
func TestWithdrawAskedDestinationOnTheSandbox(t *testing.T) {
	r := newJournalingRig(t)
	res := r.runWithdraw(withdrawRunOpts{terminal: true, stdin: "tron\n" + sandbox.DestTron + "\n25\ny\n"}, "--env", "sandbox")
	res.want(t, exitCompleted, "Destination address on TRON (a Tron address from the account's withdrawal address book; on the sandbox "+
		sandbox.DestTron+" pays out, and `svcwallet sandbox` prints the others): ", "Withdrawal accepted (SUBMITTED)")
	res = r.runWithdraw(withdrawRunOpts{terminal: true, stdin: "arbitrum\n" + sandbox.DestCompleted + "\n25\ny\n"})
	if strings.Contains(res.stderr, "on the sandbox") {
		t.Errorf("another environment's question names the sandbox's book:\n%s", res.stderr)
	}
}
