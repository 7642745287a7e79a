package withdrawal_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/shopspring/decimal"

	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/withdrawal"
)

// lossOf is the loss of a quote paying pay USDT for receive of token out.
func lossOf(pay, receive, out string) withdrawal.Loss {
	d := decimal.RequireFromString
	return withdrawal.Order{Choice: withdrawal.Choice{TokenIn: "USDT", TokenOut: out}, Quote: exchange.Quote{PayAmount: d(pay), ReceiveAmount: d(receive)}}.Loss()
}

// TestQuoteLoss: a loss above 5% of the amount is high (warned of), above
// 50% severe (a second confirmation), each at the threshold not yet; the
// percent is rounded up, so accepting it accepts the loss.
func TestQuoteLoss(t *testing.T) {
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
		l := lossOf(tc.pay, tc.receive, "USDT")
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
	severe, mild := lossOf("1.6", "0.1", "USDT"), lossOf("25", "23.5", "USDT")
	none := decimal.NullDecimal{}
	if err := withdrawal.AcceptsLoss(severe, none); !errors.Is(err, withdrawal.ErrSevereLoss) {
		t.Errorf("severe, nothing accepted: %v", err)
	}
	if err := withdrawal.AcceptsLoss(severe, decimal.NewNullDecimal(severe.Percent())); err != nil {
		t.Errorf("severe, its rounded percent accepted: %v", err)
	}
	var above *withdrawal.LossAbove
	if err := withdrawal.AcceptsLoss(severe, decimal.NewNullDecimal(d("90"))); !errors.As(err, &above) || above.Error() != "you would lose 1.5 USDT of the 1.6 USDT paid (93.8%), above the 90% accepted" {
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
	for in, ok := range map[string]bool{"60": true, "60%": true, " 93.8 ": true, "100": true, "0": false, "-1": false, "101": false, "lots": false, "": false,
		// Plain digits, as an amount: an exponent, a sign or 10,000 places
		// were taken, and the refusal said them whole.
		"6e1": false, "+60": false, "1e-9999": false, "0.0000001": false, "0x10": false, "0.5": true} {
		if _, err := withdrawal.ParseAcceptedLoss(in); (err == nil) != ok {
			t.Errorf("ParseAcceptedLoss(%q): %v", in, err)
		}
	}
	// A share within the range but written otherwise is refused for how it
	// is written, never as out of the range.
	for in, want := range map[string]string{"0.0000001": "7 decimal places", "+60": "'+'", "6e1": "'e'"} {
		if _, err := withdrawal.ParseAcceptedLoss(in); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("ParseAcceptedLoss(%q): %v, want it to say %s", in, err, want)
		}
	}
}

// TestConvertedLossSaysItsValue: a converting quote's loss (USDT paid,
// USDC received) is pay − receive with USDC valued 1:1, and every word of
// it says so; a quote paying out USDT says no valuation.
func TestConvertedLossSaysItsValue(t *testing.T) {
	conv, same := lossOf("10", "8.5017", "USDC"), lossOf("10", "8.5", "USDT")
	const valued = "with 1 USDC valued at 1 USDT"
	if !conv.Converts() || conv.Lost.String() != "1.4983" || conv.Percent().String() != "15" {
		t.Fatalf("converted loss %+v (percent %s)", conv, conv.Percent())
	}
	for _, said := range []string{conv.Said(), conv.Basis(), conv.Reckoned(), conv.Warning(), (&withdrawal.LossAbove{Loss: conv, Accepted: decimal.NewFromInt(5)}).Error()} {
		if !strings.Contains(said, valued) {
			t.Errorf("%q does not say %q", said, valued)
		}
	}
	if same.Converts() || same.Valued() != "" || same.Said() != "1.5 USDT" || same.Reckoned() != "1.5 USDT (pay 10, receive 8.5)" || strings.Contains(same.Warning(), "valued") {
		t.Errorf("a USDT payout said %q / %q", same.Said(), same.Warning())
	}
}

// TestConvertedReviewFacts: the review of a converting quote says the
// payout is converted and how its loss values it, beside the two tokens:
// paid out below 1:1 of what the fee leaves (8.5017 of 10 − 1.4), the loss
// is pay − receive valued 1:1.
func TestConvertedReviewFacts(t *testing.T) {
	d := decimal.RequireFromString
	o := withdrawal.Order{Choice: withdrawal.Choice{TokenIn: "USDT", TokenOut: "USDC", Route: exchange.WithdrawalRoute{Chain: "ARBITRUM"}},
		Quote: exchange.Quote{PayAmount: d("10"), ReceiveAmount: d("8.5017"), Fee: d("1.4")}}
	said, kept := map[string]string{}, map[string]string{}
	for _, f := range o.Facts() {
		said[f.Label], kept[f.Label] = f.Value+" | "+f.Note, f.Kept
	}
	// A short review keeps what the payout and the loss are made of.
	if kept["You receive"] != "the bridge converts USDT to USDC" || kept["You lose"] != "USDC at 1:1" || kept["Bridge fee"] != "" {
		t.Errorf("a short review keeps %q", kept)
	}
	for label, want := range map[string]string{
		"You pay":     "10 USDT",
		"You receive": "8.5017 USDC on ARBITRUM | the bridge converts USDT to USDC",
		"Bridge fee":  "1.4 USDT",
		"You lose":    "1.4983 USDT, 15% of the amount | pay − receive with 1 USDC valued at 1 USDT, the fee included",
	} {
		if !strings.HasPrefix(said[label], want) {
			t.Errorf("%s: %q, want %q", label, said[label], want)
		}
	}
}

