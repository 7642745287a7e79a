package cli

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/svcwallet/svcwallet/service/sandbox"
)

// TestWithdrawMostlyFee: a loss above 5% of the amount is warned of on
// stderr and in the JSON review's warnings; above 50% --yes alone signs
// nothing (--accept-loss must cover it, a larger loss is refused), and on
// a terminal a second question is asked; nothing is sent until it is
// answered yes (issue 28 item 1). The sandbox takes 1.5 USDT of any
// amount: 6% of 25, 93.75% of 1.6.
func TestWithdrawMostlyFee(t *testing.T) {
	r := newJournalingRig(t)
	severe := func(extra ...string) []string { return withdrawArgs(sandbox.DestCompleted, "1.6", extra...) }
	const warned = "warning: most of this withdrawal goes to fees: you lose 1.5 USDT of the 1.6 USDT you pay (93.8%)"

	dry := r.runWithdraw(withdrawRunOpts{}, severe("--dry-run", "--json")...)
	dry.want(t, 0, warned)
	var review struct {
		Kind     string   `json:"kind"`
		Warnings []string `json:"warnings"`
	}
	if err := json.Unmarshal([]byte(dry.stdout), &review); err != nil || review.Kind != "review" || len(review.Warnings) != 1 ||
		!strings.HasSuffix(warned, lowerFirst(review.Warnings[0])) {
		t.Errorf("review %+v (%v):\n%s", review, err, dry.stdout)
	}

	r.runWithdraw(withdrawRunOpts{}, severe("--yes")...).want(t, exitFailed, warned,
		"most of the amount goes to fees, which --yes alone does not sign; add --accept-loss 93.8", "nothing was signed or sent")
	r.runWithdraw(withdrawRunOpts{}, severe("--yes", "--accept-loss", "90")...).want(t, exitFailed, "above the 90% of --accept-loss")
	r.runWithdraw(withdrawRunOpts{}, severe("--yes", "--accept-loss", "lots")...).want(t, exitUsage, "--accept-loss")
	r.runWithdraw(withdrawRunOpts{terminal: true, stdin: "y\nn\n"}, severe()...).want(t, exitFailed,
		"You lose 1.5 USDT, 93.8% of the amount, to fees. Withdraw all the same? [y/N]", "not confirmed")
	r.runWithdraw(withdrawRunOpts{terminal: true, stdin: "y\n"}, severe()...).want(t, exitFailed, "not confirmed")
	out := filepath.Join(t.TempDir(), "transfer.json")
	r.runWithdraw(withdrawRunOpts{}, severe("--signer", "offline", "--account", demoSigner, "--out", out)...).want(t, exitFailed,
		"which is not prepared without --accept-loss; add --accept-loss 93.8")
	if n := r.withdraws.Load(); n != 0 {
		t.Fatalf("%d withdraw requests before the loss was accepted", n)
	}
	r.wantBalance("10000")

	r.runWithdraw(withdrawRunOpts{terminal: true, stdin: "y\ny\n"}, severe()...).want(t, 0, "Withdrawal accepted")
	r.runWithdraw(withdrawRunOpts{}, severe("--yes", "--accept-loss", "93.8", "--allow-repeat")...).want(t, 0, "Withdrawal accepted")
	r.wantBalance("9996.8")

	// 6%: warned of, asked once.
	mild := r.runWithdraw(withdrawRunOpts{terminal: true, stdin: "y\n"}, withdrawArgs(sandbox.DestCompleted, "25")...)
	mild.want(t, 0, "warning: more than 5% of the amount goes to fees: you lose 1.5 USDT of the 25 USDT you pay (6%)", "1.5 USDT, 6% of the amount  pay − receive, the fee included")
	if strings.Contains(mild.stderr, "all the same") {
		t.Errorf("a 6%% loss asked twice:\n%s", mild.stderr)
	}
	// On a terminal it is said once, between the review and the question,
	// where it is read before the answer.
	head, warn, ask := strings.Index(mild.stderr, "Withdrawal\n"), strings.Index(mild.stderr, "warning: more than 5%"), strings.Index(mild.stderr, withdrawAsked)
	if strings.Count(mild.stderr, "warning: more than 5%") != 1 || head < 0 || warn < head || ask < warn {
		t.Errorf("the warning is not said once between the review and the question:\n%s", mild.stderr)
	}
}

