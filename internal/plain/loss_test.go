package plain

import (
	"strings"
	"testing"

	"github.com/svcwallet/svcwallet/service/sandbox"
)

// withdraw2 withdraws 2 USDT to the paying demo payee on ARBITRUM with no
// fee cap, up to the confirmation: the sandbox's 1.5 USDT fee is 75%.
var withdraw2 = typed("withdraw", "ARBITRUM", "USDT", sandbox.DestCompleted, "2", "none")

// TestHighLossWarned: the review says the loss's share of the amount, and
// warns of one above 5% (withdrawal.Loss.High), with no second question
// below half: one y signs it.
func TestHighLossWarned(t *testing.T) {
	r := newRig(t)
	out, err := r.run(steps(logIn, withdraw25, typed("y"), []scripted{after("COMPLETED: ", "quit")})...)
	if err != nil {
		t.Fatal(err)
	}
	wants(t, out, "  You lose: 1.5 USDT, 6% of the amount (pay − receive, the fee included)\n",
		"Warning: More than 5% of the amount goes to fees: you lose 1.5 USDT of the 25 USDT you pay (6%).\nEnvironment: ")
	if strings.Contains(out, "Type yes") {
		t.Errorf("a second question for a loss of 6%%:\n%s", out)
	}
	if n := r.intents(); n != 1 {
		t.Errorf("%d withdrawals journaled, want 1", n)
	}
}

// TestSevereLossAsksAgain: a loss of most of the amount
// (withdrawal.AcceptsLoss's ErrSevereLoss) is warned of, and after the y
// a second question says what is lost: only a typed yes signs; a y out of
// habit, or an empty line, signs and sends nothing.
func TestSevereLossAsksAgain(t *testing.T) {
	for _, no := range []string{"y", "", "sure"} {
		r := newRig(t)
		out, err := r.run(steps(logIn, withdraw2, typed("y", no, "Back home", "quit"))...)
		if err != nil {
			t.Fatal(err)
		}
		wants(t, out, "  You lose: 1.5 USDT, 75% of the amount (pay − receive, the fee included)\n",
			"Warning: Most of this withdrawal goes to fees: you lose 1.5 USDT of the 2 USDT you pay (75%). A second question asks you to confirm it.\n",
			"You lose 1.5 USDT, 75% of the amount, to fees. Withdraw all the same? Type yes if so, anything else stops: Not signed: nothing was signed or sent.\n",
			"Goodbye: nothing was signed or sent.")
		if n := r.intents(); n != 0 {
			t.Errorf("answer %q: %d withdrawals journaled, want none", no, n)
		}
	}
	r := newRig(t)
	out, err := r.run(steps(logIn, withdraw2, typed("y", "YES"), []scripted{after("COMPLETED: ", "quit")})...)
	if err != nil {
		t.Fatal(err)
	}
	wants(t, out, "Withdraw all the same? Type yes if so, anything else stops: Signing and sending the withdrawal", "SENDING → COMPLETED")
	if n := r.intents(); n != 1 {
		t.Errorf("%d withdrawals journaled after yes, want 1", n)
	}
}

// TestConvertingReviewSaysBoth: a USDT → USDC withdrawal's review says
// the USDC received is converted and that the loss is the fee, in the fact
// and the warning; what it ends with names the USDC received. The sandbox
// pays 23.5 × 1.0002 USDC of 25 USDT (sandbox.USDCPerUSDT), above 1:1.
func TestConvertingReviewSaysBoth(t *testing.T) {
	r := newRig(t)
	out, err := r.run(steps(logIn, typed("withdraw", "ARBITRUM", "USDC", sandbox.DestCompleted, "25", "none", "y"), []scripted{after("COMPLETED: ", "quit")})...)
	if err != nil {
		t.Fatal(err)
	}
	wants(t, out, "  You pay: 25 USDT (from the funding account)\n", "  You receive: 23.5047 USDC on ARBITRUM (the bridge converts USDT to USDC)\n",
		"  You lose: 1.5 USDT, 6% of the amount (the fee; the bridge converts the remaining 23.5 USDT to 23.5047 USDC)\n",
		"Warning: More than 5% of the amount goes to fees: you lose 1.5 USDT of the 25 USDT you pay (6%), all of it the fee.\n",
		"Sign and withdraw 25 USDT (23.5047 USDC received) to "+sandbox.DestCompleted+" on ARBITRUM, in environment sandbox?", "  Receive: 23.5047 USDC\n")
}
