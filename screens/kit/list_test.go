package kit_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/svcwallet/svcwallet/screens/kit"
	"github.com/svcwallet/svcwallet/screens/screentest"
	"github.com/svcwallet/svcwallet/tui"
)

// account is a list item: an id to copy, a chain and an amount.
type account struct{ id, chain, amount string }

var accountColumns = []kit.Column{
	{Title: "ID", Width: 10, Min: 9, Key: true},
	{Title: "CHAIN", Width: 12, Min: 5},
	{Title: "AMOUNT", Width: 10, Min: 6, Right: true, Gap: 2},
	{Title: "NOTE", Width: 12, Optional: true},
}

func accountList(items []account) *kit.List[account] {
	l := kit.NewList(tui.NewCommon(true, nil), kit.ListSpec[account]{
		Noun: "account", Columns: accountColumns, Select: "select", Empty: "No accounts yet.",
		Row: func(a account) kit.Row {
			return kit.Row{Cells: []string{a.id, a.chain, a.amount, "note " + a.chain}}
		},
		Fields: func(a account) []string { return []string{a.id, a.chain} },
		ID:     func(a account) string { return a.id },
	})
	l.SetItems(items)
	return &l
}

// accounts are n items: every third on SOLANA, the others on ARBITRUM.
func accounts(n int) []account {
	var out []account
	for i := range n {
		chain := "ARBITRUM"
		if i%3 == 0 {
			chain = "SOLANA"
		}
		out = append(out, account{id: fmt.Sprintf("acct-%03d", i), chain: chain, amount: fmt.Sprint(i * 10)})
	}
	return out
}

// press hands the list the named key with no screen keys of its own.
func press(l *kit.List[account], keys ...string) {
	for _, k := range keys {
		l.Update(screentest.Key(k), nil)
	}
}

func typeText(l *kit.List[account], s string) {
	for _, r := range s {
		l.Update(tea.KeyPressMsg{Code: r, Text: string(r)}, nil)
	}
}

func selectedID(l *kit.List[account]) string {
	a, _ := l.Selected()
	return a.id
}

// offers reports whether the footer built from bindings names key k.
func offers(bs kit.Bindings, k string) bool {
	for _, b := range bs.KeyMap().ShortHelp() {
		if slices.Contains(b.Keys(), k) {
			return true
		}
	}
	return false
}

// plainRows are the view's lines without escapes.
func plainRows(l *kit.List[account]) []string {
	return strings.Split(strings.TrimSuffix(ansi.Strip(l.View("")), "\n"), "\n")
}

// TestListMoves: ↑/↓, j/k, PgUp/PgDn, Home/End and g/G move the cursor;
// the view draws only the visible rows, always the cursor's, and counts.
func TestListMoves(t *testing.T) {
	l := accountList(accounts(100))
	l.SetSize(80, 10)
	for _, step := range []struct {
		key          string
		cursor, from int // the selected item, the first row drawn
	}{
		{"down", 1, 0}, {"j", 2, 0}, {"k", 1, 0}, {"pgdown", 11, 10}, {"pgdown", 21, 20}, {"pgup", 11, 10},
		{"end", 99, 90}, {"up", 98, 90}, {"home", 0, 0}, {"G", 99, 90}, {"g", 0, 0}, {"pgup", 0, 0},
		{"end", 99, 90}, {"pgdown", 99, 90},
	} {
		press(l, step.key)
		rows := plainRows(l)
		if want := fmt.Sprintf("acct-%03d", step.cursor); selectedID(l) != want || len(rows) != 12 {
			t.Fatalf("%s: %s selected, want %s; %d lines:\n%s", step.key, selectedID(l), want, len(rows), strings.Join(rows, "\n"))
		}
		if want := fmt.Sprintf("acct-%03d", step.from); !strings.Contains(rows[1], want) {
			t.Errorf("%s: first row %q, want %s", step.key, rows[1], want)
		}
		if want := fmt.Sprintf("› acct-%03d", step.cursor); !strings.Contains(strings.Join(rows, "\n"), want) {
			t.Errorf("%s: the cursor's row is not drawn as selected:\n%s", step.key, strings.Join(rows, "\n"))
		}
		if want := fmt.Sprintf("  %d–%d of 100 accounts", step.from+1, step.from+10); rows[11] != want {
			t.Errorf("%s: count %q, want %q", step.key, rows[11], want)
		}
	}
	bs := l.Bindings(nil)
	for _, k := range []string{"up", "pgup", "home", "/"} {
		if !offers(bs, k) {
			t.Errorf("a long list does not offer %s: %v", k, bs.KeyMap().ShortHelp())
		}
	}
	short := accountList(accounts(3))
	short.SetSize(80, 10)
	if offers(short.Bindings(nil), "pgup") || !offers(short.Bindings(nil), "home") {
		t.Errorf("a list that fits offers %v", short.Bindings(nil).KeyMap().ShortHelp())
	}
	if rows := plainRows(short); rows[len(rows)-1] != "  3 accounts" {
		t.Errorf("count of a list that fits: %q", rows[len(rows)-1])
	}
}

