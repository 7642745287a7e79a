package withdrawal_test

import (
	"strings"
	"testing"
	"time"

	"github.com/svcwallet/svcwallet/internal/withdrawal"
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
