package builder

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/svcwallet/svcwallet/screens/kit"
	"github.com/svcwallet/svcwallet/screens/screentest"
	"github.com/svcwallet/svcwallet/service/builder"
	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/intent"
	"github.com/svcwallet/svcwallet/service/journal"
	"github.com/svcwallet/svcwallet/service/sandbox"
	"github.com/svcwallet/svcwallet/signer"
	"github.com/svcwallet/svcwallet/tui"
)

// offlineReview is a builder review of an authorization without an API key,
// for app's logged-in account, past the keystroke guard, its key found.
func offlineReview(t *testing.T, app *kit.App, now *time.Time, w, h int) *builderReviewScreen {
	t.Helper()
	s, _ := app.Client().Session()
	a, err := builder.Check(builder.Input{Main: s.FundingAccountAddress, Builder: sandbox.BuilderAddress, FuturesFee: "0.1", SpotFee: "0.05", Expires: "7d"})
	if err != nil {
		t.Fatal(err)
	}
	r := newBuilderReview(app, a, bldNonce)
	r.SetSize(w, h)
	r.Init()
	r.Update(keyFound(r, signer.Found{Place: signer.KeyDemo}))
	*now = now.Add(kit.ShownGuard)
	return r
}

// keyFound is the answer to r's key search (the one it asked last): the
// key was found at found.
func keyFound(r *builderReviewScreen, found signer.Found) kit.KeyFoundMsg {
	return kit.KeyFoundMsg{For: r.gate.Key.Asked, Found: found}
}

// unbroken is the plain view without its breaks and spaces, to find a path
// whole: a long path wraps where the length of its temporary folder's random
// name puts the break, in the file's name 1 run in 200 at 60 columns.
func unbroken(view string) string { return strings.Join(strings.Fields(ansi.Strip(view)), "") }

// fullHelpOffers reports whether the ? help lists key k.
func fullHelpOffers(r *builderReviewScreen, k string) bool {
	for _, col := range r.KeyMap().FullHelp() {
		for _, b := range col {
			if b.Enabled() && slices.Contains(b.Keys(), k) {
				return true
			}
		}
	}
	return false
}

