package history

import (
	"os"
	"slices"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/svcwallet/svcwallet/screens/kit"
	"github.com/svcwallet/svcwallet/screens/screentest"
	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/follow"
	"github.com/svcwallet/svcwallet/service/sandbox"
	"github.com/svcwallet/svcwallet/tui"
)

// TestHistoryPlantedJournalIsInert: escape sequences planted in a journal
// never reach the History screen: a field that must have a shape skips its
// line, free text is cleaned.
func TestHistoryPlantedJournalIsInert(t *testing.T) {
	r := screentest.NewStatusRig(t)
	sess, _ := r.App.Client().Session()
	head := `{"time":"2026-03-01T10:00:00Z","env":"` + r.App.Target.Env.Name + `","account_id":"` + sess.AccountID + `",`
	intent := `"intent":{"chain":"ARBITRUM","token_in":"USDT","token_out":"USDT","pay_amount":"25","receive_amount":"23.5"}}`
	lines := []string{
		head + `"kind":"intent","quote_id":"q-\u001b]0;owned\u0007",` + intent,
		head + `"kind":"intent","quote_id":"q-colour",` + strings.Replace(intent, "ARBITRUM", `ARB\u001b[38;2;1;2;3m`, 1),
		head + `"kind":"intent","quote_id":"q-ok",` + intent,
		head + `"kind":"rejected","quote_id":"q-ok","error":"flagged\u001b[38;2;1;2;3m\u202e by screening"}`,
	}
	if err := os.WriteFile(r.App.Journal().Path(), []byte(strings.Join(lines, "\n")+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	h := New(r.App).(*historyScreen)
	h.SetSize(120, 30)
	screentest.Drive(h, h.Init())
	view := h.View()
	if h.list.Len() != 1 || h.list.Item(0).QuoteID != "q-ok" || strings.Contains(view, "38;2;1;2;3") || strings.Contains(view, "\u202e") ||
		strings.Contains(view, "\a") || !strings.Contains(ansi.Strip(view), "q-ok") {
		t.Fatalf("history of a planted journal: %d records\n%q", h.list.Len(), view)
	}
}

// TestHistoryChecksUnfinished (issue 18, issue 28 item 5): opened,
// History asks the service about each unfinished withdrawal of the account
// in the background, within the request budget, the most recent first; the
// count says "checking" until every one is answered; what it learns is
// journaled and the list drawn again: two withdrawals left at SUBMITTED
// are listed COMPLETED and REFUNDED. u checks again, offered only while
// something is unfinished and no check is under way.
func TestHistoryChecksUnfinished(t *testing.T) {
	r := screentest.NewStatusRig(t)
	paid, refunded := r.Made(sandbox.DestCompleted, "25"), r.Made(sandbox.DestRefunded, "30")
	r.Clock.Advance(sandbox.DefaultSettle)
	var asked []string
	r.StatusRewrite.Store(new(func([]byte) []byte))
	seen := func(body []byte) []byte {
		for _, id := range []string{paid, refunded} {
			if strings.Contains(string(body), id) {
				asked = append(asked, id)
			}
		}
		return body
	}
	r.StatusRewrite.Store(&seen)
	h := New(r.App).(*historyScreen)
	h.SetSize(120, 40)
	timers := screentest.RecordTimers(r.App)
	screentest.Drive(h, h.Init())
	if v := ansi.Strip(h.View()); !strings.Contains(v, "checking 1…") || strings.Contains(v, "unfinished (!)") || screentest.Offers(h.KeyMap(), "u") {
		t.Fatalf("opened: u offered %v\n%s", screentest.Offers(h.KeyMap(), "u"), v)
	}
	for len(*timers) > 0 { // the second id waits for the budget's next slot
		tm := (*timers)[0]
		*timers = (*timers)[1:]
		r.Clock.Advance(tm.D)
		screentest.Drive(h, func() tea.Msg { return tm.Msg })
	}
	if !slices.Equal(asked, []string{refunded, paid}) {
		t.Errorf("asked %q, want the most recent first", asked)
	}
	if got, want := r.JournalStates(paid), []string{"accepted", exchange.StateCompleted}; !slices.Equal(got, want) {
		t.Errorf("journaled %v, want %v", got, want)
	}
	if got, want := r.JournalStates(refunded), []string{"accepted", exchange.StateRefunded}; !slices.Equal(got, want) {
		t.Errorf("journaled %v, want %v", got, want)
	}
	v := ansi.Strip(h.View())
	if strings.Contains(v, "unfinished") || strings.Contains(v, "checking") || strings.Contains(v, "! ") || !strings.Contains(v, "  COMPLETED") || !strings.Contains(v, "  REFUNDED") {
		t.Errorf("after the check:\n%s", v)
	}
	if screentest.Offers(h.KeyMap(), "u") {
		t.Error("u offered with nothing unfinished")
	}
}

// TestHistoryCheckResumeAsksLostAnswers: an answer that reached a screen
// pushed over History during a check is lost; back on History its id is
// asked again and the check ends.
func TestHistoryCheckResumeAsksLostAnswers(t *testing.T) {
	r := screentest.NewStatusRig(t)
	id := r.Made(sandbox.DestCompleted, "25")
	r.Clock.Advance(sandbox.DefaultSettle)
	h := New(r.App).(*historyScreen)
	timers := screentest.RecordTimers(r.App)
	var msgs []tea.Msg
	for _, m := range screentest.RunAll(h.Init()) {
		_, cmd := h.Update(m)
		msgs = append(msgs, screentest.RunAll(cmd)...) // the check's ask, its answer dropped
	}
	if len(msgs) != 1 || r.App.Checking() != 1 {
		t.Fatalf("opened, History asked %d times (%d checking), want once", len(msgs), r.App.Checking())
	}
	screentest.Drive(h, h.Resume())
	for len(*timers) > 0 { // the budget's next slot
		tm := (*timers)[0]
		*timers = (*timers)[1:]
		r.Clock.Advance(tm.D)
		screentest.Drive(h, func() tea.Msg { return tm.Msg })
	}
	if r.App.Checking() != 0 || !slices.Contains(r.JournalStates(id), exchange.StateCompleted) {
		t.Fatalf("the lost answer's id was not asked again: checking %d, journaled %v", r.App.Checking(), r.JournalStates(id))
	}
}

// TestHistoryAddsToBoard: w on History puts the account's accepted
// withdrawals of this environment in the board's file, once, as this
// account's; the board reads it when opened; how many is said, and stays
// said until a key.
func TestHistoryAddsToBoard(t *testing.T) {
	r := screentest.NewStatusRig(t)
	screentest.HistoryEntries(t, r)
	h := New(r.App).(*historyScreen)
	h.SetSize(120, 40)
	screentest.Drive(h, h.Init())
	if !screentest.Offered(h, "watch all") {
		t.Fatal("w not offered")
	}
	said := func() string {
		_, cmd := h.Update(tea.KeyPressMsg{Code: 'w', Text: "w"})
		_, cmd = h.Update(cmd())
		msg, _ := cmd().(tui.InfoMsg)
		// Said in a toast, and under the list until the next key
		// (issue 35 item 7).
		if !strings.Contains(screentest.OneLine(h.View()), msg.Text) {
			t.Errorf("%q is not under the list:\n%s", msg.Text, h.View())
		}
		return msg.Text
	}
	if got := said(); got != "Added 2 withdrawals to the watch board (0 were there): s on Home opens it" {
		t.Fatalf("w said %q", got)
	}
	if got := said(); got != "These 2 withdrawals are all on the watch board already: s on Home opens it" {
		t.Fatalf("w again said %q", got)
	}
	h.Update(tea.KeyPressMsg{Code: tea.KeyDown})
	if strings.Contains(h.View(), "watch board") {
		t.Errorf("the note outlived the next key:\n%s", h.View())
	}
	kept, err := (&follow.WatchFile{Path: kit.WatchlistPath(r.App), Env: r.App.Target.Env.Name}).Load()
	var ids []string
	for _, k := range kept {
		ids = append(ids, k.QuoteID)
		// Kept as this account's: another login's board holds them,
		// never asks them as its own.
		if k.As != sandbox.DemoAccountID {
			t.Errorf("%s kept as account %q's; want the login's, %s", k.QuoteID, k.As, sandbox.DemoAccountID)
		}
	}
	if got := strings.Join(ids, " "); err != nil || got != "q-sending q-completed" {
		t.Fatalf("the board's file holds %q (%v), want the sending and the completed withdrawal", got, err)
	}
}
