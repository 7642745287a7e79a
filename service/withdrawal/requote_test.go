package withdrawal_test

import (
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/shopspring/decimal"

	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/withdrawal"
	"github.com/svcwallet/svcwallet/signer"
)

// TestRequoteRefusal: a fresh quote carries a signature made for another
// only when it pays exactly the signed numTokens, costs no more than the
// cap (the user's, else the reviewed quote's) and has time left.
func TestRequoteRefusal(t *testing.T) {
	now := time.Date(2026, 3, 14, 9, 0, 0, 0, time.UTC)
	d := decimal.RequireFromString
	reviewed := exchange.Quote{QuoteID: "q-old", PayAmount: d("25"), ReceiveAmount: d("23.5"), Fee: d("1.5"), ExpiresAt: now.Add(-time.Second)}
	o := withdrawal.Order{Quote: reviewed, Transfer: signer.Transfer{NumTokens: 25_000_000},
		Choice: withdrawal.Choice{TokenIn: exchange.TokenUSDT, TokenOut: exchange.TokenUSDT, Amount: d("25")}}
	// The sandbox's USDC quote pays out above 1:1: its loss is its fee, 1.5,
	// not pay − receive (1.4953), so the same terms again are taken.
	converting := o
	converting.Choice.TokenOut = exchange.TokenUSDC
	converting.Quote.ReceiveAmount = d("23.5047")
	capped := o
	capped.Choice.FeeCap = decimal.NewNullDecimal(d("2"))
	fresh := func(pay, receive, fee string, left time.Duration) exchange.Quote {
		return exchange.Quote{QuoteID: "q-new", PayAmount: d(pay), ReceiveAmount: d(receive), Fee: d(fee), ExpiresAt: now.Add(left)}
	}
	for _, tc := range []struct {
		name string
		o    withdrawal.Order
		q    exchange.Quote
		says string
	}{
		{"same terms", o, fresh("25", "23.5", "1.5", time.Minute), ""},
		{"same terms, converting", converting, fresh("25", "23.5047", "1.5", time.Minute), ""},
		{"loss over the converting quote", converting, fresh("25", "23.4", "1.5", time.Minute), "you would lose 1.6 USDT (with 1 USDC valued at 1 USDT; pay 25 USDT, receive 23.4 USDC), above the 1.5 USDT"},
		{"cheaper", o, fresh("25", "24", "1", time.Minute), ""},
		{"within the cap", capped, fresh("25", "23", "2", time.Minute), ""},
		{"another amount", o, fresh("25.000001", "23.5", "1.5", time.Minute), "it asks for 25.000001 USDT, not the 25 signed"},
		{"fee over the reviewed quote", o, fresh("25", "23.4", "1.6", time.Minute), "its fee 1.6 USDT is above the 1.5 USDT of the quote you reviewed"},
		{"loss over the reviewed quote", o, fresh("25", "23", "1", time.Minute), "you would lose 2 USDT (pay 25, receive 23), above the 1.5 USDT"},
		{"fee over the cap", capped, fresh("25", "22.9", "2.1", time.Minute), "above your fee cap of 2 USDT"},
		{"expiring at once", o, fresh("25", "23.5", "1.5", withdrawal.RequoteMargin), "it expires at once"},
	} {
		got := withdrawal.RequoteRefusal(tc.o, tc.q, now)
		if tc.says == "" && got != "" || tc.says != "" && !strings.Contains(got, tc.says) {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.says)
		}
	}
	if note := withdrawal.RequoteNote(capped); !strings.Contains(note, "exactly 25 USDT") || !strings.Contains(note, "your fee cap of 2 USDT") {
		t.Errorf("note %q", note)
	}
}

