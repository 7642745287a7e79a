package status

import (
	"os"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"svcwallet/screens/screentest"
	"svcwallet/service"
	"svcwallet/tui"
)

// TestHistory: this account's withdrawals in this environment, newest first;
// the unfinished ones counted for the home banner; enter resumes an
// unanswered one (re-sent: Busy) and follows a finished one.
func TestHistory(t *testing.T) {
	r := screentest.NewStatusRig(t)
	screentest.HistoryEntries(t, r)
	h := NewHistory(r.App).(*historyScreen)
	h.SetSize(100, 30)
	screentest.Drive(h, h.Init())
	var ids []string
	for _, rec := range h.recs {
		ids = append(ids, rec.QuoteID)
	}
	if got := strings.Join(ids, " "); got != "q-unanswered q-sending q-refused q-completed" {
		t.Fatalf("history lists %s", got)
	}
	recs, _, _ := r.App.AccountRecords()
	un := service.Unfinished(recs)
	if len(un) != 2 || un[0].QuoteID != "q-unanswered" || un[1].QuoteID != "q-sending" {
		t.Fatalf("unfinished: %+v", un)
	}
	view := ansi.Strip(h.View())
	for _, w := range []string{"! NO ANSWER", "! SENDING", "  REJECTED", "  COMPLETED", "0x9965…A4dc", "2 unfinished"} {
		if !strings.Contains(view, w) {
			t.Errorf("history lacks %q:\n%s", w, view)
		}
	}

	_, cmd := h.Update(tea.KeyPressMsg{Code: tea.KeyEnter})
	if s := pushed(t, cmd); !s.Busy() {
		t.Error("enter on an unanswered withdrawal with a valid quote did not re-send it")
	}
	h.Update(tea.KeyPressMsg{Code: tea.KeyDown})
	h.Update(tea.KeyPressMsg{Code: tea.KeyDown})
	h.Update(tea.KeyPressMsg{Code: tea.KeyDown})
	_, cmd = h.Update(tea.KeyPressMsg{Code: tea.KeyEnter})
	if s := pushed(t, cmd); s.quoteID != "q-completed" || !s.own || s.rec != nil {
		t.Errorf("enter on a completed withdrawal opened %+v, want its status", s)
	}
}

// TestHistoryHeaderAndJumps (issue 12 bug 6): each header starts in the
// column of its values; Home/End and g/G jump to the first and last
// withdrawal; an empty history offers no selecting or opening.
func TestHistoryHeaderAndJumps(t *testing.T) {
	r := screentest.NewStatusRig(t)
	h := NewHistory(r.App).(*historyScreen)
	h.SetSize(100, 30)
	screentest.Drive(h, h.Init())
	if screentest.Offers(h.KeyMap(), "enter") || screentest.Offers(h.KeyMap(), "up") || !screentest.Offers(h.KeyMap(), "r") {
		t.Errorf("an empty history offers %v", h.KeyMap().ShortHelp())
	}
	screentest.HistoryEntries(t, r)
	screentest.Drive(h, h.Resume())
	lines := strings.Split(ansi.Strip(h.View()), "\n")
	var header, row string
	for i, l := range lines {
		if strings.Contains(l, "STATE") {
			header, row = l, lines[i+1]
		}
	}
	for _, col := range []struct{ head, value string }{{"STATE", "NO ANSWER"}, {"AMOUNT", "25 USDT"}, {"CHAIN", "ARBITRUM"}, {"DESTINATION", "0x"}} {
		hc, vc := column(header, col.head), column(row, col.value)
		if col.head == "AMOUNT" { // right-aligned: the ends line up
			hc, vc = hc+len(col.head), vc+len(col.value)
		}
		if hc != vc {
			t.Errorf("%s at column %d, its value %q at %d:\n%s\n%s", col.head, hc, col.value, vc, header, row)
		}
	}
	for _, k := range []struct {
		key  string
		want int
	}{{"end", 3}, {"home", 0}, {"G", 3}, {"g", 0}} {
		screentest.Press(h, k.key)
		if h.cursor != k.want {
			t.Errorf("%s: cursor on %d, want %d", k.key, h.cursor, k.want)
		}
	}
	if !screentest.Offers(h.KeyMap(), "enter") {
		t.Error("a history with withdrawals does not offer enter")
	}
}

