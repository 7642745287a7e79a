package journal

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/shopspring/decimal"

	"github.com/svcwallet/svcwallet/signer"
)

// Lines as svcwallet wrote them before one prepared line served every
// signed intent: a Transfer's prepared line without a kind, a builder
// authorization's builder_prepared line, and its builder_sent line.
const (
	oldPreparedTransfer = `{"time":"2026-03-02T10:00:00Z","kind":"prepared","env":"local","account_id":"acct-1","quote_id":"q-old","intent":{"to_address":"0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC","chain":"ARBITRUM","token_in":"USDT","token_out":"USDT","pay_amount":"25","receive_amount":"23.5","quote_expires_at":"2026-03-02T10:01:00Z"},"domain":{"name":"Service Exchange","chain_id":327},"transfer":{"from_account":"0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266","from_sub_account":0,"to_account":"0x6e3a360d75dd3e83948f7977b92b21827a89e012","to_sub_account":0,"token_currency":3,"num_tokens":25000000,"nonce":4242,"expiration":1772447400000000000},"prepared":{"signer":"0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266","fee":"1.5","max_fee":"2"}}`
	oldBuilderPrepared  = `{"time":"2026-03-02T10:00:00Z","kind":"builder_prepared","env":"local","quote_id":"","builder":{"domain":{"name":"Service Exchange","chain_id":327},"main_account_id":"0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266","builder_account_id":"0x70997970c51812dc3a010c7d01b50e0d17dc79c8","max_futures_fee_rate":1000,"max_spot_fee_rate":500,"nonce":777,"expiration":1773050400000000000,"label":"my bot","key_signer":"0x14dc79964da2c08b23698b3d3cc7ca32193d9955","permissions":"Admin\u0026Trade"}}`
	oldBuilderSent      = `{"time":"2026-03-02T11:00:00Z","kind":"builder_sent","env":"local","quote_id":"","builder":{"domain":{"name":"Service Exchange","chain_id":327},"main_account_id":"0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266","builder_account_id":"0x70997970c51812dc3a010c7d01b50e0d17dc79c8","max_futures_fee_rate":1000,"max_spot_fee_rate":500,"nonce":777,"expiration":1773050400000000000,"label":"my bot","key_signer":"0x14dc79964da2c08b23698b3d3cc7ca32193d9955","permissions":"Admin\u0026Trade"}}`
	// oldBuilderTypedData is the file builder_prepared was written with.
	oldBuilderTypedData = `{"types":{"AddAccountSignerWithBuilder":[{"name":"accountID","type":"address"},{"name":"signer","type":"address"},{"name":"permissions","type":"string"},{"name":"builderAccountID","type":"address"},{"name":"maxFutureFeeRate","type":"uint32"},{"name":"maxSpotFeeRate","type":"uint32"},{"name":"nonce","type":"uint32"},{"name":"expiration","type":"int64"}],"EIP712Domain":[{"name":"name","type":"string"},{"name":"version","type":"string"},{"name":"chainId","type":"uint256"}]},"primaryType":"AddAccountSignerWithBuilder","domain":{"name":"Service Exchange","version":"0","chainId":327},"message":{"accountID":"0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266","signer":"0x14dC79964da2C08b23698B3D3cc7Ca32193d9955","permissions":"Admin&Trade","builderAccountID":"0x70997970C51812dc3A010C7d01b50e0d17dc79C8","maxFutureFeeRate":1000,"maxSpotFeeRate":500,"nonce":777,"expiration":"1773050400000000000"}}`
)

var mainAccount = common.HexToAddress("0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266")

// journalOf is a journal holding lines as they are.
func journalOf(t *testing.T, lines ...string) *Journal {
	t.Helper()
	path := filepath.Join(t.TempDir(), "journal.jsonl")
	if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	j, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	return j
}

