package plain

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/svcwallet/svcwallet/internal/exchangetest"
	"github.com/svcwallet/svcwallet/service/config"
	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/journal"
	"github.com/svcwallet/svcwallet/service/sandbox"
	"github.com/svcwallet/svcwallet/service/withdrawal"
	"github.com/svcwallet/svcwallet/signer"
)

// The console's checks, refusals and confirmations, in plain mode: each
// test names the guard it holds, and fails when that guard is removed.

// TestConfirmTakesATypedY: the review's question is answered only by y or
// n: an empty line (a held enter) asks again, anything else says what to
// type; n signs and sends nothing.
func TestConfirmTakesATypedY(t *testing.T) {
	r := newRig(t)
	out, err := r.run(steps(logIn, withdraw25, typed("", "sure", "n", "Back home", "quit"))...)
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(out, "Sign and withdraw 25 USDT"); n != 3 {
		t.Errorf("the question was asked %d times, want 3 (empty line, sure, n):\n%s", n, out)
	}
	wants(t, out, "Type y for yes or n for no.", "Not signed: nothing was signed or sent.", "Goodbye: nothing was signed or sent.")
	if n := r.intents(); n != 0 {
		t.Errorf("%d withdrawals journaled after n", n)
	}
}

// TestQuoteExpiredWhileAnswering: a quote with 5 s or less left (by the
// service's clock) once y is typed is not signed (PricedQuote.Expiring);
// a new quote is reviewed and signed anew.
func TestQuoteExpiredWhileAnswering(t *testing.T) {
	r := newRig(t)
	late := scripted{text: "y", before: func() { r.clock.Advance(57 * time.Second) }}
	out, err := r.run(steps(logIn, withdraw25, []scripted{late}, typed("Get a new quote", "y"),
		[]scripted{after("COMPLETED: ", "quit")})...)
	if err != nil {
		t.Fatal(err)
	}
	wants(t, out, "expired while waiting for your answer (valid until ", "by the service's clock): nothing was signed or sent.",
		"Withdrawal accepted (SUBMITTED)", "SENDING → COMPLETED")
	if n := strings.Count(out, "Review: the withdrawal"); n != 2 {
		t.Errorf("%d reviews, want 2: the new quote is reviewed", n)
	}
	if n := r.intents(); n != 1 {
		t.Errorf("%d withdrawals journaled, want 1 (the second quote's)", n)
	}
}

// TestRepeatStopsBeforeTheReview: an identical withdrawal that got no
// answer (journaled, unanswered) may have been paid: a new one is refused
// before it is reviewed, as the console's review does (Repeats).
func TestRepeatStopsBeforeTheReview(t *testing.T) {
	r := newRig(t)
	amount, _ := withdrawal.ParseAmount("25")
	if err := r.journal.Append(journal.Entry{Time: r.clock.Now(), Kind: journal.KindIntent, Env: r.env.Name, AccountID: sandbox.DemoAccountID, QuoteID: "q-earlier",
		Intent: &journal.Intent{Chain: "ARBITRUM", ToAddress: sandbox.DestCompleted, TokenIn: "USDT", TokenOut: "USDT", PayAmount: amount, ExpiresAt: r.clock.Now().Add(time.Minute)}}); err != nil {
		t.Fatal(err)
	}
	out, err := r.run(steps(logIn, withdraw25, typed("quit"))...)
	if err != nil {
		t.Fatal(err)
	}
	wants(t, out, "Stopped: An earlier withdrawal of 25 USDT to "+sandbox.DestCompleted+" on ARBITRUM (q-earlier", "got no answer and may have been paid",
		"resume it from History first", "Nothing was signed.", "1 withdrawal is unfinished: see History.")
	if strings.Contains(out, "Review: the withdrawal") {
		t.Errorf("the repeat was reviewed:\n%s", out)
	}
	if n := r.intents(); n != 1 {
		t.Errorf("%d intents journaled, want the earlier one alone", n)
	}
}