// TestRequoteKeepsTheLossAnswered: a fresh quote that carries a signature
// unasked (the quote ran out while a person approved in clef) loses no
// more than the person answered for, whatever the fee cap lets through:
// not above the share they accepted beforehand (--accept-loss), and not
// most of the amount when the quote they said yes to was not, for no
// second yes was asked. A cap alone let a withdrawal reviewed at a 1%
// loss go out losing 56%.
func TestRequoteKeepsTheLossAnswered(t *testing.T) {
	now := time.Date(2026, 3, 14, 9, 0, 0, 0, time.UTC)
	d := decimal.RequireFromString
	quote := func(receive, fee string) exchange.Quote {
		return exchange.Quote{QuoteID: "q", PayAmount: d("25"), ReceiveAmount: d(receive), Fee: d(fee), ExpiresAt: now.Add(time.Minute)}
	}
	order := func(reviewed exchange.Quote, accepted string) withdrawal.Order {
		o := withdrawal.Order{Quote: reviewed, Transfer: signer.Transfer{NumTokens: 25_000_000},
			Choice: withdrawal.Choice{TokenIn: exchange.TokenUSDT, TokenOut: exchange.TokenUSDT, Amount: d("25"), FeeCap: decimal.NewNullDecimal(d("20"))}}
		if accepted != "" {
			o.Choice.AcceptedLoss = decimal.NewNullDecimal(d(accepted))
		}
		return o
	}
	mild, severe := quote("24.75", "0.25"), quote("12", "13")
	for _, tc := range []struct {
		name string
		o    withdrawal.Order
		q    exchange.Quote
		says string
	}{
		{"most of it after a mild review", order(mild, ""), quote("11", "14"), "most of the amount would go to fees: you would lose 14 USDT (pay 25, receive 11), 56% of the amount, where the quote you said yes to lost 1%"},
		{"no worse after a severe review", order(severe, ""), quote("12", "13"), ""},
		{"worse after a severe review", order(severe, ""), quote("11.999999", "13"), "you would lose 13.000001 USDT (pay 25, receive 11.999999), 52.1% of the amount, more than the 13 USDT (52%) of the quote you said yes to"},
		{"worse after a severe review, within a share accepted", order(severe, "60"), quote("11", "14"), ""},
		{"above the share accepted", order(mild, "10"), quote("17.5", "7.5"), "above the 10% accepted"},
		{"within the share accepted", order(mild, "60"), quote("11", "14"), ""},
		{"a mild one after a mild review", order(mild, ""), quote("23", "2"), ""},
	} {
		got := withdrawal.RequoteRefusal(tc.o, tc.q, now)
		if tc.says == "" && got != "" || tc.says != "" && !strings.Contains(got, tc.says) {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.says)
		}
	}
}

// TestRequoteKeepsTheAmountAnswered: a second yes to a severe loss
// accepts its amount and no more, within a generous fee cap: a fresh quote
// losing one unit more is refused in the figures the review said (its
// loss rounded up to one place), and one losing as much goes. Held to the
// share rounded up at 6 places of a percent, a fresh quote losing
// 666.66667 USDT of 1000 went out on a yes to 666.666667.
func TestRequoteKeepsTheAmountAnswered(t *testing.T) {
	now := time.Date(2026, 3, 14, 9, 0, 0, 0, time.UTC)
	d := decimal.RequireFromString
	quote := func(receive, fee string) exchange.Quote {
		return exchange.Quote{QuoteID: "q", PayAmount: d("1000"), ReceiveAmount: d(receive), Fee: d(fee), ExpiresAt: now.Add(time.Minute)}
	}
	o := withdrawal.Order{Quote: quote("333.333333", "666.666667"), Transfer: signer.Transfer{NumTokens: 1_000_000_000},
		Choice: withdrawal.Choice{TokenIn: exchange.TokenUSDT, TokenOut: exchange.TokenUSDT, Amount: d("1000"), FeeCap: decimal.NewNullDecimal(d("900"))}}
	if got := withdrawal.RequoteRefusal(o, quote("333.333333", "666.666667"), now); got != "" {
		t.Errorf("the loss said yes to: %q", got)
	}
	want := "you would lose 666.66667 USDT (pay 1000, receive 333.33333), 66.7% of the amount, more than the 666.666667 USDT (66.7%) of the quote you said yes to"
	if got := withdrawal.RequoteRefusal(o, quote("333.33333", "666.66667"), now); !strings.Contains(got, want) {
		t.Errorf("a unit more: %q, want %q", got, want)
	}
}

