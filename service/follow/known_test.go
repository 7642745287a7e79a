package follow_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/follow"
	"github.com/svcwallet/svcwallet/service/journal"
)

const sharedHash = "0x4f2c9e1b7a3d5c8e0f1a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d5e6f70"

// TestAPayoutHashNamesEveryWithdrawalItPays: two withdrawals this machine
// has seen paid out in one transaction (a bridge batching its payouts)
// share the payout hash a customer quotes. It resolves to both, and what
// is said of it says they are two: one, the last learned, was followed
// alone, and support read another customer's withdrawal as the one asked
// about.
func TestAPayoutHashNamesEveryWithdrawalItPays(t *testing.T) {
	k := follow.Known{}
	k.AddRecord(journal.Record{QuoteID: "q-customer-x", TxHash: sharedHash})
	k.AddWithdrawal(exchange.Withdrawal{QuoteID: "q-customer-y", WithdrawTxHash: sharedHash})
	k.AddWithdrawal(exchange.Withdrawal{QuoteID: "q-customer-x", WithdrawTxHash: sharedHash}) // learned twice, one withdrawal
	f, err := k.Resolve(sharedHash, noSecret)
	if err != nil || !f.Seen || !slices.Equal(f.QuoteIDs, []string{"q-customer-x", "q-customer-y"}) {
		t.Fatalf("the payout hash two withdrawals share resolved to %+v, %v; want both", f, err)
	}
	said := f.Said("payout hash 0x4f2c…6f70")
	if want := "payout hash 0x4f2c…6f70 is 2 withdrawals, paid out together: q-customer-x, q-customer-y"; said != want {
		t.Errorf("said %q, want %q", said, want)
	}
}

// TestKnownHereKeepsTheBoardsAccount: KnownHere is one account's, but the
// watch board's file holds the rows of every account it followed
// (Kept.As). A payout hash of a row followed as account B, looked up as
// account A, is B's and says so, never asked as A (whose service answers
// "not found", said as "unknown, or another account's" though the board
// knew which); looked up as B, or kept with no account, it is asked.
func TestKnownHereKeepsTheBoardsAccount(t *testing.T) {
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	path := filepath.Join(filepath.Dir(journal.DefaultPath()), follow.WatchlistFile)
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	w := &follow.WatchFile{Path: path, Env: "prod"}
	paid := func(q, hash string) *exchange.Withdrawal {
		return &exchange.Withdrawal{QuoteID: q, TxID: "tx-" + q, State: "COMPLETED", Chain: "BSC", TokenOut: "USDT",
			ReceiveAmount: decimal.RequireFromString("10"), WithdrawTxHash: hash, UpdatedAt: time.Unix(1700000000, 0).UTC()}
	}
	other := "0x" + strings.Repeat("ab", 32)
	if err := w.Append([]follow.Kept{{QuoteID: "q-of-b", Record: paid("q-of-b", sharedHash), As: "account-b"},
		{QuoteID: "q-anyone", Record: paid("q-anyone", other)}}, nil); err != nil {
		t.Fatal(err)
	}
	asA := follow.KnownHere(nil, journal.Owner{Env: "prod", AccountID: "account-a"})
	f, err := asA.Resolve(sharedHash, noSecret)
	if err != nil || len(f.QuoteIDs) != 0 || len(f.Others) != 1 || f.Others[0] != (follow.Sighting{QuoteID: "q-of-b", As: "account-b"}) {
		t.Fatalf("account A's look-up of account B's payout hash: %+v, %v; want it B's, nothing to ask", f, err)
	}
	if said := f.Said("payout hash 0x4f2c…6f70"); !strings.Contains(said, "q-of-b") || !strings.Contains(said, "account account-b") {
		t.Errorf("said %q, want the withdrawal and the account it was followed as", said)
	}
	if f, err := asA.Resolve(other, noSecret); err != nil || !slices.Equal(f.QuoteIDs, []string{"q-anyone"}) {
		t.Errorf("a row kept with no account: %+v, %v; want it asked", f, err)
	}
	asB := follow.KnownHere(nil, journal.Owner{Env: "prod", AccountID: "account-b"})
	if f, err := asB.Resolve("tx-q-of-b", noSecret); err != nil || !slices.Equal(f.QuoteIDs, []string{"q-of-b"}) || len(f.Others) != 0 {
		t.Errorf("account B's own row: %+v, %v; want it asked", f, err)
	}
}

// TestThisAccountsJournalOutweighsTheBoardsAccount: a withdrawal the
// board's file says it followed as account B that this account's journal
// holds too (learned after the row, as the board learns another
// terminal's journal) is this account's: asked, not said to be B's,
// whichever was learned first.
func TestThisAccountsJournalOutweighsTheBoardsAccount(t *testing.T) {
	held := follow.Kept{QuoteID: "q-mine", Record: &exchange.Withdrawal{QuoteID: "q-mine", WithdrawTxHash: sharedHash}, As: "account-b"}
	rec := journal.Record{QuoteID: "q-mine", TxHash: sharedHash}
	for _, order := range []string{"board first", "journal first"} {
		k := follow.Known{}
		if order == "board first" {
			k.AddKept(held, "account-a")
			k.AddRecord(rec)
		} else {
			k.AddRecord(rec)
			k.AddKept(held, "account-a")
		}
		if f, err := k.Resolve(sharedHash, noSecret); err != nil || !slices.Equal(f.QuoteIDs, []string{"q-mine"}) || len(f.Others) != 0 {
			t.Errorf("%s: %+v, %v; want it asked as this account's", order, f, err)
		}
	}
}