// TestBuilderReviewPreparesForOfflineSigning: o on the builder review
// writes the reviewed authorization for a wallet elsewhere, as `builder
// authorize --signer offline` does: the journal's builder_prepared line
// first, then the typed data alone in a new 0600 file beside the journal;
// the review shows the file, the main account that must sign it and the
// submit command, and signs nothing. The file signed elsewhere goes through
// intent.Find and builder.Submit as `builder submit` sends it. On the embedded
// sandbox, whose journal ends with the console, o is not offered.
func TestBuilderReviewPreparesForOfflineSigning(t *testing.T) {
	app, now := screentest.LoggedInApp(t)
	r := offlineReview(t, app, now, 120, 40)
	if screentest.Offers(r.KeyMap(), "o") || fullHelpOffers(r, "o") {
		t.Fatal("o is offered on the embedded sandbox")
	}
	if _, cmd := screentest.Press(r, "o"); screentest.Acts(cmd) || r.gate.Offline.Preparing {
		t.Fatal("o prepares on the embedded sandbox")
	}
	app.Target.Demo = nil // a configured environment
	r = offlineReview(t, app, now, 120, 40)
	if !screentest.Offers(r.KeyMap(), "o") || !fullHelpOffers(r, "o") {
		t.Fatalf("o is not offered: %v", r.KeyMap().ShortHelp())
	}
	_, cmd := screentest.Press(r, "o")
	if cmd == nil {
		t.Fatal("o gives no command")
	}
	// While it is written: nothing else acts, and esc waits for the answer.
	// Quitting asks, in the words of what is in flight.
	if screentest.Offers(r.KeyMap(), "o") || screentest.Offers(r.KeyMap(), "enter") || !strings.HasPrefix(r.Busy(), "The builder authorization is being prepared for offline signing") {
		t.Errorf("while preparing the review offers %v (busy %q)", r.KeyMap().ShortHelp(), r.Busy())
	}
	if view := ansi.Strip(r.View()); !strings.Contains(view, "Preparing the authorization for offline signing") {
		t.Errorf("the review does not say it is preparing:\n%s", view)
	}
	screentest.Drive(r, cmd)
	if !r.gate.Offline.Done() {
		t.Fatalf("nothing prepared: %v\n%s", r.err, ansi.Strip(r.View()))
	}
	if r.Busy() != "" {
		t.Error("still busy once prepared")
	}
	path := r.gate.Offline.Path
	if filepath.Dir(path) != filepath.Dir(app.Journal().Path()) {
		t.Errorf("the file %s is not beside the journal %s", path, app.Journal().Path())
	}
	fi, err := os.Stat(path)
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("file %s: %v %v", path, fi, err)
	}
	b, _ := os.ReadFile(path)
	if want := signer.TypedDataJSON(r.order.Domain, r.order.Message); strings.TrimSpace(string(b)) != string(want) {
		t.Fatalf("the file is not the typed data alone:\n%s", b)
	}
	var td map[string]json.RawMessage
	if json.Unmarshal(b, &td) != nil || len(td) != 4 {
		t.Fatalf("the file holds more than the typed data: %s", b)
	}
	entries, err := app.Journal().Entries()
	if err != nil || len(entries) != 1 || entries[0].Kind != journal.KindPrepared || entries[0].Prepared.Kind != journal.PreparedBuilder {
		t.Fatalf("journal %+v (%v), want the builder's prepared line alone", entries, err)
	}
	view := screentest.OneLine(ansi.Strip(r.View()))
	for _, want := range []string{"Prepared for offline signing; nothing was signed or sent",
		"svcwallet builder submit", r.order.Auth.Main.Hex(), "builderAccountID"} {
		if !strings.Contains(view, want) {
			t.Errorf("the review lacks %q:\n%s", want, view)
		}
	}
	if !strings.Contains(unbroken(view), path) {
		t.Errorf("the review lacks the file %s:\n%s", path, view)
	}
	if screentest.Offers(r.KeyMap(), "enter") || screentest.Offers(r.KeyMap(), "o") {
		t.Errorf("after preparing the review offers %v", r.KeyMap().ShortHelp())
	}
	// The submit command, wrapped on screen, is copied whole, naming the file.
	submit := "svcwallet builder submit " + path + " --signature 0x… --env sandbox"
	if _, cmd := screentest.Press(r, "c"); !screentest.Offers(r.KeyMap(), "c") || !slices.Contains(screentest.RunAll(cmd), tea.Raw(ansi.SetSystemClipboard(submit))()) {
		t.Errorf("c does not copy %q", submit)
	}
	if screentest.Press(r, "enter"); r.gate.Sending || r.gate.Offline.Preparing {
		t.Error("enter signs an authorization already prepared for offline signing")
	}
	// Too short for the message, the file and how to finish stay on screen.
	r.SetSize(60, 12)
	if view := r.View(); !strings.Contains(unbroken(view), path) || !strings.Contains(screentest.OneLine(view), "svcwallet builder submit") {
		t.Errorf("at 60x12 the prepared file is not shown:\n%s", ansi.Strip(r.View()))
	}

	// What `builder submit FILE --signature` does with the file signed by
	// the main account's key: found in the journal, sent once, accepted.
	found, err := intent.Find(entries, journal.PreparedBuilder, app.Target.Env.Name, "", b)
	if err != nil {
		t.Fatalf("the file is not found as prepared: %v", err)
	}
	p, err := builder.PreparedOf(found)
	if err != nil {
		t.Fatal(err)
	}
	k, err := signer.ParsePrivateKeyHex(sandbox.DemoPrivateKey)
	if err != nil {
		t.Fatal(err)
	}
	sig, err := k.SignTypedData(context.Background(), p.Order.Domain, p.Order.Message)
	if err != nil {
		t.Fatal(err)
	}
	clock := func() time.Time { return *now }
	if _, _, err := builder.Submit(context.Background(), app.Client(), app.Journal(), p, sig, clock); err != nil {
		t.Fatalf("the signed file is refused: %v", err)
	}
	entries, _ = app.Journal().Entries()
	if _, err := intent.Find(entries, journal.PreparedBuilder, app.Target.Env.Name, "", b); !errors.As(err, new(*intent.SubmittedError)) {
		t.Errorf("a second submit is not refused: %v", err)
	}
}

