package withdrawal_test

import (
	"context"
	"errors"
	"net/http"
	"os"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/shopspring/decimal"

	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/intent"
	"github.com/svcwallet/svcwallet/service/journal"
	"github.com/svcwallet/svcwallet/service/sandbox"
	"github.com/svcwallet/svcwallet/service/withdrawal"
	"github.com/svcwallet/svcwallet/signer"
)

// prepared prepares o for offline signing by key and signs its file as a
// wallet elsewhere would.
func (r *rig) prepared(o withdrawal.Order, key string) (withdrawal.Prepared, [65]byte) {
	r.t.Helper()
	k, err := signer.ParsePrivateKeyHex(key)
	if err != nil {
		r.t.Fatal(err)
	}
	p, err := r.withdrawer().Prepare(context.Background(), o, k.Address())
	if err != nil {
		r.t.Fatal(err)
	}
	sig, err := k.SignTypedData(context.Background(), p.Domain, p.Message)
	if err != nil {
		r.t.Fatal(err)
	}
	return p, sig
}

// find is what `withdraw submit` finds in the journal for file.
func (r *rig) find(file []byte) (withdrawal.Prepared, error) {
	r.t.Helper()
	entries, err := r.journal.Entries()
	if err != nil {
		r.t.Fatal(err)
	}
	s, _ := r.client.Session()
	p, err := intent.Find(entries, journal.PreparedWithdrawal, r.env.Name, s.AccountID, file)
	if err != nil {
		return withdrawal.Prepared{Prepared: p}, err
	}
	return withdrawal.PreparedOf(p), nil
}

// wantRefused checks that sent is refused with words saying why, and that
// no withdraw request reached the service.
func (r *rig) wantRefused(sent withdrawal.Sent, why string) {
	r.t.Helper()
	if sent.Err == nil || !strings.Contains(sent.Err.Error(), why) || !strings.Contains(sent.Err.Error(), "nothing was sent") {
		r.t.Errorf("submitted: %v, want a refusal saying %q", sent.Err, why)
	}
	if n := r.withdraws.Load(); n != 0 {
		r.t.Errorf("%d withdraw requests reached the service", n)
	}
}

// TestSubmitRefusesAnotherDomain: a Transfer prepared for another EIP-712
// domain than the environment's is not sent, however well it is signed.
func TestSubmitRefusesAnotherDomain(t *testing.T) {
	r := newRig(t, 0, false)
	o := r.order(r.choice(sandbox.DestCompleted, "25"))
	o.Domain.ChainID++
	p, sig := r.prepared(o, sandbox.DemoPrivateKey)
	r.wantRefused(r.withdrawer().Submit(context.Background(), p, sig), "another EIP-712 domain")
}

// TestSubmitRefusesAnotherFundingAccount: a Transfer paying from another
// funding account than the session's, signed by that account's key, is
// not sent.
func TestSubmitRefusesAnotherFundingAccount(t *testing.T) {
	r := newRig(t, 0, false)
	o := r.order(r.choice(sandbox.DestCompleted, "25"))
	o.Transfer.FromAccount = common.HexToAddress(sandbox.BuilderAddress)
	p, sig := r.prepared(o, sandbox.BuilderPrivateKey)
	sent := r.withdrawer().Submit(context.Background(), p, sig)
	if _, ok := errors.AsType[*withdrawal.OtherAccountError](sent.Err); !ok {
		t.Errorf("submitted: %v, want withdrawal.OtherAccountError", sent.Err)
	}
	r.wantRefused(sent, "pays from funding account "+sandbox.BuilderAddress)
}

// TestSubmitMeasuresLifeFromPreparation: a prepared Transfer lives
// PreparedLife from when its line says it was prepared, not from now: one
// whose expiration lies further than that past its preparation is not
// sent, though it lies within PreparedLife of now.
func TestSubmitMeasuresLifeFromPreparation(t *testing.T) {
	r := newRig(t, 0, false)
	p, sig := r.prepared(r.order(r.choice(sandbox.DestCompleted, "25")), sandbox.DemoPrivateKey)
	p.Line.Time = p.Line.Time.Add(-10 * time.Minute)
	r.advance(time.Second)
	r.wantRefused(r.withdrawer().Submit(context.Background(), p, sig), "more than 30m0s after it was prepared")
	// The same Transfer with its true preparation time is sent.
	p.Line.Time = p.Line.Time.Add(10 * time.Minute)
	if sent := r.withdrawer().Submit(context.Background(), p, sig); sent.Err != nil {
		t.Fatalf("the prepared Transfer is refused: %v", sent.Err)
	}
}

