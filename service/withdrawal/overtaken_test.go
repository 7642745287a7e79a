package withdrawal_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/svcwallet/svcwallet/service/config"
	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/journal"
	"github.com/svcwallet/svcwallet/service/sandbox"
	"github.com/svcwallet/svcwallet/service/withdrawal"
	"github.com/svcwallet/svcwallet/signer"
)

// heldKey is the demo key, whose signature waits until released: a run
// awaiting a person while another run goes on.
type heldKey struct {
	signer.Key
	asked, release chan struct{}
}

func (k heldKey) SignTypedData(ctx context.Context, d signer.Domain, m signer.Message) ([65]byte, error) {
	close(k.asked)
	<-k.release
	return k.Key.SignTypedData(ctx, d, m)
}

// completed follows the withdrawal quoteID to COMPLETED on the service's
// clock and journals it, as a follower would.
func (r *rig) completed(quoteID string) {
	r.t.Helper()
	r.advance(time.Minute)
	wd, err := r.client.WithdrawalStatus(context.Background(), quoteID)
	if err != nil || wd.State != exchange.StateCompleted {
		r.t.Fatalf("status %+v (%v): want COMPLETED", wd, err)
	}
	if err := r.withdrawer().JournalState(quoteID, wd); err != nil {
		r.t.Fatal(err)
	}
}

// TestOvertakenByARunThatFinished: while one run awaits its signature,
// another run of the same withdrawal is sent and even COMPLETED; the
// first is still refused before it sends (*OvertakenError): what decides
// is that it was made since, not that it is unfinished.
func TestOvertakenByARunThatFinished(t *testing.T) {
	r := newRig(t, 0, false)
	r.overtaken(r.choice(sandbox.DestCompleted, "25"), func(other withdrawal.Sent) { r.completed(other.Order.Quote.QuoteID) })
}

// overtaken runs a withdrawal of c that awaits its signature while another
// run of it is sent, and meanwhile (with the other's outcome) happens;
// then the first must be refused before it sends (*OvertakenError), one
// withdraw request in all. It returns the other run.
func (r *rig) overtaken(c withdrawal.Choice, meanwhile func(other withdrawal.Sent)) withdrawal.Sent {
	r.t.Helper()
	first, second := r.order(c), r.order(c)
	k := heldKey{asked: make(chan struct{}), release: make(chan struct{})}
	done := make(chan withdrawal.Sent)
	go func() {
		done <- r.withdrawer().Execute(context.Background(), first, func() (signer.Key, error) {
			key, err := demoKey()
			k.Key = key
			return k, err
		})
	}()
	<-k.asked
	other := r.withdrawer().Execute(context.Background(), second, demoKey)
	if other.Err != nil {
		r.t.Fatal(other.Err)
	}
	meanwhile(other)
	close(k.release)
	sent := <-done
	var ot *withdrawal.OvertakenError
	if !errors.As(sent.Err, &ot) || r.withdraws.Load() != 1 {
		r.t.Fatalf("the held run: %v, %d withdraw requests; want it overtaken and one request", sent.Err, r.withdraws.Load())
	}
	return other
}

// TestAFinishedWithdrawalIsNoOvertaker: an identical withdrawal made and
// COMPLETED before this one began is no reason to refuse it (its review
// may warn of it); only one made while this one was under way is.
func TestAFinishedWithdrawalIsNoOvertaker(t *testing.T) {
	r := newRig(t, 0, false)
	c := r.choice(sandbox.DestCompleted, "25")
	earlier := r.withdrawer().Execute(context.Background(), r.order(c), demoKey)
	if earlier.Err != nil {
		t.Fatal(earlier.Err)
	}
	r.completed(earlier.Order.Quote.QuoteID)
	if s := r.withdrawer().Execute(context.Background(), r.order(c), demoKey); s.Err != nil {
		t.Fatalf("a withdrawal identical to one finished before it began: %v", s.Err)
	}
	if n := r.withdraws.Load(); n != 2 {
		t.Fatalf("%d withdraw requests, want 2", n)
	}
}

// TestOvertakenByARunRefusedAfterItsAcceptance: while one run awaits its
// signature, another run of the same withdrawal is sent and accepted, and
// a refusal of it lands in the journal after the acceptance (a hand edit,
// a backup put back): the journal is not trusted to undo an acceptance,
// so the first run is still refused before it sends, and the other is
// followed, never settled (re-sent), even after an intent of it since.
func TestOvertakenByARunRefusedAfterItsAcceptance(t *testing.T) {
	r := newRig(t, 0, false)
	c := r.choice(sandbox.DestCompleted, "25")
	s, _ := r.client.Session()
	other := r.overtaken(c, func(other withdrawal.Sent) {
		planted := journal.Entry{Time: r.local.Now(), Kind: journal.KindRejected, Env: r.env.Name, AccountID: s.AccountID,
			QuoteID: other.Order.Quote.QuoteID, Error: "Address screening flagged the destination"}
		if err := r.journal.Append(planted); err != nil {
			t.Fatal(err)
		}
	})
	var again journal.Entry
	for _, e := range mustEntries(t, r.journal) {
		if e.QuoteID == other.Order.Quote.QuoteID && e.Kind == journal.KindIntent {
			again = e
		}
	}
	again.Time = r.local.Now()
	if err := r.journal.Append(again); err != nil {
		t.Fatal(err)
	}
	recs, err := r.journal.RecordsOf(journal.OwnerOf(r.env, s.AccountID), other.Order.Quote.QuoteID)
	if err != nil || len(recs) != 1 || withdrawal.PlanResume(recs[0]) != withdrawal.ResumeFollow {
		t.Fatalf("the accepted run after a refusal and an intent: %+v, %v; want it followed", recs, err)
	}
	rep, err := r.withdrawer().Repeats(c)
	if err != nil || rep.Unanswered != nil || rep.Recent == nil {
		t.Fatalf("repeat check: %+v, %v; want the accepted run as a recent repeat, none unanswered", rep, err)
	}
}

