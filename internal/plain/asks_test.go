package plain

import (
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/svcwallet/svcwallet/service/builder"
	"github.com/svcwallet/svcwallet/service/config"
	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/follow"
	"github.com/svcwallet/svcwallet/service/sandbox"
	"github.com/svcwallet/svcwallet/service/target"
)

// TestReviewNamesTheEnvironmentAboveTheQuestion: the line right above the
// question that signs names the environment it signs in, and on the
// embedded sandbox says nothing real moves.
func TestReviewNamesTheEnvironmentAboveTheQuestion(t *testing.T) {
	r := newRig(t)
	out, err := r.run(steps(logIn, withdraw25, typed("n", "Back home", "quit"))...)
	if err != nil {
		t.Fatal(err)
	}
	above := regexp.MustCompile(`(?m)^Environment: (.*)\n  The embedded test exchange: nothing real moves\.\nSign and withdraw `).FindStringSubmatch(out)
	if above == nil || !strings.HasPrefix(above[1], r.env.Name+" · "+r.env.BaseURL+" · chain id 327") {
		t.Errorf("the environment is not named right above the question:\n%s", out)
	}
}

// TestGivenEnvironmentIsNotAsked: an environment given (--env,
// $SVCWALLET_ENV) is taken without a question; none given, the question
// numbers them in one order.
func TestGivenEnvironmentIsNotAsked(t *testing.T) {
	r := newRig(t)
	other := r.console.Targets[0]
	other.Env.Name, other.Demo = "staging", nil
	r.console.Targets = append([]target.Target{other}, r.console.Targets...)
	r.console.Given = r.env.Name
	out, err := r.run(steps(logIn, typed("quit"))...)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(out, "Which environment?") || !strings.Contains(out, "Logged in to "+r.env.Name) {
		t.Errorf("the given environment was asked for, or not taken:\n%s", out)
	}
	r.console.Given = ""
	out, err = r.run(steps(typed("2"), logIn, typed("quit"))...)
	if err != nil {
		t.Fatal(err)
	}
	wants(t, out, "Which environment?\n  1. staging\n  2. "+r.env.Name+"\n", "Logged in to "+r.env.Name)
}

// TestDefaultEnvironmentTakenByAnEmptyLine: with none given, the question
// names the environment every command would take (default_env, else the
// sandbox), and an empty line takes it; without one an empty line asks
// again.
func TestDefaultEnvironmentTakenByAnEmptyLine(t *testing.T) {
	r := newRig(t)
	other := r.console.Targets[0]
	other.Env.Name, other.Demo = "staging", nil
	r.console.Targets = append([]target.Target{other}, r.console.Targets...)
	r.console.Default = r.env.Name
	out, err := r.run(steps(typed(""), logIn, typed("quit"))...)
	if err != nil {
		t.Fatal(err)
	}
	wants(t, out, "  2. "+r.env.Name+"\nChoose 1 or 2, or type the name (an empty line takes "+r.env.Name+"): Environment "+r.env.Name+": ")
	r.console.Default = ""
	out, err = r.run(steps(typed("", "2"), logIn, typed("quit"))...)
	if err != nil {
		t.Fatal(err)
	}
	wants(t, out, "Choose 1 or 2, or type the name: Choose 1 or 2, or type the name: Environment "+r.env.Name+": ")
}

// TestSandboxAddressBookOnAFirstWithdrawal: with no withdrawal yet, the
// sandbox's address book of the route's chain type is offered, each payee
// with what the sandbox does with it.
func TestSandboxAddressBookOnAFirstWithdrawal(t *testing.T) {
	r := newRig(t)
	for _, p := range sandbox.DemoAddressBook {
		r.console.Targets[0].Demo.AddressBook = append(r.console.Targets[0].Demo.AddressBook, target.Payee(p))
	}
	out, err := r.run(steps(logIn, typed("withdraw", "ARBITRUM", "USDT", "1", "25", "2", "n", "Back home", "quit"))...)
	if err != nil {
		t.Fatal(err)
	}
	wants(t, out, "Pay out to which EVM address of the sandbox's address book, on ARBITRUM?\n  1. "+sandbox.DestCompleted+": pays out: COMPLETED\n",
		"  Pays out to: "+sandbox.DestCompleted+"\n")
	if strings.Contains(out, sandbox.DestSolana) {
		t.Errorf("a Solana payee offered on an EVM chain:\n%s", out)
	}
}

