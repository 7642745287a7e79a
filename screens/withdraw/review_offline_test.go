package withdraw

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
	"github.com/ethereum/go-ethereum/common"

	"github.com/svcwallet/svcwallet/screens/kit"
	"github.com/svcwallet/svcwallet/screens/screentest"
	"github.com/svcwallet/svcwallet/service/journal"
	"github.com/svcwallet/svcwallet/signer"
	"github.com/svcwallet/svcwallet/tui"
)

// TestReviewPreparesForOfflineSigning (issue 20 item 3, the console): o
// writes the reviewed Transfer for a wallet elsewhere, as `withdraw
// --signer offline` does: the journal's prepared line first, then the typed
// data alone in a new 0600 file; the review shows the file and the submit
// command, and signs nothing more. While it is being written nothing else
// acts and esc waits. On the embedded sandbox, whose journal
// ends with the console, o is not offered, nor while the review is too
// small to read whole.
func TestReviewPreparesForOfflineSigning(t *testing.T) {
	app, now := screentest.LoggedInApp(t)
	r := reviewFor(t, app, now, fixedQuote(*now, "1.5"), 0, 120, 40, signer.Found{Place: signer.KeyDemo})
	if screentest.Offers(r.KeyMap(), "o") {
		t.Fatal("o is offered on the embedded sandbox")
	}
	app.Target.Demo = nil // a configured environment
	// A config path holding FILE and a space: the submit command names the
	// file as a word of its own and keeps the config path whole.
	app.ConfigFlag = "/home/me/my FILES/wallet.toml"
	// Too small to read whole, with a key or without one (offline signing's
	// case): o is not offered, and the screen says why.
	for _, source := range []signer.KeyPlace{signer.KeyDemo, signer.KeyNowhere} {
		r = reviewFor(t, app, now, fixedQuote(*now, "1.5"), 0, 60, 12, signer.Found{Place: source})
		if _, cmd := screentest.Press(r, "o"); screentest.Offers(r.KeyMap(), "o") || screentest.Acts(cmd) || !strings.Contains(ansi.Strip(r.View()), "Too small to review") {
			t.Fatalf("key source %d: o is offered, or prepares, or the screen does not say it is too small:\n%s", source, ansi.Strip(r.View()))
		}
	}
	r = reviewFor(t, app, now, fixedQuote(*now, "1.5"), 0, 120, 40, signer.Found{Place: signer.KeyDemo})
	if !screentest.Offers(r.KeyMap(), "o") {
		t.Fatalf("o is not offered: %v", r.KeyMap().ShortHelp())
	}
	_, cmd := screentest.Press(r, "o")
	// While it is written: o is not offered again, enter signs nothing,
	// and esc waits for the answer (it must find this screen).
	if screentest.Offers(r.KeyMap(), "o") || screentest.Offers(r.KeyMap(), "enter") || r.Busy() == "" {
		t.Errorf("while preparing the review offers %v (busy %q)", r.KeyMap().ShortHelp(), r.Busy())
	}
	screentest.Drive(r, cmd)
	if !r.gate.Offline.Done() {
		t.Fatalf("nothing prepared: %v\n%s", r.err, ansi.Strip(r.View()))
	}
	path := r.gate.Offline.Path
	fi, err := os.Stat(path)
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("file %s: %v %v", path, fi, err)
	}
	b, _ := os.ReadFile(path)
	if want := signer.TypedDataJSON(r.gate.Offline.Prepared.Domain, r.gate.Offline.Prepared.Message); strings.TrimSpace(string(b)) != string(want) {
		t.Fatalf("the file is not the typed data alone:\n%s", b)
	}
	var td map[string]json.RawMessage
	if json.Unmarshal(b, &td) != nil || len(td) != 4 {
		t.Fatalf("the file holds more than the typed data: %s", b)
	}
	entries, err := app.Journal().Entries()
	if err != nil || len(entries) != 1 || entries[0].Kind != journal.KindPrepared || entries[0].Prepared.Kind != journal.PreparedWithdrawal {
		t.Fatalf("journal %+v (%v), want the prepared line alone", entries, err)
	}
	view := screentest.OneLine(ansi.Strip(r.View()))
	for _, want := range []string{"Prepared for offline signing", path, "svcwallet withdraw submit", "cast wallet sign --data --from-file", r.order.Transfer.FromAccount.Hex()} {
		if !strings.Contains(view, want) {
			t.Errorf("the review lacks %q:\n%s", want, view)
		}
	}
	if screentest.Offers(r.KeyMap(), "enter") || screentest.Offers(r.KeyMap(), "o") {
		t.Errorf("after preparing the review offers %v", r.KeyMap().ShortHelp())
	}
	if screentest.Press(r, "enter"); r.gate.Sending || r.gate.Offline.Preparing {
		t.Error("enter signs a Transfer already prepared for offline signing")
	}
	// The submit command, wrapped on screen, is copied whole, naming the file
	// (once the enter, pressed with the o, no longer holds keys).
	*now = now.Add(kit.ShownGuard)
	submit := "svcwallet withdraw submit " + path + " --signature 0x… --env sandbox --config '/home/me/my FILES/wallet.toml'"
	if _, cmd := screentest.Press(r, "c"); !screentest.Offers(r.KeyMap(), "c") || !slices.Contains(screentest.RunAll(cmd), tea.Raw(ansi.SetSystemClipboard(submit))()) {
		t.Errorf("c does not copy %q", submit)
	}
}