// TestListWheel (issue 21 item 13): the mouse wheel moves the cursor a
// row a notch, within the rows.
func TestListWheel(t *testing.T) {
	l := accountList(accounts(20))
	l.SetSize(80, 5)
	for range 7 {
		l.Update(tea.MouseWheelMsg{Button: tea.MouseWheelDown}, nil)
	}
	l.Update(tea.MouseWheelMsg{Button: tea.MouseWheelUp}, nil)
	if rows := plainRows(l); selectedID(l) != "acct-006" || !strings.HasPrefix(rows[4], "› acct-006") {
		t.Fatalf("after 7 notches down and 1 up: %s selected\n%s", selectedID(l), strings.Join(rows, "\n"))
	}
	for range 10 {
		l.Update(tea.MouseWheelMsg{Button: tea.MouseWheelUp}, nil)
	}
	if selectedID(l) != "acct-000" {
		t.Errorf("the wheel went past the first row: %s", selectedID(l))
	}
}

// TestListFilter: / gives the filter the keys (letters, j, k, g and q are
// text; the footer offers only the filter's keys and the arrows); the rows
// narrow as it is typed, the first match selected, and are counted; enter
// keeps it; esc, typed or applied, clears it and keeps the cursor on its
// item; with no filter the list offers no esc, so the screen goes back.
func TestListFilter(t *testing.T) {
	l := accountList(accounts(61))
	l.SetSize(80, 30)
	if offers(l.Bindings(nil), "esc") {
		t.Fatal("a list without a filter offers esc: it would not go back")
	}
	press(l, "down", "/")
	if !l.Typing() || l.FilterView() == "" {
		t.Fatal("/ did not give the filter the keys")
	}
	bs := l.Bindings(nil)
	for k, want := range map[string]bool{"enter": true, "esc": true, "up": true, "/": false, "home": false} {
		if offers(bs, k) != want {
			t.Errorf("while typing, %s offered: %v, want %v", k, offers(bs, k), want)
		}
	}
	typeText(l, "acct-05")
	if l.Filter() != "acct-05" || l.Len() != 10 || selectedID(l) != "acct-050" {
		t.Fatalf("typed 'acct-05': filter %q, %d shown, selected %s", l.Filter(), l.Len(), selectedID(l))
	}
	press(l, "backspace", "backspace")
	typeText(l, "jkgGq")
	if l.Filter() != "acct-jkgGq" || l.Len() != 0 {
		t.Fatalf("letters moved the list instead of being typed: filter %q", l.Filter())
	}
	if v := ansi.Strip(l.View("")); !strings.Contains(v, "No accounts match 'acct-jkgGq': esc clears the filter.") {
		t.Errorf("empty filter:\n%s", v)
	}
	for range len("acct-jkgGq") {
		press(l, "backspace")
	}
	typeText(l, "sol")
	press(l, "down", "down")
	if l.Len() != 21 || selectedID(l) != "acct-006" {
		t.Fatalf("'sol': %d shown, selected %s", l.Len(), selectedID(l))
	}
	rows := plainRows(l)
	if got := rows[len(rows)-1]; got != "  21 of 61 accounts shown" {
		t.Errorf("count %q", got)
	}
	press(l, "enter")
	if l.Typing() || l.Filter() != "sol" || !offers(l.Bindings(nil), "esc") || !offers(l.Bindings(nil), "/") {
		t.Fatalf("after enter: typing %v, filter %q, footer %v", l.Typing(), l.Filter(), l.Bindings(nil).KeyMap().ShortHelp())
	}
	press(l, "esc")
	if l.Filter() != "" || l.Len() != 61 || selectedID(l) != "acct-006" {
		t.Fatalf("esc on an applied filter: filter %q, %d shown, selected %s", l.Filter(), l.Len(), selectedID(l))
	}
	if offers(l.Bindings(nil), "esc") || l.FilterView() != "" {
		t.Error("with the filter cleared the list still offers esc or draws the field")
	}
	press(l, "/")
	typeText(l, "arb")
	press(l, "esc")
	if l.Typing() || l.Filter() != "" || l.Len() != 61 {
		t.Fatalf("esc while typing: typing %v, filter %q, %d shown", l.Typing(), l.Filter(), l.Len())
	}
	press(l, "/")
	l.Update(tea.PasteMsg{Content: "acct-06"}, nil)
	if l.Len() != 1 || selectedID(l) != "acct-060" {
		t.Errorf("a paste into the filter: %d shown, selected %s", l.Len(), selectedID(l))
	}
}

