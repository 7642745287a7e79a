package plain

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/mr-tron/base58"

	"github.com/svcwallet/svcwallet/internal/exchangetest"
	"github.com/svcwallet/svcwallet/service/config"
	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/follow"
	"github.com/svcwallet/svcwallet/service/journal"
	"github.com/svcwallet/svcwallet/service/sandbox"
	"github.com/svcwallet/svcwallet/signer"
)

// TestBuilderAnswersChecked: each answer of the builder authorization is
// checked as it is typed by the builder domain's parsers; the review warns
// of a fee cap above 1% as the console's does; with an API key, the key
// the service returns is shown once.
func TestBuilderAnswersChecked(t *testing.T) {
	r := newRig(t)
	bad := strings.Replace(sandbox.BuilderAddress, "C5", "c5", 1) // mixed case, a wrong checksum
	out, err := r.run(steps(logIn, typed("builder", bad, sandbox.BuilderAddress, "12", "0.05", "45d", "7d", "yes",
		"bot", sandbox.BuilderAddress, "Trade&Fly", "Trade", "y", "quit"))...)
	if err != nil {
		t.Fatal(err)
	}
	wants(t, out, "Not accepted: ", "checksum", "Not accepted: 45 days is out of range: choose 1 to 30 days.",
		"Not accepted: ", "Fly", "Review: the builder authorization (authorize and create an API key)",
		"Warning: The futures fee cap 12% is above 1%", "Message: AddAccountSignerWithBuilder",
		"  Permissions: Trade\n", "Builder authorized (AddAccountSignerWithBuilder, nonce 4242).",
		"This API key is shown once and will not be shown again: store it now.")
	if !regexp.MustCompile(`\n  API key: \S+\n`).MatchString(out) {
		t.Errorf("no API key shown:\n%s", out)
	}
	if n := strings.Count(out, "Not accepted: "); n != 3 {
		t.Errorf("%d answers refused, want 3 (the checksum, 45d, Fly):\n%s", n, out)
	}
}

// TestWalletLoginSigns: a login by the sandbox's demo key, by the raw key
// exported in $SVCWALLET_PRIVATE_KEY, or by a keystore file (its
// passphrase asked again when wrong; after three wrong ones the login
// starts over, where another way can be chosen), is the key the reviews
// sign with.
func TestWalletLoginSigns(t *testing.T) {
	exchangetest.CheapScrypt(t, &signer.ScryptN, &signer.ScryptP)
	r := newRig(t)
	r.vars[signer.KeyEnvVar] = sandbox.DemoPrivateKey
	if _, _, err := signer.ImportRawKey(r.console.KeystoreDir, sandbox.DemoPrivateKey, "right horse"); err != nil {
		t.Fatal(err)
	}
	for _, source := range [][]scripted{typed("sandbox demo key"), typed("$" + signer.KeyEnvVar),
		typed("keystore", "1", "wrong horse", "right horse"),
		typed("keystore", "1", "wrong horse", "wrong", "horse", "Wallet signature", "keystore", sandbox.DemoAddress, "right horse")} {
		out, err := r.run(steps(typed("Wallet signature"), source, typed("builder", sandbox.BuilderAddress, "0.1", "0.05", "7d", "no", "y", "quit"))...)
		if err != nil {
			t.Fatal(err)
		}
		wants(t, out, "Logged in to sandbox by wallet: funding account "+sandbox.DemoAddress,
			"Signing key: the wallet you logged in with, "+sandbox.DemoAddress, "Builder authorized (AuthorizeBuilder")
		if len(source) > 1 {
			wants(t, out, "Wrong passphrase; type the passphrase again.\nPassphrase of UTC--", "from the keystore file UTC--")
		}
		if again := strings.Contains(out, "Login failed"); again != (len(source) > 4) {
			t.Errorf("the login started over: %v, after %d answers:\n%s", again, len(source), out)
		} else if again {
			wants(t, out, "Login failed: wrong passphrase, 3 times: choose the key again, or another way to log in.\n")
		}
	}
}

