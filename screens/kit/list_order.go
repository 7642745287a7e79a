package kit

import (
	"math"
	"math/rand/v2"
)

// ordered holds a List's items in its order: a treap (a search tree kept
// balanced by random priorities) whose nodes count their subtree, so
// finding where an item goes, its index, the item at an index, putting one
// in and taking one out each cost O(log n) however many items there are:
// an answer on a board of 10,000 rows moves one row, not the rows after it.
type ordered[T any] struct {
	root *orderedNode[T]
	cmp  func(a, b T) int // a total order: no two items compare equal
}

type orderedNode[T any] struct {
	item        T
	prio        uint64
	size        int
	left, right *orderedNode[T]
}

func (n *orderedNode[T]) count() int {
	if n == nil {
		return 0
	}
	return n.size
}

func (n *orderedNode[T]) fix() *orderedNode[T] {
	n.size = 1 + n.left.count() + n.right.count()
	return n
}

// newOrdered holds items, which are in cmp's order, in a tree built balanced
// in O(n).
func newOrdered[T any](items []T, cmp func(a, b T) int) *ordered[T] {
	var build func(s []T, depth uint64) *orderedNode[T]
	build = func(s []T, depth uint64) *orderedNode[T] {
		if len(s) == 0 {
			return nil
		}
		m := len(s) / 2
		// Priorities fall with depth, so the tree built is a treap; items
		// put in later draw theirs at random below them.
		n := &orderedNode[T]{item: s[m], prio: math.MaxUint64 - depth}
		n.left, n.right = build(s[:m], depth+1), build(s[m+1:], depth+1)
		return n.fix()
	}
	return &ordered[T]{root: build(items, 0), cmp: cmp}
}

func (r *ordered[T]) len() int { return r.root.count() }

// at is the item at index i, which must be in range.
func (r *ordered[T]) at(i int) T {
	n := r.root
	for {
		switch l := n.left.count(); {
		case i < l:
			n = n.left
		case i == l:
			return n.item
		default:
			i -= l + 1
			n = n.right
		}
	}
}

// split cuts n into the items before item and the others.
func (r *ordered[T]) split(n *orderedNode[T], item T) (before, after *orderedNode[T]) {
	if n == nil {
		return nil, nil
	}
	if r.cmp(n.item, item) < 0 {
		n.right, after = r.split(n.right, item)
		return n.fix(), after
	}
	before, n.left = r.split(n.left, item)
	return before, n.fix()
}

// merge joins a and b, every item of a before every item of b.
func merge[T any](a, b *orderedNode[T]) *orderedNode[T] {
	switch {
	case a == nil:
		return b
	case b == nil:
		return a
	case a.prio > b.prio:
		a.right = merge(a.right, b)
		return a.fix()
	}
	b.left = merge(a, b.left)
	return b.fix()
}

// insert puts item in its place and returns its index.
func (r *ordered[T]) insert(item T) int {
	before, after := r.split(r.root, item)
	i := before.count()
	n := &orderedNode[T]{item: item, prio: rand.Uint64() >> 1, size: 1}
	r.root = merge(merge(before, n), after)
	return i
}

// remove takes out the item that compares equal to item and returns its
// index; false when there is none.
func (r *ordered[T]) remove(item T) (i int, found bool) {
	var del func(n *orderedNode[T]) *orderedNode[T]
	del = func(n *orderedNode[T]) *orderedNode[T] {
		if n == nil {
			return nil
		}
		switch c := r.cmp(n.item, item); {
		case c < 0:
			i += n.left.count() + 1
			n.right = del(n.right)
		case c > 0:
			n.left = del(n.left)
		default:
			i, found = i+n.left.count(), true
			return merge(n.left, n.right)
		}
		return n.fix()
	}
	r.root = del(r.root)
	return i, found
}

// each calls f on every item in order until it returns false.
func (r *ordered[T]) each(f func(T) bool) {
	var walk func(n *orderedNode[T]) bool
	walk = func(n *orderedNode[T]) bool {
		return n == nil || walk(n.left) && f(n.item) && walk(n.right)
	}
	walk(r.root)
}

// slice is every item in order.
func (r *ordered[T]) slice() []T {
	out := make([]T, 0, r.len())
	r.each(func(it T) bool { out = append(out, it); return true })
	return out
}