// TestLookUpSeveral: several quote ids are looked up at once, as `status`
// takes them, and those still moving are followed together, one line per
// change, each naming its id.
func TestLookUpSeveral(t *testing.T) {
	r := newRig(t)
	var ids []string
	for _, dest := range []string{sandbox.DestCompleted, sandbox.DestRefunded} {
		id, err := r.ex.SeedWithdrawal(sandbox.DemoAccountID, dest, "ARBITRUM", "10")
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, id)
	}
	out, err := r.run(steps(logIn, typed("look up", ids[0]+" "+ids[1], "Follow until the end"), []scripted{after("REFUNDED", "quit"), after("COMPLETED", "quit")})...)
	if err != nil {
		t.Fatal(err)
	}
	// The question with its back words fits a line of 100 columns: it
	// wrapped at 120.
	ask := "\nLook up quote ids, payout hashes, transfer ids or explorer links (spaces between; back for home): "
	if !strings.Contains(out, ask) || len([]rune(ask)) > 100 {
		t.Errorf("the look-up question is not %q, of at most 99 columns:\n%s", ask, out)
	}
	wants(t, out, ids[0]+" SUBMITTED: ", ids[1]+" SUBMITTED: ", "2 of them have not ended.",
		"Following 2 withdrawals until each ends", ids[0]+" SENDING → COMPLETED", ids[1]+" SENDING → REFUNDED",
		"2 withdrawals followed: 1 completed, 1 refunded.")
	if strings.Contains(out, "Not accepted") {
		t.Errorf("two ids were refused:\n%s", out)
	}
}

// TestLookUpPastedColumnSaysTheRestDropped: a look-up whose line came
// with more held by the terminal (a spreadsheet's column pasted, one id a
// line) looks up nothing, drops the rest unread and says so, with the
// command that takes a column: each other line answered Home's question
// as a choice it has not, 199 "Not accepted" for 200 ids, and the first
// line alone, sent, may be half of a key split over two rows. On the
// embedded sandbox that command is not named: it would start an exchange
// of its own, which knows none of this run's ids.
func TestLookUpPastedColumnSaysTheRestDropped(t *testing.T) {
	const dropped = "Not accepted: the paste held more lines than the first: nothing of it was looked up, and the lines after the first were dropped unread. Give several ids on one line, spaces between"
	for env, said := range map[string]string{
		"local":           dropped + "; for a column of them, run svcwallet status - --env local and paste it there, then end it with ctrl+d",
		config.SandboxEnv: dropped + ".\n",
	} {
		r := newRigOn(t, func(url string) config.Environment {
			e := config.SandboxEnvironment(url, sandbox.DefaultChainID)
			e.Name = env
			return e
		})
		id, err := r.ex.SeedWithdrawal(sandbox.DemoAccountID, sandbox.DestCompleted, "ARBITRUM", "10")
		if err != nil {
			t.Fatal(err)
		}
		flushes := 0
		r.console.Gate.Flush = func() (bool, error) { flushes++; return flushes == 1, nil } // the look-up's is the first
		out, err := r.run(steps(logIn, typed("look up", id, id, "Follow until the end"), []scripted{after("COMPLETED", "quit")})...)
		if err != nil {
			t.Fatal(err)
		}
		i := strings.Index(out, said)
		if i < 0 || strings.Contains(out[:i], "Asking the service") || strings.Count(out[i:], "Asking the service") != 1 || !strings.Contains(out[i:], "SUBMITTED") {
			t.Errorf("%s: the pasted line is looked up, or the drop not said before the typed one's answer %q:\n%s", env, said, out)
		}
		if env == config.SandboxEnv && strings.Contains(out, "status -") {
			t.Errorf("on the embedded sandbox the look-up names status -, which knows none of this run's ids:\n%s", out)
		}
	}
}

// TestLookUpRefusedColumnSaysTheRestDropped: a pasted column whose first
// line is a spreadsheet's header says once that the lines after it were
// dropped: "no quote id in it" alone left 200 ids gone unsaid.
func TestLookUpRefusedColumnSaysTheRestDropped(t *testing.T) {
	r := newRigOn(t, func(url string) config.Environment {
		e := config.SandboxEnvironment(url, sandbox.DefaultChainID)
		e.Name = "local"
		return e
	})
	id, err := r.ex.SeedWithdrawal(sandbox.DemoAccountID, sandbox.DestCompleted, "ARBITRUM", "10")
	if err != nil {
		t.Fatal(err)
	}
	flushes := 0
	r.console.Gate.Flush = func() (bool, error) { flushes++; return flushes == 1, nil } // the header's answer
	out, err := r.run(steps(logIn, typed("look up", `"quote_id",`, id, "Follow until the end"), []scripted{after("COMPLETED", "quit")})...)
	if err != nil {
		t.Fatal(err)
	}
	wants(t, out, "Not accepted: the paste held more lines than the first: nothing of it was looked up, and the lines after the first were dropped unread",
		"run svcwallet status - --env local and paste it there")
	if n := strings.Count(out, "dropped unread"); n != 1 {
		t.Errorf("the drop is said %d times, want once, with the refusal:\n%s", n, out)
	}
}

