package journal

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/shopspring/decimal"

	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/signer"
)

var genT0 = time.Date(2026, 3, 2, 10, 0, 0, 0, time.UTC)

// genOwner is the owner of genLines' withdrawals: acct-1 on chain 327.
var genOwner = Owner{Env: "production", ChainID: 327, AccountID: "acct-1"}

// genIntent is an intent line as Execute writes it: the request, the
// choice and the typed data it signed.
func genIntent(env, account, id string, n int, at time.Time) Entry {
	exp := at.Add(time.Hour).UnixNano()
	req := &exchange.WithdrawRequest{QuoteID: id, Signature: exchange.WithdrawSignature{
		Signer: "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266", R: "0x" + strings.Repeat("1", 64), S: "0x" + strings.Repeat("2", 64),
		V: 27, Nonce: uint32(n), Expiration: fmt.Sprint(exp), ChainID: 327,
	}}
	in := &Intent{ToAddress: "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC", Chain: "BASE", TokenIn: "USDT", TokenOut: "USDT",
		PayAmount: decimal.NewFromInt(int64(10 + n%1000)), ReceiveAmount: decimal.RequireFromString("9.5"), ExpiresAt: at.Add(time.Minute)}
	return Entry{Time: at, Kind: KindIntent, Env: env, AccountID: account, QuoteID: id, Request: req, Intent: in,
		Domain: &signer.Domain{Name: "Service Exchange", ChainID: 327},
		Transfer: &signer.Transfer{FromAccount: common.HexToAddress("0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266"),
			ToAccount: common.HexToAddress("0x70997970C51812dc3A010C7d01b50e0d17dc79C8"), TokenCurrency: 3, NumTokens: uint64(10+n%1000) * 1_000_000, Nonce: uint32(n), Expiration: exp}}
}

// genLines is one withdrawal's lines as svcwallet writes them: its intent,
// the acceptance, SUBMITTED, SENDING and COMPLETED, or, unfinished, all
// but the last.
func genLines(tb testing.TB, id string, i int, finished bool) [][]byte {
	tb.Helper()
	at := genT0.Add(time.Duration(i) * time.Minute)
	var out [][]byte
	put := func(e Entry) {
		b, err := json.Marshal(e)
		if err != nil {
			tb.Fatal(err)
		}
		out = append(out, b)
	}
	put(genIntent("production", "acct-1", id, i, at))
	base := Entry{Env: "production", AccountID: "acct-1", QuoteID: id}
	e := base
	e.Time, e.Kind = at.Add(time.Second), KindAccepted
	put(e)
	for k, s := range []string{exchange.StateSubmitted, exchange.StateSending, exchange.StateCompleted} {
		if s == exchange.StateCompleted && !finished {
			break
		}
		e := base
		e.Time, e.Kind, e.State = at.Add(time.Duration(2+k)*time.Second), KindState, s
		if s == exchange.StateCompleted {
			e.TxHash = "0x" + strings.Repeat("ab", 32)
		}
		put(e)
	}
	return out
}

// genQuoteID is the quote id of the generated withdrawal i.
func genQuoteID(i int) string { return fmt.Sprintf("q-%08d", i) }

// writeGenJournal writes a journal of withdrawals withdrawals (5 lines
// each), the last unfinished of them without their COMPLETED. Lines are
// one withdrawal's with the quote id replaced: a million are written in
// seconds.
func writeGenJournal(tb testing.TB, path string, withdrawals, unfinished int) {
	tb.Helper()
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o600)
	if err != nil {
		tb.Fatal(err)
	}
	w := bufio.NewWriterSize(f, 1<<20)
	model := genQuoteID(0)
	finished, open := genLines(tb, model, 0, true), genLines(tb, model, 0, false)
	for i := range withdrawals {
		lines := finished
		if i >= withdrawals-unfinished {
			lines = open
		}
		id := []byte(genQuoteID(i))
		for _, l := range lines {
			w.Write(bytes.ReplaceAll(l, []byte(model), id))
			w.WriteByte('\n')
		}
	}
	if err := w.Flush(); err != nil {
		tb.Fatal(err)
	}
	if err := f.Close(); err != nil {
		tb.Fatal(err)
	}
}

// TestWriteGenJournal writes a generated journal for docs/bench.sh when
// SVCWALLET_GEN_JOURNAL is PATH:WITHDRAWALS (5 lines each, 5 of them
// unfinished), and does nothing otherwise.
func TestWriteGenJournal(t *testing.T) {
	spec := os.Getenv("SVCWALLET_GEN_JOURNAL")
	if spec == "" {
		t.Skip("SVCWALLET_GEN_JOURNAL not set")
	}
	i := strings.LastIndexByte(spec, ':')
	n, err := strconv.Atoi(spec[i+1:])
	if i < 0 || err != nil {
		t.Fatalf("SVCWALLET_GEN_JOURNAL=%q: want PATH:WITHDRAWALS", spec)
	}
	writeGenJournal(t, spec[:i], n, 5)
}
