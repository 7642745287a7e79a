package follow_test

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/mr-tron/base58"
	"github.com/shopspring/decimal"

	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/follow"
	"github.com/svcwallet/svcwallet/service/journal"
)

// lockedAt is when the withdrawal q-1 of these tests was accepted, and its
// quote's expiry.
var lockedAt = time.Date(2026, 3, 14, 9, 0, 0, 0, time.UTC)

// lockedIntent is q-1's journaled intent: 10 USDT paid for 8.5 received on
// ARBITRUM, what the quote locked and a service's record is held to.
var lockedIntent = journal.Intent{ToAddress: "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC", Chain: "ARBITRUM", TokenIn: "USDT", TokenOut: "USDT",
	PayAmount: decimal.RequireFromString("10"), ReceiveAmount: decimal.RequireFromString("8.5"), ExpiresAt: lockedAt}

// TestStatusAgainstLockedQuote: a status record of an own withdrawal that
// names another chain, payout token or receive amount than the quote this
// account signed (its journaled intent: the receive amount is locked by
// the quote, SPEC.md §2.10) is taken for its state, so the follow ends and
// the state is journaled, but with what was signed: no face shows the
// service's claim as what the withdrawal pays out, and the outcome's words
// say what it claimed. A record that agrees after it clears the words.
func TestStatusAgainstLockedQuote(t *testing.T) {
	t0, in := lockedAt, lockedIntent
	own := follow.Own{"q-1": {QuoteID: "q-1", Made: true, Answered: true, State: exchange.StateSubmitted, AcceptedAt: t0, Intent: in}}
	good := exchange.Withdrawal{QuoteID: "q-1", State: exchange.StateSending, Chain: "ARBITRUM", TokenOut: "USDT", ReceiveAmount: decimal.RequireFromString("8.500"), UpdatedAt: t0}
	for name, edit := range map[string]func(*exchange.Withdrawal){
		"another receive amount": func(w *exchange.Withdrawal) { w.ReceiveAmount = decimal.RequireFromString("9999") },
		"another payout token":   func(w *exchange.Withdrawal) { w.TokenOut = "USDC" },
		"another chain":          func(w *exchange.Withdrawal) { w.Chain = "BASE" },
		"another token and amount": func(w *exchange.Withdrawal) {
			w.TokenOut, w.ReceiveAmount = "USDC", decimal.RequireFromString("9999")
		},
	} {
		says := map[string]string{"another receive amount": "names a receive amount of 9999 USDT, not the 8.5 USDT on ARBITRUM",
			"another payout token": "names the payout token USDC, not", "another chain": "names the chain BASE, not",
			"another token and amount": "names the payout token USDC and a receive amount of 9999 USDC, not the 8.5 USDT"}[name]
		t.Run(name, func(t *testing.T) {
			f := follow.Follow{QuoteID: "q-1"}
			own.Seed(&f)
			bad := good
			bad.State = exchange.StateCompleted
			edit(&bad)
			step := f.Answer(bad, nil, time.Second, func(int64) int64 { return 0 })
			if !f.Known || !f.Final || f.Err != nil || step.JournalState != exchange.StateCompleted {
				t.Fatalf("a COMPLETED record claiming another payout did not end the follow: known %v, final %v, err %v, step %+v", f.Known, f.Final, f.Err, step)
			}
			if f.Last.Chain != "ARBITRUM" || f.Last.TokenOut != "USDT" || !f.Last.ReceiveAmount.Equal(in.ReceiveAmount) {
				t.Fatalf("the service's claim is shown as what the withdrawal pays: %+v", f.Last)
			}
			if o := f.Outcome(); o.Name != exchange.StateCompleted || !strings.Contains(o.Words, says) || !strings.Contains(o.Words, "tell support") {
				t.Fatalf("the outcome is %q: %q, want COMPLETED saying %q and what to do", o.Name, o.Words, says)
			}
			f = follow.Follow{QuoteID: "q-1"}
			own.Seed(&f)
			f.Answer(bad, nil, time.Second, func(int64) int64 { return 0 })
			f.Final = false
			agrees := good // COMPLETED, as journaled: SENDING would leave a final state
			agrees.State = exchange.StateCompleted
			f.Answer(agrees, nil, time.Second, func(int64) int64 { return 0 })
			if f.Unlike != "" || strings.Contains(f.Outcome().Words, "names") {
				t.Fatalf("the agreeing record after it still says the claim: %q", f.Outcome().Words)
			}
		})
	}
	// Another's withdrawal (no journaled intent) has nothing to hold it to.
	f := follow.Follow{QuoteID: "q-2"}
	own.Seed(&f)
	other := good
	other.QuoteID, other.ReceiveAmount = "q-2", decimal.RequireFromString("9999")
	if f.Answer(other, nil, time.Second, nil); !f.Known {
		t.Fatalf("another's record was refused: %v", f.Err)
	}
}