// TestLookUpSaysItAsks: a look-up says it is asking before the answers
// come, naming the id or how many and, for several, how long they take at
// the request budget: ids said once all have answered left a screen
// reader's user in silence the 10 s 50 ids take.
func TestLookUpSaysItAsks(t *testing.T) {
	r := newRig(t)
	var ids []string
	for range 11 {
		id, err := r.ex.SeedWithdrawal(sandbox.DemoAccountID, sandbox.DestCompleted, "ARBITRUM", "10")
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, id)
	}
	out, err := r.run(steps(logIn, typed("look up", ids[0], "Back home", "look up", strings.Join(ids, " "), "Back home", "quit"))...)
	if err != nil {
		t.Fatal(err)
	}
	one, many := "Asking the service about "+ids[0]+"…\n", "Asking the service about 11 withdrawals, 5 a second: about 2s…\n"
	if i, j := strings.Index(out, one), strings.Index(out, ids[0]+" SUBMITTED"); i < 0 || !strings.Contains(out[i:], "SUBMITTED: ") || j >= 0 && j < i {
		t.Errorf("no %q before the one id's answer:\n%s", one, out)
	}
	if i, j := strings.Index(out, many), strings.Index(out, ids[10]+" SUBMITTED"); i < 0 || j < i {
		t.Errorf("no %q before the answers of 11:\n%s", many, out)
	}
}

// TestFollowGivesUp: following stops after follow.GiveUpAfter failed asks
// in a row, as status --watch does, and says each and how to ask again,
// whether or not the follow had seen a state before the service went.
func TestFollowGivesUp(t *testing.T) {
	for answered, seen := range map[int32]string{1: "", 2: " SUBMITTED\n"} { // the look-up's, then the follow's first
		r := newRig(t)
		id, err := r.ex.SeedWithdrawal(sandbox.DemoAccountID, sandbox.DestCompleted, "ARBITRUM", "10")
		if err != nil {
			t.Fatal(err)
		}
		r.statusAnswered.Store(answered)
		out, err := r.run(steps(logIn, typed("look up", id, "Follow until the end"), []scripted{after("in a row", "quit")})...)
		if err != nil {
			t.Fatal(err)
		}
		wants(t, out, "SUBMITTED: ", "Following "+id+" until it ends", seen,
			"Stopped following "+id+" after 5 failed asks in a row: \"Look up a withdrawal's status\" asks again.")
		if n, again := strings.Count(out, "no answer ("), strings.Count(out, "): asked again in "); n != 5 || again != 4 {
			t.Errorf("%d answered: %d failed asks said, %d asked again, want 5, the last not:\n%s", answered, n, again, out)
		}
	}
}

// TestFollowSaysNotFound: a withdrawal the service stops knowing while
// it is followed is said as the state it is (NOT FOUND), not as a failed
// ask to be asked again.
func TestFollowSaysNotFound(t *testing.T) {
	r := newRig(t)
	id, err := r.ex.SeedWithdrawal(sandbox.DemoAccountID, sandbox.DestCompleted, "ARBITRUM", "10")
	if err != nil {
		t.Fatal(err)
	}
	r.statusAnswered.Store(2) // the look-up's, then the follow's first
	r.statusGone.Store(true)
	out, err := r.run(steps(logIn, typed("look up", id, "Follow until the end"), []scripted{after("→ "+follow.LabelNotFound, "quit")})...)
	if err != nil {
		t.Fatal(err)
	}
	wants(t, out, "Following "+id+" until it ends", " SUBMITTED\n", " SUBMITTED → "+follow.LabelNotFound+"\n")
	if strings.Contains(out, "no answer (") {
		t.Errorf("a not found said as no answer:\n%s", out)
	}
}

