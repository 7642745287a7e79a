package journal_test

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"github.com/svcwallet/svcwallet/internal/exchangetest"
	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/journal"
	"github.com/svcwallet/svcwallet/service/sandbox"
	"github.com/svcwallet/svcwallet/signer"
)

// TestJournalNeverHoldsKeys: an entry is the request and its public
// signature; nothing of the key that signed it.
func TestJournalNeverHoldsKeys(t *testing.T) {
	path := filepath.Join(t.TempDir(), "journal.jsonl")
	j, _ := journal.Open(path)
	if err := j.Append(journal.Entry{Time: t0, Kind: journal.KindIntent, QuoteID: "q-1", Request: journalRequest("q-1", 1)}); err != nil {
		t.Fatal(err)
	}
	raw, _ := os.ReadFile(path)
	for _, field := range []string{`"quote_id":"q-1"`, `"signer":"0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266"`, `"nonce":1`, `"chain_id":327`} {
		if !strings.Contains(string(raw), field) {
			t.Errorf("journal line lacks %s: %s", field, raw)
		}
	}
}

// TestJournalTypedDataMatchesRequest: an intent line's domain and transfer
// are what its request signed, so a transfer with another nonce or
// expiration, a domain without a transfer or a control character in the
// domain name is refused as written and skipped as read.
func TestJournalTypedDataMatchesRequest(t *testing.T) {
	path := filepath.Join(t.TempDir(), "journal.jsonl")
	j, err := journal.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	req := journalRequest("q-typed", 7)
	exp, _ := strconv.ParseInt(req.Signature.Expiration, 10, 64)
	good := signer.Transfer{Nonce: 7, Expiration: exp, NumTokens: 25_000_000}
	domain := signer.Domain{Name: "Service Exchange", ChainID: 327}
	entry := func(d *signer.Domain, tr *signer.Transfer) journal.Entry {
		return journal.Entry{Time: t0, Kind: journal.KindIntent, Env: "sandbox", QuoteID: "q-typed", Request: req, Domain: d, Transfer: tr}
	}
	if err := j.Append(entry(&domain, &good)); err != nil {
		t.Fatalf("the transfer its request signed: %v", err)
	}
	otherNonce, otherExp := good, good
	otherNonce.Nonce = 8
	otherExp.Expiration++
	badName := signer.Domain{Name: "Service\u202eExchange", ChainID: 327}
	longName := signer.Domain{Name: strings.Repeat("a", 63) + "…", ChainID: 327} // 66 bytes, as safetext.Line would cut it
	for name, e := range map[string]journal.Entry{
		"another nonce":         entry(&domain, &otherNonce),
		"another expiration":    entry(&domain, &otherExp),
		"a domain alone":        entry(&domain, nil),
		"a bidi mark in a name": entry(&badName, &good),
		"a name past 64 bytes":  entry(&longName, &good),
	} {
		if err := j.Append(e); !errors.Is(err, journal.ErrLine) {
			t.Errorf("%s: Append = %v, want journal.ErrLine", name, err)
		}
	}
	entries, skipped, err := j.Scan()
	if err != nil || skipped != 0 || len(entries) != 1 || *entries[0].Transfer != good {
		t.Fatalf("scan: %+v, %d skipped, %v", entries, skipped, err)
	}
}

// TestJournalWritesOnlyWhatReadsBack: an entry the reader would skip or
// read differently is refused by Append, and nothing is written.
func TestJournalWritesOnlyWhatReadsBack(t *testing.T) {
	path := filepath.Join(t.TempDir(), "journal.jsonl")
	j, err := journal.Open(path)
	exchangetest.Must(t, err)
	huge := decimal.RequireFromString(strings.Repeat("1", 70_000))
	for name, e := range map[string]journal.Entry{
		"70,000-digit receive amount": {Kind: journal.KindIntent, Env: "sandbox", QuoteID: "q-1", Intent: &journal.Intent{
			Chain: "ARBITRUM", TokenIn: "USDT", TokenOut: "USDT", ToAddress: sandbox.DestCompleted, PayAmount: decimal.NewFromInt(10), ReceiveAmount: huge}},
		"quote id with a dollar": {Kind: journal.KindAccepted, Env: "sandbox", QuoteID: "q-$(x)"},
		"unknown kind":           {Kind: "paid", Env: "sandbox", QuoteID: "q-1"},
		"escape in an error":     {Kind: journal.KindRejected, Env: "sandbox", QuoteID: "q-1", Error: "no\x1b[2J"},
		"an accepted expiry":     {Kind: journal.KindAccepted, Env: "sandbox", QuoteID: "q-1", QuoteExpired: true},
	} {
		t.Run(name, func(t *testing.T) {
			e.Time = time.Unix(1, 0).UTC()
			if err := j.Append(e); !errors.Is(err, journal.ErrLine) {
				t.Fatalf("Append = %v, want journal.ErrLine", err)
			}
			if b, _ := os.ReadFile(path); len(b) != 0 {
				t.Fatalf("the journal holds %d bytes", len(b))
			}
		})
	}
}