// TestListFilterScrolled: a filter that still does not fit says which of
// the matches are shown and of how many in all.
func TestListFilterScrolled(t *testing.T) {
	l := accountList(accounts(200))
	l.SetSize(80, 10)
	press(l, "/")
	typeText(l, "sol")
	press(l, "pgdown")
	rows := plainRows(l)
	if got := rows[len(rows)-1]; got != "  11–20 · 67 of 200 accounts shown" {
		t.Errorf("count %q", got)
	}
}

// TestListKeepsSelection: new items (reordered, some gone) keep the cursor
// on its item; when it is gone the cursor stays in range; on a blurred
// list it stays on its row.
func TestListKeepsSelection(t *testing.T) {
	all := accounts(10)
	l := accountList(all)
	l.SetSize(80, 5)
	press(l, "end")
	reversed := slices.Clone(all)
	slices.Reverse(reversed)
	l.SetItems(reversed)
	if rows := plainRows(l); selectedID(l) != "acct-009" || !strings.HasPrefix(rows[1], "› acct-009") {
		t.Fatalf("after a reorder the cursor is on %s:\n%s", selectedID(l), strings.Join(rows, "\n"))
	}
	l.SetItems(all)
	press(l, "end")
	l.SetItems(all[:4])
	if selectedID(l) != "acct-003" {
		t.Fatalf("with its item gone the cursor is on %s", selectedID(l))
	}
	// Blurred, the cursor stays where it is, and so do the rows drawn.
	l.SetItems(all)
	l.Blurred = true
	l.SetItems(reversed)
	if l.Cursor() != 3 {
		t.Fatalf("blurred, new items moved the cursor to row %d", l.Cursor())
	}
	l.Blurred = false
	l.SetItems(nil)
	if _, ok := l.Selected(); ok || strings.TrimSpace(ansi.Strip(l.View(""))) != "No accounts yet." || offers(l.Bindings(nil), "up") {
		t.Errorf("an empty list: %q, footer %v", ansi.Strip(l.View("")), l.Bindings(nil).KeyMap().ShortHelp())
	}
}

// TestListScreenKeys: the screen's keys come after ↑/↓ and / in the footer, and a
// key the screen binds is the screen's even where the list has a meaning
// for it (g generates, so only Home jumps to the first row).
func TestListScreenKeys(t *testing.T) {
	l := accountList(accounts(20))
	l.SetSize(80, 5)
	generated := 0
	screen := kit.Bindings{{Key: kit.ListKeys.Filter, On: false}}
	screen[0].Key.SetKeys("g")
	screen[0].Key.SetHelp("g", "generate")
	screen[0].On, screen[0].Do = true, func() tea.Cmd { generated++; return nil }
	press(l, "end")
	l.Update(screentest.Key("g"), screen)
	if generated != 1 || selectedID(l) != "acct-019" {
		t.Fatalf("g: generated %d, %s selected", generated, selectedID(l))
	}
	l.Update(screentest.Key("home"), screen)
	if selectedID(l) != "acct-000" {
		t.Fatalf("home: %s selected", selectedID(l))
	}
	help := l.Bindings(screen).KeyMap().ShortHelp()
	if len(help) < 3 || help[0].Help().Desc != "select" || help[1].Help().Desc != "filter" || help[2].Help().Desc != "generate" {
		t.Errorf("footer order %v", help)
	}
}

// TestListColumns (issue 21 bug 7): the key column is drawn whole while
// the others can shrink or be left out, the optional one left out before
// a value is cut ("ARBI…"); when the key must shrink it keeps both ends,
// the tail visible; no line is wider than the list.
func TestListColumns(t *testing.T) {
	long := account{id: "q-7mzq4d2kxw5v3c6hbf2ytjnr1e", chain: "ARBITRUM-NOVA", amount: "12.5 USDT"}
	for _, c := range []struct {
		width int
		id    string // the id as drawn
		chain string // the chain as drawn (its Width is 12)
		note  bool   // the optional column is drawn
	}{
		{120, long.id, "ARBITRUM-NO…", true},
		{67, long.id, "ARBITRUM-NO…", true},              // every column at its widest
		{66, long.id, "ARBITRUM-NO…", false},             // the note is left out before a value is cut
		{54, long.id, "ARBITRUM-NO…", false},             // without it, all whole
		{44, long.id, "ARBI…", false},                    // the others at their least
		{40, "q-7mzq4d2kx…6hbf2ytjnr1e", "ARBI…", false}, // then the id cut in the middle
	} {
		l := accountList([]account{long})
		l.SetSize(c.width, 3)
		rows := plainRows(l)
		for _, r := range rows {
			if w := ansi.StringWidth(r); w > c.width {
				t.Errorf("width %d: a line of %d cells: %q", c.width, w, r)
			}
		}
		if !strings.Contains(rows[1], c.id+" ") || !strings.Contains(rows[1], " "+c.chain+" ") {
			t.Errorf("width %d: row drawn as %q, want id %q and chain %q", c.width, rows[1], c.id, c.chain)
		}
		if strings.Contains(rows[0], "NOTE") != c.note {
			t.Errorf("width %d: note column shown %v, want %v:\n%s", c.width, !c.note, c.note, strings.Join(rows, "\n"))
		}
	}
	// Titles sit over their values; right-aligned ones end where they do.
	l := accountList([]account{long})
	l.SetSize(120, 3)
	rows := plainRows(l)
	col := func(line, sub string) int { return ansi.StringWidth(line[:strings.Index(line, sub)]) }
	if col(rows[0], "CHAIN") != col(rows[1], "ARBITRUM") || col(rows[0], "AMOUNT")+len("AMOUNT") != col(rows[1], "USDT")+len("USDT") {
		t.Errorf("titles not over their values:\n%s", strings.Join(rows, "\n"))
	}
}