// TestValidForTakesTheConsolesDefault: an empty line at "Valid for" takes
// the console's 7 days.
func TestValidForTakesTheConsolesDefault(t *testing.T) {
	r := newRig(t)
	out, err := r.run(steps(logIn, typed("builder", sandbox.BuilderAddress, "0.1", "0.05", "", "no", "n", "quit"))...)
	if err != nil {
		t.Fatal(err)
	}
	wants(t, out, "an empty line takes 7 days", "valid for 7 days")
}

// TestLookUpKeyShapeNotShown: a line holding a private key's shape is
// refused without repeating any of it (not even the id before it), and
// says how to give a TRON payout hash, which has that shape.
func TestLookUpKeyShapeNotShown(t *testing.T) {
	r := newRig(t)
	id, err := r.ex.SeedWithdrawal(sandbox.DemoAccountID, sandbox.DestCompleted, "ARBITRUM", "10")
	if err != nil {
		t.Fatal(err)
	}
	bare := strings.TrimPrefix(sandbox.DemoPrivateKey, "0x")
	out, err := r.run(steps(logIn, typed("look up", "q-before1234 "+bare, id), []scripted{after("It has not ended", "Back home"), after("Home", "quit")})...)
	if err != nil {
		t.Fatal(err)
	}
	wants(t, out, "the shape of a private key", "give it with 0x in front")
	// The transcript holds what svcwallet wrote: nothing of the line.
	if strings.Contains(out, bare[:8]) || strings.Contains(out, "q-before1234") {
		t.Errorf("the refused line was repeated:\n%s", out)
	}
}

// TestLookUpRecoveryPhraseNotSent: a recovery phrase typed at the look-up
// is refused whole, never repeated nor sent: split at its spaces, each
// word was asked of the service as a quote id and said back not found.
func TestLookUpRecoveryPhraseNotSent(t *testing.T) {
	r := newRig(t)
	id, err := r.ex.SeedWithdrawal(sandbox.DemoAccountID, sandbox.DestCompleted, "ARBITRUM", "10")
	if err != nil {
		t.Fatal(err)
	}
	phrase := "legal winner thank year wave sausage worth useful legal winner thank yellow"
	out, err := r.run(steps(logIn, typed("look up", phrase, id), []scripted{after("It has not ended", "Back home"), after("Home", "quit")})...)
	if err != nil {
		t.Fatal(err)
	}
	wants(t, out, "the shape of a wallet's recovery phrase")
	if strings.Contains(out, "sausage") || strings.Contains(out, "0x in front") {
		t.Errorf("the phrase was repeated, or said to be a TRON payout hash:\n%s", out)
	}
}

// TestLookUpOwnAPIKeyNotSent: the session's API key typed at the look-up,
// as a quote id or held by a transfer id's shape, is refused, never sent
// as a quote id nor repeated ("tx-KEY" was said back not seen).
func TestLookUpOwnAPIKeyNotSent(t *testing.T) {
	for _, typedKey := range []string{sandbox.DemoAPIKey, follow.TransferIDPrefix + sandbox.DemoAPIKey} {
		r := newRig(t)
		id, err := r.ex.SeedWithdrawal(sandbox.DemoAccountID, sandbox.DestCompleted, "ARBITRUM", "10")
		if err != nil {
			t.Fatal(err)
		}
		out, err := r.run(steps(logIn, typed("look up", typedKey, id), []scripted{after("It has not ended", "Back home"), after("Home", "quit")})...)
		if err != nil {
			t.Fatal(err)
		}
		wants(t, out, "Not accepted: "+follow.ErrOwnSecretGiven.Error()) // the service's one wording
		// The sandbox's banner names its demo key; the look-up starts after it.
		if out = out[strings.Index(out, "Look up a withdrawal"):]; strings.Contains(out, sandbox.DemoAPIKey) || strings.Contains(out, "no withdrawal with quote id") {
			t.Errorf("%s: the API key was repeated or asked:\n%s", typedKey[:3], out)
		}
	}
}