// TestRequoteNoteSaysTheLossAnswered: the review's note on a fresh quote
// says what RequoteRefusal keeps to where it binds before the cap: the
// share accepted (--accept-loss), or, none accepted after a review losing
// less, no more than half the amount; a cap below either is said alone.
func TestRequoteNoteSaysTheLossAnswered(t *testing.T) {
	d := decimal.RequireFromString
	order := func(cap, accepted string) withdrawal.Order {
		o := withdrawal.Order{Quote: exchange.Quote{QuoteID: "q", PayAmount: d("25"), ReceiveAmount: d("24.75"), Fee: d("0.25")}, Transfer: signer.Transfer{NumTokens: 25_000_000},
			Choice: withdrawal.Choice{TokenIn: exchange.TokenUSDT, TokenOut: exchange.TokenUSDT, Amount: d("25"), FeeCap: decimal.NewNullDecimal(d(cap))}}
		if accepted != "" {
			o.Choice.AcceptedLoss = decimal.NewNullDecimal(d(accepted))
		}
		return o
	}
	severe := order("20", "")
	severe.Quote.ReceiveAmount, severe.Quote.Fee = d("12"), d("13")
	severeAtCap := order("13", "")
	severeAtCap.Quote = severe.Quote
	for _, tc := range []struct {
		name             string
		o                withdrawal.Order
		says, short, not string
	}{
		{"a generous cap, none accepted", order("20", ""), "your fee cap of 20 USDT, losing no more than half the amount, and sends it", "20 USDT (your fee cap), losing at most half the amount, takes", "accepted"},
		{"a generous cap, a share accepted", order("20", "7"), "your fee cap of 20 USDT, losing no more than the 7% of the amount you accepted, and sends", "20 USDT (your fee cap), losing at most the 7% of the amount you accepted, takes", "half"},
		{"a cap below the share accepted", order("1", "7"), "your fee cap of 1 USDT and sends", "1 USDT (your fee cap) takes", "accepted"},
		{"a cap below half", order("2", ""), "your fee cap of 2 USDT and sends", "2 USDT (your fee cap) takes", "half"},
		{"a generous cap, a severe loss answered", severe, "your fee cap of 20 USDT, losing no more than this quote's 13 USDT, and sends", "20 USDT (your fee cap), losing at most this quote's 13 USDT, takes", "half"},
		{"a cap at the severe loss answered", severeAtCap, "your fee cap of 13 USDT and sends", "13 USDT (your fee cap) takes", "half"},
	} {
		note, short := withdrawal.RequoteNote(tc.o), withdrawal.RequoteNoteShort(tc.o)
		if !strings.Contains(note, tc.says) || strings.Contains(note, tc.not) {
			t.Errorf("%s: %q, want %q and no %q", tc.name, note, tc.says, tc.not)
		}
		if !strings.Contains(short, "exactly 25 USDT") || !strings.Contains(short, tc.short) || strings.Contains(short, tc.not) {
			t.Errorf("%s, in fewer words: %q, want %q and no %q", tc.name, short, tc.short, tc.not)
		}
	}
}

// TestRequoteNoteTightFitsItsLine: the smallest review's note, after its
// question on one line, names the cap by its amount where it fits and
// else says which cap binds, still in its room, and is never a question
// itself (the line's question is whether to sign: "Expires as you
// approve?" stood in its place at 60x20).
func TestRequoteNoteTightFitsItsLine(t *testing.T) {
	d := decimal.RequireFromString
	o := withdrawal.Order{Quote: exchange.Quote{PayAmount: d("25"), ReceiveAmount: d("23.5"), Fee: d("1.5")}, Transfer: signer.Transfer{NumTokens: 25_000_000},
		Choice: withdrawal.Choice{TokenIn: exchange.TokenUSDT, TokenOut: exchange.TokenUSDT, Amount: d("25")}}
	capped := o
	capped.Choice.FeeCap = decimal.NewNullDecimal(d("1234567.891234"))
	for _, tc := range []struct {
		o    withdrawal.Order
		room int
		want string
	}{
		{o, 80, "requoted if it expires as you approve: fee and loss ≤ 1.5 USDT."},
		{o, 59, "requoted if it expires: fee and loss ≤ 1.5 USDT."},
		{o, 39, "requote on expiry: fee/loss ≤ 1.5 USDT."},
		{o, 38, "no higher fee/loss"},
		{capped, 39, "your fee cap"},
	} {
		got := withdrawal.RequoteNoteTight(tc.o, tc.room)
		if utf8.RuneCountInString(got) > tc.room || !strings.Contains(got, tc.want) || strings.Contains(got, "?") {
			t.Errorf("in %d columns %q, want %q in them, and no question", tc.room, got, tc.want)
		}
	}
}