// TestListRichCells: a styled cell is drawn when it fits whole, else the
// plain one, cut.
func TestListRichCells(t *testing.T) {
	rich := "\x1b[7mUSDT\x1b[m USDC"
	l := kit.NewList(tui.NewCommon(true, nil), kit.ListSpec[account]{
		Noun: "route", Columns: []kit.Column{{Title: "CHAIN", Width: 8}, {Title: "TOKENS", Width: 9, Min: 4}},
		Row: func(a account) kit.Row {
			return kit.Row{Cells: []string{a.chain, "USDT USDC"}, Rich: []string{"", rich}}
		},
		Fields: func(a account) []string { return nil }, ID: func(a account) string { return a.id },
	})
	l.SetItems(accounts(1))
	l.SetSize(40, 3)
	if !strings.Contains(l.View(""), rich) {
		t.Errorf("the rich cell is not drawn:\n%q", l.View(""))
	}
	l.SetSize(16, 3)
	if v := l.View(""); strings.Contains(v, rich) || !strings.Contains(ansi.Strip(v), "SOLANA USDT U…") {
		t.Errorf("a rich cell too wide is drawn, or the plain one not cut:\n%q", v)
	}
}

// TestListCutsAnOptionalMiddleColumnBeforeLeavingItOut: a payout hash
// (Optional, cut in the middle) keeps both its ends while its least fits,
// and is left out only after.
func TestListCutsAnOptionalMiddleColumnBeforeLeavingItOut(t *testing.T) {
	hash := "0x5f0c9e1b5f0c9e1b5f0c9e1b5f0c9e1b"
	l := kit.NewList(tui.NewCommon(true, nil), kit.ListSpec[account]{
		Noun: "withdrawal", Columns: []kit.Column{{Title: "ID", Width: 10}, {Title: "PAYOUT", Width: 34, Min: 9, Middle: true, Optional: true}},
		Row:    func(a account) kit.Row { return kit.Row{Cells: []string{a.id, a.chain}} },
		Fields: func(a account) []string { return nil }, ID: func(a account) string { return a.id },
	})
	l.SetItems([]account{{id: "q-1", chain: hash}})
	for _, c := range []struct {
		width int
		shown string
	}{{60, hash}, {40, "0x5f0c9e1b5f0…c9e1b5f0c9e1b"}, {24, "0x5f0c…f0c9e1b"}, {11, ""}} {
		l.SetSize(c.width, 3)
		rows := plainRows(&l)
		if shown := strings.Contains(rows[0], "PAYOUT"); shown != (c.shown != "") || c.shown != "" && !strings.Contains(rows[1], c.shown) {
			t.Errorf("width %d: drawn as\n%s\nwant the payout as %q", c.width, strings.Join(rows, "\n"), c.shown)
		}
	}
}

// TestListAmountColumnKeepsDigits: on a narrow line an Amount column drops
// the unit of a value that does not fit, never its digits.
func TestListAmountColumnKeepsDigits(t *testing.T) {
	cols := slices.Clone(accountColumns)
	cols[2].Amount = true
	l := kit.NewList(tui.NewCommon(true, nil), kit.ListSpec[account]{
		Noun: "account", Columns: cols, Select: "select", Empty: "No accounts yet.",
		Row: func(a account) kit.Row { return kit.Row{Cells: []string{a.id, a.chain, a.amount, ""}} },
		ID:  func(a account) string { return a.id },
	})
	l.SetItems([]account{{id: "acct-001", chain: "ARBITRUM", amount: "1234.56 USDT"}})
	l.SetSize(28, 5)
	view := ansi.Strip(l.View(""))
	if !strings.Contains(view, "1234.56") || strings.Contains(view, "1234.5…") || strings.Contains(view, "1234.56 U") {
		t.Fatalf("the amount at 28 columns:\n%s", view)
	}
}
