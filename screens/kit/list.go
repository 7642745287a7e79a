package kit

import (
	"slices"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/svcwallet/svcwallet/tui"
)

// ListKeys are the keys of every list: one definition, so they act the
// same everywhere. While the filter is typed, letters are text: only the
// arrows and the page keys move, enter keeps the filter and esc clears it.
var ListKeys = struct {
	Up, Down, PageUp, PageDown, First, Last key.Binding
	Filter, Done, Clear, Sort               key.Binding
	TypedUp, TypedDown                      key.Binding
}{
	Up:        key.NewBinding(key.WithKeys("up", "k"), key.WithHelp("↑/↓", "select")),
	Down:      key.NewBinding(key.WithKeys("down", "j")),
	PageUp:    key.NewBinding(key.WithKeys("pgup"), key.WithHelp("pgup/pgdn", "page")),
	PageDown:  key.NewBinding(key.WithKeys("pgdown")),
	First:     key.NewBinding(key.WithKeys("home", "g"), key.WithHelp("home/end", "first/last")),
	Last:      key.NewBinding(key.WithKeys("end", "G")),
	Filter:    key.NewBinding(key.WithKeys("/"), key.WithHelp("/", "filter")),
	Done:      key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "done filtering")),
	Clear:     key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "clear filter")),
	Sort:      key.NewBinding(key.WithKeys("S"), key.WithHelp("S", "sort")),
	TypedUp:   key.NewBinding(key.WithKeys("up"), key.WithHelp("↑/↓", "select")),
	TypedDown: key.NewBinding(key.WithKeys("down")),
}

// ListSpec says what a List shows of its items and how.
type ListSpec[T any] struct {
	// Noun names one item; counts and the empty filter add an s ("chain":
	// "7 chains", "no chains match 'x'").
	Noun    string
	Columns []Column
	// Row draws one item; it is called for the visible rows only.
	Row func(T) Row
	// Fields are what the filter searches, in any case.
	Fields func(T) []string
	// ID names an item, so the cursor stays on it when the items change
	// or the filter is cleared.
	ID func(T) string
	// Select is the help of ↑/↓ ("select", "destination chain").
	Select string
	// Empty is said when there are no items at all.
	Empty string
	// Sorts are the orders S cycles through, the first in effect at
	// first; none keeps the order SetItems gives.
	Sorts []ListSort[T]
	// FilterHashes lets the filter take a payout hash (Input.TakeHashes),
	// a 32-byte hex value matched here and never sent.
	FilterHashes bool
}

// ListSort is one order of a List's items; the title of its column is
// marked ↑ (smallest or earliest first) or ↓ while it is in effect.
type ListSort[T any] struct {
	Column int
	Desc   bool
	// Compare orders two items. It tells apart any two items with other
	// IDs (a tie is broken by something unique, such as the order added),
	// so each item has one place, where Replace and Remove find it in
	// O(log n).
	Compare func(a, b T) int
}

// List is the console's one list: a cursor over items in columns,
// scrolled so the cursor is always drawn, paged with PgUp/PgDn, jumped
// with Home/End, narrowed by a filter typed after /, counted ("3 of 61
// withdrawals shown"). Esc clears a filter, typed or applied, and only
// then leaves the screen (the root gives Esc to a screen that offers it).
// Its columns fit the width without cutting the one the user copies (see
// Column). A screen builds it once with NewList, hands it the items with
// SetItems and its height with SetSize, hands every key and paste to
// Update with the screen's own bindings, and draws View; its footer is
// Bindings(screen).KeyMap(), the same list Update handles keys with.
type List[T any] struct {
	common *tui.Common
	spec   ListSpec[T]
	all    *ordered[T]
	shown  *ordered[T] // all, or those the filter lets through
	items  []T         // all, in order; nil until Items asks after a change
	// added is the place each item was handed in, the order of a list
	// without Sorts; next is the next one's.
	added  map[string]int
	next   int
	cursor int // index into shown
	offset int // first visible row
	width  int
	rows   int
	filter Input
	typing bool
	sort   int  // the index in spec.Sorts in effect
	turned bool // that order reversed (S pressed again)
	// Blurred: another field has the keys, so no row is drawn as selected
	// and the rows shown stay where they are while items change.
	Blurred bool
	// drawn is the last frame's lines, by what they drew (memoLine).
	drawn map[string]string
}