// TestStatusAgainstLockedQuoteHonestForms: the forms an honest service may
// write the quote's payout in are taken as they are, never said to claim
// another payout: the
// amount with other trailing zeros, the names in another case, a field
// left out, and a zero receive amount on a failed or refunded record,
// which paid nothing out.
func TestStatusAgainstLockedQuoteHonestForms(t *testing.T) {
	t0, in := lockedAt, lockedIntent
	own := follow.Own{"q-1": {QuoteID: "q-1", Made: true, Answered: true, State: exchange.StateSubmitted, AcceptedAt: t0, Intent: in}}
	for name, w := range map[string]exchange.Withdrawal{
		"8.50":                       {State: exchange.StateSending, Chain: "ARBITRUM", TokenOut: "USDT", ReceiveAmount: decimal.RequireFromString("8.50")},
		"lower case":                 {State: exchange.StateSending, Chain: "arbitrum", TokenOut: "usdt", ReceiveAmount: decimal.RequireFromString("8.5")},
		"no chain, token, or amount": {State: exchange.StateSending},
		"FAILED, receiving 0":        {State: exchange.StateFailed, Chain: "ARBITRUM", TokenOut: "USDT", ReceiveAmount: decimal.Zero},
		"REFUNDED, receiving 0":      {State: exchange.StateRefunded, Chain: "ARBITRUM", TokenOut: "USDT"},
	} {
		f := follow.Follow{QuoteID: "q-1"}
		own.Seed(&f)
		w.QuoteID, w.UpdatedAt = "q-1", t0
		if f.Answer(w, nil, time.Second, func(int64) int64 { return 0 }); !f.Known || f.Err != nil || f.Unlike != "" {
			t.Errorf("%s: an honest record was refused or said to claim another payout: %v %q", name, f.Err, f.Unlike)
		}
	}
}

// TestStatusAgainstLockedQuoteHash: the payout hash of a record naming
// another chain than the quote signed is that chain's transaction, so it
// is not shown (nor journaled, opened) as the signed chain's; the words
// name it for support. One on the signed chain is kept.
func TestStatusAgainstLockedQuoteHash(t *testing.T) {
	t0, in := lockedAt, lockedIntent
	own := follow.Own{"q-1": {QuoteID: "q-1", Made: true, Answered: true, State: exchange.StateSubmitted, AcceptedAt: t0, Intent: in}}
	hash := "0x" + strings.Repeat("ab", 32)
	for chain, kept := range map[string]bool{"BASE": false, "ARBITRUM": true} {
		f := follow.Follow{QuoteID: "q-1"}
		own.Seed(&f)
		f.Answer(exchange.Withdrawal{QuoteID: "q-1", State: exchange.StateCompleted, Chain: chain, TokenOut: "USDT",
			ReceiveAmount: decimal.RequireFromString("9999"), WithdrawTxHash: hash, UpdatedAt: t0}, nil, time.Second, func(int64) int64 { return 0 })
		if (f.Last.WithdrawTxHash == hash) != kept {
			t.Errorf("a record naming %s: the payout hash shown is %q, kept %v wanted", chain, f.Last.WithdrawTxHash, kept)
		}
		if words := f.Outcome().Words; !kept && !strings.Contains(words, "the chain BASE (payout hash "+hash+", not shown as ARBITRUM's)") {
			t.Errorf("a record naming BASE: the words %q do not name its hash", words)
		}
	}
}

