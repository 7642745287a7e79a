package withdrawal_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/sandbox"
	"github.com/svcwallet/svcwallet/service/withdrawal"
)

// TestMayStillSignAtTheMargin: a quote may be signed while it has more than
// RequoteMargin left by the service's clock; at exactly the margin it may
// not (the send and its retries would race its end).
func TestMayStillSignAtTheMargin(t *testing.T) {
	local := time.Date(2026, 3, 14, 9, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		name   string
		left   time.Duration // by the service's clock
		offset time.Duration // service − local
		may    bool
	}{
		{"a minute left", time.Minute, 0, true},
		{"just over the margin", withdrawal.RequoteMargin + time.Millisecond, 0, true},
		{"exactly the margin", withdrawal.RequoteMargin, 0, false},
		{"4 s left", 4 * time.Second, 0, false},
		{"expired", -time.Second, 0, false},
		{"the margin, the service's clock 30 s ahead", withdrawal.RequoteMargin, 30 * time.Second, false},
		{"6 s left, the service's clock 30 s behind", 6 * time.Second, -30 * time.Second, true},
	} {
		p := withdrawal.PricedQuote{Quote: exchange.Quote{QuoteID: "q", ExpiresAt: local.Add(tc.offset + tc.left)}, Offset: tc.offset}
		if got := p.MayStillSign(local); got != tc.may {
			t.Errorf("%s: MayStillSign %v, want %v", tc.name, got, tc.may)
		}
	}
	if (withdrawal.PricedQuote{}).MayStillSign(local) {
		t.Error("no quote at all may be signed")
	}
}

// TestRequoteAtTheMargin: a signature made late is carried on a fresh quote
// when the quote it was made for has the margin or less left, and sent on
// its own quote while it has more.
func TestRequoteAtTheMargin(t *testing.T) {
	r := newRig(t, 0, false)
	w := r.withdrawer()
	o := r.order(r.choice(sandbox.DestCompleted, "25"))
	r.at(o.Quote.ExpiresAt.Add(-withdrawal.RequoteMargin - time.Second))
	if got, requoted, err := w.Requote(context.Background(), o, false, ""); err != nil || requoted || got.Quote.QuoteID != o.Quote.QuoteID {
		t.Fatalf("with 6 s left: requoted %v (%v), want the quote signed for", requoted, err)
	}
	r.at(o.Quote.ExpiresAt.Add(-withdrawal.RequoteMargin))
	got, requoted, err := w.Requote(context.Background(), o, false, "")
	if err != nil || !requoted || got.Quote.QuoteID == o.Quote.QuoteID {
		t.Fatalf("at the margin: requoted %v (%v), want a fresh quote", requoted, err)
	}
	if !got.Quote.PayAmount.Equal(o.Quote.PayAmount) {
		t.Errorf("the fresh quote pays %s, not the %s signed", got.Quote.PayAmount, o.Quote.PayAmount)
	}
}

// TestRequoteSignatureAtTheMargin: a signature with the margin or less left
// before its own expiration is never sent on a fresh quote; with a moment
// more it is.
func TestRequoteSignatureAtTheMargin(t *testing.T) {
	r := newRig(t, 0, false)
	w := r.withdrawer()
	o := r.order(r.choice(sandbox.DestCompleted, "25"))
	signedUntil := time.Unix(0, o.Transfer.Expiration)
	r.at(signedUntil.Add(-withdrawal.RequoteMargin))
	if _, requoted, err := w.Requote(context.Background(), o, true, ""); err == nil || requoted || !strings.Contains(err.Error(), "The signature expired") {
		t.Fatalf("the signature at its margin: requoted %v (%v), want it refused as expired", requoted, err)
	}
	r.at(signedUntil.Add(-withdrawal.RequoteMargin - time.Millisecond))
	if _, _, err := w.Requote(context.Background(), o, true, ""); err != nil && strings.Contains(err.Error(), "The signature expired") {
		t.Fatalf("the signature just over its margin refused as expired: %v", err)
	}
}

// TestTakeQuote: the one quote step measures the clock and refuses a skew,
// waits out a 429 with the one backoff, and refuses a quote the choice
// refuses, holding it.
func TestTakeQuote(t *testing.T) {
	r := newRig(t, 0, false)
	ch := r.choice(sandbox.DestCompleted, "25")
	cx := context.Background()

	r.quote429.Store(1)
	p, err := withdrawal.TakeQuote(cx, r.client, ch)
	if err != nil || p.QuoteID == "" || r.quotes.Load() != 2 {
		t.Fatalf("after one 429: %v, %d quote requests; want a quote on the second", err, r.quotes.Load())
	}
	if !p.MayStillSign(r.local.Now()) || p.Offset != 0 {
		t.Errorf("the quote comes with offset %s and cannot be signed", p.Offset)
	}

	r.quote429.Store(exchange.PatientTries)
	if _, err := withdrawal.TakeQuote(cx, r.client, ch); !errors.Is(err, exchange.ErrRateLimited) {
		t.Errorf("429 after 429: %v, want the rate limit said", err)
	}

	capped := ch
	capped.FeeCap = decimal.NewNullDecimal(decimal.RequireFromString("0.000001"))
	p, err = withdrawal.TakeQuote(cx, r.client, capped)
	var refused *withdrawal.QuoteRefusedError
	if !errors.As(err, &refused) || refused.Quote.QuoteID == "" || p.QuoteID != refused.Quote.QuoteID {
		t.Errorf("a fee over the cap: %v, want a refusal holding the quote", err)
	}

	r.timeAhead.Store(int64(exchange.MaxClockSkew + time.Minute))
	quotes := r.quotes.Load()
	if _, err := withdrawal.TakeQuote(cx, r.client, ch); !errors.As(err, new(*exchange.ClockSkewError)) || r.quotes.Load() != quotes {
		t.Errorf("a skewed clock: %v, quote asked %v; want a refusal before asking", err, r.quotes.Load() != quotes)
	}
}