// TestFeeCapRefusesTheQuote: a quote whose fee is above the cap is refused
// with nothing signed, and a new quote may be asked (NewOrder's
// QuoteRefusal).
func TestFeeCapRefusesTheQuote(t *testing.T) {
	r := newRig(t)
	out, err := r.run(steps(logIn, typed("withdraw", "ARBITRUM", "USDT", sandbox.DestCompleted, "25", "1", "Back home", "quit"))...)
	if err != nil {
		t.Fatal(err)
	}
	wants(t, out, "This quote cannot be signed: the fee 1.5 USDT is above your cap of 1 USDT. Nothing was signed.", "What next?")
	if strings.Contains(out, "Review: the withdrawal") || r.intents() != 0 {
		t.Errorf("a quote above the cap was reviewed or sent:\n%s", out)
	}
}

// TestLookAlikeStops: a destination that shares a recent one's first and
// last characters stops the withdrawal until the user says which is meant
// (withdrawal.LookAlike); each differing character is named.
func TestLookAlikeStops(t *testing.T) {
	r := newRig(t)
	for _, kind := range []string{journal.KindIntent, journal.KindAccepted} {
		e := journal.Entry{Time: r.clock.Now(), Kind: kind, Env: r.env.Name, AccountID: sandbox.DemoAccountID, QuoteID: "q-old", State: exchange.StateCompleted}
		if kind == journal.KindIntent {
			e.Intent = &journal.Intent{Chain: "ARBITRUM", ToAddress: sandbox.DestCompleted, TokenIn: "USDT", TokenOut: "USDT"}
		}
		if err := r.journal.Append(e); err != nil {
			t.Fatal(err)
		}
	}
	poisoned := "0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc"
	poisoned = poisoned[:20] + "0" + poisoned[21:]
	out, err := r.run(steps(logIn, typed("withdraw", "ARBITRUM", "USDT", "another address", poisoned, "Use the recent one", "25", "2", "n", "Back home", "quit"))...)
	if err != nil {
		t.Fatal(err)
	}
	wants(t, out, "Pay out to which EVM address on ARBITRUM?\n  1. "+sandbox.DestCompleted+"\n  2. another address",
		withdrawal.LookAlikeStop+" "+withdrawal.LookAlikeWhy, "  Typed:  "+poisoned, "  Recent: "+sandbox.DestCompleted,
		"They differ at characters 21.", "Pays out to: "+sandbox.DestCompleted)
}

// TestChangedBridgeAddress: a recorded bridge address that changed stops
// the withdrawal; the new one is trusted only when typed exactly
// (BridgeChangedError.Accept), and recorded once the withdrawal is
// confirmed; n trusts nothing.
func TestChangedBridgeAddress(t *testing.T) {
	r, pins, old := bridgeChangedRig(t)
	withdraw := typed("withdraw", "ARBITRUM", "USDT", sandbox.DestCompleted, "25", "2")
	out, err := r.run(steps(logIn, withdraw, typed(old, "n", "quit"))...)
	if err != nil {
		t.Fatal(err)
	}
	wants(t, out, "Stopped: the bridge funding address changed.", "  Recorded:  "+old, "  Now given: "+config.SandboxBridgeFundingAddress,
		withdrawal.BridgeChangeWarning, "not the accepted "+old, "Not trusted: nothing was signed or recorded.")
	if strings.Contains(out, "Review: the withdrawal") || r.intents() != 0 {
		t.Fatalf("signed past a changed bridge address:\n%s", out)
	}
	r.vars[signer.KeyEnvVar] = sandbox.DemoPrivateKey
	out, err = r.run(steps(logIn, withdraw, typed(config.SandboxBridgeFundingAddress, "y"), []scripted{after("COMPLETED: ", "quit")})...)
	if err != nil {
		t.Fatal(err)
	}
	wants(t, out, "Trusted: it is recorded in place of "+old, "replaces "+old+", accepted as announced", "SENDING → COMPLETED")
	if trust, err := withdrawal.CheckBridge(r.env, pins, config.SandboxBridgeFundingAddress, r.clock.Now()); err != nil || trust.FirstUse {
		t.Errorf("the new address is not recorded: %+v, %v", trust, err)
	}
}

