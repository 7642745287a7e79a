package withdraw

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/svcwallet/svcwallet/screens/kit"
	"github.com/svcwallet/svcwallet/screens/screentest"
	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/withdrawal"
	"github.com/svcwallet/svcwallet/signer"
)

// TestReviewAfterRefusalUrgesNoSigning (issue 28 item 19): after the
// service refuses the withdrawal the review no longer says "sign before it
// runs out": a refusal signing again may mend (the daily limit) keeps the
// quote's time left without the note, a final one (screening) drops it.
func TestReviewAfterRefusalUrgesNoSigning(t *testing.T) {
	app, now := screentest.LoggedInApp(t)
	r := reviewFor(t, app, now, fixedQuote(*now, "1.5"), 0, 120, 40, signer.Found{Place: signer.KeyDemo})
	if view := ansi.Strip(r.View()); !strings.Contains(view, "sign before it runs out") {
		t.Fatalf("before any refusal the review does not urge signing:\n%s", view)
	}
	r.Update(executedMsg{withdrawal.Sent{Err: &exchange.APIError{Status: 403, Code: exchange.CodeDailyLimit}}})
	if view := ansi.Strip(r.View()); strings.Contains(view, "sign before it runs out") || !strings.Contains(view, "Quote expires in") ||
		!strings.Contains(view, "Not withdrawn") {
		t.Errorf("after a refusal:\n%s", view)
	}
	r = reviewFor(t, app, now, fixedQuote(*now, "1.5"), 0, 120, 40, signer.Found{Place: signer.KeyDemo})
	r.Update(executedMsg{withdrawal.Sent{Err: &exchange.APIError{Status: 403, Code: exchange.CodeAddressFlagged}}})
	if view := ansi.Strip(r.View()); strings.Contains(view, "Quote expires in") || !strings.Contains(view, "Not withdrawn") {
		t.Errorf("after a final refusal:\n%s", view)
	}
}

// TestReviewAfterANonceUsedSignsNothing: a withdraw refused because its
// Transfer's nonce was used (4007) is most likely paid already: the review
// says so and enter no longer signs this quote again, as plain mode and the
// command line offer nothing that signs after it.
func TestReviewAfterANonceUsedSignsNothing(t *testing.T) {
	app, now := screentest.LoggedInApp(t)
	r := reviewFor(t, app, now, fixedQuote(*now, "1.5"), 0, 120, 40, signer.Found{Place: signer.KeyDemo})
	used := &exchange.APIError{Status: 400, Code: exchange.CodeDuplicateSignature}
	if !withdrawal.NonceUsed(used) {
		t.Fatal("the service's 4007 is not read as a nonce used")
	}
	r.Update(executedMsg{withdrawal.Sent{Err: exchange.UserError{Head: withdrawal.PaidAlreadyHead, Text: "the service refused it", Cause: used}, Signed: true}})
	*now = now.Add(kit.ShownGuard)
	if view := ansi.Strip(r.View()); !strings.Contains(view, withdrawal.PaidAlreadyHead) || screentest.Offers(r.KeyMap(), "enter") {
		t.Errorf("after a nonce used the review offers %v:\n%s", r.KeyMap().ShortHelp(), view)
	}
	if _, cmd := screentest.Press(r, "enter"); screentest.Acts(cmd) || r.gate.Sending {
		t.Error("enter signs again after a nonce used")
	}
}
