package withdraw

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
	"github.com/shopspring/decimal"

	"github.com/svcwallet/svcwallet/screens/kit"
	"github.com/svcwallet/svcwallet/screens/screentest"
	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/journal"
	"github.com/svcwallet/svcwallet/service/sandbox"
	"github.com/svcwallet/svcwallet/service/withdrawal"
	"github.com/svcwallet/svcwallet/signer"
	"github.com/svcwallet/svcwallet/tui"
)

// TestReviewStopsRepeatOfUnanswered: with an identical withdrawal in the
// journal that got no answer (Home's "unfinished"), the review says it may
// have been paid and to resume it from History, offers neither enter nor
// o, and enter signs nothing. Once the journal holds its answer (a resume),
// the review offers enter, with a note while that one is unfinished. A
// withdrawal the review missed (another console's) stops it when Execute
// refuses it.
func TestReviewStopsRepeatOfUnanswered(t *testing.T) {
	app, now := screentest.LoggedInApp(t)
	s, _ := app.Client().Session()
	entry := func(kind string) journal.Entry {
		return journal.Entry{Time: now.Add(-time.Minute), Kind: kind, Env: app.Target.Env.Name, AccountID: s.AccountID, QuoteID: "q-lost"}
	}
	intent := entry(journal.KindIntent)
	intent.Intent = &journal.Intent{ToAddress: strings.ToLower(sandbox.DestCompleted), Chain: "ARBITRUM", TokenIn: "USDT", TokenOut: "USDT",
		PayAmount: decimal.RequireFromString("25"), ReceiveAmount: decimal.RequireFromString("23.5"), ExpiresAt: *now}
	if err := app.Journal().Append(intent); err != nil {
		t.Fatal(err)
	}

	r := reviewFor(t, app, now, fixedQuote(*now, "1.5"), 0, 120, 50, signer.Found{Place: signer.KeyDemo})
	view := squash(r.View())
	for _, want := range []string{"Stopped: possible repeat",
		"An earlier withdrawal of 25 USDT to " + strings.ToLower(sandbox.DestCompleted) + " on ARBITRUM (q-lost",
		"got no answer and may have been paid: resume it from History first", "Nothing was signed"} {
		if !strings.Contains(view, squash(want)) {
			t.Errorf("review lacks %q:\n%s", want, ansi.Strip(r.View()))
		}
	}
	if strings.Contains(view, squash("Press enter")) || screentest.Offers(r.KeyMap(), "enter") || screentest.Offers(r.KeyMap(), "o") {
		t.Errorf("a repeat of an unanswered withdrawal offers %v:\n%s", r.KeyMap().ShortHelp(), ansi.Strip(r.View()))
	}
	if _, cmd := screentest.Press(r, "enter"); screentest.Acts(cmd) || r.gate.Sending {
		t.Fatal("enter signed a repeat of an unanswered withdrawal")
	}
	// h goes straight to History, where it is resumed, over Home.
	var opened []string
	app.Makers.Home = func(*kit.App) tui.Screen { opened = append(opened, "Home"); return screentest.NewHome(app) }
	app.Makers.History = func(*kit.App) tui.Screen { opened = append(opened, "History"); return screentest.NewHome(app) }
	if _, cmd := screentest.Press(r, "h"); !screentest.Offers(r.KeyMap(), "h") || cmd == nil {
		t.Fatalf("h is not offered: %v", r.KeyMap().ShortHelp())
	} else if screentest.SequenceMsgs(t, cmd); strings.Join(opened, ",") != "Home,History" {
		t.Errorf("h opened %v, want Home then History", opened)
	}

	// Resumed: the service's acceptance is journaled; back on the review
	// the check runs again.
	if err := app.Journal().Append(entry(journal.KindAccepted)); err != nil {
		t.Fatal(err)
	}
	r.Update(r.checkBridge()())
	*now = now.Add(kit.ShownGuard) // the check holds keys from when it lands
	view = squash(r.View())
	if !screentest.Offers(r.KeyMap(), "enter") || screentest.Offers(r.KeyMap(), "h") || strings.Contains(view, squash("Stopped")) {
		t.Fatalf("after the resume the review still stops (offers %v):\n%s", r.KeyMap().ShortHelp(), ansi.Strip(r.View()))
	}
	if !strings.Contains(view, squash("Note: An identical withdrawal of 25 USDT")) || !strings.Contains(view, squash("is SUBMITTED, not finished: this one pays again")) {
		t.Errorf("no note of the identical unfinished withdrawal:\n%s", ansi.Strip(r.View()))
	}

	// Another console's unanswered withdrawal, journaled after the review
	// looked: Execute refuses, and the review stops as if it had seen it.
	r.executed(executedMsg{withdrawal.Sent{Err: &withdrawal.UnansweredError{Earlier: journal.Record{QuoteID: "q-other", Intent: *intent.Intent}}}})
	if view := squash(r.View()); !strings.Contains(view, squash("(q-other")) || screentest.Offers(r.KeyMap(), "enter") {
		t.Errorf("Execute's refusal does not stop the review:\n%s", ansi.Strip(r.View()))
	}
}

