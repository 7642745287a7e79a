package sandbox

// timeline is a min-heap of values by the time (unix ns) something is due
// for them (an expiry, a settlement), so what is due is found without
// scanning what is not: pushing and popping cost O(log n).
type timeline[T any] struct {
	items []timed[T]
}

type timed[T any] struct {
	at int64
	v  T
}

func (l *timeline[T]) len() int { return len(l.items) }

func (l *timeline[T]) push(at int64, v T) {
	l.items = append(l.items, timed[T]{at, v})
	for i := len(l.items) - 1; i > 0; {
		parent := (i - 1) / 2
		if l.items[parent].at <= l.items[i].at {
			break
		}
		l.items[parent], l.items[i] = l.items[i], l.items[parent]
		i = parent
	}
}

// peek is the earliest entry; ok is false when the timeline is empty.
func (l *timeline[T]) peek() (first timed[T], ok bool) {
	if len(l.items) == 0 {
		return first, false
	}
	return l.items[0], true
}

// due reports whether the earliest entry is due at now (its time has come).
func (l *timeline[T]) due(now int64) bool {
	return len(l.items) > 0 && l.items[0].at <= now
}

// pop removes and returns the earliest entry's value; the timeline must
// not be empty.
func (l *timeline[T]) pop() T {
	first := l.items[0].v
	last := len(l.items) - 1
	l.items[0] = l.items[last]
	l.items[last] = timed[T]{} // let the value be collected
	l.items = l.items[:last]
	for i := 0; ; {
		small, left, right := i, 2*i+1, 2*i+2
		if left < last && l.items[left].at < l.items[small].at {
			small = left
		}
		if right < last && l.items[right].at < l.items[small].at {
			small = right
		}
		if small == i {
			break
		}
		l.items[i], l.items[small] = l.items[small], l.items[i]
		i = small
	}
	if cap(l.items) > 64 && len(l.items) < cap(l.items)/4 {
		l.items = append([]timed[T](nil), l.items...) // give a drained burst's memory back
	}
	return first
}
