package kit

// A List's filter: typed after /, kept while the list is used, cleared by esc.

import (
	"strings"
	"unicode/utf8"

	tea "charm.land/bubbletea/v2"
)

// matches reports whether any field holds q, which is lower case.
func matches(fields []string, q string) bool {
	for _, f := range fields {
		if containsFold(f, q) {
			return true
		}
	}
	return false
}

// containsFold reports whether s holds q (lower case) in any case, without
// making a lower-case copy of ASCII text: a filter reads every row, so
// 10,000 rows of ids and hashes are searched in a few milliseconds.
func containsFold(s, q string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return strings.Contains(strings.ToLower(s), q)
		}
	}
	for i := 0; i+len(q) <= len(s); i++ {
		j := 0
		for ; j < len(q); j++ {
			c := s[i+j]
			if 'A' <= c && c <= 'Z' {
				c += 'a' - 'A'
			}
			if c != q[j] {
				break
			}
		}
		if j == len(q) {
			return true
		}
	}
	return false
}

// Typing reports whether the filter field has the keys: the screen is
// Inputting.
func (l *List[T]) Typing() bool { return l.typing }

// Filter is the filter in effect, without the spaces around it.
func (l *List[T]) Filter() string { return strings.TrimSpace(l.filter.Value()) }

// FilterView is the filter field while it is typed or in effect, else "".
func (l *List[T]) FilterView() string {
	if !l.typing && l.Filter() == "" {
		return ""
	}
	return l.filter.View()
}

// StartFilter gives the filter field the keys, keeping what it holds.
func (l *List[T]) StartFilter() tea.Cmd {
	l.typing = true
	return l.filter.Focus()
}

// edit hands msg to the filter field; a changed filter selects its first
// match, as the best one to go on with.
func (l *List[T]) edit(msg tea.Msg) tea.Cmd {
	before := l.Filter()
	var cmd tea.Cmd
	l.filter, cmd = l.filter.Update(msg)
	if l.Filter() != before {
		l.cursor, l.offset = 0, 0
		l.apply("")
	}
	return cmd
}

// guard is the filter field's key guard (Input.Guard); a filter it
// cleared lets every item through again.
func (l *List[T]) guard(msg tea.Msg) tea.Cmd {
	before := l.Filter()
	cmd := l.filter.Guard(msg)
	if l.Filter() != before {
		l.cursor, l.offset = 0, 0
		l.apply("")
	}
	return cmd
}

// done ends the typing and keeps the filter.
func (l *List[T]) done() tea.Cmd {
	l.typing = false
	l.filter.Blur()
	return nil
}

// clear empties the filter and ends the typing; the cursor stays on the
// item it was on, now among all of them.
func (l *List[T]) clear() tea.Cmd {
	keep, ok := l.Selected()
	l.filter.SetValue("")
	l.done()
	if ok {
		l.apply(l.spec.ID(keep))
	} else {
		l.apply("")
	}
	return nil
}

// apply lists the items the filter lets through and puts the cursor on
// the item named keep, or keeps it in range.
func (l *List[T]) apply(keep string) {
	l.shown = l.all
	if q := strings.ToLower(l.Filter()); q != "" {
		var m []T
		l.all.each(func(it T) bool {
			if matches(l.spec.Fields(it), q) {
				m = append(m, it)
			}
			return true
		})
		l.shown = newOrdered(m, l.all.cmp)
	}
	if keep != "" {
		i := 0
		l.shown.each(func(it T) bool {
			if l.spec.ID(it) == keep {
				l.cursor = i
				return false
			}
			i++
			return true
		})
	}
	l.cursor = max(min(l.cursor, l.shown.len()-1), 0)
	l.scroll()
}
