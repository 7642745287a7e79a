package exchange

import "slices"

// runFinder is the suffix automaton of one credential in lower case: fed a
// string a byte at a time, it tells the longest run of the credential that
// ends at each byte, in one pass whatever the run's length. Runs of a fixed
// length looked up in a set cost that length a byte, and the run that
// counts is half a credential of up to 4 KiB.
type runFinder struct {
	length []int32 // the longest run a state stands for
	link   []int32 // the state of its longest suffix of another state; -1 at the root
	// root is the root's moves by byte, 0 for none: a byte of an answer
	// that continues no run starts over there, most bytes of most answers.
	root [256]int32
	// The other states' moves, sorted by byte from off[v] to off[v+1]: a
	// hostile cookie can give a state one for each byte, and a list looked
	// through cost a 1 MiB answer 170 ms.
	off   []int32
	bytes []byte
	to    []int32
}

// runEdge is a move while the automaton is built, in its state's list.
type runEdge struct {
	b        byte
	to, next int32
}

// runBuild is a runFinder being built, its moves in lists.
type runBuild struct {
	*runFinder
	first []int32 // each state's first move; -1 when it has none
	edges []runEdge
}

func newRunFinder(lower string) *runFinder {
	// A credential of n bytes has at most 2n states and 3n moves.
	n := 2*len(lower) + 1
	f := runBuild{
		runFinder: &runFinder{length: make([]int32, 0, n), link: make([]int32, 0, n)},
		first:     make([]int32, 0, n),
		edges:     make([]runEdge, 0, 3*len(lower)),
	}
	last := f.state(0, -1)
	for i := 0; i < len(lower); i++ {
		b := lower[i]
		cur := f.state(f.length[last]+1, 0)
		p := last
		for ; p >= 0 && f.move(p, b) < 0; p = f.link[p] {
			f.setMove(p, b, cur)
		}
		if p >= 0 {
			q := f.move(p, b)
			if f.length[p]+1 == f.length[q] {
				f.link[cur] = q
			} else {
				clone := f.state(f.length[p]+1, f.link[q])
				for e := f.first[q]; e >= 0; e = f.edges[e].next {
					f.setMove(clone, f.edges[e].b, f.edges[e].to)
				}
				for ; p >= 0 && f.move(p, b) == q; p = f.link[p] {
					f.setMove(p, b, clone)
				}
				f.link[q], f.link[cur] = clone, clone
			}
		}
		last = cur
	}
	return f.sorted()
}

func (f *runBuild) state(length, link int32) int32 {
	f.length = append(f.length, length)
	f.link = append(f.link, link)
	f.first = append(f.first, -1)
	return int32(len(f.length) - 1)
}

// move is the state reached from v on b, -1 when the credential has no
// such run.
func (f *runBuild) move(v int32, b byte) int32 {
	if v == 0 {
		return f.root[b] - 1
	}
	for e := f.first[v]; e >= 0; e = f.edges[e].next {
		if f.edges[e].b == b {
			return f.edges[e].to
		}
	}
	return -1
}

func (f *runBuild) setMove(v int32, b byte, to int32) {
	if v == 0 {
		f.root[b] = to + 1
		return
	}
	for e := f.first[v]; e >= 0; e = f.edges[e].next {
		if f.edges[e].b == b {
			f.edges[e].to = to
			return
		}
	}
	f.edges = append(f.edges, runEdge{b: b, to: to, next: f.first[v]})
	f.first[v] = int32(len(f.edges) - 1)
}

// sorted lays each state's moves out in a row, sorted by byte.
func (f *runBuild) sorted() *runFinder {
	r := f.runFinder
	r.off = make([]int32, len(f.first)+1)
	r.bytes = make([]byte, 0, len(f.edges))
	r.to = make([]int32, 0, len(f.edges))
	var row []runEdge
	for v := range f.first {
		row = row[:0]
		for e := f.first[v]; e >= 0; e = f.edges[e].next {
			row = append(row, f.edges[e])
		}
		slices.SortFunc(row, func(x, y runEdge) int { return int(x.b) - int(y.b) })
		for _, e := range row {
			r.bytes = append(r.bytes, e.b)
			r.to = append(r.to, e.to)
		}
		r.off[v+1] = int32(len(r.bytes))
	}
	return r
}

// move is the state reached from v on b, -1 when the credential has no
// such run.
func (f *runFinder) move(v int32, b byte) int32 {
	if v == 0 {
		return f.root[b] - 1
	}
	lo, hi := f.off[v], f.off[v+1]
	for lo < hi {
		m := int32(uint32(lo+hi) >> 1)
		if f.bytes[m] < b {
			lo = m + 1
		} else {
			hi = m
		}
	}
	if lo < f.off[v+1] && f.bytes[lo] == b {
		return f.to[lo]
	}
	return -1
}

// runs calls at with the start and end in s of the longest run of the
// credential ending at each byte, where it is at least least bytes long,
// until at returns false. Starts never go back, since a run ending a byte
// later is at most one longer. Case is folded in ASCII alone, so that
// offsets in s stay offsets in s (strings.ToLower changes the length of
// some letters).
func (f *runFinder) runs(s string, least int, at func(start, end int) bool) {
	v, n := int32(0), 0
	for i := 0; i < len(s); i++ {
		b := s[i]
		if 'A' <= b && b <= 'Z' {
			b += 'a' - 'A'
		}
		for {
			if t := f.move(v, b); t >= 0 {
				v, n = t, n+1
				break
			}
			if v == 0 {
				n = 0
				break
			}
			v = f.link[v]
			n = int(f.length[v])
		}
		if n >= least && !at(i+1-n, i+1) {
			return
		}
	}
}