// TestPreparedLinesOfEarlierVersions: a Transfer's prepared line without
// a kind is a withdrawal's; builder_prepared is read as a prepared line of
// kind builder, signed by its main account, whose typed data is the file
// it was written with; builder_sent stays; none of them is a withdrawal.
func TestPreparedLinesOfEarlierVersions(t *testing.T) {
	j := journalOf(t, oldPreparedTransfer, oldBuilderPrepared, oldBuilderSent)
	entries, skipped, err := j.Scan()
	if err != nil || skipped != 0 || len(entries) != 3 {
		t.Fatalf("%d entries, %d skipped (%v): want the 3 lines", len(entries), skipped, err)
	}
	w, b, sent := entries[0], entries[1], entries[2]
	if w.Kind != KindPrepared || w.Prepared.Kind != PreparedWithdrawal || w.Prepared.Fee == nil || !w.Prepared.Fee.Equal(decimal.RequireFromString("1.5")) ||
		w.Prepared.FeeCap == nil || !w.Prepared.FeeCap.Equal(decimal.RequireFromString("2")) {
		t.Errorf("the old prepared Transfer reads as %+v %+v", w, w.Prepared)
	}
	if d, m, ok := w.Typed(); !ok || d.ChainID != 327 || m != signer.Message(*w.Transfer) {
		t.Errorf("the old prepared Transfer's typed data: %v %v %v", d, m, ok)
	}
	if b.Kind != KindPrepared || b.Prepared == nil || b.Prepared.Kind != PreparedBuilder || b.Prepared.Signer != mainAccount || b.Builder.Label != "my bot" {
		t.Errorf("builder_prepared reads as %+v %+v", b, b.Prepared)
	}
	if d, m, ok := b.Typed(); !ok || string(signer.TypedDataJSON(d, m)) != oldBuilderTypedData {
		t.Errorf("builder_prepared's typed data is not its file's:\n%s", signer.TypedDataJSON(d, m))
	}
	if sent.Kind != KindBuilderSent || sent.Prepared != nil || sent.Builder == nil {
		t.Errorf("builder_sent reads as %+v", sent)
	}
	if recs := FoldRecords(entries); len(recs) != 0 {
		t.Errorf("prepared and builder lines fold into withdrawals: %+v", recs)
	}
}

// TestPreparedLineOfEachKind: a prepared line names its kind, reads back
// as written, and is held to its kind's shape; one that is not is skipped.
func TestPreparedLineOfEachKind(t *testing.T) {
	old := journalOf(t, oldPreparedTransfer, oldBuilderPrepared)
	entries, err := old.Entries()
	if err != nil || len(entries) != 2 {
		t.Fatalf("%+v %v", entries, err)
	}
	j, err := Open(filepath.Join(t.TempDir(), "journal.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if err := j.Append(e); err != nil {
			t.Fatalf("a %s prepared line is not written: %v", e.Prepared.Kind, err)
		}
	}
	b, _ := os.ReadFile(j.Path())
	if !strings.Contains(string(b), `"prepared":{"kind":"withdrawal",`) || !strings.Contains(string(b), `"prepared":{"kind":"builder","signer"`) ||
		strings.Contains(string(b), "builder_prepared") {
		t.Errorf("the lines do not name their kinds:\n%s", b)
	}
	again, err := j.Entries()
	if err != nil || len(again) != 2 || again[1].Prepared.Kind != PreparedBuilder {
		t.Fatalf("read back %+v %v", again, err)
	}

	bad := map[string]func(e *Entry){
		"a builder authorization signed by another account":  func(e *Entry) { e.Prepared.Signer = common.HexToAddress("0x70997970C51812dc3A010C7d01b50e0d17dc79C8") },
		"a builder authorization with a fee":                 func(e *Entry) { e.Prepared.Fee = new(decimal.Decimal) },
		"a Transfer without its fee":                         func(e *Entry) { e.Prepared.Kind, e.Prepared.Fee, e.Builder = PreparedWithdrawal, nil, nil },
		"a kind of no intent":                                func(e *Entry) { e.Prepared.Kind = "payment" },
		"a sent line holding what was prepared":              func(e *Entry) { e.Kind = KindBuilderSent },
		"a builder authorization on a withdrawal's line":     func(e *Entry) { e.Kind, e.QuoteID = KindIntent, "q-1" },
		"a bidi mark in the domain name":                     func(e *Entry) { e.Builder = withDomainName(*e.Builder, "Service\u202eExchange") },
		"a domain name past 64 bytes, ending in an ellipsis": func(e *Entry) { e.Builder = withDomainName(*e.Builder, strings.Repeat("a", 63)+"…") },
		"a key label past 100 bytes, ending in an ellipsis":  func(e *Entry) { e.Builder = withLabel(*e.Builder, strings.Repeat("a", 100)+"…") },
		"a bidi mark in the key label":                       func(e *Entry) { e.Builder = withLabel(*e.Builder, "my\u202ebot") },
		"an empty key label":                                 func(e *Entry) { e.Builder = withLabel(*e.Builder, "") },
		"a builder authorization with an accepted loss":      func(e *Entry) { e.Prepared.AcceptedLoss = new(decimal.NewFromInt(10)) },
	}
	for name, change := range bad {
		e := again[1]
		p := *e.Prepared
		e.Prepared = &p
		change(&e)
		if err := j.Append(e); err == nil {
			t.Errorf("%s was written", name)
		}
	}
	// The share of the amount accepted beforehand, which a submit's fresh
	// quote keeps to, is a percentage above 0 and at most 100.
	for pct, ok := range map[string]bool{"0": false, "100.5": false, "100": true, "7.5": true} {
		e := again[0]
		p := *e.Prepared
		e.Prepared, p.AcceptedLoss = &p, new(decimal.RequireFromString(pct))
		if err := j.Append(e); (err == nil) != ok {
			t.Errorf("a Transfer prepared accepting a loss of %s%%: %v", pct, err)
		}
	}
	if _, skipped, err := j.Scan(); err != nil || skipped != 0 {
		t.Errorf("%d lines skipped (%v)", skipped, err)
	}
}