// TestMissingKeystoreAskedOnce: a keystore file that is not there is said
// after its passphrase once, and the login starts over: another passphrase
// would not open it.
func TestMissingKeystoreAskedOnce(t *testing.T) {
	r := newRig(t)
	missing := filepath.Join(t.TempDir(), "none.json")
	out, err := r.run(steps(typed("Wallet signature", "keystore", missing, "pw"), logIn, typed("quit"))...)
	if err != nil {
		t.Fatal(err)
	}
	wants(t, out, "Login failed: cannot unlock the keystore: ", "Logged in to sandbox by API key")
	if n := strings.Count(out, "Passphrase of none.json"); n != 1 || strings.Contains(out, "type the passphrase again") {
		t.Errorf("the passphrase of a missing file was asked %d times:\n%s", n, out)
	}
}

// TestGoodbyeSaysTheLoginSigned: a wallet login's signature is signed and
// sent, so the last words say so, alone or before what was sent after it;
// a login by API key signs nothing.
func TestGoodbyeSaysTheLoginSigned(t *testing.T) {
	r := newRig(t)
	for _, c := range []struct {
		answers []scripted
		want    string
	}{
		{steps(typed("Wallet signature", "sandbox demo key", "quit")), "Goodbye: the wallet login was signed and sent; nothing else was signed or sent.\n"},
		{steps(typed("Wallet signature", "sandbox demo key", "builder", sandbox.BuilderAddress, "0.1", "0.05", "7d", "no", "y", "quit")),
			"Goodbye: the wallet login was signed and sent, and this session sent a builder authorization of " + sandbox.BuilderAddress + "; nothing else was signed or sent.\n"},
		{steps(logIn, typed("quit")), "Goodbye: nothing was signed or sent.\n"},
	} {
		out, err := r.run(c.answers...)
		if err != nil {
			t.Fatal(err)
		}
		wants(t, out, c.want)
	}
}

// TestGoodbyeSaysARefusedAuthorizationSent: a builder authorization the
// service refused for good (here its nonce already used) was signed and
// sent all the same, so the last words name it: they said nothing was.
func TestGoodbyeSaysARefusedAuthorizationSent(t *testing.T) {
	r := newRig(t)
	r.console.Nonce = func() uint32 { return nonce }
	authorize := typed("builder", sandbox.BuilderAddress, "0.1", "0.05", "7d", "no", "y")
	out, err := r.run(steps(logIn, authorize, authorize, typed("quit"))...)
	if err != nil {
		t.Fatal(err)
	}
	wants(t, out, "Not authorized: This authorization's nonce was already used",
		"Goodbye: this session sent a builder authorization of "+sandbox.BuilderAddress+" and a builder authorization of "+sandbox.BuilderAddress+" (refused); nothing else was signed or sent.\n")
}

// TestQuoteOutsideTheBookSaysWhatNext: a destination not in the address
// book is refused at the quote with the way to another destination; on the
// embedded sandbox, whose book is fixed and has no web UI, with where its
// destinations are listed.
func TestQuoteOutsideTheBookSaysWhatNext(t *testing.T) {
	for _, onSandbox := range []bool{true, false} {
		r := newRig(t)
		if !onSandbox {
			r.console.Targets[0].Demo = nil
		}
		out, err := r.run(steps(logIn, typed("withdraw", "ARBITRUM", "USDT", "another address", "0x1111111111111111111111111111111111111111", "25", "none", "Back home", "quit"))...)
		if err != nil {
			t.Fatal(err)
		}
		wants(t, out, "Quote refused: ", "Another destination: Back home, then Withdraw USDT again")
		sandboxWords := []string{config.SandboxBookWords, "`svcwallet sandbox` prints the sandbox's address book."}
		realWords := []string{"add it in the web UI first", "A new quote helps once the address is in the book."}
		if !onSandbox {
			sandboxWords, realWords = realWords, sandboxWords
		}
		wants(t, out, sandboxWords...)
		for _, not := range realWords {
			if strings.Contains(out, not) {
				t.Errorf("sandbox %v: says %q:\n%s", onSandbox, not, out)
			}
		}
	}
}

