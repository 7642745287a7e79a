package withdrawal_test

import (
	"strings"
	"testing"

	"github.com/shopspring/decimal"

	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/journal"
	"github.com/svcwallet/svcwallet/service/withdrawal"
)

// TestAcceptanceAgainstItsQuote: the withdraw 202 echoes the receive
// amount and fee the quote locked (SPEC.md §4.9); every face words it
// through Order.Accepted, so one naming others is shown with the quote's,
// a fact says what did not add up and what to do, and an answer that left
// them out (an unreadable body) shows the quote's, never zeros.
func TestAcceptanceAgainstItsQuote(t *testing.T) {
	d := decimal.RequireFromString
	o := withdrawal.Order{Quote: exchange.Quote{QuoteID: "q-1", PayAmount: d("10"), ReceiveAmount: d("8.5"), Fee: d("1.5"), FeeUSD: d("1.5")},
		Choice: withdrawal.Choice{TokenIn: "USDT", TokenOut: "USDT", ToAddress: "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC", Route: exchange.WithdrawalRoute{Chain: "ARBITRUM"}}}
	for name, tc := range map[string]struct {
		receive, fee string
		unlike       []string // what the Check fact must name; none: no Check fact
	}{
		"the quote's, written otherwise": {"8.50", "1.500", nil},
		"left out":                       {"0", "0", nil},
		"another fee":                    {"8.5", "3", []string{"a fee of 3 USDT, not the 1.5"}},
		"another receive amount":         {"9999", "1.5", []string{"a receive amount of 9999 USDT, not the 8.5"}},
		"both":                           {"9999", "0.01", []string{"9999 USDT", "a fee of 0.01 USDT"}},
	} {
		t.Run(name, func(t *testing.T) {
			a := exchange.WithdrawAccepted{QuoteID: "q-1", TxID: "tx-1", State: exchange.StateSubmitted, ReceiveAmount: d(tc.receive), Fee: d(tc.fee)}
			said, facts := o.Accepted(a)
			if !strings.Contains(said, ": 8.5 USDT on its way") {
				t.Errorf("said %q, want the quote's 8.5", said)
			}
			var fee, check string
			for _, f := range facts {
				switch f.Label {
				case "Fee":
					fee = f.Value
				case "Check":
					check = f.Value
				}
			}
			if fee != "1.5 USDT" {
				t.Errorf("the fee shown is %q, want the quote's 1.5 USDT", fee)
			}
			if (check != "") != (tc.unlike != nil) {
				t.Fatalf("check fact %q, want one naming %q", check, tc.unlike)
			}
			for _, s := range append(tc.unlike, "does not add up") {
				if tc.unlike != nil && !strings.Contains(check, s) || tc.unlike != nil && !strings.Contains(check, "tell support (quote id q-1)") {
					t.Errorf("check fact %q, want it to say %q and what to do", check, s)
				}
			}
		})
	}
	// An order rebuilt without its quote (a resume) has nothing to hold
	// the answer to: it is shown as said.
	resumed := withdrawal.Order{Quote: exchange.Quote{QuoteID: "q-1"}, Choice: o.Choice}
	if said, _ := resumed.Accepted(exchange.WithdrawAccepted{State: exchange.StateSubmitted, ReceiveAmount: d("8.5")}); !strings.Contains(said, "8.5 USDT") {
		t.Fatalf("a resumed acceptance said %q", said)
	}
}