// NewList builds an empty list drawn in c's styles.
func NewList[T any](c *tui.Common, spec ListSpec[T]) List[T] {
	in := NewInput(c, "type to filter", false)
	in.Want("text to filter by")
	if spec.FilterHashes {
		in.TakeHashes()
	}
	in.Prompt = "/ "
	in.SetWidth(24)
	l := List[T]{common: c, spec: spec, filter: in, rows: 1, added: map[string]int{}}
	l.all = newOrdered(nil, l.compare())
	l.shown = l.all
	return l
}

// SetItems replaces the items, put in the order in effect; the cursor
// stays on the item it was on when that is still shown, unless the list
// is Blurred: then it stays where it is.
func (l *List[T]) SetItems(items []T) {
	keep, ok := l.Selected()
	if len(l.spec.Sorts) == 0 {
		clear(l.added)
		l.next = 0
		for _, it := range items {
			l.place(it)
		}
	}
	cmp := l.compare()
	slices.SortFunc(items, cmp)
	l.all, l.items = newOrdered(items, cmp), items
	if ok && !l.Blurred {
		l.apply(l.spec.ID(keep))
		return
	}
	l.apply("")
}

// place gives item the next place, in a list without Sorts.
func (l *List[T]) place(item T) {
	l.added[l.spec.ID(item)] = l.next
	l.next++
}

// compare is the order in effect: the spec's Sort (turned round after a
// second S), or the order the items were handed in. It tells any two
// items apart.
func (l *List[T]) compare() func(a, b T) int {
	if len(l.spec.Sorts) == 0 {
		added, id := l.added, l.spec.ID
		return func(a, b T) int { return added[id(a)] - added[id(b)] }
	}
	cmp := l.spec.Sorts[l.sort].Compare
	if l.turned {
		return func(a, b T) int { return cmp(b, a) }
	}
	return cmp
}

// nextSort turns the order in effect round, or after that puts the next
// of the spec's Sorts in effect; the cursor stays on its item.
func (l *List[T]) nextSort() tea.Cmd {
	if l.turned = !l.turned; !l.turned {
		l.sort = (l.sort + 1) % len(l.spec.Sorts)
	}
	l.SetItems(l.Items())
	return nil
}

// Remove takes item out; it must be as it was handed to the list (see
// Replace).
func (l *List[T]) Remove(item T) {
	l.take(item)
	l.settle()
}

// Replace puts now, an item that changed, in the place of old. old must
// be the value the list holds: an item whose fields the order reads is
// never changed in place but replaced, so the list finds it where the
// order put it. now goes where the order puts it, shown if the filter
// lets it through. It costs O(log n) (ordered), however many items there
// are; the order is not computed again. The cursor stays on its item
// while others move; when its own item moves, or the list is Blurred, the
// cursor stays on its row and the rows drawn where they are: a row
// changing under the user's eyes does not carry the view away. It reports
// whether what View draws changed: a row drawn, the count or the cursor.
func (l *List[T]) Replace(old, now T) (redrawn bool) {
	cursor, offset, n := l.cursor, l.offset, l.shown.len()
	selected, from := l.take(old)
	to := l.put(now, selected)
	l.settle()
	return l.cursor != cursor || l.offset != offset || l.shown.len() != n || l.moves(from, to)
}

