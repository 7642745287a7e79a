package intent

import (
	"context"
	"errors"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/shopspring/decimal"

	"github.com/svcwallet/svcwallet/internal/exchangetest"
	"github.com/svcwallet/svcwallet/service/config"
	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/journal"
	"github.com/svcwallet/svcwallet/service/sandbox"
	"github.com/svcwallet/svcwallet/signer"
)

var (
	t0     = time.Date(2026, 3, 2, 10, 0, 0, 0, time.UTC)
	domain = signer.Domain{Name: "Service Exchange", ChainID: 327}
	main   = common.HexToAddress("0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266")
)

// transferLine is a prepared Transfer of env and account.
func transferLine(env, account, quoteID string, nonce uint32) journal.Entry {
	tr := signer.Transfer{FromAccount: main, ToAccount: common.HexToAddress("0x6e3a360d75Dd3E83948f7977b92b21827a89E012"),
		TokenCurrency: signer.USDTCurrency, NumTokens: 25000000, Nonce: nonce, Expiration: t0.Add(30 * time.Minute).UnixNano()}
	fee := decimal.RequireFromString("1.5")
	return journal.Entry{Time: t0, Kind: journal.KindPrepared, Env: env, AccountID: account, QuoteID: quoteID, Domain: &domain, Transfer: &tr,
		Intent:   &journal.Intent{ToAddress: "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC", Chain: "ARBITRUM", TokenIn: "USDT", TokenOut: "USDT"},
		Prepared: &journal.Prepared{Kind: journal.PreparedWithdrawal, Signer: main, Fee: &fee}}
}

// builderLine is a prepared builder authorization of env.
func builderLine(env string) journal.Entry {
	b := &journal.BuilderAuth{Domain: domain, Main: main, Builder: common.HexToAddress("0x70997970C51812dc3A010C7d01b50e0d17dc79C8"),
		Futures: 1000, Spot: 500, Nonce: 777, Expiration: t0.Add(7 * 24 * time.Hour).UnixNano()}
	return journal.Entry{Time: t0, Kind: journal.KindPrepared, Env: env, Builder: b, Prepared: &journal.Prepared{Kind: journal.PreparedBuilder, Signer: main}}
}

// sentLine is the line written before a prepared intent's send: a
// withdrawal's intent, or a builder authorization's sent line.
func sentLine(p journal.Entry, kind string) journal.Entry {
	e := p
	e.Time, e.Kind, e.Prepared = t0.Add(time.Minute), kind, nil
	if kind == journal.KindIntent {
		e.Request = &exchange.WithdrawRequest{QuoteID: e.QuoteID}
	}
	return e
}

// TestFind: a file is found among the prepared lines of its kind,
// environment and account only, trailing white space aside; a changed
// file is not, and the refusal names the kind.
func TestFind(t *testing.T) {
	w, b := transferLine("prod", "acct-1", "q-1", 1), builderLine("prod")
	entries := []journal.Entry{transferLine("test", "acct-1", "q-0", 1), transferLine("prod", "acct-2", "q-2", 1), w, b}
	wFile, bFile := fromLine(w).File(), fromLine(b).File()
	if p, err := Find(entries, journal.PreparedWithdrawal, "prod", "acct-1", append(wFile, " \r\n"...)); err != nil || p.Line.QuoteID != "q-1" || p.Signer != main {
		t.Errorf("the Transfer: %+v, %v", p.Line, err)
	}
	if p, err := Find(entries, journal.PreparedBuilder, "prod", "", bFile); err != nil || p.Kind() != journal.PreparedBuilder || p.Message.PrimaryType() != "AuthorizeBuilder" {
		t.Errorf("the builder authorization: %+v, %v", p, err)
	}
	for _, c := range []struct {
		kind, env, account string
		file               []byte
		says               string
	}{
		{journal.PreparedWithdrawal, "prod", "acct-3", wFile, "not a Transfer prepared on this machine for this environment and account"},
		{journal.PreparedWithdrawal, "stage", "acct-1", wFile, "not a Transfer"},
		{journal.PreparedWithdrawal, "prod", "acct-1", []byte(strings.Replace(string(wFile), "25000000", "26000000", 1)), "or it was changed since"},
		{journal.PreparedBuilder, "prod", "", wFile, "not a builder authorization prepared on this machine for this environment,"},
		{journal.PreparedWithdrawal, "prod", "", bFile, "not a Transfer"},
	} {
		if _, err := Find(entries, c.kind, c.env, c.account, c.file); err == nil || !strings.Contains(err.Error(), c.says) {
			t.Errorf("%s in %s/%s: %v, want %q", c.kind, c.env, c.account, err, c.says)
		}
	}
}

