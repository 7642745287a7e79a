package kit_test

import (
	"cmp"
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/svcwallet/svcwallet/screens/kit"
	"github.com/svcwallet/svcwallet/screens/screentest"
	"github.com/svcwallet/svcwallet/tui"
)

// ranked is an item of a sorted list: an id and a rank that changes.
type ranked struct {
	id   string
	rank int
}

// byRank orders by rank, then id; byID by id, largest first.
var (
	byRank = kit.ListSort[ranked]{Column: 1, Compare: func(a, b ranked) int {
		return cmp.Or(cmp.Compare(a.rank, b.rank), strings.Compare(a.id, b.id))
	}}
	byIDDesc = kit.ListSort[ranked]{Column: 0, Desc: true, Compare: func(a, b ranked) int { return strings.Compare(b.id, a.id) }}
)

func rankedList(n int) *kit.List[ranked] {
	l := kit.NewList(tui.NewCommon(true, nil), kit.ListSpec[ranked]{
		Noun: "item", Columns: []kit.Column{{Title: "ID", Width: 8, Key: true}, {Title: "RANK", Width: 6, Right: true}},
		Row:    func(r ranked) kit.Row { return kit.Row{Cells: []string{r.id, fmt.Sprint(r.rank)}} },
		Fields: func(r ranked) []string { return []string{r.id, fmt.Sprint(r.rank)} },
		ID:     func(r ranked) string { return r.id },
		Sorts:  []kit.ListSort[ranked]{byRank, byIDDesc},
	})
	items := make([]ranked, n)
	for i := range items {
		items[i] = ranked{id: fmt.Sprintf("r-%03d", i), rank: (i * 7) % 10}
	}
	l.SetItems(items)
	l.SetSize(40, 5)
	return &l
}

// TestListSorts (issue 21 item 13, issue 28 item 7): the items are in the
// first order; S turns it round (the arrow in its column's title turns),
// S again puts the next in effect, and so on round; the cursor stays on
// its item. S is offered with two items and an order.
func TestListSorts(t *testing.T) {
	l := rankedList(20)
	if got := l.Items()[:3]; got[0].id != "r-000" || got[1].id != "r-010" || got[2].id != "r-003" {
		t.Fatalf("first order: %v", got)
	}
	l.Update(screentest.Key("down"), nil)
	for _, c := range []struct{ title, first, not string }{
		{"RANK↑", "r-000", "ID"},
		{"RANK↓", "r-017", "ID"}, // rank 9 first, and of r-007 and r-017 the last
		{"ID↓", "r-019", "RANK"},
		{"ID↑", "r-000", "RANK"},
		{"RANK↑", "r-000", "ID"},
	} {
		rows := plainRows2(l)
		if !strings.Contains(rows[0], c.title) || strings.Contains(rows[0], c.not+"↑") || strings.Contains(rows[0], c.not+"↓") {
			t.Errorf("title %q, want %s", rows[0], c.title)
		}
		if got := l.Items()[0].id; got != c.first {
			t.Errorf("%s: the first item is %s, want %s", c.title, got, c.first)
		}
		if sel, _ := l.Selected(); sel.id != "r-010" {
			t.Errorf("%s: S moved the cursor off its item to %s", c.title, sel.id)
		}
		l.Update(screentest.Key("S"), nil)
	}
	if !offers(l.Bindings(nil), "S") || offers(rankedList(1).Bindings(nil), "S") || offers(accountList(accounts(5)).Bindings(nil), "S") {
		t.Error("S offered where it sorts nothing, or not offered where it does")
	}
}

func plainRows2(l *kit.List[ranked]) []string {
	return strings.Split(strings.TrimSuffix(ansi.Strip(l.View("")), "\n"), "\n")
}

// TestListReplace (issue 21 item 14): Replace and Remove keep the
// items in the order in effect and the rows shown in the filter, as a full
// sort and filter would, over many random changes; the cursor stays on its
// item while others move, and on its row when its own item moves or the
// list is Blurred.
func TestListReplace(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, filter := range []string{"", "5"} {
		for _, blurred := range []bool{false, true} {
			l := rankedList(200)
			if filter != "" {
				l.Update(screentest.Key("/"), nil)
				for _, r := range filter {
					l.Update(tea.KeyPressMsg{Code: r, Text: string(r)}, nil)
				}
				l.Update(screentest.Key("enter"), nil)
			}
			for range 7 {
				l.Update(screentest.Key("down"), nil)
			}
			l.Blurred = blurred
			held := map[string]ranked{}
			for _, it := range l.Items() {
				held[it.id] = it
			}
			for step := range 2000 {
				before, _ := l.Selected()
				at := l.Cursor()
				var moved string
				// Removes stop at half the items, so the filter always
				// shows some.
				switch op := rng.IntN(10); {
				case op == 1 && len(held) > 100:
					old := l.Items()[rng.IntN(len(held))]
					l.Remove(old)
					delete(held, old.id)
				default:
					old := l.Items()[rng.IntN(len(held))]
					now := ranked{id: old.id, rank: rng.IntN(10)}
					l.Replace(old, now)
					held[now.id], moved = now, now.id
				}
				want := slices.Collect(maps.Values(held))
				slices.SortFunc(want, byRank.Compare)
				if !slices.Equal(l.Items(), want) {
					t.Fatalf("filter %q, step %d: items out of order", filter, step)
				}
				shown := slices.DeleteFunc(want, func(r ranked) bool {
					return filter != "" && !strings.Contains(r.id, filter) && !strings.Contains(fmt.Sprint(r.rank), filter)
				})
				for i := range l.Len() {
					if l.Item(i) != shown[i] {
						t.Fatalf("filter %q, step %d: row %d is %v, want %v", filter, step, i, l.Item(i), shown[i])
					}
				}
				if l.Len() != len(shown) {
					t.Fatalf("filter %q, step %d: %d rows shown, want %d", filter, step, l.Len(), len(shown))
				}
				after, _ := l.Selected()
				_, stillShown := slices.BinarySearchFunc(shown, held[before.id], byRank.Compare)
				switch {
				case blurred || moved == before.id:
					if l.Cursor() != min(at, l.Len()-1) {
						t.Fatalf("blurred %v, step %d: the cursor moved from row %d to %d", blurred, step, at, l.Cursor())
					}
				case stillShown && after.id != before.id:
					t.Fatalf("filter %q, step %d: the cursor left %s for %s (moved %s)", filter, step, before.id, after.id, moved)
				}
			}
		}
	}
}