// withLabel is b, a copy, creating an API key of another label.
func withLabel(b BuilderAuth, label string) *BuilderAuth {
	b.Label = label
	return &b
}

// withDomainName is b, a copy, signed in a domain of another name.
func withDomainName(b BuilderAuth, name string) *BuilderAuth {
	b.Domain.Name = name
	return &b
}

// TestPreparedTransferAgreesWithItsIntent: a prepared withdrawal's intent
// must pay what its Transfer moves, in USDT, to a destination, and the
// Transfer must pay another account than its own: submit rebuilds the
// withdrawal from the intent. A line edited on disk to disagree is
// skipped, and none is written.
func TestPreparedTransferAgreesWithItsIntent(t *testing.T) {
	if _, skipped, err := journalOf(t, oldPreparedTransfer).Scan(); err != nil || skipped != 0 {
		t.Fatalf("the line as written: %d skipped (%v)", skipped, err)
	}
	for name, edit := range map[string][2]string{
		"another pay amount":         {`"pay_amount":"25"`, `"pay_amount":"26"`},
		"another token":              {`"token_in":"USDT"`, `"token_in":"USDC"`},
		"another currency":           {`"token_currency":3`, `"token_currency":4`},
		"no destination":             {`"to_address":"0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC"`, `"to_address":""`},
		"a transfer to its own":      {`"to_account":"0x6e3a360d75dd3e83948f7977b92b21827a89e012"`, `"to_account":"0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266"`},
		"a transfer to the zero one": {`"to_account":"0x6e3a360d75dd3e83948f7977b92b21827a89e012"`, `"to_account":"0x0000000000000000000000000000000000000000"`},
	} {
		line := strings.Replace(oldPreparedTransfer, edit[0], edit[1], 1)
		if line == oldPreparedTransfer {
			t.Fatalf("%s: the edit changed nothing", name)
		}
		if _, err := parseJournalLine([]byte(line)); err == nil {
			t.Errorf("%s is read", name)
		}
		if _, skipped, err := journalOf(t, line).Scan(); err != nil || skipped != 1 {
			t.Errorf("%s: %d lines skipped (%v), want it skipped", name, skipped, err)
		}
	}
	e, err := parseJournalLine([]byte(oldPreparedTransfer))
	if err != nil {
		t.Fatal(err)
	}
	in := *e.Intent
	in.PayAmount = decimal.RequireFromString("26")
	e.Intent = &in
	if err := journalOf(t).Append(e); err == nil {
		t.Error("a prepared line paying another amount than its Transfer was written")
	}
}
