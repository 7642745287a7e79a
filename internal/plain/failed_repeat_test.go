package plain

import (
	"strings"
	"testing"

	"github.com/svcwallet/svcwallet/service/sandbox"
)

// TestWithdrawAgainAfterFailedNoted: a withdrawal followed to FAILED was
// debited and stays so until support returns it; the identical one asked
// next is reviewed under a note naming the FAILED one's quote id, when,
// that its funds stay debited and that this one pays again, before its
// question. The first drew no such note.
func TestWithdrawAgainAfterFailedNoted(t *testing.T) {
	r := newRig(t)
	failed25 := typed("withdraw", "ARBITRUM", "USDT", sandbox.DestFailed, "25", "2")
	out, err := r.run(steps(logIn, failed25, typed("y"), []scripted{after("FAILED: ", "withdraw")},
		typed("ARBITRUM", "USDT", sandbox.DestFailed, "25", "2", "n", "Back home", "quit"))...)
	if err != nil {
		t.Fatal(err)
	}
	note := "Note: An identical withdrawal of 25 USDT to " + sandbox.DestFailed + " on ARBITRUM (q-"
	if n := strings.Count(out, note); n != 1 {
		t.Fatalf("the note is said %d times, want once (the second review):\n%s", n, out)
	}
	said := out[strings.Index(out, note):]
	wants(t, said, "ended FAILED: its funds stay debited until support returns them, and this one pays again.", "Sign and withdraw 25 USDT")
	if strings.Index(said, "Sign and withdraw") < strings.Index(said, "this one pays again") {
		t.Errorf("the note follows the question:\n%s", said)
	}
}