// quoteLoss is the loss of a quote paying pay USDT, fee included, for
// receive of token out.
func quoteLoss(pay, fee, receive, out string) withdrawal.Loss {
	d := decimal.RequireFromString
	return withdrawal.Order{Choice: withdrawal.Choice{TokenIn: "USDT", TokenOut: out},
		Quote: exchange.Quote{PayAmount: d(pay), Fee: d(fee), ReceiveAmount: d(receive)}}.Loss()
}

// TestConvertedLossCountsTheFee: a converting quote paying out at or above
// 1:1 of what its fee leaves (within exchange.ConversionTolerance) loses
// its fee, never less: the conversion's gain does not count against it, so
// a fee of 50.4% asks twice and is above an --accept-loss of 50, one of
// 5.9% is warned of, and a gain is said as the fee, never a negative loss.
// A quote paying out its debited token counts pay − receive, as before.
func TestConvertedLossCountsTheFee(t *testing.T) {
	for _, tc := range []struct {
		pay, fee, receive, out, lost, percent, stated, basis string
		high, severe                                         bool
	}{
		{"100", "50.4", "50.096", "USDC", "50.4", "50.4", "50.4 USDT, 50.4% of the amount",
			"the fee; the bridge converts the remaining 49.6 USDT to 50.096 USDC", true, true},
		{"100", "5.9", "95.041", "USDC", "5.9", "5.9", "5.9 USDT, 5.9% of the amount",
			"the fee; the bridge converts the remaining 94.1 USDT to 95.041 USDC", true, false},
		{"10", "0.01", "10.05", "USDC", "0.01", "0.1", "0.01 USDT, 0.1% of the amount",
			"the fee; the bridge converts the remaining 9.99 USDT to 10.05 USDC", false, false},
		{"25", "1.5", "23.5", "USDC", "1.5", "6", "1.5 USDT, 6% of the amount", // exactly 1:1
			"the fee; the bridge converts the remaining 23.5 USDT to 23.5 USDC", true, false},
		{"25", "1.5", "23.5", "USDT", "1.5", "6", "1.5 USDT, 6% of the amount", "pay − receive, the fee included", true, false},
		{"25", "1", "23.5", "USDT", "1.5", "6", "1.5 USDT, 6% of the amount", "pay − receive, the fee included", true, false},
	} {
		l := quoteLoss(tc.pay, tc.fee, tc.receive, tc.out)
		if l.Lost.String() != tc.lost || l.Percent().String() != tc.percent || l.Stated() != tc.stated || l.Basis() != tc.basis || l.High() != tc.high || l.Severe() != tc.severe {
			t.Errorf("pay %s fee %s receive %s %s: lost %s (%s%%) %q · %q, high %v severe %v; want %s (%s%%) %q · %q, %v %v",
				tc.pay, tc.fee, tc.receive, tc.out, l.Lost, l.Percent(), l.Stated(), l.Basis(), l.High(), l.Severe(), tc.lost, tc.percent, tc.stated, tc.basis, tc.high, tc.severe)
		}
		if (l.High() && l.Warning() == "") || (l.Converts() && l.Valued() != "") {
			t.Errorf("pay %s fee %s receive %s %s: warning %q, valued %q", tc.pay, tc.fee, tc.receive, tc.out, l.Warning(), l.Valued())
		}
	}
	half := quoteLoss("100", "50.4", "50.096", "USDC")
	if err := withdrawal.AcceptsLoss(half, decimal.NullDecimal{}); !errors.Is(err, withdrawal.ErrSevereLoss) {
		t.Errorf("a fee of 50.4%% with nothing accepted: %v", err)
	}
	var above *withdrawal.LossAbove
	if err := withdrawal.AcceptsLoss(half, decimal.NewNullDecimal(decimal.NewFromInt(50))); !errors.As(err, &above) ||
		above.Error() != "you would lose 50.4 USDT (the fee) of the 100 USDT paid (50.4%), above the 50% accepted" {
		t.Errorf("a fee of 50.4%% with 50%% accepted: %v", err)
	}
	if w := quoteLoss("100", "5.9", "95.041", "USDC").Warning(); w != "More than 5% of the amount goes to fees: you lose 5.9 USDT of the 100 USDT you pay (5.9%), all of it the fee" {
		t.Errorf("a fee of 5.9%%: warning %q", w)
	}
	// A fee cap's refusal says the receive amount quoted, not pay − loss.
	if r := quoteLoss("25", "1.5", "23.5047", "USDC").Reckoned(); r != "1.5 USDT (the fee; pay 25 USDT, receive 23.5047 USDC)" {
		t.Errorf("reckoned %q", r)
	}
}