// TestWithdrawConvertingSaysBoth: a USDT → USDC withdrawal's review says
// what is paid in USDT, what is received in USDC and what its loss is, on
// the terminal, in --json and in a refused loss; the sandbox pays USDC at
// 1.0002 (sandbox.USDCPerUSDT): 23.5 × 1.0002 of 25 USDT, above 1:1, so
// the loss is the fee, the conversion's gain not counted against it.
func TestWithdrawConvertingSaysBoth(t *testing.T) {
	r := newJournalingRig(t)
	r.runWithdraw(withdrawRunOpts{}, withdrawArgs(sandbox.DestCompleted, "25", "--token-out", "USDC", "--dry-run")...).want(t, 0,
		"25 USDT", "23.5047 USDC on ARBITRUM  the bridge converts USDT to USDC", "1.5 USDT",
		"1.5 USDT, 6% of the amount  the fee; the bridge converts the remaining 23.5 USDT to 23.5047 USDC",
		"warning: more than 5% of the amount goes to fees: you lose 1.5 USDT of the 25 USDT you pay (6%), all of it the fee")

	dry := r.runWithdraw(withdrawRunOpts{}, withdrawArgs(sandbox.DestCompleted, "25", "--token-out", "USDC", "--dry-run", "--json")...)
	type amounts struct {
		TokenIn       string `json:"token_in"`
		TokenOut      string `json:"token_out"`
		ReceiveAmount string `json:"receive_amount"`
		YouLose       string `json:"you_lose"`
		YouLoseValued string `json:"you_lose_valued"`
	}
	var review amounts
	if err := json.Unmarshal([]byte(dry.stdout), &review); err != nil || review != (amounts{"USDT", "USDC", "23.5047", "1.5", ""}) {
		t.Errorf("review %+v (%v):\n%s", review, err, dry.stdout)
	}
	if same := r.runWithdraw(withdrawRunOpts{}, withdrawArgs(sandbox.DestCompleted, "25", "--dry-run", "--json")...); strings.Contains(same.stdout, "you_lose_valued") {
		t.Errorf("a USDT payout's review values a conversion:\n%s", same.stdout)
	}

	r.runWithdraw(withdrawRunOpts{}, withdrawArgs(sandbox.DestCompleted, "1.6", "--token-out", "USDC", "--yes")...).want(t, exitFailed,
		"you would lose 1.5 USDT (the fee) of the 1.6 USDT paid (93.8%)")
	r.wantBalance("10000")
}

// TestWarningsReadOneStyle: a command's warnings read in lower case after
// "warning:", as its errors do, whatever the service's sentence begins
// with; a name in capitals, a path (a drive letter) or an id keeps them:
// the lowering never changes a name.
func TestWarningsReadOneStyle(t *testing.T) {
	for in, want := range map[string]string{
		"More than 5% of the amount goes to fees":          "svcwallet withdraw: warning: more than 5% of the amount goes to fees\n",
		"An earlier withdrawal of 14 USDT":                 "svcwallet withdraw: warning: an earlier withdrawal of 14 USDT\n",
		"USDT is paid":                                     "svcwallet withdraw: warning: USDT is paid\n",
		"the session could not be kept":                    "svcwallet withdraw: warning: the session could not be kept\n",
		"A withdrawal's journal":                           "svcwallet withdraw: warning: a withdrawal's journal\n",
		`C:\Users\u\x.json, written by an earlier version`: `svcwallet withdraw: warning: C:\Users\u\x.json, written by an earlier version` + "\n",
		"Q-1A was made":                                    "svcwallet withdraw: warning: Q-1A was made\n",
		"Base.json is kept":                                "svcwallet withdraw: warning: Base.json is kept\n",
		"":                                                 "svcwallet withdraw: warning: \n",
	} {
		var b strings.Builder
		warn(&b, "svcwallet withdraw", "%s", in)
		if b.String() != want {
			t.Errorf("%q warned as %q, want %q", in, b.String(), want)
		}
	}
}

// withdrawAsked ends the question that signs a withdrawal to ARBITRUM on
// the rigs' environment, local, which it names: not production.
const withdrawAsked = " on ARBITRUM, in environment local? [y/N]"