// TestReviewStopsWhenJournalUnreadable: whether an identical withdrawal got
// no answer cannot be told without the journal: nothing is offered to sign.
func TestReviewStopsWhenJournalUnreadable(t *testing.T) {
	app, now := screentest.LoggedInApp(t)
	r := reviewFor(t, app, now, fixedQuote(*now, "1.5"), 0, 120, 50, signer.Found{Place: signer.KeyDemo})
	r.Update(bridgeCheckedMsg{tag: r.tag, trust: *r.bridge, repeatErr: exchange.UserError{Text: "The withdrawal journal cannot be read"}})
	if screentest.Offers(r.KeyMap(), "enter") || !strings.Contains(ansi.Strip(r.View()), "Stopped: journal") {
		t.Errorf("an unreadable journal still offers %v:\n%s", r.KeyMap().ShortHelp(), ansi.Strip(r.View()))
	}
}

// TestReviewStopsOnARolledBackJournal: a journal that lost lines
// svcwallet wrote (an older copy put back) stops the review before
// anything is offered to sign, saying so and naming the doctor.
func TestReviewStopsOnARolledBackJournal(t *testing.T) {
	app, now := screentest.LoggedInApp(t)
	s, _ := app.Client().Session()
	path := app.Journal().Path()
	backup, _ := os.ReadFile(path) // none yet: the empty journal
	if err := app.Journal().Append(journal.Entry{Time: *now, Kind: journal.KindIntent, Env: app.Target.Env.Name, AccountID: s.AccountID, QuoteID: "q-gone"}); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, backup, 0o600); err != nil {
		t.Fatal(err)
	}
	r := reviewFor(t, app, now, fixedQuote(*now, "1.5"), 0, 120, 50, signer.Found{Place: signer.KeyDemo})
	r.Update(r.checkBridge()())
	view := squash(r.View())
	if screentest.Offers(r.KeyMap(), "enter") || !strings.Contains(view, squash("Stopped: journal")) ||
		!strings.Contains(view, squash("lost lines svcwallet wrote")) || !strings.Contains(view, squash(app.Command("doctor"))) {
		t.Errorf("a rolled-back journal offers %v:\n%s", r.KeyMap().ShortHelp(), ansi.Strip(r.View()))
	}
}

// TestReviewSaysAnAcceptanceNotRecorded: a withdrawal the service accepted
// whose answer the journal could not record (a full disk) is said as an
// error naming History's resume, never as a plain acceptance.
func TestReviewSaysAnAcceptanceNotRecorded(t *testing.T) {
	app, now := screentest.LoggedInApp(t)
	r := reviewFor(t, app, now, fixedQuote(*now, "1.5"), 0, 120, 50, signer.Found{Place: signer.KeyDemo})
	app.Makers.Home = func(*kit.App) tui.Screen { return screentest.NewHome(app) }
	app.Makers.Status = func(*kit.App, string) tui.Screen { return screentest.NewHome(app) }
	unrecorded := &withdrawal.UnrecordedError{QuoteID: r.order.Quote.QuoteID, Journal: errors.New("no space left on device")}
	var said []string
	for _, m := range screentest.SequenceMsgs(t, r.executed(executedMsg{withdrawal.Sent{Order: r.order, Unrecorded: unrecorded,
		Accepted: exchange.WithdrawAccepted{QuoteID: r.order.Quote.QuoteID, State: exchange.StateSubmitted}}})) {
		switch m := m.(type) {
		case tui.ErrorMsg:
			said = append(said, "error: "+m.Err.Error())
		case tui.InfoMsg:
			said = append(said, "info: "+fmt.Sprint(m))
		}
	}
	if len(said) != 1 || !strings.HasPrefix(said[0], "error: Withdrawal accepted, but the journal could not record") ||
		!strings.Contains(said[0], "no space left on device") || !strings.Contains(said[0], "resume it from History") {
		t.Fatalf("said %q", said)
	}
}