// TestJournalReadBackIsChecked: lines planted in the journal are held to
// the shapes of an answer: each bad one is skipped and counted, never
// returned, and a good line among them is still read.
func TestJournalReadBackIsChecked(t *testing.T) {
	path := filepath.Join(t.TempDir(), "journal.jsonl")
	j, err := journal.Open(path)
	exchangetest.Must(t, err)
	good := `{"time":"2026-03-01T10:00:00Z","kind":"accepted","env":"sandbox","quote_id":"q-good"}`
	bad := []string{
		`{"time":"2026-03-01T10:00:00Z","kind":"accepted","env":"sandbox","quote_id":"q-\u001b]0;owned\u0007"}`,
		`{"time":"2026-03-01T10:00:00Z","kind":"accepted","env":"sandbox","quote_id":"q-1$(touch /tmp/x)"}`,
		`{"time":"2026-03-01T10:00:00Z","kind":"state","env":"sandbox","quote_id":"q-2","state":"PAID"}`,
		`{"time":"2026-03-01T10:00:00Z","kind":"state","env":"sandbox","quote_id":"q-3","state":"FAILED","STATE":"COMPLETED"}`,
		`{"time":"2026-03-01T10:00:00Z","kind":"intent","env":"sandbox","quote_id":"q-4","intent":{"chain":"ARBITRUM","token_in":"USDT","token_out":"USDT","pay_amount":"1","receive_amount":"` + strings.Repeat("9", 900) + `"}}`,
		`{"time":"2026-03-01T10:00:00Z","kind":"intent","env":"sandbox","quote_id":"q-5","intent":{"chain":"ARBITRUM","token_in":"USDT","token_out":"USDT","to_address":"0x3C44\u202eCdDd"}}`,
		`{"time":"2026-03-01T10:00:00Z","kind":"intent","env":"sandbox","quote_id":"q-6","request":{"quote_id":"q-6","signature":{"signer":"me","r":"0x1","s":"0x2","v":1,"nonce":1,"expiration":"x"}}}`,
		`{"time":"2026-03-01T10:00:00Z","kind":"state","env":"sandbox","quote_id":"q-8","state":"COMPLETED","quote_expired":true}`,
		// Read, it would say refused after an acceptance.
		`{"time":"2026-03-01T10:00:00Z","kind":"state","env":"sandbox","quote_id":"q-good"}`,
	}
	exchangetest.Must(t, os.WriteFile(path, []byte(strings.Join(append(bad, good), "\n")+"\n"), 0o600))
	entries, skipped, err := j.Scan()
	if err != nil || len(entries) != 1 || entries[0].QuoteID != "q-good" || skipped != len(bad) {
		t.Fatalf("read %d entries (%v), skipped %d of %d bad lines", len(entries), err, skipped, len(bad))
	}
	// An error text is cleaned to one line where it is read.
	exchangetest.Must(t, os.WriteFile(path, []byte(`{"time":"2026-03-01T10:00:00Z","kind":"rejected","env":"sandbox","quote_id":"q-7","error":"no\u001b[2J\nmore"}`+"\n"), 0o600))
	if entries, _, err := j.Scan(); err != nil || len(entries) != 1 || entries[0].Error != "no more" {
		t.Fatalf("entries %+v, %v; want the error cleaned", entries, err)
	}
}

// TestQuoteExpiredWordsNameNoKey: the words of an expired quote are shared
// by the console, the command line and the journal (History, `history`):
// they name no key of the console's.
func TestQuoteExpiredWordsNameNoKey(t *testing.T) {
	got := exchange.Explain(&exchange.APIError{Status: 410, Code: exchange.CodeQuoteExpired}).Error()
	if strings.Contains(got, "press") || !strings.Contains(got, "nothing was paid") {
		t.Errorf("Explain(quote expired) = %q", got)
	}
	// A refusal older versions journaled in the console's words reads in today's.
	recs := journal.FoldRecords([]journal.Entry{
		{Kind: journal.KindIntent, QuoteID: "q-1"},
		{Kind: journal.KindRejected, QuoteID: "q-1", Error: "Quote expired: press r to get a new one and sign again (service: gone at 10:02)"},
	})
	if len(recs) != 1 || recs[0].Error != exchange.QuoteExpiredWords+" (service: gone at 10:02)" {
		t.Errorf("old journal line reads %q", recs[0].Error)
	}
}