// TestStatusAgainstLockedQuoteLeftOut: a journaled intent that holds no
// receive amount or payout token (the journal left them out) signed none:
// the record's are shown, never a zero or a blank in their place, and the
// words name only the chain it differs in.
func TestStatusAgainstLockedQuoteLeftOut(t *testing.T) {
	t0 := time.Date(2026, 3, 14, 9, 0, 0, 0, time.UTC)
	in := journal.Intent{ToAddress: "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC", Chain: "BASE"}
	own := follow.Own{"q-1": {QuoteID: "q-1", Made: true, Answered: true, State: exchange.StateSubmitted, AcceptedAt: t0, Intent: in}}
	f := follow.Follow{QuoteID: "q-1"}
	own.Seed(&f)
	f.Answer(exchange.Withdrawal{QuoteID: "q-1", State: exchange.StateSending, Chain: "ARBITRUM", TokenOut: "USDT",
		ReceiveAmount: decimal.RequireFromString("18.5"), UpdatedAt: t0}, nil, time.Second, func(int64) int64 { return 0 })
	if f.Last.Chain != "BASE" || f.Last.TokenOut != "USDT" || !f.Last.ReceiveAmount.Equal(decimal.RequireFromString("18.5")) {
		t.Errorf("shown as %s %s on %s, want the record's 18.5 USDT on the signed BASE", f.Last.ReceiveAmount, f.Last.TokenOut, f.Last.Chain)
	}
	if w := f.Outcome().Words; !strings.Contains(w, "names the chain ARBITRUM, not the payout on BASE of the quote") || strings.Contains(w, " 0 ") || strings.Contains(w, "receive amount") || strings.Contains(w, "payout token") {
		t.Errorf("the words name what the journal left out: %q", w)
	}
	f = follow.Follow{QuoteID: "q-1"}
	own.Seed(&f)
	f.Answer(exchange.Withdrawal{QuoteID: "q-1", State: exchange.StateSending, Chain: "BASE", TokenOut: "USDT",
		ReceiveAmount: decimal.RequireFromString("18.5"), UpdatedAt: t0}, nil, time.Second, func(int64) int64 { return 0 })
	if f.Unlike != "" {
		t.Errorf("a record on the signed chain was said to claim another payout: %q", f.Unlike)
	}
}

