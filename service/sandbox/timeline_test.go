package sandbox

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestTimelineOrder: entries come off a timeline earliest first, whatever
// order they went on in, and due holds exactly while the earliest is due.
func TestTimelineOrder(t *testing.T) {
	var l timeline[int]
	var want []int64
	times := rand.New(rand.NewPCG(1, 2)) // fixed: the same times, some of them 249, every run
	for i := range 1000 {
		at := times.Int64N(500)
		l.push(at, i)
		want = append(want, at)
	}
	slices.Sort(want)
	var got []int64
	for l.due(249) {
		first, _ := l.peek()
		l.pop()
		got = append(got, first.at)
	}
	if next, _ := l.peek(); len(got) != len(slices.DeleteFunc(slices.Clone(want), func(at int64) bool { return at > 249 })) || next.at <= 249 {
		t.Fatalf("due stopped after %d entries, at one due at %d", len(got), next.at)
	}
	for l.len() > 0 {
		first, _ := l.peek()
		l.pop()
		got = append(got, first.at)
	}
	if !slices.Equal(got, want) {
		t.Fatalf("popped out of order")
	}
}

// TestTimelineGivesMemoryBack: once a burst has drained, the timeline does
// not keep the burst's capacity.
func TestTimelineGivesMemoryBack(t *testing.T) {
	var l timeline[string]
	for i := range 100_000 {
		l.push(int64(i), "session")
	}
	for l.len() > 10 {
		l.pop()
	}
	if c := cap(l.items); c > 1000 {
		t.Fatalf("capacity %d kept for %d entries", c, l.len())
	}
}
