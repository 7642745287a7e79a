package follow

import (
	"fmt"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/journal"
)

// TestSchedulerAsksHotFirst (issue 21 item 14, issue 35 item 1): with 1,000
// moving ids added at once on a budget of 5 requests a second, the 50 that
// changed within HotWindow are each asked at least every 15 s once every id
// was asked once; before, while ids never asked take four slots in five,
// they share the fifth with the others: each is asked at least every
// 50 / (1 × 3/4) ≈ 67 s. The 950 older ones are still asked, and a final
// id is never asked again.
func TestSchedulerAsksHotFirst(t *testing.T) {
	start := time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)
	s := NewScheduler(5)
	updated := map[string]time.Time{}
	for i := range 1000 {
		id := fmt.Sprintf("q-%04d", i)
		updated[id] = start.Add(-2 * time.Hour) // stuck SENDING for hours
		if i%20 == 0 {
			updated[id] = start.Add(-time.Minute) // submitted a minute ago
		}
		s.Add(id, start)
	}
	s.Add("q-final", start)

	asked := map[string][]time.Time{}
	now := start
	for now.Before(start.Add(20 * time.Minute)) {
		id, wait, ok := s.Next(now)
		if !ok {
			if wait <= 0 {
				t.Fatal("nothing left to ask")
			}
			now = now.Add(wait)
			continue
		}
		asked[id] = append(asked[id], now)
		w := exchange.Withdrawal{QuoteID: id, State: exchange.StateSending, UpdatedAt: updated[id]}
		if id == "q-final" {
			w.State, w.WithdrawTxHash = exchange.StateCompleted, "0xabc"
		}
		s.Answer(id, w, nil, now)
	}

	if n := len(asked["q-final"]); n != 1 {
		t.Errorf("the final id was asked %d times, want once", n)
	}
	allAsked := start
	for _, times := range asked {
		if times[0].After(allAsked) {
			allAsked = times[0]
		}
	}
	for id, times := range asked {
		if !updated[id].After(start.Add(-HotWindow)) || id == "q-final" {
			continue
		}
		// Hot until HotWindow after its last change; then it is a cold one.
		prev, cools := times[0], updated[id].Add(HotWindow)
		for _, at := range times[1:] {
			if at.After(cools) {
				break
			}
			bound := 15 * time.Second
			if prev.Before(allAsked) {
				bound = 70 * time.Second
			}
			if gap := at.Sub(prev); gap > bound {
				t.Fatalf("hot id %s waited %s between asks (at %s; every id asked once at %s)", id, gap, at.Sub(start), allAsked.Sub(start))
			}
			prev = at
		}
	}
	for i := range 1000 {
		id := fmt.Sprintf("q-%04d", i)
		if len(asked[id]) < 2 {
			t.Fatalf("%s asked %d times in 20 minutes: the cold ids starve", id, len(asked[id]))
		}
	}
}

// TestRecall (issue 28 item 4): an own withdrawal starts from the
// journal's last record (state, chain, amount, payout hash) instead of
// from blank; a state the journal holds that ends it replaces a kept one
// that does not, never the other way round; another account's id, or one
// the journal holds no state of, is left as it is.
func TestRecall(t *testing.T) {
	rec := journal.Record{QuoteID: "q-own-1", State: exchange.StateCompleted, TxHash: "0xabc",
		Intent: journal.Intent{Chain: "ARBITRUM", TokenOut: "USDT", ReceiveAmount: decimal.RequireFromString("8.5")}}
	own := Own{"q-own-1": rec, "q-sent-1": {QuoteID: "q-sent-1", Made: true}}

	blank := Follow{QuoteID: "q-own-1"}
	own.Recall(&blank)
	if !blank.Known || blank.Last.State != exchange.StateCompleted || blank.Last.WithdrawTxHash != "0xabc" ||
		blank.Last.Chain != "ARBITRUM" || !blank.Last.ReceiveAmount.Equal(rec.Intent.ReceiveAmount) || blank.Final {
		t.Errorf("recalled from blank: %+v", blank)
	}
	kept := Follow{QuoteID: "q-own-1", Known: true, Last: exchange.Withdrawal{QuoteID: "q-own-1", State: exchange.StateSending, TxID: "tx-1"}}
	own.Recall(&kept)
	if kept.Last.State != exchange.StateCompleted || kept.Last.TxID != "tx-1" {
		t.Errorf("a kept SENDING with COMPLETED journaled: %+v", kept.Last)
	}
	ended := Follow{QuoteID: "q-own-1", Known: true, Last: exchange.Withdrawal{QuoteID: "q-own-1", State: exchange.StateFailed}}
	sending := own
	sending["q-own-1"] = journal.Record{QuoteID: "q-own-1", State: exchange.StateSending}
	sending.Recall(&ended)
	if ended.Last.State != exchange.StateFailed {
		t.Errorf("a kept end was replaced by the journal's %s", ended.Last.State)
	}
	for _, f := range []Follow{{QuoteID: "q-other-1"}, {QuoteID: "q-sent-1"}} {
		own.Recall(&f)
		if f.Known {
			t.Errorf("%s recalled from nothing: %+v", f.QuoteID, f)
		}
	}
}