// TestStatusAgainstLockedQuoteHashShape: a record that leaves its chain
// out takes a payout hash of any chain's shape, so it may be of an EVM
// transaction's shape while the quote signed a SOLANA or TRON payout, or a
// SOLANA signature while it signed an EVM one: it is not shown (nor opened
// in the signed chain's explorer) as the signed chain's transaction, and
// the words name it for support. A hash of the signed chain's shape is
// kept.
func TestStatusAgainstLockedQuoteHashShape(t *testing.T) {
	t0 := time.Date(2026, 3, 14, 9, 0, 0, 0, time.UTC)
	evm, sol := "0x"+strings.Repeat("ab", 32), base58.Encode(bytes.Repeat([]byte{7}, 64))
	for _, tc := range []struct {
		chain, hash string
		kept        bool
	}{{"SOLANA", evm, false}, {"TRON", evm, false}, {"ARBITRUM", evm, true}, {"ARBITRUM", sol, false}, {"SOLANA", sol, true}} {
		chain, hash, kept := tc.chain, tc.hash, tc.kept
		in := journal.Intent{ToAddress: "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC", Chain: chain, TokenIn: "USDT", TokenOut: "USDT",
			PayAmount: decimal.RequireFromString("10"), ReceiveAmount: decimal.RequireFromString("8.5"), ExpiresAt: t0}
		own := follow.Own{"q-1": {QuoteID: "q-1", Made: true, Answered: true, State: exchange.StateSubmitted, AcceptedAt: t0, Intent: in}}
		w := exchange.Withdrawal{QuoteID: "q-1", State: exchange.StateCompleted, TokenOut: "USDT",
			ReceiveAmount: decimal.RequireFromString("8.5"), WithdrawTxHash: hash, UpdatedAt: t0}
		if err := w.CheckRead(); err != nil {
			t.Fatalf("the record without a chain is refused at the boundary, so this test holds nothing: %v", err)
		}
		f := follow.Follow{QuoteID: "q-1"}
		own.Seed(&f)
		f.Answer(w, nil, time.Second, func(int64) int64 { return 0 })
		if (f.Last.WithdrawTxHash == hash) != kept {
			t.Errorf("signed on %s, a record without a chain: the payout hash shown is %q, kept %v wanted", chain, f.Last.WithdrawTxHash, kept)
		}
		words := f.Outcome().Words
		if !kept && !strings.Contains(words, "a payout hash of another chain's shape ("+hash+", not shown as "+chain+"'s)") {
			t.Errorf("signed on %s: the words %q do not name the hash", chain, words)
		}
		if kept && f.Unlike != "" {
			t.Errorf("signed on %s, a hash of its shape was said to claim another payout: %q", chain, f.Unlike)
		}
	}
}

// TestJournaledFinalStateLeft: a final state is final (SPEC.md §2.10), so
// a record of an own withdrawal that leaves the one its journal saw
// (COMPLETED, then REFUNDED or SENDING) contradicts the journal: its words
// say so and to tell support, and one the journal saw paid is still shown
// and journaled paid, since one shown not paid would be sent again and pay
// twice. A record agreeing with the journal says nothing.
func TestJournaledFinalStateLeft(t *testing.T) {
	t0, in := lockedAt, lockedIntent
	hash := "0x" + strings.Repeat("ab", 32)
	for _, tc := range []struct{ journaled, claimed, shown string }{
		{exchange.StateCompleted, exchange.StateRefunded, exchange.StateCompleted},
		{exchange.StateCompleted, exchange.StateSending, exchange.StateCompleted},
		{exchange.StateFailed, exchange.StateSending, exchange.StateSending},
	} {
		own := follow.Own{"q-1": {QuoteID: "q-1", Made: true, Answered: true, State: tc.journaled, AcceptedAt: t0, TxHash: hash, Intent: in}}
		f := follow.Follow{QuoteID: "q-1"}
		own.Seed(&f)
		step := f.Answer(exchange.Withdrawal{QuoteID: "q-1", State: tc.claimed, Chain: "ARBITRUM", TokenOut: "USDT",
			ReceiveAmount: in.ReceiveAmount, UpdatedAt: t0}, nil, time.Second, func(int64) int64 { return 0 })
		if f.Last.State != tc.shown || step.JournalState != map[bool]string{true: "", false: tc.shown}[tc.shown == tc.journaled] {
			t.Errorf("journaled %s, claimed %s: shown %s, journaled %q; want %s", tc.journaled, tc.claimed, f.Last.State, step.JournalState, tc.shown)
		}
		if w := f.Outcome().Words; !strings.Contains(w, "now says "+tc.claimed) || !strings.Contains(w, "journal saw it "+tc.journaled) || !strings.Contains(w, "tell support") {
			t.Errorf("journaled %s, claimed %s: the words %q do not say the claim", tc.journaled, tc.claimed, w)
		}
		if tc.shown == exchange.StateCompleted && f.Payout() != follow.PayoutPaid {
			t.Errorf("journaled %s, claimed %s: payout %v, want paid", tc.journaled, tc.claimed, f.Payout())
		}
	}
	own := follow.Own{"q-1": {QuoteID: "q-1", Made: true, Answered: true, State: exchange.StateCompleted, AcceptedAt: t0, TxHash: hash, Intent: in}}
	f := follow.Follow{QuoteID: "q-1"}
	own.Seed(&f)
	f.Answer(exchange.Withdrawal{QuoteID: "q-1", State: exchange.StateCompleted, Chain: "ARBITRUM", TokenOut: "USDT", ReceiveAmount: in.ReceiveAmount,
		WithdrawTxHash: hash, UpdatedAt: t0}, nil, time.Second, func(int64) int64 { return 0 })
	if f.Unlike != "" {
		t.Errorf("a record agreeing with the journal said %q", f.Unlike)
	}
}

