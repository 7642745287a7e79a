package follow

import "time"

// kind is which of the scheduler's queues an id waits in.
type kind int

const (
	kindFresh kind = iota // never answered: asked first, the newest first
	kindHot               // changed within HotWindow
	kindCold              // the others still moving
)

// queue is a heap of moving ids (container/heap), ordered by less.
type queue struct {
	ids  []*Followed
	less func(a, b *Followed) bool
}

// newer orders fresh ids: the withdrawal made, or added, last first.
func newer(a, b *Followed) bool {
	if !a.born.Equal(b.born) {
		return a.born.After(b.born)
	}
	return a.seq > b.seq
}

// sooner orders ids by due time.
func sooner(a, b *Followed) bool { return a.Due.Before(b.Due) }

// due is when the first id of q is due; zero for none. Fresh ids are due
// from when they were added (or given back after a 429): at once.
func (q *queue) due() time.Time {
	if len(q.ids) == 0 {
		return time.Time{}
	}
	return q.ids[0].Due
}

func (q *queue) Len() int           { return len(q.ids) }
func (q *queue) Less(i, j int) bool { return q.less(q.ids[i], q.ids[j]) }
func (q *queue) Swap(i, j int) {
	q.ids[i], q.ids[j] = q.ids[j], q.ids[i]
	q.ids[i].index, q.ids[j].index = i, j
}

func (q *queue) Push(x any) {
	f := x.(*Followed)
	f.index = len(q.ids)
	q.ids = append(q.ids, f)
}

func (q *queue) Pop() any {
	old := q.ids
	f := old[len(old)-1]
	old[len(old)-1] = nil
	f.index = -1
	q.ids = old[:len(old)-1]
	return f
}