// TestBuilderReviewOfflineFileNotWritten: when the file cannot be written
// (here, one of its name exists and is never overwritten), the review says
// what happened and what to run instead, and shows no file.
func TestBuilderReviewOfflineFileNotWritten(t *testing.T) {
	app, now := screentest.LoggedInApp(t)
	app.Target.Demo = nil
	r := offlineReview(t, app, now, 120, 40)
	taken := filepath.Join(filepath.Dir(app.Journal().Path()), "builder-424242.json")
	if err := os.WriteFile(taken, []byte("mine"), 0o600); err != nil {
		t.Fatal(err)
	}
	_, cmd := screentest.Press(r, "o")
	screentest.Drive(r, cmd)
	if r.gate.Offline.Done() || r.gate.Offline.Preparing {
		t.Fatalf("prepared %+v over an existing file", r.gate.Offline)
	}
	if b, _ := os.ReadFile(taken); string(b) != "mine" {
		t.Errorf("the existing file was overwritten: %q", b)
	}
	view := screentest.OneLine(ansi.Strip(r.View()))
	for _, want := range []string{"Not prepared", "journaled but its file could not be written",
		"svcwallet builder authorize --builder " + r.order.Auth.Builder.Hex() + " --max-futures-fee", "--signer offline --account " + r.order.Auth.Main.Hex() + " --out builder-"} {
		if !strings.Contains(view, want) {
			t.Errorf("the review lacks %q:\n%s", want, view)
		}
	}
}

// TestBuilderReviewNoKeyPointsOffline: without a key for the main account
// here, the review says so at once and, where o acts, that o prepares the
// authorization for signing elsewhere (on the embedded sandbox it does not
// mention o); enter, offered while the key is looked for, is then not
// offered and does nothing, and a hold that drops it says so.
func TestBuilderReviewNoKeyPointsOffline(t *testing.T) {
	app, now := screentest.LoggedInApp(t)
	for _, configured := range []bool{false, true} {
		if configured {
			app.Target.Demo = nil
		}
		r := offlineReview(t, app, now, 120, 40)
		r.gate.Key.Find() // looking again: enter stays offered
		if !screentest.Offers(r.KeyMap(), "enter") {
			t.Fatalf("configured %t: enter is not offered while the key is looked for: %v", configured, r.KeyMap().ShortHelp())
		}
		r.Update(keyFound(r, signer.Found{}))
		screentest.Press(r, "enter") // held from when the search landed
		if said := screentest.OneLine(ansi.Strip(r.View())); !strings.Contains(said, kit.NotAKey("enter")) {
			t.Errorf("configured %t: the hold does not say enter does nothing:\n%s", configured, said)
		}
		*now = now.Add(kit.ShownGuard)
		view := screentest.OneLine(ansi.Strip(r.View()))
		if says := strings.Contains(view, "press o to prepare the authorization for offline signing"); says != configured || !strings.Contains(view, "No key here signs for") {
			t.Errorf("configured %t: the review says:\n%s", configured, view)
		}
		if screentest.Offers(r.KeyMap(), "enter") || strings.Contains(view, "enter") {
			t.Errorf("configured %t: enter is offered without a key: %v\n%s", configured, r.KeyMap().ShortHelp(), view)
		}
		if _, cmd := screentest.Press(r, "enter"); screentest.Acts(cmd) || r.err != nil || screentest.OneLine(ansi.Strip(r.View())) != view {
			t.Fatalf("configured %t: enter without a key acts: %v %v", configured, cmd, r.err)
		}
		// Shown again (after the help, a resize), o is held a moment: the
		// message names it once it acts, as the footer offers it.
		r.Update(tui.ShownAgainMsg{})
		for _, when := range []string{"held", "acting"} {
			screentest.RequireNamedKeysAct(t, fmt.Sprintf("configured %t, shown again, keys %s", configured, when), r.View(),
				func(k string) bool { return screentest.Offers(r.KeyMap(), k) })
			*now = now.Add(kit.ShownGuard)
		}
		if says := strings.Contains(screentest.OneLine(ansi.Strip(r.View())), "press o to prepare"); says != configured {
			t.Errorf("configured %t, shown again and keys acting: o named %t", configured, says)
		}
	}
}

// TestBuilderReviewTakesOnlyItsOwnKey: a key search asked by a builder
// review left with esc is not taken by the next one, so enter signs
// nothing until the new review's own search lands.
func TestBuilderReviewTakesOnlyItsOwnKey(t *testing.T) {
	app, now := screentest.LoggedInApp(t)
	s, _ := app.Client().Session()
	a, err := builder.Check(builder.Input{Main: s.FundingAccountAddress, Builder: sandbox.BuilderAddress, FuturesFee: "0.1", SpotFee: "0.05", Expires: "7d"})
	if err != nil {
		t.Fatal(err)
	}
	left := newBuilderReview(app, a, bldNonce)
	left.Init()
	r := newBuilderReview(app, a, bldNonce)
	r.SetSize(120, 40)
	r.Init()
	r.Update(keyFound(left, signer.Found{Place: signer.KeyDemo}))
	*now = now.Add(kit.ShownGuard)
	if screentest.Press(r, "enter"); r.gate.Sending || r.gate.Key.Found {
		t.Fatal("the left review's key search was taken, and enter signed or could")
	}
	r.Update(keyFound(r, signer.Found{Place: signer.KeyDemo}))
	*now = now.Add(kit.ShownGuard)
	if screentest.Press(r, "enter"); !r.gate.Sending {
		t.Fatalf("enter once its own key search landed did not sign:\n%s", ansi.Strip(r.View()))
	}
}