// TestWalletSourcesOfferOnlyASetKey: without $SVCWALLET_PRIVATE_KEY the
// wallet login does not offer it (chosen, it could only fail).
func TestWalletSourcesOfferOnlyASetKey(t *testing.T) {
	r := newRig(t)
	out, err := r.run(typed("Wallet signature", "sandbox demo key", "quit")...)
	if err != nil {
		t.Fatal(err)
	}
	wants(t, out, "Logged in to sandbox by wallet")
	if strings.Contains(out, "$"+signer.KeyEnvVar) {
		t.Errorf("the unset raw key is offered:\n%s", out)
	}
}

// TestLookUpAndHistory: a withdrawal made here is found by its quote id
// (its state, its particulars) and in History; an id the service does not
// know is said NOT FOUND; a malformed id is asked again.
func TestLookUpAndHistory(t *testing.T) {
	r := newRig(t)
	out, err := r.run(steps(logIn, withdraw25, typed("y"), []scripted{after("COMPLETED: ", "History")}, typed("1",
		"look up", "q-", "q-doesnotexist", "quit"))...)
	if err != nil {
		t.Fatal(err)
	}
	id := regexp.MustCompile(`Quote id: (q-\w+)`).FindStringSubmatch(out)
	if id == nil {
		t.Fatalf("no quote id:\n%s", out)
	}
	wants(t, out, "Take one up, or go back:\n  1. "+id[1]+": COMPLETED, 25 USDT to "+sandbox.DestCompleted+" on ARBITRUM, sent ",
		"Not accepted: ", "NOT FOUND: No withdrawal with this quote id on this account")
	// When it was sent names its zone, as svcwallet history's STARTED (UTC)
	// does: a time alone is read as UTC beside the command line's.
	if zone := time.Now().Format("MST"); !regexp.MustCompile(`on ARBITRUM, sent \d{4}-\d\d-\d\d \d\d:\d\d ` + regexp.QuoteMeta(zone) + `\n`).MatchString(out) {
		t.Errorf("History's sent time does not name its zone %s:\n%s", zone, out)
	}
	// One colon after the name: "COMPLETED: Paid out: the payout…" read as two labels.
	if n := strings.Count(out, "COMPLETED: Paid out; the payout transaction"); n != 2 {
		t.Errorf("COMPLETED said %d times in its words, want 2 (followed, then from History):\n%s", n, out)
	}
}

// TestEachStateOnce: a followed withdrawal asked about more often than it
// moves says each state once, in order, at the time it was seen.
func TestEachStateOnce(t *testing.T) {
	r := newRig(t)
	r.console.PollInterval = time.Second
	out, err := r.run(steps(logIn, withdraw25, typed("y"), []scripted{after("COMPLETED: ", "quit")})...)
	if err != nil {
		t.Fatal(err)
	}
	lines := regexp.MustCompile(`(?m)^\d\d:\d\d:\d\d .*$`).FindAllString(out, -1)
	start := r.clock.Now().Add(-6 * time.Second) // settled 6 s after it was accepted
	want := []string{start.Format("15:04:05") + " SUBMITTED", start.Add(3*time.Second).Format("15:04:05") + " SUBMITTED → SENDING",
		start.Add(6*time.Second).Format("15:04:05") + " SENDING → COMPLETED"}
	if strings.Join(lines, "\n") != strings.Join(want, "\n") {
		t.Errorf("state lines:\n%s\nwant:\n%s", strings.Join(lines, "\n"), strings.Join(want, "\n"))
	}
}

