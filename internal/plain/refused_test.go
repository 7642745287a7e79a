package plain

import (
	"regexp"
	"testing"

	"github.com/svcwallet/svcwallet/service/sandbox"
)

// TestLookUpRefusedHere (one outcome for every face): looking up a quote
// whose execute the service refused (screening), which it still reports
// CREATED, says REFUSED with the journal's reason, as the console and
// `svcwallet status` do, and offers no following.
func TestLookUpRefusedHere(t *testing.T) {
	r := newRig(t)
	out, err := r.run(steps(logIn, typed("withdraw", "ARBITRUM", "USDT", sandbox.DestFlagged, "25", "2", "y", "quit"))...)
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	id := regexp.MustCompile(`\bq-[a-z0-9]+`).FindString(out)
	if id == "" {
		t.Fatalf("no quote id in:\n%s", out)
	}
	out, err = r.run(steps(logIn, typed("look up", id, "quit"))...)
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	wants(t, out, "REFUSED", "This machine's journal holds the refusal", "Reason: Address screening flagged the destination")
}
