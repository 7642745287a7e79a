package history

import (
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/svcwallet/svcwallet/screens/kit"
	"github.com/svcwallet/svcwallet/screens/screentest"
	"github.com/svcwallet/svcwallet/screens/status"
	"github.com/svcwallet/svcwallet/service/follow"
	"github.com/svcwallet/svcwallet/service/journal"
	"github.com/svcwallet/svcwallet/service/sandbox"
	"github.com/svcwallet/svcwallet/tui"
)

// historyRig is the status rig whose App opens the real status screens,
// recording each one History opens: "status ID" or "resume ID".
func historyRig(t *testing.T) (*screentest.StatusRig, *[]string) {
	r := screentest.NewStatusRig(t)
	var opened []string
	r.App.Makers.Status = func(app *kit.App, id string) tui.Screen {
		opened = append(opened, "status "+id)
		return status.New(app, id)
	}
	r.App.Makers.Resume = func(app *kit.App, rec journal.Record) tui.Screen {
		opened = append(opened, "resume "+rec.QuoteID)
		return status.NewResume(app, rec)
	}
	return r, &opened
}

// historyOfEntries is History, sized w×h, of the rig's sample journal
// (screentest.HistoryEntries), read and checked with the service.
func historyOfEntries(t *testing.T, w, hh int) (*screentest.StatusRig, *historyScreen) {
	t.Helper()
	r, _ := historyRig(t)
	screentest.HistoryEntries(t, r)
	h := New(r.App).(*historyScreen)
	h.SetSize(w, hh)
	opened(r, h)
	return r, h
}

// opened opens h and lets the check it starts run to its end on the rig's
// clock.
func opened(r *screentest.StatusRig, h *historyScreen) {
	timers := screentest.RecordTimers(r.App)
	screentest.Drive(h, h.Init())
	for len(*timers) > 0 {
		tm := (*timers)[0]
		*timers = (*timers)[1:]
		r.Clock.Advance(tm.D)
		screentest.Drive(h, func() tea.Msg { return tm.Msg })
	}
}

// TestHistory: this account's withdrawals in this environment, newest first;
// the unfinished ones counted for the home banner; enter resumes an
// unanswered one (re-sent: Busy) and follows a finished one.
func TestHistory(t *testing.T) {
	r, pushedTo := historyRig(t)
	screentest.HistoryEntries(t, r)
	h := New(r.App).(*historyScreen)
	h.SetSize(100, 30)
	opened(r, h)
	var ids []string
	for i := range h.list.Len() {
		ids = append(ids, h.list.Item(i).QuoteID)
	}
	if got := strings.Join(ids, " "); got != "q-unanswered q-sending q-refused q-completed" {
		t.Fatalf("history lists %s", got)
	}
	recs, _, _ := r.App.AccountRecords()()
	un := journal.Unfinished(recs)
	if len(un) != 2 || un[0].QuoteID != "q-unanswered" || un[1].QuoteID != "q-sending" {
		t.Fatalf("unfinished: %+v", un)
	}
	view := ansi.Strip(h.View())
	for _, w := range []string{"! UNANSWERED", "! SENDING", "  REFUSED", "  COMPLETED", sandbox.DestRefunded, "2 unfinished"} {
		if !strings.Contains(view, w) {
			t.Errorf("history lacks %q:\n%s", w, view)
		}
	}

	// c copies the selected quote id, the one support asks for (issue 21 bug 10).
	h.Update(tea.KeyPressMsg{Code: tea.KeyDown})
	if _, cmd := screentest.Press(h, "c"); !slices.Contains(screentest.RunAll(cmd), tea.Raw(ansi.SetSystemClipboard("q-sending"))()) {
		t.Error("c does not copy the selected quote id")
	}
	h.Update(tea.KeyPressMsg{Code: tea.KeyUp})
	_, cmd := h.Update(tea.KeyPressMsg{Code: tea.KeyEnter})
	if s := pushed(t, r, cmd); (*pushedTo)[0] != "resume q-unanswered" || s.(tui.Busy).Busy() == "" {
		t.Errorf("enter on an unanswered withdrawal with a valid quote did not re-send it: opened %q", *pushedTo)
	}
	h.Update(tea.KeyPressMsg{Code: tea.KeyDown})
	h.Update(tea.KeyPressMsg{Code: tea.KeyDown})
	h.Update(tea.KeyPressMsg{Code: tea.KeyDown})
	_, cmd = h.Update(tea.KeyPressMsg{Code: tea.KeyEnter})
	if pushed(t, r, cmd); (*pushedTo)[1] != "status q-completed" {
		t.Errorf("enter on a completed withdrawal opened %q, want its status", *pushedTo)
	}
}

