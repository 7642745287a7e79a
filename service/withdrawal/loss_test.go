package withdrawal_test

import (
	"errors"
	"testing"

	"github.com/shopspring/decimal"

	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/withdrawal"
)

// TestQuoteLoss: a loss above 5% of the amount is high (warned of), above
// 50% severe (a second confirmation), each at the threshold not yet; the
// percent is rounded up, so accepting it accepts the loss.
func TestQuoteLoss(t *testing.T) {
	d := decimal.RequireFromString
	for _, tc := range []struct {
		pay, receive, percent string
		high, severe          bool
	}{
		{"25", "23.5", "6", true, false},
		{"20", "19", "5", false, false}, // exactly 5%
		{"20", "18.99", "5.1", true, false},
		{"2", "1", "50", true, false}, // exactly 50%
		{"1.6", "0.1", "93.8", true, true},
		{"100", "99.9", "0.1", false, false},
	} {
		l := withdrawal.QuoteLoss(exchange.Quote{PayAmount: d(tc.pay), ReceiveAmount: d(tc.receive)})
		if l.High() != tc.high || l.Severe() != tc.severe || l.Percent().String() != tc.percent {
			t.Errorf("pay %s receive %s: high %v severe %v percent %s, want %v %v %s", tc.pay, tc.receive, l.High(), l.Severe(), l.Percent(), tc.high, tc.severe, tc.percent)
		}
	}
}

// TestAcceptsLoss: a severe loss is signed only when a percentage that
// covers it was accepted beforehand; a loss above what was accepted is
// refused whatever its size.
func TestAcceptsLoss(t *testing.T) {
	d := decimal.RequireFromString
	severe := withdrawal.QuoteLoss(exchange.Quote{PayAmount: d("1.6"), ReceiveAmount: d("0.1")})
	mild := withdrawal.QuoteLoss(exchange.Quote{PayAmount: d("25"), ReceiveAmount: d("23.5")})
	none := decimal.NullDecimal{}
	if err := withdrawal.AcceptsLoss(severe, none); !errors.Is(err, withdrawal.ErrSevereLoss) {
		t.Errorf("severe, nothing accepted: %v", err)
	}
	if err := withdrawal.AcceptsLoss(severe, decimal.NewNullDecimal(severe.Percent())); err != nil {
		t.Errorf("severe, its rounded percent accepted: %v", err)
	}
	var above *withdrawal.LossAbove
	if err := withdrawal.AcceptsLoss(severe, decimal.NewNullDecimal(d("90"))); !errors.As(err, &above) || above.Error() != "you would lose 1.5 of the 1.6 paid (93.8%), above the 90% accepted" {
		t.Errorf("severe, 90%% accepted: %v", err)
	}
	if err := withdrawal.AcceptsLoss(mild, none); err != nil {
		t.Errorf("mild, nothing accepted: %v", err)
	}
	if err := withdrawal.AcceptsLoss(mild, decimal.NewNullDecimal(d("5"))); !errors.As(err, &above) {
		t.Errorf("6%% lost, 5%% accepted: %v", err)
	}
	// A loss exactly the share accepted is accepted: --accept-loss 6 signs
	// a loss of 1.5 of 25, and one of 93.75% is signed at 93.75.
	if err := withdrawal.AcceptsLoss(mild, decimal.NewNullDecimal(d("6"))); err != nil {
		t.Errorf("6%% lost, 6%% accepted: %v", err)
	}
	if err := withdrawal.AcceptsLoss(severe, decimal.NewNullDecimal(d("93.75"))); err != nil {
		t.Errorf("93.75%% lost, 93.75%% accepted: %v", err)
	}
	for in, ok := range map[string]bool{"60": true, "60%": true, " 93.8 ": true, "100": true, "0": false, "-1": false, "101": false, "lots": false, "": false} {
		if _, err := withdrawal.ParseAcceptedLoss(in); (err == nil) != ok {
			t.Errorf("ParseAcceptedLoss(%q): %v", in, err)
		}
	}
}