// column is the display column where sub starts in line.
func column(line, sub string) int { return ansi.StringWidth(line[:strings.Index(line, sub)]) }

// pushed is the Status screen a command pushes, initialised.
func pushed(t *testing.T, cmd tea.Cmd) *statusScreen {
	t.Helper()
	msgs := screentest.RunAll(cmd)
	if len(msgs) != 1 {
		t.Fatalf("got %v, want one push", msgs)
	}
	p, ok := msgs[0].(tui.PushMsg)
	if !ok {
		t.Fatalf("got %T, want a push", msgs[0])
	}
	s := p.Screen.(*statusScreen)
	screentest.RecordTimers(s.app)
	s.Init()
	return s
}

// TestRefusedWithdrawalOffersNoRefresh (issue 12 bug 3): a withdrawal that
// never happened has nothing to refresh, so its status offers no r.
func TestRefusedWithdrawalOffersNoRefresh(t *testing.T) {
	r := screentest.NewStatusRig(t)
	screentest.HistoryEntries(t, r)
	h := NewHistory(r.App).(*historyScreen)
	h.SetSize(100, 30)
	screentest.Drive(h, h.Init())
	screentest.Press(h, "down")
	screentest.Press(h, "down")
	if got := h.recs[h.cursor].QuoteID; got != "q-refused" {
		t.Fatalf("cursor on %s", got)
	}
	s := h.open(h.recs[h.cursor])
	s.SetSize(100, 30)
	s.Init()
	if screentest.Offers(s.KeyMap(), "r") {
		t.Errorf("a refused withdrawal offers %v", s.KeyMap().ShortHelp())
	}
}

// TestHistoryFilter (issue 12 friction): / filters the withdrawals by quote
// id, destination, chain or state; enter keeps the filter and opens stay
// on the filtered rows.
func TestHistoryFilter(t *testing.T) {
	r := screentest.NewStatusRig(t)
	screentest.HistoryEntries(t, r)
	h := NewHistory(r.App).(*historyScreen)
	h.SetSize(100, 30)
	screentest.Drive(h, h.Init())
	screentest.Press(h, "/")
	if !h.Inputting() || screentest.Offers(h.KeyMap(), "r") {
		t.Fatalf("typing a filter: inputting %v, footer %v", h.Inputting(), h.KeyMap().ShortHelp())
	}
	h = screentest.TypeInto(h, "solana").(*historyScreen)
	screentest.Press(h, "enter")
	if len(h.recs) != 1 || h.recs[0].QuoteID != "q-sending" {
		t.Fatalf("filter solana lists %v", h.recs)
	}
	if v := ansi.Strip(h.View()); !strings.Contains(v, "/ solana") || strings.Contains(v, "ARBITRUM") {
		t.Errorf("the filtered view:\n%s", v)
	}
	if h.Inputting() || !screentest.Offers(h.KeyMap(), "enter") || !screentest.Offers(h.KeyMap(), "/") {
		t.Errorf("after enter: inputting %v, footer %v", h.Inputting(), h.KeyMap().ShortHelp())
	}
	screentest.Press(h, "/")
	h = screentest.TypeInto(h, "zz").(*historyScreen)
	if v := ansi.Strip(h.View()); !strings.Contains(v, "No withdrawal matches the filter") || screentest.Offers(h.KeyMap(), "up") {
		t.Errorf("filter solanazz:\n%s", v)
	}
}

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
	h := NewHistory(r.App).(*historyScreen)
	h.SetSize(120, 30)
	screentest.Drive(h, h.Init())
	view := h.View()
	if len(h.recs) != 1 || h.recs[0].QuoteID != "q-ok" || strings.Contains(view, "38;2;1;2;3") || strings.Contains(view, "\u202e") ||
		strings.Contains(view, "\a") || !strings.Contains(ansi.Strip(view), "q-ok") {
		t.Fatalf("history of a planted journal: %d records\n%q", len(h.recs), view)
	}
}