// TestAcceptedButNotRecorded: once the request has left, the journal can
// no longer be written (a directory put in its place, as a full disk
// would refuse it): plain mode says the withdrawal was accepted, and that
// the journal could not record it, which History's resume settles.
func TestAcceptedButNotRecorded(t *testing.T) {
	r := newRig(t)
	path := r.journal.Path()
	block := func() {
		if err := os.Rename(path, path+".moved"); err != nil {
			t.Error(err)
		}
		if err := os.Mkdir(path, 0o700); err != nil {
			t.Error(err)
		}
	}
	r.beforeWithdraw.Store(&block)
	out, err := r.run(steps(logIn, withdraw25, typed("y"), []scripted{after("COMPLETED: ", "quit")})...)
	if err != nil {
		t.Fatal(err)
	}
	wants(t, out, "Withdrawal accepted (SUBMITTED)", "But the journal could not record the answer (",
		"History shows withdrawal q-", "unanswered, and an identical withdrawal is refused, until you resume it there")
}

// TestKeptSessionSkipsTheLogin: a client that holds a session kept between
// runs (svcwallet auth login) opens plain mode on Home, saying whose.
func TestKeptSessionSkipsTheLogin(t *testing.T) {
	r := newRig(t)
	if _, err := r.console.Targets[0].Client.Login(context.Background(), exchange.APIKey(sandbox.DemoAPIKey)); err != nil {
		t.Fatal(err)
	}
	r.console.Targets[0].Kept = true
	out, err := r.run(typed("quit")...)
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	wants(t, out, "Using the session kept for sandbox: account "+sandbox.DemoAccountID+", by API key", "Home: what next?")
	if strings.Contains(out, "How do you log in?") {
		t.Errorf("the login was asked:\n%s", out)
	}
}

// TestLookUpFindsInTheOrderGiven: a transfer id typed among quote ids is
// said where it was typed, as `svcwallet status` does; one this machine
// has not seen is refused by name, and the line asked again.
func TestLookUpFindsInTheOrderGiven(t *testing.T) {
	r := newRig(t)
	first, err := r.ex.SeedWithdrawal(sandbox.DemoAccountID, sandbox.DestCompleted, "ARBITRUM", "10")
	if err != nil {
		t.Fatal(err)
	}
	second, err := r.ex.SeedWithdrawal(sandbox.DemoAccountID, sandbox.DestFailed, "ARBITRUM", "10")
	if err != nil {
		t.Fatal(err)
	}
	w := r.onTheBoard(t, first)
	out, err := r.run(steps(logIn, typed("look up", "tx-neverseen1 "+second, w.TxID+" "+second, "quit"))...)
	if err != nil {
		t.Fatal(err)
	}
	wants(t, out, "Not accepted: transfer id tx-neverseen1 was not found")
	if i, j := strings.Index(out, first+" "), strings.Index(out, second+" "); i < 0 || j < i {
		t.Errorf("the transfer id's withdrawal is not said first:\n%s", out)
	}
}

// TestLookUpSaysInTheOrderGiven: several ids looked up at once are said in
// the order they were typed, as `svcwallet status` prints them, whatever
// order their answers came in.
func TestLookUpSaysInTheOrderGiven(t *testing.T) {
	r := newRig(t)
	ids := []string{"q-cccccccccccccccccccccccc", "q-aaaaaaaaaaaaaaaaaaaaaaaa", "q-bbbbbbbbbbbbbbbbbbbbbbbb"}
	out, err := r.run(steps(logIn, typed("look up", strings.Join(ids, " "), "quit"))...)
	if err != nil {
		t.Fatal(err)
	}
	at := -1
	for _, id := range ids {
		i := strings.Index(out, id+" NOT FOUND")
		if i < 0 {
			t.Fatalf("%s not said NOT FOUND:\n%s", id, out)
		}
		if i < at {
			t.Fatalf("%s said before the id typed ahead of it:\n%s", id, out)
		}
		at = i
	}
}