// TestSubmitUnansweredIsNotSentAgain: a prepared Transfer whose submit got
// no answer may have been paid: submitted again, even allowing a repeat
// (--allow-repeat), it is refused as submitted already (to be resumed), and
// no request leaves.
func TestSubmitUnansweredIsNotSentAgain(t *testing.T) {
	r := newRig(t, 0, false)
	p, sig := r.prepared(r.order(r.choice(sandbox.DestCompleted, "25")), sandbox.DemoPrivateKey)
	var attempts atomic.Int64
	count := func(req *http.Request) {
		if req.URL.Path == exchange.PathWithdraw {
			attempts.Add(1)
		}
	}
	r.before.Store(&count)
	r.holding.Store(true)
	lost := r.withdrawer().Submit(context.Background(), p, sig)
	if lost.Lost == nil {
		t.Fatalf("every attempt held, yet: %+v", lost)
	}
	r.holding.Store(false)
	sent := attempts.Load()
	w := mustWithdrawer(t, withdrawal.Setup{Client: r.client, Journal: r.journal, Now: r.local.Now, BridgePins: r.pins, AllowRepeat: true})
	for _, again := range []func() withdrawal.Sent{
		func() withdrawal.Sent { return w.Submit(context.Background(), p, sig) },
		func() withdrawal.Sent {
			found, err := r.find(p.File())
			if err != nil {
				return withdrawal.Sent{Err: err}
			}
			return w.Submit(context.Background(), found, sig)
		},
	} {
		var done *intent.SubmittedError
		if s := again(); !errors.As(s.Err, &done) || done.QuoteID != lost.Lost.QuoteID {
			t.Errorf("submitted again: %v, want it refused as withdrawal %s", s.Err, lost.Lost.QuoteID)
		}
	}
	if n := attempts.Load() - sent; n != 0 {
		t.Errorf("%d more withdraw requests", n)
	}
}

// TestTransferPreparedBeforeTheUpgrade: a Transfer prepared by an earlier
// version (its prepared line names no kind) is found, sent once, and then
// refused as submitted already.
func TestTransferPreparedBeforeTheUpgrade(t *testing.T) {
	r := newRig(t, 0, false)
	p, sig := r.prepared(r.order(r.choice(sandbox.DestCompleted, "25")), sandbox.DemoPrivateKey)
	b, err := os.ReadFile(r.journal.Path())
	if err != nil {
		t.Fatal(err)
	}
	old := strings.Replace(string(b), `"prepared":{"kind":"withdrawal",`, `"prepared":{`, 1)
	if old == string(b) {
		t.Fatalf("the prepared line names no kind to drop:\n%s", b)
	}
	if err := os.WriteFile(r.journal.Path(), []byte(old), 0o600); err != nil {
		t.Fatal(err)
	}
	// An earlier version kept no record of what it wrote.
	if err := os.Remove(journal.WrittenPath(r.journal.Path())); err != nil {
		t.Fatal(err)
	}
	found, err := r.find(p.File())
	if err != nil {
		t.Fatalf("the old prepared line is not found: %v", err)
	}
	if sent := r.withdrawer().Submit(context.Background(), found, sig); sent.Err != nil || r.withdraws.Load() != 1 {
		t.Fatalf("submitted: %v, %d requests", sent.Err, r.withdraws.Load())
	}
	if _, err := r.find(p.File()); !errors.As(err, new(*intent.SubmittedError)) {
		t.Errorf("found again: %v, want it refused as submitted", err)
	}
}

// TestSubmitFindsNoIntentEditedToAnotherAmount: a prepared line whose
// intent was edited on disk to pay another amount than its Transfer is not
// found (the journal skips it), so submit cannot ask the repeat check about
// that amount and miss the identical withdrawal that got no answer.
func TestSubmitFindsNoIntentEditedToAnotherAmount(t *testing.T) {
	r := newRig(t, 0, false)
	p, sig := r.prepared(r.order(r.choice(sandbox.DestCompleted, "25")), sandbox.DemoPrivateKey)
	r.holding.Store(true)
	if lost := r.withdrawer().Execute(context.Background(), r.order(r.choice(sandbox.DestCompleted, "25")), demoKey); lost.Lost == nil {
		t.Fatalf("every attempt held, yet: %+v", lost)
	}
	r.holding.Store(false)
	// As written, it is found and refused as a repeat of the lost one.
	if found, err := r.find(p.File()); err != nil {
		t.Fatal(err)
	} else if sent := r.withdrawer().Submit(context.Background(), found, sig); withdrawal.AsUnanswered(sent.Err) == nil {
		t.Fatalf("submitted: %v, want it refused as a repeat", sent.Err)
	}
	b, err := os.ReadFile(r.journal.Path())
	if err != nil {
		t.Fatal(err)
	}
	// The prepared line is the first to carry the amount.
	edited := strings.Replace(string(b), `"pay_amount":"25"`, `"pay_amount":"26"`, 1)
	if edited == string(b) || !strings.HasPrefix(edited, `{"time"`) || !strings.Contains(strings.SplitN(edited, "\n", 2)[0], `"pay_amount":"26"`) {
		t.Fatalf("the prepared line's amount was not edited:\n%s", edited)
	}
	if err := os.WriteFile(r.journal.Path(), []byte(edited), 0o600); err != nil {
		t.Fatal(err)
	}
	found, err := r.find(p.File())
	if err == nil {
		sent := r.withdrawer().Submit(context.Background(), found, sig)
		t.Fatalf("the edited line is found, paying %s, and submitted: %v, %d requests", found.Order.Choice.Amount, sent.Err, r.withdraws.Load())
	}
	if !strings.Contains(err.Error(), "not a Transfer prepared on this machine") {
		t.Errorf("found: %v, want it not found", err)
	}
}