// TestLookUpFoundOwnAPIKeyNotSaid: a transfer id a planted board file pairs
// with the session's API key is said as not seen, never asked nor said as
// the key (follow.Known.Resolve).
func TestLookUpFoundOwnAPIKeyNotSaid(t *testing.T) {
	r := newRig(t)
	id, err := r.ex.SeedWithdrawal(sandbox.DemoAccountID, sandbox.DestCompleted, "ARBITRUM", "10")
	if err != nil {
		t.Fatal(err)
	}
	w := r.onTheBoard(t, id)
	w.QuoteID, w.TxID = sandbox.DemoAPIKey+"1", "tx-plantedkey1"
	board := follow.WatchFile{Path: filepath.Join(filepath.Dir(r.journal.Path()), follow.WatchlistFile), Env: r.env.Name}
	if err := board.Append([]follow.Kept{{QuoteID: w.QuoteID, Record: &w}}, nil); err != nil {
		t.Fatal(err)
	}
	out, err := r.run(steps(logIn, typed("look up", "tx-plantedkey1", "quit"))...)
	if err != nil {
		t.Fatal(err)
	}
	// The sandbox's banner names its demo key; the look-up starts after it.
	if out = out[strings.Index(out, "Look up a withdrawal"):]; strings.Contains(out, sandbox.DemoAPIKey) || !strings.Contains(out, "tx-plantedkey1 was not found") {
		t.Errorf("a transfer id paired with the API key:\n%s", strings.ReplaceAll(out, sandbox.DemoAPIKey, "<the API key>"))
	}
}

// TestEmptyFeeCapIsNone: the fee cap is optional, so an empty line takes
// none, and the question says so; it asked again without a word.
func TestEmptyFeeCapIsNone(t *testing.T) {
	r := newRig(t)
	out, err := r.run(steps(logIn, typed("withdraw", "ARBITRUM", "USDT", sandbox.DestCompleted, "25", "", "n", "Back home", "quit"))...)
	if err != nil {
		t.Fatal(err)
	}
	ask := "Fee cap in USDT (refuse a quote whose fee or loss is above it; an empty line takes none; back for home): "
	if n := strings.Count(out, "Fee cap in USDT"); n != 1 || !strings.Contains(out, ask+"\nAsking the bridge for a quote") {
		t.Errorf("the fee cap is asked %d times, or an empty line is not none:\n%s", n, out)
	}
}

// TestLookUpShortenedIDSaysGiveItWhole: plain mode's look-up refuses an id
// as a screen shortens it by the same words as status and the board.
func TestLookUpShortenedIDSaysGiveItWhole(t *testing.T) {
	r := newRig(t)
	id, err := r.ex.SeedWithdrawal(sandbox.DemoAccountID, sandbox.DestCompleted, "ARBITRUM", "10")
	if err != nil {
		t.Fatal(err)
	}
	short := id[:6] + "…" + id[len(id)-4:]
	out, err := r.run(steps(logIn, typed("look up", short, id), []scripted{after("It has not ended", "Back home"), after("Home", "quit")})...)
	if err != nil {
		t.Fatal(err)
	}
	wants(t, out, "is not a quote id: "+exchange.ErrShortened.Error())
}

// TestLookUpRefusedIDShownEscaped: an id refused for a character it holds
// is repeated escaped (safetext.IDQuoted): cleaned, "ab\u202ecd" read as
// "abcd", an id that passes.
func TestLookUpRefusedIDShownEscaped(t *testing.T) {
	r := newRig(t)
	id, err := r.ex.SeedWithdrawal(sandbox.DemoAccountID, sandbox.DestCompleted, "ARBITRUM", "10")
	if err != nil {
		t.Fatal(err)
	}
	out, err := r.run(steps(logIn, typed("look up", "ab\u202ecd", id), []scripted{after("It has not ended", "Back home"), after("Home", "quit")})...)
	if err != nil {
		t.Fatal(err)
	}
	wants(t, out, `"ab\u202ecd" is not a quote id`)
}

// TestBuilderMissingAsksOnlyWhatIsMissing: the builder's questions that
// plain mode's form and the command line ask leave out what is given (the
// sandbox's builder, a flag), so a command given every flag asks nothing.
func TestBuilderMissingAsksOnlyWhatIsMissing(t *testing.T) {
	in := builder.Input{Builder: sandbox.BuilderAddress, SpotFee: "0.05"}
	var asked []string
	for _, m := range BuilderMissing(&in, builder.Asked) {
		asked = append(asked, m.Q().Ask)
	}
	if want := []string{builder.FieldFuturesFee.Question().Ask, builder.FieldExpires.Question().Ask}; !slices.Equal(asked, want) {
		t.Errorf("asked %q, want %q", asked, want)
	}
	in.FuturesFee, in.Expires = "0.1", "7d"
	if asks := BuilderMissing(&in, builder.Asked); len(asks) != 0 {
		t.Errorf("%d questions asked with every answer given", len(asks))
	}
}