// TestKeptFinalStateLeft: the board's file is read back as an answer is:
// a kept record that leaves the final state the journal saw (REFUNDED
// kept, COMPLETED journaled: an earlier run's, or a file changed) is
// shown COMPLETED with the words, whether the journal is known before the
// file is read or after; it was a final row never asked again, saying
// "you can withdraw again" of a withdrawal paid out. The journal read
// again does not say it twice.
func TestKeptFinalStateLeft(t *testing.T) {
	t0, in := lockedAt, lockedIntent
	own := follow.Own{"q-1": {QuoteID: "q-1", Made: true, Answered: true, State: exchange.StateCompleted, AcceptedAt: t0,
		TxHash: "0x" + strings.Repeat("ab", 32), Intent: in}}
	kept := follow.Kept{QuoteID: "q-1", Checked: t0, Record: &exchange.Withdrawal{QuoteID: "q-1", State: exchange.StateRefunded, Chain: "ARBITRUM",
		TokenOut: "USDT", ReceiveAmount: in.ReceiveAmount, UpdatedAt: t0}}
	for _, knownFirst := range []bool{true, false} {
		s := follow.NewScheduler(1)
		if knownFirst {
			s.Know(own)
		}
		s.AddKept(kept, t0)
		if !knownFirst {
			s.Know(own)
		}
		// Held at once, whichever came first: the board reads the journal
		// before its file, and asks nothing of a final row.
		if f, _ := s.Get("q-1"); f.Last.State != exchange.StateCompleted {
			t.Errorf("journal known first %v: the kept row is %s before the journal is read again; want COMPLETED", knownFirst, f.Last.State)
		}
		s.Know(own) // the journal read again: the words said once
		f, _ := s.Get("q-1")
		if o := f.Outcome(); f.Last.State != exchange.StateCompleted || strings.Count(o.Words, "now says REFUNDED") != 1 {
			t.Errorf("journal known first %v: the kept row is %s: %q; want COMPLETED saying the claim", knownFirst, f.Last.State, o.Words)
		}
	}
}

// TestKeptLeftFinalSaidOnce: a kept record leaving a final state the
// journal saw that is not paid (FAILED, then SENDING) keeps its state, and
// the journal read again does not say the claim twice.
func TestKeptLeftFinalSaidOnce(t *testing.T) {
	t0 := time.Date(2026, 3, 14, 9, 0, 0, 0, time.UTC)
	own := follow.Own{"q-1": {QuoteID: "q-1", Made: true, Answered: true, State: exchange.StateFailed, AcceptedAt: t0}}
	s := follow.NewScheduler(1)
	s.AddKept(follow.Kept{QuoteID: "q-1", Checked: t0, Record: &exchange.Withdrawal{QuoteID: "q-1", State: exchange.StateSending, UpdatedAt: t0}}, t0)
	s.Know(own)
	s.Know(own)
	f, _ := s.Get("q-1")
	if w := f.Outcome().Words; f.Last.State != exchange.StateSending || strings.Count(w, "now says SENDING") != 1 {
		t.Errorf("the kept row is %s: %q; want SENDING, the claim said once", f.Last.State, w)
	}
}