// TestTakenOffersNoOfflinePreparing: once an authorization was accepted
// with an answer that cannot be read, o does not prepare another (a new
// signature would authorize the builder again), where it did before.
func TestTakenOffersNoOfflinePreparing(t *testing.T) {
	app, now := screentest.LoggedInApp(t)
	app.Target.Demo = nil // a configured environment
	r := offlineReview(t, app, now, 120, 40)
	if !screentest.Offers(r.KeyMap(), "o") {
		t.Fatalf("o is not offered before sending: %v", r.KeyMap().ShortHelp())
	}
	signed := exchange.BuilderAuthorizeRequest{Signature: exchange.Signature{R: "0x01", S: "0x02"}}
	r.Update(builderSentMsg{req: signed, err: &exchange.UnreadableAnswerError{Status: 200, Reason: exchange.NewShapeError("builder API key", "holds a space")}})
	*now = now.Add(kit.ShownGuard)
	if screentest.Offers(r.KeyMap(), "o") || screentest.Offers(r.KeyMap(), "enter") {
		t.Errorf("a taken authorization offers %v", r.KeyMap().ShortHelp())
	}
}

// TestBuilderReviewNoKeyFits60x20: a builder review with no key here,
// none set or its environment's signer unusable, shows whole at 60x20 (and
// at 120x40), saying no key once with one set of ways
// (screentest.RequireNoKeyFits): the key's line in two rows and the
// unusable signer's steps twice ("set … signer" though set) left it too
// small at 60x20, and its smallest said "fix the signer" without what to
// fix. Golden files.
func TestBuilderReviewNoKeyFits60x20(t *testing.T) {
	screentest.RequireNoKeyFits(t, noKeyReview)
}

// TestBuilderReviewNoKeyFullWhereFits: the signer's own error is said
// wherever the review fits whole with it
// (screentest.RequireNoKeyFullWhereFits): at 60x21 to 60x25 the brief
// words showed, rows left blank.
func TestBuilderReviewNoKeyFullWhereFits(t *testing.T) {
	screentest.RequireNoKeyFullWhereFits(t, noKeyReview, [2]int{60, 21}, [2]int{60, 24})
}

// noKeyReview is a builder review whose search for its key found none.
func noKeyReview(t *testing.T, app *kit.App, now *time.Time, w, h int) (tui.Screen, func() bool) {
	r := offlineReview(t, app, now, w, h)
	r.gate.Key.Find()
	r.Update(keyFound(r, app.KeyLookup().Find(context.Background(), r.order.Auth.Main)))
	return r, func() bool { _, fits := r.fitted(); return fits }
}

// TestBuilderReviewNoKeyTooSmallSaysSo: a builder review with no key here,
// its environment's signer unusable, given fewer rows than its smallest
// needs (at 60x20 it fits, help open too: TestBuilderReviewNoKeyFits60x20),
// says there is no key and what a taller terminal gives (o, the ways):
// "signing waits" promised what no terminal size gives.
func TestBuilderReviewNoKeyTooSmallSaysSo(t *testing.T) {
	app, now := screentest.LoggedInApp(t)
	app.Target.Demo, app.Target.Env.Signer = nil, "command" // and no signing command set
	r := offlineReview(t, app, now, 60, 12)
	r.gate.Key.Find()
	r.Update(keyFound(r, app.KeyLookup().Find(context.Background(), r.order.Auth.Main)))
	*now = now.Add(kit.ShownGuard)
	said := screentest.OneLine(ansi.Strip(r.View()))
	if !strings.Contains(said, "this terminal shows 12") || !strings.Contains(said, "No key here signs for this account") || !strings.Contains(said, "prepare it for offline signing") || strings.Contains(said, "signing waits") {
		t.Errorf("60x12 without a key says:\n%s", said)
	}
}