// moves reports whether a row taken from row from and put at row to
// (-1: not shown) changes the rows drawn: either is drawn, or it crossed
// above or below them, moving the others.
func (l *List[T]) moves(from, to int) bool {
	end := l.offset + l.rows
	at := func(i int) int { // -1 above the rows drawn, 0 among, 1 below
		switch {
		case i < 0 || i >= end:
			return 1
		case i < l.offset:
			return -1
		}
		return 0
	}
	return at(from) == 0 || at(to) == 0 || at(from) != at(to)
}

// take takes item out of the items and the rows shown; it reports whether
// it was the selected row, and the row it was (-1: not shown).
func (l *List[T]) take(item T) (selected bool, row int) {
	filtered := l.shown != l.all
	row = -1
	if i, ok := l.all.remove(item); ok {
		l.items = nil
		if !filtered {
			selected, row = l.tookRow(i), i
		}
	}
	if filtered {
		if i, ok := l.shown.remove(item); ok {
			selected, row = l.tookRow(i), i
		}
	}
	return selected, row
}

// put adds item to the items and, if the filter lets it through, to the
// rows shown; selected: it is the selected item, which the cursor follows.
// It returns the row it is shown at, -1 for none.
func (l *List[T]) put(item T, selected bool) int {
	i := l.all.insert(item)
	l.items = nil
	switch q := strings.ToLower(l.Filter()); {
	case l.shown == l.all:
		l.putRow(i, selected)
		return i
	case matches(l.spec.Fields(item), q):
		j := l.shown.insert(item)
		l.putRow(j, selected)
		return j
	}
	return -1
}

// settle keeps the cursor in the rows shown.
func (l *List[T]) settle() {
	l.cursor = max(min(l.cursor, l.shown.len()-1), 0)
	l.scroll()
}

// tookRow keeps the cursor on its item when row i is taken out; it
// reports whether that row was the selected one.
func (l *List[T]) tookRow(i int) bool {
	switch {
	case l.Blurred:
	case i < l.cursor:
		l.cursor--
	case i == l.cursor:
		return true
	}
	return false
}

// putRow keeps the cursor on its item when a row is put at i; selected:
// that row is the selected item, which moved: the cursor stays on its row.
func (l *List[T]) putRow(i int, selected bool) {
	switch {
	case l.Blurred, selected:
	case i <= l.cursor:
		l.cursor++
	}
}

// SetSize gives the width and how many rows are visible: View takes that
// many lines plus the column titles and the count.
func (l *List[T]) SetSize(width, rows int) {
	l.width, l.rows = width, max(rows, 1)
	l.scroll()
}

// Items are all the items, in the order in effect. The slice is the
// list's: read it, never change it.
func (l *List[T]) Items() []T {
	if l.items == nil {
		l.items = l.all.slice()
	}
	return l.items
}

// Len is how many items the filter lets through.
func (l *List[T]) Len() int { return l.shown.len() }

// Item is the i-th item the filter lets through.
func (l *List[T]) Item(i int) T { return l.shown.at(i) }

// Selected is the item under the cursor; false when none is shown.
func (l *List[T]) Selected() (T, bool) {
	if l.cursor >= l.shown.len() {
		var none T
		return none, false
	}
	return l.shown.at(l.cursor), true
}