func mustEntries(t *testing.T, j *journal.Journal) []journal.Entry {
	t.Helper()
	entries, err := j.Entries()
	if err != nil {
		t.Fatal(err)
	}
	return entries
}

// TestSubmitOvertakenByAnIdenticalMadeSincePrepared: a Transfer prepared
// for offline signing awaits its signature from prepare to submit, as a
// run awaits it: an identical withdrawal made meanwhile (paid here, or a
// second prepared Transfer of it submitted first) refuses its submit
// (*OvertakenError) before a fresh quote is asked; one made before it was
// prepared does not (prepare and submit warn of it).
func TestSubmitOvertakenByAnIdenticalMadeSincePrepared(t *testing.T) {
	r := newRig(t, 0, false)
	c := r.choice(sandbox.DestCompleted, "25")
	p, sig := r.prepared(r.order(c), sandbox.DemoPrivateKey)
	if other := r.withdrawer().Execute(context.Background(), r.order(c), demoKey); other.Err != nil {
		t.Fatalf("the identical withdrawal: %v", other.Err)
	}
	r.advance(time.Minute)
	quotes := r.quotes.Load()
	sent := r.withdrawer().Submit(context.Background(), p, sig)
	if _, ok := errors.AsType[*withdrawal.OvertakenError](sent.Err); !ok || r.withdraws.Load() != 1 || r.quotes.Load() != quotes {
		t.Errorf("submitted after an identical withdrawal was made since it was prepared: %v (%d withdraw requests, %d quotes asked), want *withdrawal.OvertakenError before any",
			sent.Err, r.withdraws.Load(), r.quotes.Load()-quotes)
	}

	// Made before it was prepared: sent, once.
	p, sig = r.prepared(r.order(c), sandbox.DemoPrivateKey)
	if sent := r.withdrawer().Submit(context.Background(), p, sig); sent.Err != nil {
		t.Errorf("prepared after the identical withdrawal was made: %v", sent.Err)
	}

	// Two prepared: the first submitted is sent, the other overtaken.
	r.advance(time.Minute)
	first, firstSig := r.prepared(r.order(c), sandbox.DemoPrivateKey)
	second, secondSig := r.prepared(r.order(c), sandbox.DemoPrivateKey)
	if sent := r.withdrawer().Submit(context.Background(), second, secondSig); sent.Err != nil {
		t.Fatalf("the second prepared, submitted first: %v", sent.Err)
	}
	if sent := r.withdrawer().Submit(context.Background(), first, firstSig); !errors.As(sent.Err, new(*withdrawal.OvertakenError)) {
		t.Errorf("the first prepared, submitted second: %v, want *withdrawal.OvertakenError", sent.Err)
	}
	if bal := r.ex.Balance(sandbox.DemoAccountID); bal.String() != "9925" {
		t.Errorf("balance %s, want 9925: three withdrawals of 25 paid", bal)
	}
}

// TestSubmitOnAnotherChainSaysSo: a prepared Transfer submitted once the
// environment names another chain (its config changed since) is refused
// by the submit's own checks, which say why: the look for an identical
// withdrawal made since it was prepared, by this chain's owner, never
// finds its line, and blamed the journal ("free disk space") before them.
func TestSubmitOnAnotherChainSaysSo(t *testing.T) {
	r := newRig(t, 0, false)
	withdrawer := func(env config.Environment) withdrawal.Withdrawer {
		c := exchange.New(env, exchange.Options{Now: r.local.Now})
		if _, err := c.Login(context.Background(), exchange.APIKey(sandbox.DemoAPIKey)); err != nil {
			t.Fatal(err)
		}
		return mustWithdrawer(t, withdrawal.Setup{Client: c, Journal: r.journal, Now: r.local.Now, BridgePins: r.pins})
	}
	env := r.env
	env.Name = "local" // not the embedded sandbox, whose withdrawals are its name's
	o := r.order(r.choice(sandbox.DestCompleted, "25"))
	p, err := withdrawer(env).Prepare(context.Background(), o, common.HexToAddress(sandbox.DemoAddress))
	if err != nil {
		t.Fatal(err)
	}
	k, _ := demoKey()
	sig, err := k.SignTypedData(context.Background(), p.Domain, p.Message)
	if err != nil {
		t.Fatal(err)
	}
	env.ChainID++
	r.wantRefused(withdrawer(env).Submit(context.Background(), p, sig), "another EIP-712 domain")
}