// TestFindRefusesWhatWasSent: a builder authorization with a sent line,
// and a Transfer with an intent unanswered or accepted, are refused as
// submitted; a Transfer whose every send was refused is not (its nonce
// was never used), nor one sent in another environment.
func TestFindRefusesWhatWasSent(t *testing.T) {
	w, b := transferLine("prod", "acct-1", "q-1", 1), builderLine("prod")
	find := func(p journal.Entry, kind string, more ...journal.Entry) error {
		_, err := Find(append([]journal.Entry{p}, more...), kind, p.Env, p.AccountID, fromLine(p).File())
		return err
	}
	answer := func(kind string) journal.Entry {
		return journal.Entry{Time: t0.Add(2 * time.Minute), Kind: kind, Env: "prod", AccountID: "acct-1", QuoteID: "q-1", State: map[string]string{journal.KindAccepted: "SUBMITTED"}[kind]}
	}
	var done *SubmittedError
	if err := find(b, journal.PreparedBuilder, sentLine(b, journal.KindBuilderSent)); !errors.As(err, &done) || !done.At.Equal(t0.Add(time.Minute)) {
		t.Errorf("a sent builder authorization: %v", err)
	}
	if err := find(w, journal.PreparedWithdrawal, sentLine(w, journal.KindIntent)); !errors.As(err, &done) || done.QuoteID != "q-1" {
		t.Errorf("an unanswered Transfer: %v", err)
	}
	if err := find(w, journal.PreparedWithdrawal, sentLine(w, journal.KindIntent), answer(journal.KindAccepted)); !errors.As(err, &done) {
		t.Errorf("an accepted Transfer: %v", err)
	}
	if err := find(w, journal.PreparedWithdrawal, sentLine(w, journal.KindIntent), answer(journal.KindRejected)); err != nil {
		t.Errorf("a refused Transfer: %v", err)
	}
	elsewhere := sentLine(b, journal.KindBuilderSent)
	elsewhere.Env = "test"
	if err := find(b, journal.PreparedBuilder, elsewhere); err != nil {
		t.Errorf("sent in another environment: %v", err)
	}
}

// TestReviewFields: a review lists the message's fields in signed order,
// each with its type, value as signed and meaning.
func TestReviewFields(t *testing.T) {
	p := fromLine(builderLine("prod"))
	r := Review{Intent: p.Intent, Meanings: map[string]string{"maxSpotFeeRate": "= 0.05% spot cap"}}
	f := r.Fields()
	if len(f) != 6 || f[0] != (Field{"mainAccountID", "address", main.Hex(), ""}) || f[3] != (Field{"maxSpotFeeRate", "uint32", "500", "= 0.05% spot cap"}) {
		t.Errorf("fields %+v", f)
	}
	if r.Digest() != signer.Digest(domain, p.Message) || !r.Expiration().Equal(t0.Add(7*24*time.Hour)) {
		t.Errorf("digest %s, expiration %s", r.Digest(), r.Expiration())
	}
}

// TestPrepareAndCheck: Prepare journals the line at the service-checked
// time and returns what Find would; Check passes the file signed by the
// expected key within its life, and refuses another signer, another
// domain, an expired one and one outliving its life since preparation,
// each saying so.
func TestPrepareAndCheck(t *testing.T) {
	clock := exchangetest.NewFakeClock(t0)
	srv := httptest.NewServer(sandbox.New(sandbox.Options{Now: clock.Now}))
	t.Cleanup(srv.Close)
	c := exchange.New(config.SandboxEnvironment(srv.URL, sandbox.DefaultChainID), exchange.Options{Now: clock.Now})
	if _, err := Prepare(context.Background(), c, nil, nil); err == nil {
		t.Error("prepared without a journal")
	}
	j, err := journal.Open(filepath.Join(t.TempDir(), "journal.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	p, err := Prepare(context.Background(), c, j, func(now time.Time) journal.Entry {
		e := builderLine("sandbox")
		e.Time, e.Builder.Expiration = now, now.Add(7*24*time.Hour).UnixNano()
		return e
	})
	if err != nil {
		t.Fatal(err)
	}
	if entries, _ := j.Entries(); len(entries) != 1 || entries[0].Prepared.Kind != journal.PreparedBuilder {
		t.Fatalf("journal %+v", entries)
	}
	sign := func(key string, p Prepared) [65]byte {
		k, _ := signer.ParsePrivateKeyHex(key)
		sig, err := k.SignTypedData(context.Background(), p.Domain, p.Message)
		if err != nil {
			t.Fatal(err)
		}
		return sig
	}
	lim := Limits{Margin: time.Minute, Life: 30 * 24 * time.Hour}
	if _, _, err := p.Check(context.Background(), c, sign(sandbox.DemoPrivateKey, p), lim); err != nil {
		t.Fatalf("the signed file is refused: %v", err)
	}
	// A line's service spelt otherwise (an earlier version's :0port) is
	// still this environment's; another port is another service's.
	here := c.Env().Service()
	spelt, elsewhere := p, p
	spelt.Line.Service = &config.Service{Host: strings.Replace(here.Host, ":", ":0", 1), ChainID: here.ChainID}
	if _, _, err := spelt.Check(context.Background(), c, sign(sandbox.DemoPrivateKey, spelt), lim); err != nil {
		t.Errorf("a file prepared for %v is refused here: %v", spelt.Line.Service, err)
	}
	elsewhere.Line.Service = &config.Service{Host: "127.0.0.1:1", ChainID: here.ChainID}
	other := p
	other.Domain.ChainID++
	early := p
	early.Line.Time = early.Line.Time.Add(-24 * 24 * time.Hour)
	for _, c0 := range []struct {
		p    Prepared
		key  string
		lim  Limits
		says string
	}{
		{p, sandbox.BuilderPrivateKey, lim, sandbox.BuilderAddress},
		{other, sandbox.DemoPrivateKey, lim, "another EIP-712 domain"},
		{elsewhere, sandbox.DemoPrivateKey, lim, "was made for 127.0.0.1:1, chain 327, but this environment reaches " + here.String()},
		{p, sandbox.DemoPrivateKey, Limits{Margin: 8 * 24 * time.Hour, Life: lim.Life}, "expired at"},
		{early, sandbox.DemoPrivateKey, lim, "more than 30 days after it was prepared"},
		{p, sandbox.DemoPrivateKey, Limits{Margin: time.Minute, Life: time.Hour}, "more than 1h0m0s after it was prepared"},
	} {
		if _, _, err := c0.p.Check(context.Background(), c, sign(c0.key, c0.p), c0.lim); err == nil || !strings.Contains(err.Error(), c0.says) {
			t.Errorf("checked: %v, want it refused saying %q", err, c0.says)
		}
	}
}
