package plain

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/sandbox"
	"github.com/svcwallet/svcwallet/service/withdrawal"
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

// TestNonceUsedUnrecordedSaysMostLikelyPaid: a used nonce whose refusal
// the journal could not record is said as most likely paid, with what the
// journal now shows, and the run's last words count it as such: it was
// said "Not withdrawn" and left out of them.
func TestNonceUsedUnrecordedSaysMostLikelyPaid(t *testing.T) {
	ctx := context.Background()
	var out bytes.Buffer
	s := &session{p: NewPrompter(ctx, strings.NewReader(""), &out, nil), ctx: ctx}
	o := withdrawal.Order{Quote: exchange.Quote{QuoteID: "q-1"}}
	used := exchange.UserError{Head: withdrawal.PaidAlreadyHead, Text: "the service refused withdrawal q-1 because its Transfer's nonce was already used",
		Cause: &exchange.APIError{Status: 400, Code: exchange.CodeDuplicateSignature}}
	unrecorded := &withdrawal.UnrecordedError{QuoteID: "q-1", Journal: errors.New("no space left on device")}
	if _, err := s.executed(o, withdrawal.Sent{Err: used, Signed: true, Unrecorded: unrecorded}); err != nil {
		t.Fatal(err)
	}
	said, last := out.String(), s.whatWasSent()
	if !strings.HasPrefix(said, withdrawal.PaidAlreadyHead) || !strings.Contains(said, "But the journal could not record the answer (no space left on device)") ||
		!strings.Contains(last, "most likely paid already") {
		t.Errorf("said %q, and at the end %q", said, last)
	}
}
