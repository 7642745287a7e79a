package follow_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/follow"
)

// claimHash is an EVM payout hash, of the shape of BASE's and ARBITRUM's.
var claimHash = "0x" + strings.Repeat("ab", 32)

// claimRig is an own withdrawal signed for 8.5 USDT on ARBITRUM, and the
// board's file in a fresh directory.
func claimRig(t *testing.T) (follow.Own, *follow.WatchFile) {
	t0, in := lockedAt, lockedIntent
	own := follow.Own{"q-1": {QuoteID: "q-1", Made: true, Answered: true, State: exchange.StateSubmitted, AcceptedAt: t0, Intent: in}}
	return own, &follow.WatchFile{Path: filepath.Join(t.TempDir(), follow.WatchlistFile), Env: "local"}
}

// TestKeptClaimSaidAgain: what a final record claimed against the quote
// signed (another chain with its payout hash, another receive amount) is
// kept in the board's file as data, and a scheduler started from the
// file says it again at once, with what was signed shown; with the
// journal gone too, against the record shown, which was what was signed.
func TestKeptClaimSaidAgain(t *testing.T) {
	at := time.Date(2026, 3, 14, 10, 0, 0, 0, time.UTC)
	for name, c := range map[string]struct {
		edit func(*exchange.Withdrawal)
		says string
	}{
		"another chain": {func(w *exchange.Withdrawal) { w.Chain = "BASE" },
			"names the chain BASE (payout hash " + claimHash + ", not shown as ARBITRUM's), not the 8.5 USDT on ARBITRUM"},
		"another receive amount": {func(w *exchange.Withdrawal) { w.ReceiveAmount = decimal.RequireFromString("9999") },
			"names a receive amount of 9999 USDT, not the 8.5 USDT on ARBITRUM"},
	} {
		t.Run(name, func(t *testing.T) {
			own, file := claimRig(t)
			f := follow.Follow{QuoteID: "q-1"}
			own.Seed(&f)
			w := exchange.Withdrawal{QuoteID: "q-1", TxID: "tx-1", State: exchange.StateCompleted, Chain: "ARBITRUM", TokenOut: "USDT",
				ReceiveAmount: decimal.RequireFromString("8.5"), WithdrawTxHash: claimHash, UpdatedAt: at}
			c.edit(&w)
			f.Answer(w, nil, time.Second, func(int64) int64 { return 0 })
			if !strings.Contains(f.Unlike, c.says) {
				t.Fatalf("the record's claim is said %q, want %q", f.Unlike, c.says)
			}
			if err := file.Append([]follow.Kept{(follow.Followed{Follow: f}).Kept()}, nil); err != nil {
				t.Fatal(err)
			}
			for _, known := range []follow.Own{own, nil} {
				kept, err := (&follow.WatchFile{Path: file.Path, Env: file.Env}).Load()
				if err != nil || len(kept) != 1 || kept[0].Claim == nil {
					t.Fatalf("the file keeps %+v (%v), want the claim", kept, err)
				}
				s := follow.NewScheduler(1)
				s.Know(known)
				s.AddKept(kept[0], at)
				again, _ := s.Get("q-1")
				o := again.Outcome()
				if !again.Final || o.Name != exchange.StateCompleted || !strings.Contains(o.Words, c.says) {
					t.Fatalf("journal %v: after a restart the row is %s (final %v): %q, want the claim %q", known != nil, o.Name, again.Final, o.Words, c.says)
				}
				if again.Last.Chain != "ARBITRUM" || !again.Last.ReceiveAmount.Equal(decimal.RequireFromString("8.5")) || name == "another chain" && again.Last.WithdrawTxHash != "" {
					t.Fatalf("journal %v: after a restart the claim is shown as the withdrawal's: %+v", known != nil, again.Last)
				}
			}
		})
	}
}

