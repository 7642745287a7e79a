//go:build e2e && unix

package cli

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/svcwallet/svcwallet/service/intent"
	"github.com/svcwallet/svcwallet/service/sandbox"
)

// TestTmuxPastedAnswerDoesNotSign: at a question that signs, plain mode's
// and `withdraw`'s without --yes, a "y" and Enter pasted by tmux once the
// review has been read (after the dwell), as plain text and bracketed, are
// refused as a paste and nothing is signed; y then Enter typed as two keys
// signs.
func TestTmuxPastedAnswerDoesNotSign(t *testing.T) {
	r := newWithdrawRig(t, sandbox.Options{})
	r.must("set-buffer", "-b", "answer", "y\n")
	pasteAnswer := func(question, balance string) {
		t.Helper()
		refused := strings.Count(r.pane(), "that answer came as a paste")
		time.Sleep(intent.ReviewDwell) // the review read: the paste comes after the dwell
		for _, bracketed := range []bool{false, true} {
			args := []string{"paste-buffer", "-b", "answer", "-t", "main"}
			if bracketed {
				args = append(args, "-p")
			}
			before := strings.Count(r.pane(), question)
			r.must(args...)
			r.waitFor("the question asked again", func() bool { return strings.Count(r.pane(), question) > before })
		}
		if n := strings.Count(r.pane(), "that answer came as a paste") - refused; n != 2 {
			t.Fatalf("%d pastes refused, want 2:\n%s", n, r.pane())
		}
		if b := r.srv.Exchange.Balance(sandbox.DemoAccountID); b.String() != balance {
			t.Fatalf("a pasted y signed: balance %s\n%s", b, r.pane())
		}
		time.Sleep(intent.ReviewDwell) // the question asked again, read
		r.typedAt(question, "y", "Enter")
		r.waitShows("Withdrawal accepted")
	}

	plain := fmt.Sprintf("env %s TERM=dumb SVCWALLET_PRIVATE_KEY=%s %s --plain --env rig", r.homeEnv(), sandbox.DemoPrivateKey, r.bin)
	r.must("respawn-pane", "-k", "-t", "main", plain)
	for _, step := range [][2]string{{"How do you log in?", "API key"}, {"API key (not shown", sandbox.DemoAPIKey},
		{"Home: what next?", "Withdraw USDT"}, {"to which chain?", "ARBITRUM"}, {"Which token is paid out", "USDT"},
		{"Destination address on ARBITRUM", sandbox.DestCompleted}, {"Amount of USDT to pay", "25"}, {"Fee cap in USDT", "none"}} {
		r.waitShows(step[0])
		r.keys("-l", step[1])
		r.keys("Enter")
	}
	r.waitShows("[y/n]")
	pasteAnswer("[y/n]", "10000")
	if b := r.srv.Exchange.Balance(sandbox.DemoAccountID); b.String() != "9975" {
		t.Errorf("plain mode: balance %s after one withdrawal", b)
	}

	withdraw := fmt.Sprintf("env %s SVCWALLET_PRIVATE_KEY=%s %s withdraw --chain arbitrum --to %s --amount 20",
		r.homeEnv(), sandbox.DemoPrivateKey, r.bin, sandbox.DestCompleted)
	r.must("respawn-pane", "-k", "-t", "main", withdraw)
	r.waitShows("? [y/N]") // the question that signs
	pasteAnswer("? [y/N]", "9975")
}
