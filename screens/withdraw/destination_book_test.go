package withdraw

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/svcwallet/svcwallet/screens/screentest"
	"github.com/svcwallet/svcwallet/service/config"
	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/journal"
	"github.com/svcwallet/svcwallet/service/sandbox"
	"github.com/svcwallet/svcwallet/service/withdrawal"
	"github.com/svcwallet/svcwallet/tui"
)

// TestDestinationFindsAllowed: on the embedded sandbox the destination
// form shows its demo address book for the route's chain, each payee with
// what the sandbox does with it, and ctrl+r offers them; recent
// destinations whose last withdrawal FAILED or was REFUNDED are marked, in
// the list and under the field when one is typed; a configured environment
// has no demo book (issue 28 item 12).
func TestDestinationFindsAllowed(t *testing.T) {
	app, _ := screentest.LoggedInApp(t)
	open := func() (*destinationScreen, tui.Screen) {
		d := newDestination(app, withdrawal.Choice{TokenIn: "USDT", TokenOut: "USDT", Route: screentest.Arbitrum})
		d.SetSize(120, 40)
		var s tui.Screen = d
		for _, m := range screentest.RunAll(d.Init()) {
			s, _ = s.Update(m)
		}
		return d, s
	}
	d, s := open()
	view := ansi.Strip(s.View())
	for _, want := range []string{"The sandbox's address book (ctrl+r)", sandbox.DestCompleted + "  pays out: COMPLETED", sandbox.DestFailed + "  ends FAILED"} {
		if !strings.Contains(view, want) {
			t.Errorf("the form lacks %q:\n%s", want, view)
		}
	}
	if strings.Contains(view, sandbox.DestSolana) {
		t.Errorf("an ARBITRUM form offers a Solana payee:\n%s", view)
	}
	if screentest.Press(s, "ctrl+r"); d.address.Input.Value() != sandbox.DestCompleted {
		t.Errorf("ctrl+r put %q, want the book's first payee", d.address.Input.Value())
	}

	// Three withdrawals ended: COMPLETED, FAILED, REFUNDED (the newest).
	for i, w := range []struct{ to, state string }{
		{sandbox.DestCompleted, exchange.StateCompleted}, {sandbox.DestFailed, exchange.StateFailed}, {sandbox.DestRefunded, exchange.StateRefunded},
	} {
		id, at := "q-old"+string(rune('a'+i)), screentest.Now.Add(time.Duration(i)*time.Minute)
		for _, e := range []journal.Entry{
			{Time: at, Kind: journal.KindIntent, Intent: &journal.Intent{ToAddress: w.to, Chain: "ARBITRUM"}},
			{Time: at.Add(time.Second), Kind: journal.KindState, State: w.state},
		} {
			e.QuoteID, e.Env, e.AccountID = id, config.SandboxEnv, sandbox.DemoAccountID
			if err := app.Journal().Append(e); err != nil {
				t.Fatal(err)
			}
		}
	}
	d, s = open()
	view = ansi.Strip(s.View())
	for _, want := range []string{sandbox.DestRefunded + "  last REFUNDED", sandbox.DestFailed + "  last FAILED", "Recent destinations on ARBITRUM (ctrl+r)"} {
		if !strings.Contains(view, want) {
			t.Errorf("the form lacks %q:\n%s", want, view)
		}
	}
	if strings.Contains(view, sandbox.DestCompleted+"  last") {
		t.Errorf("a destination paid out last is marked:\n%s", view)
	}
	if screentest.Press(s, "ctrl+r"); d.address.Input.Value() != sandbox.DestRefunded {
		t.Errorf("ctrl+r put %q, want the newest destination", d.address.Input.Value())
	}
	if line := screentest.LineAfter(ansi.Strip(d.View()), "Destination"); !strings.Contains(line, "its last withdrawal ended REFUNDED") {
		t.Errorf("under the field: %q", line)
	}

	app.Target.Demo = nil // a configured environment
	_, s = open()
	if view := ansi.Strip(s.View()); strings.Contains(view, "sandbox's address book") {
		t.Errorf("a configured environment shows the demo book:\n%s", view)
	}
}