// TestHostileKeptClaim: a claim read back from the board's file is taken
// only as this program writes one, every field held to an answer's
// checks: text, a hash of another chain's shape, a hash without another
// chain, a field naming what the record shows (alone or beside another
// that differs), an amount past its token's
// decimals or a claim without a record is dropped, never shown; the
// record stays when it holds alone.
func TestHostileKeptClaim(t *testing.T) {
	rec := `{"quote_id":"q-1","tx_id":"tx-1","state":"COMPLETED","chain":"ARBITRUM","token_out":"USDT","receive_amount":"8.5","updated_at":"2026-03-14T10:00:00Z"`
	shown := rec + `,"withdraw_tx_hash":"` + claimHash + `"}`
	sending := strings.Replace(rec, "COMPLETED", "SENDING", 1) + "}"
	for name, c := range map[string]struct {
		line   string
		record bool // the record is kept without the claim
	}{
		"text for a chain":               {`"record":` + rec + `},"claim":{"chain":"BASE\u001b]0;pwned\u0007","withdraw_tx_hash":"` + claimHash + `"}`, false},
		"words for a token":              {`"record":` + shown + `,"claim":{"token_out":"call support at 555"}`, true},
		"a hash of another shape":        {`"record":` + rec + `},"claim":{"chain":"SOLANA","withdraw_tx_hash":"` + claimHash + `"}`, false},
		"a hash without a chain":         {`"record":` + rec + `},"claim":{"withdraw_tx_hash":"` + claimHash + `"}`, false},
		"the chain shown":                {`"record":` + shown + `,"claim":{"chain":"arbitrum"}`, true},
		"a hash on the chain shown":      {`"record":` + rec + `},"claim":{"chain":"arbitrum","withdraw_tx_hash":"` + claimHash + `"}`, false},
		"a hash without a chain, beside": {`"record":` + shown + `,"claim":{"withdraw_tx_hash":"` + claimHash + `","receive_amount":"9"}`, true},
		"the chain shown beside":         {`"record":` + sending + `,"claim":{"chain":"arbitrum","receive_amount":"9"}`, true},
		"the token shown beside":         {`"record":` + shown + `,"claim":{"token_out":"USDT","receive_amount":"9"}`, true},
		"the amount shown beside":        {`"record":` + shown + `,"claim":{"token_out":"USDC","receive_amount":"8.50"}`, true},
		"a hash beside the shown":        {`"record":` + shown + `,"claim":{"chain":"BASE","withdraw_tx_hash":"` + claimHash + `"}`, true},
		"past the token's decimals":      {`"record":` + shown + `,"claim":{"receive_amount":"8.1234567"}`, true},
		"another id's record":            {`"record":` + strings.Replace(shown, `"q-1"`, `"q-2"`, 1) + `,"claim":{"receive_amount":"9"}`, false},
		"a claim without any record":     {`"claim":{"receive_amount":"9"}`, false},
	} {
		t.Run(name, func(t *testing.T) {
			_, file := claimRig(t)
			line := `{"env":"local","put":[{"quote_id":"q-1",` + c.line + `}]}` + "\n"
			if err := os.WriteFile(file.Path, []byte(line), 0o600); err != nil {
				t.Fatal(err)
			}
			kept, err := file.Load()
			if err != nil || len(kept) != 1 || kept[0].QuoteID != "q-1" {
				t.Fatalf("the file reads as %+v (%v), want q-1 kept", kept, err)
			}
			if kept[0].Claim != nil || (kept[0].Record != nil) != c.record {
				t.Fatalf("read back: claim %+v, record %+v; want no claim, a record %v", kept[0].Claim, kept[0].Record, c.record)
			}
		})
	}
	// The honest form of each is taken, so the refusals above are the
	// claims', not the line's.
	_, file := claimRig(t)
	honest := `{"env":"local","put":[{"quote_id":"q-1","record":` + rec + `},"claim":{"chain":"BASE","withdraw_tx_hash":"` + claimHash + `","receive_amount":"9"}}]}` + "\n"
	if err := os.WriteFile(file.Path, []byte(honest), 0o600); err != nil {
		t.Fatal(err)
	}
	if kept, err := file.Load(); err != nil || len(kept) != 1 || kept[0].Claim == nil || kept[0].Record == nil {
		t.Fatalf("an honest claim reads as %+v (%v)", kept, err)
	}
}

// TestKeptHashShapeClaimSaidAgain: a record that left its chain out with a
// payout hash of another chain's shape than the SOLANA one signed is kept
// with that claim, and said again after a restart, the hash still not
// shown as SOLANA's.
func TestKeptHashShapeClaimSaidAgain(t *testing.T) {
	at := time.Date(2026, 3, 14, 10, 0, 0, 0, time.UTC)
	own, file := claimRig(t)
	r := own["q-1"]
	r.Intent.Chain = "SOLANA"
	own["q-1"] = r
	f := follow.Follow{QuoteID: "q-1"}
	own.Seed(&f)
	f.Answer(exchange.Withdrawal{QuoteID: "q-1", TxID: "tx-1", State: exchange.StateCompleted, TokenOut: "USDT",
		ReceiveAmount: decimal.RequireFromString("8.5"), WithdrawTxHash: claimHash, UpdatedAt: at}, nil, time.Second, func(int64) int64 { return 0 })
	says := "a payout hash of another chain's shape (" + claimHash + ", not shown as SOLANA's)"
	if !strings.Contains(f.Unlike, says) || f.Last.WithdrawTxHash != "" {
		t.Fatalf("said %q, shown hash %q; want the claim and no hash", f.Unlike, f.Last.WithdrawTxHash)
	}
	if err := file.Append([]follow.Kept{(follow.Followed{Follow: f}).Kept()}, nil); err != nil {
		t.Fatal(err)
	}
	kept, err := (&follow.WatchFile{Path: file.Path, Env: file.Env}).Load()
	if err != nil || len(kept) != 1 || kept[0].Claim == nil {
		t.Fatalf("the file keeps %+v (%v), want the claim", kept, err)
	}
	s := follow.NewScheduler(1)
	s.Know(own)
	s.AddKept(kept[0], at)
	again, _ := s.Get("q-1")
	if !strings.Contains(again.Outcome().Words, says) || again.Last.WithdrawTxHash != "" || again.Last.Chain != "SOLANA" {
		t.Fatalf("after a restart: %q, shown %+v", again.Outcome().Words, again.Last)
	}
}
