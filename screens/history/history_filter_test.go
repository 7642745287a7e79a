package history

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/svcwallet/svcwallet/screens/screentest"
	"github.com/svcwallet/svcwallet/tui"
)

// TestHistoryFilter (issue 12 friction): / filters the withdrawals by quote
// id, destination, chain or state; enter keeps the filter and opens stay
// on the filtered rows.
func TestHistoryFilter(t *testing.T) {
	_, h := historyOfEntries(t, 100, 30)
	screentest.Press(h, "/")
	if !h.Inputting() || screentest.Offers(h.KeyMap(), "r") {
		t.Fatalf("typing a filter: inputting %v, footer %v", h.Inputting(), h.KeyMap().ShortHelp())
	}
	h = screentest.TypeInto(h, "solana").(*historyScreen)
	screentest.Press(h, "enter")
	if h.list.Len() != 1 || h.list.Item(0).QuoteID != "q-sending" {
		t.Fatalf("filter solana lists %d withdrawals", h.list.Len())
	}
	if v := ansi.Strip(h.View()); !strings.Contains(v, "/ solana") || strings.Contains(v, "ARBITRUM") {
		t.Errorf("the filtered view:\n%s", v)
	}
	if h.Inputting() || !screentest.Offers(h.KeyMap(), "enter") || !screentest.Offers(h.KeyMap(), "/") {
		t.Errorf("after enter: inputting %v, footer %v", h.Inputting(), h.KeyMap().ShortHelp())
	}
	screentest.Press(h, "/")
	h = screentest.TypeInto(h, "zz").(*historyScreen)
	if v := ansi.Strip(h.View()); !strings.Contains(v, "No withdrawals match 'solanazz'") || screentest.Offers(h.KeyMap(), "up") {
		t.Errorf("filter solanazz:\n%s", v)
	}
}

// TestListEscClearsFilterFirst (issue 21 bug 5): on History, / and text
// then esc clears the filter and stays; only an esc with no filter goes
// back.
func TestListEscClearsFilterFirst(t *testing.T) {
	r := screentest.NewStatusRig(t)
	screentest.HistoryEntries(t, r)
	screentest.RecordTimers(r.App)
	root := tui.New(screentest.NewHome(r.App), tui.Options{Theme: "dark", Common: r.App.Common})
	screentest.Feed(root, tea.WindowSizeMsg{Width: 120, Height: 40})
	screentest.Feed(root, tui.PushMsg{Screen: New(r.App)})
	screentest.RequireEscClearsFilterFirst(t, root, func(m tea.Msg) { screentest.Feed(root, m) }, "solana")
}

// TestFilterTakesPastes: while the history's filter is typed, a bracketed
// paste goes into it like typed keys (it used to be dropped).
func TestFilterTakesPastes(t *testing.T) {
	r := screentest.NewStatusRig(t)
	h := New(r.App).(*historyScreen)
	screentest.FilterTakesPaste(t, "history", h, &h.list)
}

// TestKeyNeverKept: a private key typed or pasted into the history's
// filter is cleared and said, never shown (issue 17 item 7).
func TestKeyNeverKept(t *testing.T) {
	r := screentest.NewStatusRig(t)
	h := New(r.App).(*historyScreen)
	screentest.RequireKeyCleared(t, r.App, h, screentest.KeyField{Name: "history filter", Focus: h.list.StartFilter, Value: h.list.Filter})
}
