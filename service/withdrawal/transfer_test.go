package withdrawal_test

import (
	"strings"
	"testing"
	"time"

	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/withdrawal"
)

// TestCheckTransferExpiration: the last check before a Transfer is signed
// bounds its expiration by the time SigningNow returned, whatever clock or
// quote came before.
func TestCheckTransferExpiration(t *testing.T) {
	now := time.Date(2026, 3, 2, 10, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		exp  time.Time
		want string
	}{
		{now.Add(11 * time.Minute), ""},
		{now.Add(withdrawal.MaxTransferAhead), ""},
		{now.Add(withdrawal.MaxTransferAhead + time.Second), "more than 15m0s from now"},
		{now.Add(365 * 24 * time.Hour), "more than 15m0s from now"},
		{now, "already have expired"},
	} {
		err := withdrawal.CheckTransferExpiration(tc.exp, now)
		if (err == nil) != (tc.want == "") || (err != nil && !strings.Contains(err.Error(), tc.want)) {
			t.Errorf("expiration %s: %v, want %q", tc.exp.Sub(now), err, tc.want)
		}
	}
}

// TestTransferExpiration: a quote's Transfer expires TransferMargin after
// the quote; a quote expiring more than 5 minutes past the service's clock
// (a quote lives for a minute or so) is not signed at all, so that no
// signature outlives MaxTransferAhead, however far ahead a quote claims to
// run.
func TestTransferExpiration(t *testing.T) {
	for _, tc := range []struct {
		ahead  time.Duration
		signed bool
	}{
		{time.Minute, true},
		{5 * time.Minute, true},
		{5*time.Minute + time.Millisecond, false},
		{3 * 365 * 24 * time.Hour, false},
	} {
		q := exchange.Quote{ExpiresAt: t0.Add(tc.ahead)}
		got, err := withdrawal.TransferExpiration(q, t0)
		switch {
		case tc.signed && (err != nil || !got.Equal(q.ExpiresAt.Add(withdrawal.TransferMargin))):
			t.Errorf("a quote expiring %s ahead: signed until %s (%v), want %s past its expiry", tc.ahead, got, err, withdrawal.TransferMargin)
		case tc.signed && withdrawal.CheckTransferExpiration(got, t0) != nil:
			t.Errorf("a quote expiring %s ahead: its Transfer fails the last check before signing", tc.ahead)
		case !tc.signed && err == nil:
			t.Errorf("a quote expiring %s ahead is signed until %s", tc.ahead, got)
		}
	}
}