// TestQuotePreparedOnceSaysItsFile: the same quote reviewed again (a fresh
// nonce) and o pressed again prepares nothing more: the review says when it
// was prepared and the command that submits its file, no longer offers o,
// and the journal and the folder hold the first preparation alone.
func TestQuotePreparedOnceSaysItsFile(t *testing.T) {
	app, now := screentest.LoggedInApp(t)
	app.Target.Demo = nil
	q := fixedQuote(*now, "1.5")
	var path, submit string
	for i := range 2 {
		r := reviewFor(t, app, now, q, 0, 120, 40, signer.Found{Place: signer.KeyNowhere})
		_, cmd := screentest.Press(r, "o")
		screentest.Drive(r, cmd)
		if i == 0 {
			if !r.gate.Offline.Done() {
				t.Fatalf("nothing prepared: %v", r.err)
			}
			path, submit = r.gate.Offline.Path, r.gate.Offline.Submit
			continue
		}
		view := screentest.OneLine(ansi.Strip(r.View()))
		for _, want := range []string{"Not withdrawn: nothing more was prepared: this quote's Transfer was prepared for offline signing at",
			"sign its file and run `" + submit + "`, or get a new quote to prepare another"} {
			if r.gate.Offline.Done() || !strings.Contains(view, want) {
				t.Errorf("the review prepared again (%v) or lacks %q:\n%s", r.gate.Offline.Done(), want, view)
			}
		}
		// o would say the same again: it is no longer offered.
		if screentest.Offers(r.KeyMap(), "o") {
			t.Errorf("o is still offered: %v", r.KeyMap().ShortHelp())
		}
	}
	files, _ := filepath.Glob(filepath.Join(filepath.Dir(path), "transfer-*.json"))
	entries, err := app.Journal().Entries()
	if len(files) != 1 || err != nil || len(entries) != 1 {
		t.Errorf("files %v, journal %d lines (%v): want the first preparation alone", files, len(entries), err)
	}
}

// TestOfflinePanelFits: once prepared, the review at 80x24 and at 60x20
// shows the expiry, the whole submit command and how to sign the file (the
// panel alone where the review leaves it no room), and its footer names c,
// which copies it, in words (not the "…" of a footer too narrow for it).
func TestOfflinePanelFits(t *testing.T) {
	app, now := screentest.LoggedInApp(t)
	app.Target.Demo = nil
	// As long as a config in a home folder's subfolder makes it.
	app.ConfigFlag = "/home/someone/.config/svcwallet/my cfg/wallet.toml"
	r := reviewFor(t, app, now, fixedQuote(*now, "1.5"), 0, 120, 40, signer.Found{Place: signer.KeyNowhere})
	_, cmd := screentest.Press(r, "o")
	screentest.Drive(r, cmd)
	if !r.gate.Offline.Done() {
		t.Fatalf("nothing prepared: %v", r.err)
	}
	before := r.gate.Offline.Prepared.Expiration().UTC().Format("2006-01-02 15:04:05 UTC")
	for _, size := range [][2]int{{80, 24}, {60, 20}} {
		app.Common.TopBar = app.TopBar
		root := tui.New(r, tui.Options{Theme: "dark", Common: app.Common, Timer: func(time.Duration, tea.Msg) tea.Cmd { return nil }})
		screentest.Feed(root, tea.WindowSizeMsg{Width: size[0], Height: size[1]})
		frame := ansi.Strip(root.View().Content)
		lines := strings.Split(frame, "\n")
		footer := lines[len(lines)-1]
		if len(lines) > size[1] || !strings.Contains(footer, "c copy command") {
			t.Errorf("%dx%d: %d lines, footer %q", size[0], size[1], len(lines), footer)
		}
		// Wrapped, a path breaks mid-word: compared without spaces.
		bare := strings.NewReplacer(" ", "", "\n", "")
		view := bare.Replace(strings.Join(lines[:len(lines)-1], "\n"))
		for _, want := range []string{before, r.gate.Offline.Submit, "cast wallet sign --data --from-file"} {
			if !strings.Contains(view, bare.Replace(want)) {
				t.Errorf("%dx%d: the panel does not show %q:\n%s", size[0], size[1], want, frame)
			}
		}
	}
}