// TestPreparedKeepsTheLossAccepted: the share of the amount accepted
// beforehand (--accept-loss) when a Transfer is prepared is kept with it,
// so its submit, on a fresh quote, keeps to it as withdraw does
// (RequoteRefusal): it came back as none accepted, and a fresh quote
// above it within the fee cap was sent.
func TestPreparedKeepsTheLossAccepted(t *testing.T) {
	r := newRig(t, 0, false)
	for _, accepted := range []string{"", "7.5"} {
		o := r.order(r.choice(sandbox.DestCompleted, "25"))
		if accepted != "" {
			o.Choice.AcceptedLoss = decimal.NewNullDecimal(decimal.RequireFromString(accepted))
		}
		p, _ := r.prepared(o, sandbox.DemoPrivateKey)
		got, err := r.find(p.File())
		if err != nil {
			t.Fatal(err)
		}
		if a := got.Order.Choice.AcceptedLoss; a.Valid != (accepted != "") || a.Valid && a.Decimal.String() != accepted {
			t.Errorf("prepared accepting %q, submitted accepting %v", accepted, a)
		}
	}
}

// TestPreparedKeepsTheLossAnswered: a Transfer prepared on a second yes
// to a review losing most of the amount, with no share said beforehand,
// is submitted held to that loss's amount (the reviewed quote its line
// keeps): a fresh quote losing a unit more, within the fee cap, is
// refused. Kept as a share at 6 places of a percent, rounded up, on its
// accepted_loss line, as if said beforehand, it went out.
func TestPreparedKeepsTheLossAnswered(t *testing.T) {
	r := newRig(t, 0, false)
	d := decimal.RequireFromString
	o := r.order(r.choice(sandbox.DestCompleted, "1000"))
	o.Choice.FeeCap = decimal.NewNullDecimal(d("900"))
	o.Quote.ReceiveAmount, o.Quote.Fee = d("333.333333"), d("666.666667")
	o.AnswerLoss()
	p, _ := r.prepared(o, sandbox.DemoPrivateKey)
	got, err := r.find(p.File())
	if err != nil {
		t.Fatal(err)
	}
	fresh := exchange.Quote{QuoteID: "q-fresh", PayAmount: o.Quote.PayAmount, ReceiveAmount: d("333.33333"), Fee: d("666.66667"), ExpiresAt: r.service.Now().Add(time.Minute)}
	if why := withdrawal.RequoteRefusal(got.Order, fresh, r.service.Now()); !strings.Contains(why, "more than the 666.666667 USDT (66.7%) of the quote you said yes to") {
		t.Errorf("prepared on a yes to a loss of 666.666667 USDT, a fresh quote losing 666.66667: %q", why)
	}
}

// TestSubmitRefusesAnotherHost: a Transfer prepared while the environment
// reached one service is not sent once its name reaches another host (a
// proxy of it here), though its name, domain and account match: the line
// names the service it was prepared for (intent.Prepared.Check).
func TestSubmitRefusesAnotherHost(t *testing.T) {
	r := newRig(t, 0, false)
	o := r.order(r.choice(sandbox.DestCompleted, "25"))
	p, sig := r.prepared(o, sandbox.DemoPrivateKey)
	was := r.env.Service()
	r.env, r.client = r.named(r.env.Name, proxyOf(t, r.env.BaseURL))
	found, err := r.find(p.File())
	if err != nil {
		t.Fatal(err)
	}
	r.wantRefused(r.withdrawer().Submit(context.Background(), found, sig), "was made for "+was.String())
}

// TestQuotePreparedOnce: a quote's Transfer prepared for offline signing is
// not prepared again, though reviewed again with a fresh nonce: a second
// file would be a second payment waiting. Nothing more is journaled, and
// another quote is prepared as before.
func TestQuotePreparedOnce(t *testing.T) {
	r := newRig(t, 0, false)
	o := r.order(r.choice(sandbox.DestCompleted, "25"))
	first, _ := r.prepared(o, sandbox.DemoPrivateKey)
	o.Transfer.Nonce++
	_, err := r.withdrawer().Prepare(context.Background(), o, o.Transfer.FromAccount)
	if already, ok := errors.AsType[*withdrawal.PreparedAlreadyError](err); !ok || !already.At.Equal(first.Line.Time) {
		t.Fatalf("prepared again: %v, want withdrawal.PreparedAlreadyError at %s", err, first.Line.Time)
	}
	if entries, _ := r.journal.Entries(); len(entries) != 1 {
		t.Errorf("the journal holds %d lines, want the first preparation alone", len(entries))
	}
	r.prepared(r.order(r.choice(sandbox.DestCompleted, "25")), sandbox.DemoPrivateKey)
}
