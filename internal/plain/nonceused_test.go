package plain

import (
	"strings"
	"testing"

	"github.com/svcwallet/svcwallet/service/sandbox"
)

// TestNonceUsedSaysMostLikelyPaid: a withdrawal the service refuses for
// its Transfer's used nonce (4007; here a second one signed with the
// nonce of one already paid) is said most likely paid, in the words
// withdraw says, with no "What next?" offering a new quote, which signs
// again: before, it was said "sign again" and offered one.
func TestNonceUsedSaysMostLikelyPaid(t *testing.T) {
	r := newRig(t)
	r.console.Nonce = func() uint32 { return nonce }
	if out, err := r.run(steps(logIn, typed("withdraw", "ARBITRUM", "USDT", sandbox.DestCompleted, "25", "2", "y", "quit"))...); err != nil || !strings.Contains(out, "Withdrawal accepted") {
		t.Fatalf("the first withdrawal: %v\n%s", err, out)
	}
	out, err := r.run(steps(logIn, typed("withdraw", "ARBITRUM", "USDT", sandbox.DestCompleted, "30", "2", "y", "quit"))...)
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	wants(t, out, "Most likely paid already: the service refused withdrawal", "never sign it again")
	_, after, _ := strings.Cut(out, "Most likely paid already")
	if strings.Contains(out, "sign again:") || strings.Contains(after, "What next?") {
		t.Errorf("said as a refusal to sign again, or offered a new quote:\n%s", out)
	}
}