// TestPastedBridgeAddressTrustsNothing: the new bridge address pasted
// with its Enter ahead of the question that trusts it (with the
// destination, amount and fee cap) is discarded, said so, and trusts
// nothing: the question is the passphrase's kind (Prompter.TypedBack).
// Asked as any line, the paste answered it and the address was trusted.
func TestPastedBridgeAddressTrustsNothing(t *testing.T) {
	r, pins, _ := bridgeChangedRig(t)
	paste := append([]scripted{after("Destination address on", sandbox.DestCompleted)}, typed("25", "2", config.SandboxBridgeFundingAddress)...)
	out, err := r.runPasting(steps(logIn, typed("withdraw", "ARBITRUM", "USDT"), paste,
		[]scripted{after("type n to stop: ", "n")}, typed("quit"))...)
	if err != nil {
		t.Fatal(err)
	}
	wants(t, out, discardedWords+"\nTo trust it, type or paste the new address exactly (not shown as you type); type n to stop: ", "Not trusted: nothing was signed or recorded.")
	if strings.Contains(out, "Trusted:") || r.intents() != 0 {
		t.Errorf("a pasted address trusted the changed bridge:\n%s", out)
	}
	if _, err := withdrawal.CheckBridge(r.env, pins, config.SandboxBridgeFundingAddress, r.clock.Now()); err == nil {
		t.Error("the pasted address is recorded in place of the old")
	}
}

// TestKeystorePassphraseAfterY: after a login by API key the review finds
// the account's keystore file (signer.Lookup); its passphrase is asked once
// y is typed, again when wrong, and never written back.
func TestKeystorePassphraseAfterY(t *testing.T) {
	exchangetest.CheapScrypt(t, &signer.ScryptN, &signer.ScryptP)
	r := newRig(t)
	r.console.Targets[0].Demo = nil
	if _, _, err := signer.ImportRawKey(r.console.KeystoreDir, sandbox.DemoPrivateKey, "right horse"); err != nil {
		t.Fatal(err)
	}
	out, err := r.run(steps(logIn, withdraw25, typed("y", "wrong horse", "right horse"), []scripted{after("COMPLETED: ", "quit")})...)
	if err != nil {
		t.Fatal(err)
	}
	wants(t, out, "Signing key: keystore "+r.console.KeystoreDir, "(not shown as you type):", "type the passphrase again.", "SENDING → COMPLETED")
	if strings.Contains(out, "horse") {
		t.Errorf("a passphrase is written back:\n%s", out)
	}
	if strings.Index(out, "Passphrase of") < strings.Index(out, "Sign and withdraw") {
		t.Errorf("the passphrase was asked before the review's question:\n%s", out)
	}
}

// TestLostAnswerSettled: a withdrawal whose request got no answer is
// journaled and settled at once (Withdrawer.Settle: the identical request
// sent again, never signed anew); still unanswered, it is unfinished and
// taken up from History, where the identical request is accepted and
// followed: paid once.
func TestLostAnswerSettled(t *testing.T) {
	r := newRig(t)
	r.noAnswer.Store(true)
	answered := scripted{text: "History", before: func() { r.noAnswer.Store(false) }}
	out, err := r.run(steps(logIn, withdraw25, typed("y"), []scripted{answered}, typed("1"), []scripted{after("COMPLETED: ", "quit")})...)
	if err != nil {
		t.Fatal(err)
	}
	wants(t, out, "No clear answer from the service: the withdrawal is journaled and is checked now; it cannot be paid twice.",
		"Still no answer to q-", "1 withdrawal is unfinished: see History.", ": UNANSWERED, 25 USDT to "+sandbox.DestCompleted,
		"The identical request was accepted (SUBMITTED)", "SENDING → COMPLETED", "Goodbye: this session sent withdrawal q-")
	if n := r.intents(); n != 1 {
		t.Errorf("%d intents journaled, want 1: the request is sent again, never signed anew", n)
	}
	if got := r.ex.Balance(sandbox.DemoAccountID); got.String() != "9975" {
		t.Errorf("balance %s, want 9975: paid once", got)
	}
}

// TestLostAnswerSettledUnlikeAcceptance: taken up from History, a re-sent
// request whose 202 names another receive amount than the journal's quote
// locked is said not to add up, as withdraw resume and the console say
// it: plain mode said only "accepted".
func TestLostAnswerSettledUnlikeAcceptance(t *testing.T) {
	r := newRig(t)
	r.noAnswer.Store(true)
	answered := scripted{text: "History", before: func() {
		r.noAnswer.Store(false)
		said := "9999"
		r.receiveSaid.Store(&said)
	}}
	out, err := r.run(steps(logIn, withdraw25, typed("y"), []scripted{answered}, typed("1"), []scripted{after("COMPLETED: ", "quit")})...)
	if err != nil {
		t.Fatal(err)
	}
	wants(t, out, "The identical request was accepted (SUBMITTED)", "does not add up: it names a receive amount of 9999 USDT, not the 23.5", "tell support")
}