// TestResumedAcceptanceAgainstItsJournal: a resumed withdrawal's re-sent
// request is answered by a 202 too; its quote is not kept, but the journal
// holds the receive amount the quote locked, so an acceptance naming
// another is shown with the journal's and said not to add up; its fee,
// never journaled, is the answer's. An intent the journal left the
// amounts out of shows the answer's, never a zero.
func TestResumedAcceptanceAgainstItsJournal(t *testing.T) {
	d := decimal.RequireFromString
	rec := journal.Record{QuoteID: "q-1", Intent: journal.Intent{ToAddress: "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC", Chain: "ARBITRUM",
		TokenIn: "USDT", TokenOut: "USDT", PayAmount: d("10"), ReceiveAmount: d("8.5")}}
	o := withdrawal.Resumed(rec)
	a := exchange.WithdrawAccepted{QuoteID: "q-1", TxID: "tx-1", State: exchange.StateSubmitted, ReceiveAmount: d("9999"), Fee: d("1.5")}
	said, facts := o.Accepted(a)
	if !strings.Contains(said, ": 8.5 USDT on its way to 0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC on ARBITRUM") {
		t.Errorf("said %q, want the journal's 8.5 on its way", said)
	}
	var fee, check string
	for _, f := range facts {
		switch f.Label {
		case "Fee":
			fee = f.Value
		case "Check":
			check = f.Value
		}
	}
	if fee != "1.5 USDT" || !strings.Contains(check, "a receive amount of 9999 USDT, not the 8.5") || strings.Contains(check, "fee") {
		t.Errorf("fee %q, check %q: want the answer's fee, and the receive amount named", fee, check)
	}
	if _, unlike := o.Locked(exchange.WithdrawAccepted{ReceiveAmount: d("8.50"), Fee: d("2")}); unlike != nil {
		t.Errorf("the journal's amount written otherwise, with a fee: %v", unlike)
	}
	rec.Intent.ReceiveAmount = decimal.Zero
	if said, _ := withdrawal.Resumed(rec).Accepted(a); !strings.Contains(said, ": 9999 USDT on its way") {
		t.Errorf("an intent without its receive amount: said %q, want the answer's", said)
	}
}

// TestResumedAcceptanceWithoutFee: a resumed withdrawal's fee is the 202's
// (the journal holds none); a 202 that left it out (read as zero) names no
// fee, where every face said "Fee 0 USDT". One given is named.
func TestResumedAcceptanceWithoutFee(t *testing.T) {
	d := decimal.RequireFromString
	o := withdrawal.Resumed(journal.Record{QuoteID: "q-1", Intent: journal.Intent{ToAddress: "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC",
		Chain: "ARBITRUM", TokenIn: "USDT", TokenOut: "USDT", PayAmount: d("10"), ReceiveAmount: d("8.5")}})
	for fee, want := range map[string]string{"0": "", "1.5": "1.5 USDT"} {
		_, facts := o.Accepted(exchange.WithdrawAccepted{QuoteID: "q-1", TxID: "tx-1", State: exchange.StateSubmitted, ReceiveAmount: d("8.5"), Fee: d(fee)})
		got := ""
		for _, f := range facts {
			if f.Label == "Fee" {
				got = f.Value
			}
		}
		if got != want {
			t.Errorf("a 202 with fee %s: the fee named is %q, want %q", fee, got, want)
		}
	}
}

// TestAcceptedWithoutAnyReceiveAmount: an acceptance whose receive amount
// neither the journal nor the 202 gives says none, in words and Figures:
// "0 USDT on its way" said nothing is paid out.
func TestAcceptedWithoutAnyReceiveAmount(t *testing.T) {
	o := withdrawal.Resumed(journal.Record{QuoteID: "q-1", Intent: journal.Intent{ToAddress: "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC",
		Chain: "ARBITRUM", TokenIn: "USDT", TokenOut: "USDT", PayAmount: decimal.RequireFromString("10")}})
	a := exchange.WithdrawAccepted{QuoteID: "q-1", TxID: "tx-1", State: exchange.StateSubmitted}
	said, _ := o.Accepted(a)
	locked, _ := o.Locked(a)
	if given := o.Figures(locked); strings.Contains(said, " 0 USDT") || given != (withdrawal.Figures{}) {
		t.Errorf("an acceptance without a receive amount: said %q, figures %+v", said, given)
	}
}
