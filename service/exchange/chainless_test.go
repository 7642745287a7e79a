package exchange_test

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/mr-tron/base58"

	"github.com/svcwallet/svcwallet/service/exchange"
)

// TestCompletedWithoutChain: a COMPLETED record that names no chain (the
// spec does not say one is required) is taken paid with a payout hash of
// the shape a chain svcwallet knows gives (an EVM one, a TRON one written
// bare, a SOLANA signature), not held to an EVM one's; a hash of no
// chain's shape is refused in words that say the record named none.
func TestCompletedWithoutChain(t *testing.T) {
	hex := strings.Repeat("ab", 32)
	for hash, taken := range map[string]bool{
		"0x" + hex: true,
		hex:        true,
		base58.Encode(bytes.Repeat([]byte{7}, 64)): true,
		"0x" + hex[:40]: false,
		"not-a-hash":    false,
	} {
		w := exchange.Withdrawal{QuoteID: "q-1", State: exchange.StateCompleted, TokenOut: "USDT", WithdrawTxHash: hash,
			UpdatedAt: time.Date(2026, 3, 14, 9, 0, 0, 0, time.UTC)}
		err := w.CheckRead()
		if taken != (err == nil) {
			t.Errorf("%s: %v, taken %v wanted", hash, err, taken)
		}
		if !taken && (err == nil || !strings.Contains(err.Error(), "the record names no chain")) {
			t.Errorf("%s: %v does not say the record named no chain", hash, err)
		}
	}
}