// TestRolledBackJournalAuthorizesNoBuilder: once the journal lost lines
// svcwallet wrote to it (an older copy put back), a builder authorization
// is stopped before its review, nothing signed, the doctor named (issue 33
// item 4, builder.Signable).
func TestRolledBackJournalAuthorizesNoBuilder(t *testing.T) {
	r := newRig(t)
	if _, err := r.run(steps(logIn, withdraw25, typed("y", "quit"))...); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(r.journal.Path(), 0); err != nil {
		t.Fatal(err)
	}
	out, err := r.run(steps(typed("Wallet signature", "sandbox demo key", "builder", sandbox.BuilderAddress, "0.1", "0.05", "7d", "no", "quit"))...)
	if err != nil {
		t.Fatal(err)
	}
	wants(t, out, "Stopped: the withdrawal journal", "lost lines svcwallet wrote", "Nothing was signed. Run svcwallet doctor")
	if strings.Contains(out, "Review: the builder authorization") || strings.Contains(out, "Builder authorized") {
		t.Fatalf("reviewed or authorized on a rolled-back journal:\n%s", out)
	}
}

// TestConflictSaidAsAnswered: a withdraw the service executed and answered
// 409 (9108, or a 409 without a code of its own), or a 4xx the interface
// gives no meaning (exchangetest.Conflicts), is settled at once, as
// one without an answer is, but is said as what the service answered (as
// the command line says it): "no clear answer" would be untrue, "refused"
// too (it may have been paid). Said once, the check its next step. Paid once.
func TestConflictSaidAsAnswered(t *testing.T) {
	for name, c := range exchangetest.Conflicts {
		t.Run(name, func(t *testing.T) {
			r := newRig(t)
			r.conflict.Store(&c)
			out, err := r.run(steps(logIn, withdraw25, typed("y"), []scripted{after("COMPLETED: ", "quit")})...)
			if err != nil {
				t.Fatal(err)
			}
			wants(t, out, "The service answered withdrawal q-", c.Says, "may have been paid", "It is journaled and is checked now.", "SENDING → COMPLETED")
			if _, sent, _ := strings.Cut(out, "Signing and sending"); strings.Contains(sent, "No clear answer") || strings.Contains(sent, "refused") || strings.Contains(sent, "(no answer)") {
				t.Errorf("an answered withdraw that may have paid is said unanswered or refused:\n%s", out)
			}
			if _, said, _ := strings.Cut(out, "The service answered withdrawal"); exchangetest.SaidTwice("The service answered" + strings.SplitN(said, "\n", 2)[0]) {
				t.Errorf("the answer is said twice, or with a next step besides the check:\n%s", out)
			}
			if _, said, _ := strings.Cut(out, "The service answered withdrawal"); exchangetest.Nested(strings.SplitN(said, "\n", 2)[0]) {
				t.Errorf("the answer nests parentheses:\n%s", out)
			}
			if got := r.ex.Balance(sandbox.DemoAccountID); got.String() != "9975" {
				t.Errorf("balance %s, want 9975: paid once", got)
			}
		})
	}
}

// bridgeChangedRig is a rig on an environment that pins no bridge funding
// address, whose pins file (pins) recorded another one (old) than the
// service gives.
func bridgeChangedRig(t *testing.T) (*rig, string, string) {
	t.Helper()
	r := newRigOn(t, func(url string) config.Environment {
		e := config.SandboxEnvironment(url, sandbox.DefaultChainID)
		e.Name, e.BridgeFundingAddress = "local", ""
		return e
	})
	r.console.Targets[0].Demo = nil
	pins := withdrawal.BridgePinsPath(filepath.Dir(r.journal.Path()))
	old := "0x1111111111111111111111111111111111111111"
	if err := withdrawal.RecordBridge(r.env, pins, old, r.clock.Now()); err != nil {
		t.Fatal(err)
	}
	return r, pins, old
}
