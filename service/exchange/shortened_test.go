package exchange

import (
	"errors"
	"strings"
	"testing"
)

// TestShortenedIDSaysGiveItWhole: an id or payout hash copied off a screen
// that shortens it (0x2c1f9…c5676aa) is refused as shortened, with what to
// do; it was refused only for a character it may not hold.
func TestShortenedIDSaysGiveItWhole(t *testing.T) {
	for _, id := range []string{"0x2c1f9…c5676aa", "q-lpou4333…r5l4", "tx-oijf…x6tz"} {
		err := CheckQuoteID(id)
		if err == nil || !strings.Contains(err.Error(), "it is shortened") || !errors.Is(err, ErrShortened) {
			t.Errorf("%q: %v", id, err)
		}
	}
}