// TestLookUpSaysAWithdrawalOnce: a transfer id typed beside its own quote
// id is one withdrawal, said and counted once.
func TestLookUpSaysAWithdrawalOnce(t *testing.T) {
	r := newRig(t)
	id, err := r.ex.SeedWithdrawal(sandbox.DemoAccountID, sandbox.DestCompleted, "ARBITRUM", "10")
	if err != nil {
		t.Fatal(err)
	}
	w := r.onTheBoard(t, id)
	out, err := r.run(steps(logIn, typed("look up", w.TxID+" "+id, "back home", "quit"))...)
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(out, "Quote id: "+id); n != 1 || !strings.Contains(out, "It has not ended.") {
		t.Errorf("said %d times, or counted as more than one:\n%s", n, out)
	}
}

// onTheBoard puts the withdrawal of quote id on this machine's watch board
// with the service's record of it (its transfer id), and returns that record.
func (r *rig) onTheBoard(t *testing.T, id string) exchange.Withdrawal {
	t.Helper()
	c := exchange.New(r.env, exchange.Options{Now: r.clock.Now})
	if _, err := c.Login(context.Background(), exchange.APIKey(sandbox.DemoAPIKey)); err != nil {
		t.Fatal(err)
	}
	w, err := c.WithdrawalStatus(context.Background(), id)
	if err != nil || w.TxID == "" {
		t.Fatalf("%+v, %v", w, err)
	}
	board := follow.WatchFile{Path: filepath.Join(filepath.Dir(r.journal.Path()), follow.WatchlistFile), Env: r.env.Name}
	if err := board.Append([]follow.Kept{{QuoteID: id, Record: &w}}, nil); err != nil {
		t.Fatal(err)
	}
	return w
}

// TestLookUpSolanaShapeSaysBothFacts: an id of a SOLANA payout hash's
// shape not seen here is asked as the quote id it may be, and its NOT
// FOUND says the payout hash's fact too (none seen here has it), alone
// or among others.
func TestLookUpSolanaShapeSaysBothFacts(t *testing.T) {
	sig := make([]byte, 64)
	for i := range sig {
		sig[i] = byte(i*11 + 5)
	}
	solana := base58.Encode(sig)
	for _, typed1 := range []string{solana, solana + " q-aaaaaaaaaaaaaaaaaaaaaaaa"} {
		out, err := newRig(t).run(steps(logIn, typed("look up", typed1, "quit"))...)
		if err != nil {
			t.Fatal(err)
		}
		wants(t, out, "SOLANA payout hash instead, no withdrawal this machine has seen")
	}
}

// TestEndedStatesReadOnce: an ended withdrawal looked up is said as its
// state's name and one sentence after it: "id FAILED: The withdrawal
// failed: nothing …" read as two labels, as REFUNDED's did.
func TestEndedStatesReadOnce(t *testing.T) {
	r := newRig(t)
	var ids []string
	for _, dest := range []string{sandbox.DestRefunded, sandbox.DestFailed} {
		id, err := r.ex.SeedWithdrawal(sandbox.DemoAccountID, dest, "ARBITRUM", "10")
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, id)
	}
	r.clock.Advance(sandbox.DefaultSettle)
	out, err := r.run(steps(logIn, typed("look up", strings.Join(ids, " "), "quit"))...)
	if err != nil {
		t.Fatal(err)
	}
	wants(t, out, ids[0]+" REFUNDED: The funds are back in the funding account; nothing was paid out, and you can withdraw again.",
		ids[1]+" FAILED: Nothing was paid out, and unlike a refund the funds are not returned automatically; contact support")
}