// TestReviewSaysARepeatFoundOnceSigned: an unanswered withdrawal the send
// found once this one was signed (UnansweredError.Signed) is said as this
// one signed and not sent, never "Nothing was signed"; the next check
// before signing (the review seen again) says nothing was signed again.
func TestReviewSaysARepeatFoundOnceSigned(t *testing.T) {
	app, now := screentest.LoggedInApp(t)
	s, _ := app.Client().Session()
	intent := journal.Entry{Time: now.Add(-time.Minute), Kind: journal.KindIntent, Env: app.Target.Env.Name, AccountID: s.AccountID, QuoteID: "q-lost",
		Intent: &journal.Intent{ToAddress: strings.ToLower(sandbox.DestCompleted), Chain: "ARBITRUM", TokenIn: "USDT", TokenOut: "USDT",
			PayAmount: decimal.RequireFromString("25"), ReceiveAmount: decimal.RequireFromString("23.5"), ExpiresAt: *now}}
	r := reviewFor(t, app, now, fixedQuote(*now, "1.5"), 0, 120, 50, signer.Found{Place: signer.KeyDemo})
	r.executed(executedMsg{withdrawal.Sent{Err: &withdrawal.UnansweredError{Earlier: journal.Record{QuoteID: "q-lost", Intent: *intent.Intent}, Signed: true}, Signed: true}})
	if view := squash(r.View()); !strings.Contains(view, squash("This one was signed and not sent, so its signature was never used")) || strings.Contains(view, squash("Nothing was signed")) {
		t.Errorf("a repeat found once signed:\n%s", ansi.Strip(r.View()))
	}
	if err := app.Journal().Append(intent); err != nil {
		t.Fatal(err)
	}
	r.Update(r.checkBridge()())
	if view := squash(r.View()); !strings.Contains(view, squash("(q-lost")) || !strings.Contains(view, squash("Nothing was signed")) || strings.Contains(view, squash("This one was signed")) {
		t.Errorf("the check before signing again:\n%s", ansi.Strip(r.View()))
	}
}

// TestReviewStopsOnAJournalChangedOnceAnswered: a journal found changed
// only once the person answered (Execute sums every byte, the review's
// check its last 4 KiB) stops the review as that check would have: why,
// the doctor named, and no enter that would only be refused again.
func TestReviewStopsOnAJournalChangedOnceAnswered(t *testing.T) {
	app, now := screentest.LoggedInApp(t)
	r := reviewFor(t, app, now, fixedQuote(*now, "1.5"), 0, 120, 50, signer.Found{Place: signer.KeyDemo})
	lost := &journal.RolledBackError{Path: app.Journal().Path(), Recorded: 9000, Now: 9000, Changed: true,
		Unanswered: []journal.Remembered{{QuoteID: "q-lost"}}, Missing: []journal.Remembered{{QuoteID: "q-lost"}}}
	r.executed(executedMsg{withdrawal.Sent{Err: lost}})
	*now = now.Add(2 * time.Second) // past the hold on keys after a send
	view := squash(r.View())
	if screentest.Offers(r.KeyMap(), "enter") || !strings.Contains(view, squash("Stopped: journal")) ||
		!strings.Contains(view, squash("q-lost")) || !strings.Contains(view, squash(app.Command("doctor"))) {
		t.Errorf("a journal changed in place, found once answered, offers %v:\n%s", r.KeyMap().ShortHelp(), ansi.Strip(r.View()))
	}
}

// TestJournalStopShowsTheDoctorAt60x20 (found by review): the review's
// stop on a journal changed once answered was cut at 60x20 before "run
// svcwallet doctor", the one step it offers; now the step shows whole
// there and at 80x24, the screen no taller than its part of the terminal.
func TestJournalStopShowsTheDoctorAt60x20(t *testing.T) {
	for _, size := range [][2]int{{60, 18}, {80, 22}} {
		app, now := screentest.LoggedInApp(t)
		r := reviewFor(t, app, now, fixedQuote(*now, "1.5"), 0, size[0], size[1], signer.Found{Place: signer.KeyDemo})
		lost := &journal.RolledBackError{Path: app.Journal().Path(), Recorded: 9000, Now: 9000, Changed: true,
			Unanswered: []journal.Remembered{{QuoteID: "q-lost"}}, Missing: []journal.Remembered{{QuoteID: "q-lost"}}}
		r.executed(executedMsg{withdrawal.Sent{Err: lost}})
		*now = now.Add(2 * time.Second) // past the hold on keys after a send
		view := r.View()
		if n := strings.Count(view, "\n") + 1; n > size[1] {
			t.Errorf("at %dx%d: %d lines:\n%s", size[0], size[1]+2, n, ansi.Strip(view))
		}
		if !strings.Contains(squash(view), squash("Stopped: journal")) || !strings.Contains(squash(view), squash("run "+app.Command("doctor"))) {
			t.Errorf("at %dx%d the stop lacks its step:\n%s", size[0], size[1]+2, ansi.Strip(view))
		}
	}
}