// TestRecentRefusedAndRefunded (issue 35 item 8): a destination whose last
// withdrawal screening refused is marked as FAILED and REFUNDED ones are,
// never "valid" alone: typed, its note says it was refused and why; and
// at 80x24, under the root, a REFUNDED recent destination is listed though
// four newer ones paid out.
func TestRecentRefusedAndRefunded(t *testing.T) {
	app, _ := screentest.LoggedInApp(t)
	journalOne := func(id, to string, at time.Time, e journal.Entry) {
		for _, e := range []journal.Entry{{Time: at, Kind: journal.KindIntent, Intent: &journal.Intent{ToAddress: to, Chain: "ARBITRUM"}}, e} {
			e.QuoteID, e.Env, e.AccountID = id, config.SandboxEnv, sandbox.DemoAccountID
			if e.Time.IsZero() {
				e.Time = at.Add(time.Second)
			}
			if err := app.Journal().Append(e); err != nil {
				t.Fatal(err)
			}
		}
	}
	at := screentest.Now
	journalOne("q-refunded", sandbox.DestRefunded, at, journal.Entry{Kind: journal.KindState, State: exchange.StateRefunded})
	journalOne("q-flagged", sandbox.DestFlagged, at.Add(time.Minute), journal.Entry{Kind: journal.KindRejected,
		Error: "Address screening flagged the destination: the withdrawal was refused; contact support"})
	for i, to := range []string{"0x1111111111111111111111111111111111111111", "0x2222222222222222222222222222222222222222",
		"0x3333333333333333333333333333333333333333", sandbox.DestCompleted} {
		journalOne("q-paid"+string(rune('a'+i)), to, at.Add(time.Duration(2+i)*time.Minute), journal.Entry{Kind: journal.KindState, State: exchange.StateCompleted})
	}
	d := newDestination(app, withdrawal.Choice{TokenIn: "USDT", TokenOut: "USDT", Route: screentest.Arbitrum})
	root := tui.New(d, tui.Options{Theme: "dark", Common: app.Common})
	for _, m := range screentest.RunAll(root.Init()) {
		root.Update(m)
	}
	root.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	for _, m := range screentest.RunAll(d.Init()) {
		root.Update(m)
	}
	frame := ansi.Strip(root.View().Content)
	for _, want := range []string{sandbox.DestRefunded + "  last REFUNDED", sandbox.DestFlagged + "  last REFUSED"} {
		if !strings.Contains(frame, want) {
			t.Errorf("at 80x24 the form lacks %q:\n%s", want, frame)
		}
	}
	for _, r := range sandbox.DestFlagged {
		root.Update(tea.KeyPressMsg{Code: r, Text: string(r)})
	}
	if line := screentest.LineAfter(ansi.Strip(d.View()), "Destination"); !strings.Contains(line, "its last withdrawal was REFUSED") {
		t.Errorf("under the field: %q", line)
	}
}

// TestDestinationMarksTheFilledPayee: the listed address in the field is
// marked •, so each ctrl+r shows which payee of the book it put there
// (the list looked the same whichever it was); a typed address that is
// none of them marks none.
func TestDestinationMarksTheFilledPayee(t *testing.T) {
	app, _ := screentest.LoggedInApp(t)
	d := newDestination(app, withdrawal.Choice{TokenIn: "USDT", TokenOut: "USDT", Route: screentest.Arbitrum})
	d.SetSize(120, 40)
	var s tui.Screen = d
	for _, m := range screentest.RunAll(d.Init()) {
		s, _ = s.Update(m)
	}
	marked := func() []string {
		var out []string
		for _, l := range strings.Split(ansi.Strip(d.View()), "\n") {
			if strings.HasPrefix(l, "• ") {
				out = append(out, l)
			}
		}
		return out
	}
	if m := marked(); len(m) != 0 {
		t.Errorf("an empty field marks %q", m)
	}
	for _, want := range []string{sandbox.DestCompleted, sandbox.DestFlagged} {
		screentest.Press(s, "ctrl+r")
		if m := marked(); len(m) != 1 || !strings.HasPrefix(m[0], "• "+want) {
			t.Errorf("after ctrl+r put %s in the field, marked: %q", d.address.Input.Value(), m)
		}
	}
}
