package plain

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/withdrawal"
)

// TestStoppedOnceSignedSaysSigned: a withdrawal stopped by ctrl+c, SIGTERM
// or SIGHUP after its signature came and before its request left
// (withdrawal.ErrStoppedOnceSigned) is said as signed and stopped unpaid, by
// the words at once and by the last words of the run: they said "nothing
// was signed or sent", a stop at a question's words.
func TestStoppedOnceSignedSaysSigned(t *testing.T) {
	ctx, stop := context.WithCancel(context.Background())
	stop()
	var out bytes.Buffer
	s := &session{p: NewPrompter(ctx, strings.NewReader(""), &out, nil), ctx: ctx}
	o := withdrawal.Order{Quote: exchange.Quote{QuoteID: "q-1"}}
	_, err := s.executed(o, withdrawal.Sent{Err: exchange.Worded(errors.Join(withdrawal.ErrStoppedOnceSigned, context.Canceled), "Stopped once signed, after quote q-0 was refused as expired: nothing was paid")})
	if !errors.Is(err, ErrInterrupted) {
		t.Fatalf("stopped once signed: %v, want ErrInterrupted", err)
	}
	said, last := out.String(), s.whatWasSent()
	if !strings.Contains(said, "Stopped once signed, after quote q-0 was refused as expired: nothing was paid.") || strings.Contains(last, "nothing was signed") || !strings.Contains(last, "withdrawal q-1 was signed and stopped unpaid") {
		t.Errorf("stopped once signed, said %q, and at the end %q", said, last)
	}
}

// TestSignedAndRefusedSaysSigned: a signed withdrawal the service refused
// (here as expired, after it left), or that the repeat check stopped once
// signed, is said as signed and not paid by the run's last words: they
// said "nothing was signed or sent".
func TestSignedAndRefusedSaysSigned(t *testing.T) {
	for _, err := range []error{
		&exchange.APIError{Status: 410, Code: exchange.CodeQuoteExpired},
		&withdrawal.UnansweredError{Signed: true},
		// Signed, and its request never left on any attempt.
		exchange.Worded(&exchange.NotSentError{Err: errors.New("connection refused")}, "Not sent: nothing left svcwallet, so nothing was paid"),
	} {
		var out bytes.Buffer
		s := &session{p: NewPrompter(context.Background(), strings.NewReader(""), &out, nil), ctx: context.Background()}
		o := withdrawal.Order{Quote: exchange.Quote{QuoteID: "q-1"}}
		_, _ = s.executed(o, withdrawal.Sent{Err: err, Signed: true}) // what next is asked of no input
		if last := s.whatWasSent(); strings.Contains(last, "nothing was signed") || !strings.Contains(last, "withdrawal q-1 was signed and not paid") {
			t.Errorf("%T signed and refused, said at the end %q", err, last)
		}
	}
}
