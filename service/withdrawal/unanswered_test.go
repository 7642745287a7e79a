package withdrawal_test

import (
	"context"
	"errors"
	"io"
	"net/http"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"github.com/svcwallet/svcwallet/internal/loopback"
	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/journal"
	"github.com/svcwallet/svcwallet/service/sandbox"
	"github.com/svcwallet/svcwallet/service/withdrawal"
	"github.com/svcwallet/svcwallet/signer"
)

// TestExecuteRefusesARepeatOfAnUnansweredWithdrawal: a withdrawal whose
// answer was lost may have been paid, so an identical one (chain,
// destination, amount) is refused before anything is signed or sent, until
// the lost one is settled (here by the journaled answer of a resume);
// AllowRepeat signs it all the same; another amount is another withdrawal.
func TestExecuteRefusesARepeatOfAnUnansweredWithdrawal(t *testing.T) {
	w := newWorld(t, sandbox.Options{})
	// A proxy that passes each withdraw on and drops every answer while
	// drop is set: the first one pays, its retries are answered into the void.
	var drop atomic.Bool
	drop.Store(true)
	rec := &loopback.Recorder{}
	proxy := &http.Client{Transport: loopback.RoundTripFunc(func(req *http.Request) (*http.Response, error) {
		resp, err := rec.RoundTrip(req)
		if err == nil && drop.Load() && req.URL.Path == exchange.PathWithdraw {
			resp.Body.Close()
			return nil, io.ErrUnexpectedEOF
		}
		return resp, err
	})}
	c := w.Login(sandbox.DemoAPIKey, exchange.Options{HTTPClient: proxy, Retry: exchange.RetryPolicy{Attempts: 2, Sleep: loopback.NoSleep}})
	j, err := journal.Open(filepath.Join(t.TempDir(), "journal.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	loads := 0
	key := func() (signer.Key, error) { loads++; return loopback.MustKey(t, sandbox.DemoPrivateKey), nil }
	wd := mustWithdrawer(t, withdrawal.Setup{Client: c, Journal: j, Now: w.Clock.Now})
	// Prepared for offline signing, and signed, before an identical one's
	// answer is lost.
	demo := loopback.MustKey(t, sandbox.DemoPrivateKey)
	early, err := wd.Prepare(context.Background(), withNonce(w.order(c), 11), demo.Address())
	if err != nil {
		t.Fatal(err)
	}
	earlySig, err := demo.SignTypedData(context.Background(), early.Order.Domain, early.Order.Transfer)
	if err != nil {
		t.Fatal(err)
	}

	lost := wd.Execute(context.Background(), w.order(c), key)
	if lost.Lost == nil {
		t.Fatalf("the dropped answer was not lost: %+v", lost)
	}
	if bal := w.Ex.Balance(sandbox.DemoAccountID); !bal.Equal(decimal.RequireFromString("9975")) {
		t.Fatalf("balance %s: the lost withdrawal was not paid", bal)
	}
	drop.Store(false)
	sentBefore, loadsBefore := rec.Count(exchange.PathWithdraw), loads

	again := wd.Execute(context.Background(), w.order(c), key)
	ue := withdrawal.AsUnanswered(again.Err)
	if ue == nil || ue.Earlier.QuoteID != lost.Lost.QuoteID || ue.Signed || again.Signed {
		t.Fatalf("the repeat was not refused for %s: %+v", lost.Lost.QuoteID, again)
	}
	for _, want := range []string{"An earlier withdrawal of 25 USDT to " + sandbox.DestCompleted + " on ARBITRUM (" + lost.Lost.QuoteID, "got no answer and may have been paid", "nothing was signed or sent"} {
		if !strings.Contains(again.Err.Error(), want) {
			t.Errorf("refusal %q lacks %q", again.Err, want)
		}
	}
	if n := rec.Count(exchange.PathWithdraw) - sentBefore; n != 0 || loads != loadsBefore {
		t.Fatalf("the refused repeat sent %d requests and loaded the key %d times", n, loads-loadsBefore)
	}
	// The same through Prepare: nothing is prepared either.
	if _, err := wd.Prepare(context.Background(), w.order(c), loopback.MustKey(t, sandbox.DemoPrivateKey).Address()); withdrawal.AsUnanswered(err) == nil {
		t.Fatalf("prepared a repeat for offline signing: %v", err)
	}
	// Nor is the file signed before the answer was lost submitted; it was
	// signed, so the refusal does not say nothing was.
	sent := wd.Submit(context.Background(), early, earlySig)
	if withdrawal.AsUnanswered(sent.Err) == nil || !sent.Signed {
		t.Fatalf("submitted a repeat prepared before the answer was lost, or said it unsigned: %+v", sent)
	}
	if said := sent.Err.Error(); !strings.Contains(said, "this one was signed and not sent, so its signature was never used") || strings.Contains(said, "nothing was signed") {
		t.Errorf("the signed submit's refusal says %q", said)
	}
	if n := rec.Count(exchange.PathWithdraw) - sentBefore; n != 0 {
		t.Fatalf("the refused submit sent %d requests", n)
	}

	// Another amount is not a repeat.
	other := w.order(c)
	if other.Choice.Amount = decimal.RequireFromString("24"); withdrawal.FindRepeat(mustRecords(t, c, j), other.Choice, w.Clock.Now()).Unanswered != nil {
		t.Error("24 USDT taken for a repeat of 25")
	}
	// AllowRepeat pays again, knowingly.
	allowed := mustWithdrawer(t, withdrawal.Setup{Client: c, Journal: j, Now: w.Clock.Now, AllowRepeat: true})
	if sent := allowed.Execute(context.Background(), withNonce(w.order(c), 12), key); sent.Err != nil {
		t.Fatalf("AllowRepeat: %v", sent.Err)
	}

	// The lost one is resumed: its identical request is answered, the
	// answer journaled, and a new one is no longer refused; it is now a
	// recent accepted one, a warning only.
	if r := wd.Resend(context.Background(), lost.Lost.Request); r.Err != nil {
		t.Fatalf("resend: %v", r.Err)
	}
	rep, err := wd.Repeats(w.order(c).Choice)
	if err != nil || rep.Unanswered != nil || rep.Recent == nil {
		t.Fatalf("after the resume: %+v, %v; want no unanswered one and a recent one", rep, err)
	}
	if sent := wd.Execute(context.Background(), withNonce(w.order(c), 13), key); sent.Err != nil {
		t.Fatalf("after the resume: %v", sent.Err)
	}
	if bal := w.Ex.Balance(sandbox.DemoAccountID); !bal.Equal(decimal.RequireFromString("9925")) {
		t.Fatalf("balance %s, want three payments of 25: the lost one once, the allowed repeat, the last", bal)
	}
}

// withNonce is o with another Transfer nonce: each signed withdrawal
// needs its own.
func withNonce(o withdrawal.Order, n uint32) withdrawal.Order {
	o.Transfer.Nonce = n
	return o
}

func mustRecords(t *testing.T, c *exchange.Client, j *journal.Journal) []journal.Record {
	t.Helper()
	s, _ := c.Session()
	recs, _, err := j.AccountRecords(journal.OwnerOf(c.Env(), s.AccountID))
	if err != nil {
		t.Fatal(err)
	}
	return recs
}

// TestFindRepeat: what counts as the same withdrawal, and which earlier
// ones stop a new one (no answer) or are only worth a warning (accepted
// within RecentRepeat, not finished).
func TestFindRepeat(t *testing.T) {
	now := time.Date(2026, 5, 4, 10, 0, 0, 0, time.UTC)
	dest := sandbox.DestCompleted
	c := withdrawal.Choice{TokenIn: "USDT", TokenOut: "USDT", Route: exchange.WithdrawalRoute{Chain: "BASE"}, ToAddress: dest, Amount: decimal.RequireFromString("14")}
	in := journal.Intent{ToAddress: strings.ToLower(dest), Chain: "BASE", TokenIn: "USDT", TokenOut: "USDC", PayAmount: decimal.RequireFromString("14.000")}
	rec := func(id string, ago time.Duration, mod func(*journal.Record)) journal.Record {
		r := journal.Record{QuoteID: id, Made: true, Intent: in, Started: now.Add(-ago)}
		if mod != nil {
			mod(&r)
		}
		return r
	}
	unanswered := rec("q-lost", 48*time.Hour, nil)
	if got := withdrawal.FindRepeat([]journal.Record{unanswered}, c, now); got.Unanswered == nil || got.Unanswered.QuoteID != "q-lost" {
		t.Fatalf("an unanswered one (any age, address in another case, another token out) was not found: %+v", got)
	}
	for name, r := range map[string]journal.Record{
		"another chain":       rec("q-1", 0, func(r *journal.Record) { r.Intent.Chain = "ARBITRUM" }),
		"another destination": rec("q-2", 0, func(r *journal.Record) { r.Intent.ToAddress = sandbox.DestFailed }),
		"another amount":      rec("q-3", 0, func(r *journal.Record) { r.Intent.PayAmount = decimal.RequireFromString("14.5") }),
		"refused":             rec("q-4", 0, func(r *journal.Record) { r.Answered = true }),
		"settled by a resume": rec("q-5", 0, func(r *journal.Record) { r.Answered, r.State = true, exchange.StateCompleted }),
		"not made here":       rec("q-6", 0, func(r *journal.Record) { r.Made = false }),
		"accepted long ago":   rec("q-7", withdrawal.RecentRepeat, func(r *journal.Record) { r.Answered, r.State = true, exchange.StateSubmitted }),
	} {
		if got := withdrawal.FindRepeat([]journal.Record{r}, c, now); got.Unanswered != nil || got.Recent != nil {
			t.Errorf("%s: %+v", name, got)
		}
	}
	recent := rec("q-recent", 2*time.Minute, func(r *journal.Record) { r.Answered, r.State = true, exchange.StateSending })
	got := withdrawal.FindRepeat([]journal.Record{recent}, c, now)
	if got.Unanswered != nil || got.Recent == nil {
		t.Fatalf("a recent accepted one: %+v", got)
	}
	// The same money leaving, but paid out as USDC, not as this one's USDT:
	// not an identical withdrawal.
	if words := got.RecentWords(now); !strings.HasPrefix(words, "A withdrawal of 14 USDT to ") ||
		!strings.Contains(words, "(q-recent, paid out as USDC; this one as USDT) was made 2m0s ago and is SENDING") {
		t.Errorf("recent words %q", words)
	}
	c.TokenOut = "usdc"
	if words := withdrawal.FindRepeat([]journal.Record{recent}, c, now).RecentWords(now); !strings.HasPrefix(words, "An identical withdrawal of 14 USDT to ") ||
		!strings.Contains(words, "(q-recent) was made") {
		t.Errorf("recent words of an identical one %q", words)
	}
	recent.Intent.TokenOut = ""
	if words := withdrawal.FindRepeat([]journal.Record{recent}, c, now).RecentWords(now); !strings.HasPrefix(words, "A withdrawal of 14 USDT to ") ||
		!strings.Contains(words, "(q-recent; this one pays out as usdc) was made") {
		t.Errorf("recent words of one journaled without its payout token %q", words)
	}
	// Another run's withdrawal of the same money is identical only when it
	// pays out the same token too.
	for out, want := range map[string]string{"USDT": "A withdrawal of 14 USDT to ", "usdc": "An identical withdrawal of 14 USDT to "} {
		recent.Intent.TokenOut = "USDC"
		if words := (&withdrawal.OvertakenError{Other: recent, TokenOut: out}).Error(); !strings.HasPrefix(words, want) {
			t.Errorf("overtaken by one paid out as USDC, this one as %s: %q", out, words)
		}
	}
	var ue *withdrawal.UnansweredError
	if !errors.As(error(&withdrawal.UnansweredError{Earlier: unanswered}), &ue) || !strings.HasPrefix(ue.Fact(), "An earlier withdrawal of 14 USDT to "+strings.ToLower(dest)+" on BASE (q-lost, sent 2026-05-02 10:00 UTC)") {
		t.Errorf("fact %q", ue.Fact())
	}
}