// TestOfflineFolderRefusalFits: a state folder a terminal would not show as
// it is prepares nothing; the review says why once ("Not withdrawn: nothing
// was prepared"), with the command line that prepares the same withdrawal,
// every choice a flag, and at 60x20, too short for the review with it, the
// refusal alone, never "Too small to review".
func TestOfflineFolderRefusalFits(t *testing.T) {
	app, now := screentest.LoggedInApp(t)
	app.Target.Demo = nil
	j, err := journal.Open(filepath.Join(t.TempDir(), "st\u00a0ate", "journal.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	app.Target.Journal = j
	r := reviewFor(t, app, now, fixedQuote(*now, "1.5"), 0, 120, 40, signer.Found{Place: signer.KeyNowhere})
	_, cmd := screentest.Press(r, "o")
	screentest.Drive(r, cmd)
	if r.gate.Offline.Done() || !errors.As(r.err, new(*kit.OfflineFolderError)) {
		t.Fatalf("prepared in a folder not shown as it is: %v", r.err)
	}
	c := r.order.Choice
	if c.FeeCap.Valid {
		t.Fatal("the quote has a fee cap: the command below names none")
	}
	want := app.Command("withdraw", "--chain", c.Route.Chain, "--to", c.ToAddress, "--amount", c.Amount.String(),
		"--signer", "offline", "--account", r.order.Transfer.FromAccount.Hex(), "--out", "transfer-"+r.order.Quote.QuoteID+".json")
	for _, size := range [][2]int{{120, 40}, {80, 24}, {60, 20}} {
		app.Common.TopBar = app.TopBar
		root := tui.New(r, tui.Options{Theme: "dark", Common: app.Common, Timer: func(time.Duration, tea.Msg) tea.Cmd { return nil }})
		screentest.Feed(root, tea.WindowSizeMsg{Width: size[0], Height: size[1]})
		frame := ansi.Strip(root.View().Content)
		bare := strings.NewReplacer(" ", "", "\n", "")
		if view := bare.Replace(frame); strings.Count(frame, "Not withdrawn: nothing was prepared") != 1 ||
			!strings.Contains(view, bare.Replace(want)) || strings.Contains(frame, "Too small") || strings.Count(view, "prepared") != 1 {
			t.Errorf("%dx%d: the refusal, once, with %s:\n%s", size[0], size[1], want, frame)
		}
	}
}

// TestReviewNoKeyPointsOffline: without a key for the funding account
// here, the review says so and, where o acts, that o prepares the Transfer
// for signing elsewhere (on the embedded sandbox it does not mention o);
// enter is not offered and does nothing (it said the same words again as an
// error), and a hold that drops it says so.
func TestReviewNoKeyPointsOffline(t *testing.T) {
	app, now := screentest.LoggedInApp(t)
	for _, configured := range []bool{false, true} {
		if configured {
			app.Target.Demo = nil
		}
		r := reviewFor(t, app, now, fixedQuote(*now, "1.5"), 0, 120, 40, signer.Found{Place: signer.KeyDemo})
		r.gate.Key.Find()
		r.Update(keyFound(r, signer.Found{Place: signer.KeyNowhere}))
		screentest.Press(r, "enter") // held from when the search landed
		if said := screentest.OneLine(ansi.Strip(r.View())); !strings.Contains(said, kit.NotAKey("enter")) {
			t.Errorf("configured %t: the hold does not say enter does nothing:\n%s", configured, said)
		}
		*now = now.Add(kit.ShownGuard)
		view := screentest.OneLine(ansi.Strip(r.View()))
		if says := strings.Contains(view, "press o to prepare the Transfer for offline signing"); says != configured || !strings.Contains(view, "No key here signs for") {
			t.Errorf("configured %t: the review says:\n%s", configured, view)
		}
		if screentest.Offers(r.KeyMap(), "enter") || strings.Contains(view, "enter") {
			t.Errorf("configured %t: enter is offered without a key: %v\n%s", configured, r.KeyMap().ShortHelp(), view)
		}
		if _, cmd := screentest.Press(r, "enter"); screentest.Acts(cmd) || r.err != nil || screentest.OneLine(ansi.Strip(r.View())) != view {
			t.Fatalf("configured %t: enter without a key acts: %v %v", configured, cmd, r.err)
		}
		// Shown again (after the help, a resize), o is held a moment: the
		// line names it once it acts, as the footer offers it (esc, the
		// root's, acts once keys do).
		r.Update(tui.ShownAgainMsg{})
		for _, when := range []string{"held", "acting"} {
			screentest.RequireNamedKeysAct(t, fmt.Sprintf("configured %t, shown again, keys %s", configured, when), r.View(),
				func(k string) bool { return screentest.Offers(r.KeyMap(), k) || k == "esc" && !r.HoldsKeys() })
			*now = now.Add(kit.ShownGuard)
		}
		if says := strings.Contains(screentest.OneLine(ansi.Strip(r.View())), "press o to prepare"); says != configured {
			t.Errorf("configured %t, shown again and keys acting: o named %t", configured, says)
		}
	}
}

// TestReviewNoKeyFits60x20: a review with no key here, none set or its
// environment's signer unusable, shows whole at 60x20 (and at 120x40),
// saying no key once with one set of ways (screentest.RequireNoKeyFits):
// at 60x20 the key's line in two rows and the ways in four to eight left
// 18 rows short of 22 and 25, the unusable signer's steps came twice
// ("set … signer" though set), and its smallest said "fix the signer"
// without what to fix. Golden files.
func TestReviewNoKeyFits60x20(t *testing.T) {
	screentest.RequireNoKeyFits(t, noKeyReview)
}

// TestReviewNoKeyFullWhereFits: the signer's own error is said wherever
// the review fits whole with it (screentest.RequireNoKeyFullWhereFits):
// at 80x24 and 60x24 to 60x35 the brief words showed, 4 to 12 rows blank;
// its fix was said again by the first way.
func TestReviewNoKeyFullWhereFits(t *testing.T) {
	screentest.RequireNoKeyFullWhereFits(t, noKeyReview, [2]int{60, 24}, [2]int{60, 30})
}

// TestReviewNoKeyUsesRows: at 60x21 to 60x23 the review says no key in
// the fullest words that fit, no row blank (screentest.RequireNoKeyUsesRows):
// the brief words showed there, 1 to 3 rows blank.
func TestReviewNoKeyUsesRows(t *testing.T) {
	screentest.RequireNoKeyUsesRows(t, noKeyReview, [2]int{60, 20}, [2]int{60, 21}, [2]int{60, 22}, [2]int{60, 23})
}

// noKeyReview is a review whose search for its key found none.
func noKeyReview(t *testing.T, app *kit.App, now *time.Time, w, h int) (tui.Screen, func() bool) {
	app.Nonce = func() uint32 { return 470543406 }
	r := reviewFor(t, app, now, fixedQuote(*now, "1.5"), 0, w, h, signer.Found{Place: signer.KeyDemo})
	r.gate.Key.Find()
	s, _ := app.Client().Session()
	r.Update(keyFound(r, app.KeyLookup().Find(context.Background(), common.HexToAddress(s.FundingAccountAddress))))
	return r, func() bool { _, fits := r.fitted(); return fits }
}

// TestReviewNoKeyTooSmallSaysSo: at 60x20 with the help open a review with
// no key here, its environment's signer unusable (signer = "keystore", the
// folder holding no file of the account), is too small to show whole. Its
// place says there is
// no key and that a taller window prepares it for offline signing: "to
// sign" promised what no window size gives.
func TestReviewNoKeyTooSmallSaysSo(t *testing.T) {
	app, now := screentest.LoggedInApp(t)
	// The keystore folder holds no file of the account: its fewest words
	// (run svcwallet key import or log in by wallet) take three rows.
	app.Target.Demo, app.Target.Env.Signer, app.KeystoreDir = nil, "keystore", t.TempDir()
	r := reviewFor(t, app, now, fixedQuote(*now, "1.5"), 0, 60, 18, signer.Found{Place: signer.KeyDemo})
	r.gate.Key.Find()
	s, _ := app.Client().Session()
	r.Update(keyFound(r, app.KeyLookup().Find(context.Background(), common.HexToAddress(s.FundingAccountAddress))))
	*now = now.Add(kit.ShownGuard)
	app.Common.TopBar = app.TopBar
	root := tui.New(r, tui.Options{Theme: "dark", Common: app.Common, Timer: func(time.Duration, tea.Msg) tea.Cmd { return nil }})
	screentest.Feed(root, tea.WindowSizeMsg{Width: 60, Height: 20})
	screentest.Feed(root, screentest.Key("?"))
	said := screentest.OneLine(root.View().Content)
	if !strings.Contains(said, "Too small to review") || !strings.Contains(said, "No key here signs for this account") ||
		!strings.Contains(said, "to prepare it for offline signing") || strings.Contains(said, "to sign") {
		t.Errorf("60x20, help open, without a key says:\n%s", said)
	}
}