// Bindings are the list's keys around the screen's own: ↑/↓, esc while a
// filter is kept and / first, then the screen's, then the page keys and
// the jumps. A key the screen binds is
// the screen's (g generates an address on the deposit list, so only Home
// jumps there). While the filter is typed only the filter's keys act.
func (l *List[T]) Bindings(screen Bindings) Bindings {
	n := l.shown.len()
	if l.typing {
		return Bindings{
			{Key: ListKeys.Done, On: true, Do: l.done},
			{Key: ListKeys.Clear, On: true, Do: l.clear},
			{Key: l.selectHelp(ListKeys.TypedUp), On: n > 0, Do: l.moveBy(-1)},
			{Key: ListKeys.TypedDown, On: n > 0, Do: l.moveBy(1)},
			{Key: ListKeys.PageUp, On: n > l.rows, Do: l.page(-1)},
			{Key: ListKeys.PageDown, On: n > l.rows, Do: l.page(1)},
		}
	}
	claimed := func(k string) bool {
		return slices.ContainsFunc(screen, func(b Binding) bool { return slices.Contains(b.Key.Keys(), k) })
	}
	free := func(b key.Binding) key.Binding {
		if slices.ContainsFunc(b.Keys(), claimed) {
			b.SetKeys(slices.DeleteFunc(slices.Clone(b.Keys()), claimed)...)
		}
		return b
	}
	filter := ListKeys.Filter
	if l.Filter() != "" {
		filter.SetHelp("/", "edit filter")
	}
	bs := Bindings{
		{Key: free(l.selectHelp(ListKeys.Up)), On: n > 0, Do: l.moveBy(-1)},
		{Key: free(ListKeys.Down), On: n > 0, Do: l.moveBy(1)},
		{Key: ListKeys.Clear, On: l.Filter() != "", Do: l.clear},
		{Key: filter, On: l.all.len() > 0, Do: l.StartFilter},
	}
	bs = append(bs, screen...)
	return append(bs,
		Binding{Key: free(ListKeys.Sort), On: len(l.spec.Sorts) > 0 && l.all.len() > 1, Do: l.nextSort},
		Binding{Key: free(ListKeys.PageUp), On: n > l.rows, Do: l.page(-1)},
		Binding{Key: free(ListKeys.PageDown), On: n > l.rows, Do: l.page(1)},
		Binding{Key: free(ListKeys.First), On: n > 1, Do: func() tea.Cmd { l.moveTo(0); return nil }},
		Binding{Key: free(ListKeys.Last), On: n > 1, Do: func() tea.Cmd { l.moveTo(n - 1); return nil }},
	)
}

// Update takes a key, a paste or the mouse wheel: a key through
// Bindings(screen); while the filter is typed, any other key and a paste
// go into it; the wheel moves the cursor a row a notch (its screen asks
// for it: tui.Wheeler).
func (l *List[T]) Update(msg tea.Msg, screen Bindings) tea.Cmd {
	switch msg := msg.(type) {
	case tea.MouseWheelMsg:
		switch msg.Button {
		case tea.MouseWheelUp:
			l.moveTo(l.cursor - 1)
		case tea.MouseWheelDown:
			l.moveTo(l.cursor + 1)
		}
	case tea.KeyPressMsg:
		var guard tea.Cmd
		if l.typing {
			guard = l.guard(msg) // the filter's rule before the keys
		}
		if cmd, ok := l.Bindings(screen).Handle(msg); ok {
			return tea.Batch(guard, cmd)
		}
		if l.typing {
			return tea.Batch(guard, l.edit(msg))
		}
	case tea.PasteMsg:
		if l.typing {
			return l.edit(msg)
		}
	}
	return nil
}

func (l *List[T]) selectHelp(b key.Binding) key.Binding {
	if l.spec.Select != "" {
		b.SetHelp(b.Help().Key, l.spec.Select)
	}
	return b
}

func (l *List[T]) moveBy(d int) func() tea.Cmd {
	return func() tea.Cmd { l.moveTo(l.cursor + d); return nil }
}

func (l *List[T]) moveTo(i int) {
	l.cursor = max(min(i, l.shown.len()-1), 0)
	l.scroll()
}

// page moves the cursor and the view a page of rows together, so the
// cursor keeps its place on screen.
func (l *List[T]) page(d int) func() tea.Cmd {
	return func() tea.Cmd {
		l.offset += d * l.rows
		l.moveTo(l.cursor + d*l.rows)
		return nil
	}
}

// scroll keeps the cursor inside the visible rows and leaves no rows
// empty at the end while items are above.
func (l *List[T]) scroll() {
	if l.cursor < l.offset {
		l.offset = l.cursor
	}
	if l.cursor >= l.offset+l.rows {
		l.offset = l.cursor - l.rows + 1
	}
	l.offset = max(min(l.offset, l.shown.len()-l.rows), 0)
}