// TestHistoryHeaderAndJumps (issue 12 bug 6): each header starts in the
// column of its values; Home/End and g/G jump to the first and last
// withdrawal; an empty history offers no selecting or opening, and says
// where a first withdrawal starts.
func TestHistoryHeaderAndJumps(t *testing.T) {
	r := screentest.NewStatusRig(t)
	h := New(r.App).(*historyScreen)
	h.SetSize(100, 30)
	screentest.Drive(h, h.Init())
	if screentest.Offers(h.KeyMap(), "enter") || screentest.Offers(h.KeyMap(), "up") || !screentest.Offers(h.KeyMap(), "r") {
		t.Errorf("an empty history offers %v", h.KeyMap().ShortHelp())
	}
	if v := ansi.Strip(h.View()); !strings.Contains(v, "esc goes back to Home, where w starts one") {
		t.Errorf("an empty history gives no next step:\n%s", v)
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
	for _, col := range []struct{ head, value string }{{"STATE", "UNANSWERED"}, {"AMOUNT", "25 USDT"}, {"CHAIN", "ARBITRUM"}, {"DESTINATION", "0x"}} {
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
		if r, _ := h.list.Selected(); r.QuoteID != h.list.Item(k.want).QuoteID {
			t.Errorf("%s: cursor on %s, want row %d", k.key, r.QuoteID, k.want)
		}
	}
	if !screentest.Offers(h.KeyMap(), "enter") {
		t.Error("a history with withdrawals does not offer enter")
	}
}

// TestHistoryNarrow (issue 28 item 21): at 60 columns every row fits,
// its amount whole and two spaces apart from the state, its chain whole,
// its destination cut in the middle with both ends shown; the time is in
// the board's format (today's to the second, other days' to the minute).
func TestHistoryNarrow(t *testing.T) {
	_, h := historyOfEntries(t, 60, 18)
	lines := strings.Split(ansi.Strip(h.View()), "\n")
	for i := range h.list.Len() {
		rec, row := h.list.Item(i), lines[3+i]
		to := rec.Intent.ToAddress
		amount := rec.Intent.PayAmount.String() + " " + rec.Intent.TokenIn
		state := historyState(rec)
		if ansi.StringWidth(row) > 60 || !strings.Contains(row, " "+rec.Intent.Chain+" ") || !strings.Contains(row, amount) ||
			!regexp.MustCompile(regexp.QuoteMeta(state)+`\s{2,}`+regexp.QuoteMeta(amount)).MatchString(row) ||
			!strings.HasSuffix(row, to[:4]+"…"+to[len(to)-4:]) || !strings.Contains(row, kit.Clock(rec.Started, screentest.RigStart)) {
			t.Errorf("row of %s at 60 columns: %q", rec.QuoteID, row)
		}
	}
}

// TestEmptyHistoryWraps: with nothing journaled, what History says is
// wrapped whole at 80 and 60 columns, never cut.
//
// The journal's path under it is named ("Journal"), not a bare path.
func TestEmptyHistoryWraps(t *testing.T) {
	for _, w := range []int{80, 60} {
		r, _ := historyRig(t)
		h := New(r.App).(*historyScreen)
		h.SetSize(w, 18)
		opened(r, h)
		v := ansi.Strip(h.View())
		flat := strings.Join(strings.Fields(v), " ")
		if !strings.Contains(flat, "The ones made on this machine are listed here: esc goes back to Home, where w starts one.") || strings.Contains(v, "…") ||
			!strings.Contains(strings.ReplaceAll(flat, " ", ""), "Journal"+strings.ReplaceAll(r.App.Journal().Path(), " ", "")) {
			t.Errorf("at %d columns:\n%s", w, v)
		}
	}
}

// column is the display column where sub starts in line.
func column(line, sub string) int { return ansi.StringWidth(line[:strings.Index(line, sub)]) }

// pushed is the status screen a command pushes, initialised.
func pushed(t *testing.T, r *screentest.StatusRig, cmd tea.Cmd) tui.Screen {
	t.Helper()
	msgs := screentest.RunAll(cmd)
	if len(msgs) != 1 {
		t.Fatalf("got %v, want one push", msgs)
	}
	p, ok := msgs[0].(tui.PushMsg)
	if !ok {
		t.Fatalf("got %T, want a push", msgs[0])
	}
	screentest.RecordTimers(r.App)
	p.Screen.Init()
	return p.Screen
}

// TestRefusedWithdrawalOffersNoRefresh (issue 12 bug 3): a withdrawal that
// never happened has nothing to refresh, so its status offers no r.
func TestRefusedWithdrawalOffersNoRefresh(t *testing.T) {
	_, h := historyOfEntries(t, 100, 30)
	screentest.Press(h, "down")
	screentest.Press(h, "down")
	rec, _ := h.list.Selected()
	if rec.QuoteID != "q-refused" {
		t.Fatalf("cursor on %s", rec.QuoteID)
	}
	s := h.open(rec)
	s.SetSize(100, 30)
	s.Init()
	if screentest.Offers(s.KeyMap(), "r") {
		t.Errorf("a refused withdrawal offers %v", s.KeyMap().ShortHelp())
	}
}

// TestExpiredQuoteHasOneName: a quote of this account that expired without
// being executed, resumed from History (which journals it), is EXPIRED in
// History, as on the board and the status screen; never REJECTED, REFUSED
// or CREATED.
func TestExpiredQuoteHasOneName(t *testing.T) {
	r := screentest.NewStatusRig(t)
	req, in := r.Signed(r.App.Client(), sandbox.DemoPrivateKey, sandbox.DestCompleted, "25")
	rec := r.Intent(req, in) // journaled, its answer lost
	r.Clock.Set(in.ExpiresAt.Add(follow.ExecutableMargin + time.Second))
	resumed := status.NewResume(r.App, rec)
	resumed.SetSize(100, 40)
	screentest.RecordTimers(r.App)
	screentest.Drive(resumed, resumed.Init())

	h := New(r.App).(*historyScreen)
	h.SetSize(100, 30)
	screentest.Drive(h, h.Init())
	view := ansi.Strip(h.View())
	if !strings.Contains(view, "  EXPIRED ") || !strings.Contains(view, "EXPIRED: The quote was never executed, so nothing was debited") {
		t.Errorf("History:\n%s", view)
	}
	for _, other := range []string{"REJECTED", "REFUSED", "CREATED"} {
		if strings.Contains(view, other) {
			t.Errorf("History calls it %s:\n%s", other, view)
		}
	}
}

// TestHistoryHelpExplainsMarks (issue 28 item 5): ? lists History's keys
// and what its marks and states mean, whole at 80x24 and 120x40.
func TestHistoryHelpExplainsMarks(t *testing.T) {
	r, h := historyOfEntries(t, 120, 40)
	root := tui.New(h, tui.Options{Theme: "dark", Common: r.App.Common})
	for _, sz := range screentest.GoldenSizes {
		screentest.Feed(root, tea.WindowSizeMsg{Width: sz.W, Height: sz.H})
		screentest.Feed(root, tea.KeyPressMsg{Code: '?', Text: "?"})
		listed := strings.Join(strings.Fields(ansi.Strip(screentest.CheckFrame(t, root.View().Content, sz.W, sz.H))), " ")
		for _, want := range []string{"! unfinished", "UNANSWERED enter settles it", "REFUSED nothing was paid",
			"EXPIRED never executed", "checking asking the service", "u check unfinished"} {
			if !strings.Contains(listed, want) {
				t.Errorf("%dx%d: ? does not say %q:\n%s", sz.W, sz.H, want, listed)
			}
		}
		screentest.Feed(root, tea.KeyPressMsg{Code: '?', Text: "?"})
	}
}

// TestHistoryDetailWordsEnterAsTheFooter: the line under the list says
// what enter does to the selected withdrawal in the footer's words: a
// finished one's details ("enter: follow its status" was said of a
// COMPLETED one whose footer said "enter details"), one under way
// followed, an unanswered one resumed.
func TestHistoryDetailWordsEnterAsTheFooter(t *testing.T) {
	_, h := historyOfEntries(t, 100, 30)
	said := map[string]string{"details": "enter: see", "follow": "enter: follow its status", "resume": "enter: re-send it"}
	for i := range h.list.Len() {
		rec := h.list.Item(i)
		help := openKey(rec).Help().Desc
		if said[help] == "" {
			t.Fatalf("%s: enter %q is not known to this test", rec.QuoteID, help)
		}
		if !strings.Contains(ansi.Strip(h.detail(rec)), said[help]) {
			t.Errorf("%s: the footer says enter %s, the detail:\n%s", rec.QuoteID, help, ansi.Strip(h.detail(rec)))
		}
	}
}