// TestBuilderOffersTheSandboxsBuilder: on the sandbox the builder question
// offers its builder account, as the console's form does (ctrl+r), and
// another typed; a real service's asks for the address alone.
func TestBuilderOffersTheSandboxsBuilder(t *testing.T) {
	rest := typed("0.1", "0.05", "7d", "no", "y", "quit")
	sandboxs := func() *rig {
		r := newRig(t)
		r.console.Targets[0].Demo.Builder = sandbox.BuilderAddress
		r.vars[signer.KeyEnvVar] = sandbox.DemoPrivateKey // the main account's key, to sign
		return r
	}
	r := sandboxs()
	out, err := r.run(steps(logIn, typed("builder", "1"), rest)...)
	if err != nil {
		t.Fatal(err)
	}
	wants(t, out, "Authorize which builder account?", "1. "+sandbox.BuilderAddress+": the sandbox's builder account", "2. another address",
		"Builder authorized (AuthorizeBuilder")
	r = sandboxs()
	out, err = r.run(steps(logIn, typed("builder", "another address", sandbox.BuilderAddress), rest)...)
	if err != nil {
		t.Fatal(err)
	}
	wants(t, out, "Authorize which builder account?", "Builder authorized (AuthorizeBuilder")
	r = sandboxs()
	r.console.Targets[0].Demo = nil
	out, err = r.run(steps(logIn, typed("builder", sandbox.BuilderAddress), rest)...)
	if err != nil {
		t.Fatal(err)
	}
	if wants(t, out, "Builder authorized (AuthorizeBuilder"); strings.Contains(out, "Authorize which builder account?") {
		t.Errorf("a real service's builder question offers the sandbox's:\n%s", out)
	}
}

// TestHistoryNamesWhereTheOlderAre: History offers the newest 20 of more
// withdrawals and names the command that lists every one, with the step
// that takes up an unfinished one: the older ones were out of reach, and
// nothing said where they were. On the embedded sandbox, whose journal
// ends with the run, no command lists them, and none is named.
func TestHistoryNamesWhereTheOlderAre(t *testing.T) {
	for env, want := range map[string]string{
		"local":           "The newest 20 of 21 withdrawals (every one, with the command that takes up an unfinished one: svcwallet history --env local):",
		config.SandboxEnv: "The newest 20 of 21 withdrawals:",
	} {
		r := newRigOn(t, func(url string) config.Environment {
			e := config.SandboxEnvironment(url, sandbox.DefaultChainID)
			e.Name = env
			return e
		})
		for i := range 21 {
			for _, kind := range []string{journal.KindIntent, journal.KindAccepted} {
				e := journal.Entry{Time: r.clock.Now(), Kind: kind, Env: r.env.Name, AccountID: sandbox.DemoAccountID, QuoteID: fmt.Sprintf("q-older%02d", i)}
				if kind == journal.KindIntent {
					e.Intent = &journal.Intent{Chain: "ARBITRUM", ToAddress: sandbox.DestCompleted, TokenIn: "USDT", TokenOut: "USDT"}
				}
				if err := r.journal.Append(e); err != nil {
					t.Fatal(err)
				}
			}
		}
		out, err := r.run(steps(logIn, typed("History", "Back home", "quit"))...)
		if err != nil {
			t.Fatal(err)
		}
		wants(t, out, want)
	}
}

// TestBuilderSignsWithTheWalletLoggedIn: a wallet login from a keystore
// file outside the keystore, where no review looks, holds the key: the
// builder authorization asks its fields, not "no key here".
func TestBuilderSignsWithTheWalletLoggedIn(t *testing.T) {
	exchangetest.CheapScrypt(t, &signer.ScryptN, &signer.ScryptP)
	r := newRig(t)
	r.console.Targets[0].Demo = nil
	_, path, err := signer.ImportRawKey(t.TempDir(), sandbox.DemoPrivateKey, "right horse")
	if err != nil {
		t.Fatal(err)
	}
	out, err := r.run(steps(typed("Wallet signature", "keystore", path, "right horse"), typed("builder", sandbox.BuilderAddress, "0.1", "0.05", "7d", "no", "n", "quit"))...)
	if err != nil {
		t.Fatal(err)
	}
	wants(t, out, "Logged in to", "by wallet: funding account "+sandbox.DemoAddress, "Signing key: the wallet you logged in with, "+sandbox.DemoAddress)
	if strings.Contains(out, "No key here") {
		t.Errorf("the wallet logged in with was not taken as the key:\n%s", out)
	}
}
