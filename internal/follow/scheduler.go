package follow

import (
	"container/heap"
	"time"

	"github.com/svcwallet/svcwallet/internal/config"
	"github.com/svcwallet/svcwallet/internal/exchange"
	"github.com/svcwallet/svcwallet/internal/journal"
)

// Defaults of the follow scheduler.
const (
	// FollowInterval is how often a moving withdrawal is asked about when
	// the budget allows: every 3 seconds, as the status screen always did.
	FollowInterval = 3 * time.Second
	// DefaultQuoteLifetime is how long a quote lives when neither this
	// account's journal nor the environment says (SPEC.md §3).
	DefaultQuoteLifetime = time.Minute
	// HotWindow is how long after its last change a withdrawal counts as
	// likely to move: one submitted or changed within it is asked before
	// the others (hot).
	HotWindow = 10 * time.Minute
	// hotRun is how many hot asks may follow one another while a cold id
	// is due: hot ids get three slots in four of the budget, so 50 of them
	// are each asked every 15 s at 5 requests a second however many cold
	// ones wait, and cold ones still get a quarter.
	hotRun = 3
)

// Followed is what the scheduler knows about one quote id: its Follow and
// when it is asked.
type Followed struct {
	Follow
	LastChecked time.Time
	Since       time.Time // when Last.State was first seen
	Due         time.Time // next ask; zero once final
	index       int       // in its due heap; -1 when not in one
	hot         bool      // answered, and changed within HotWindow
}

// Scheduler follows many quote ids with one shared request budget. It is
// pure: it does no I/O and reads no clock; the caller asks Next what to ask
// and when, performs the request, and reports it with Answer. Only ids still
// moving are in its due queues, so a step costs O(log moving). Ids likely to
// move (hot: changed within HotWindow) have a queue of their own that is
// served first, within a share that leaves the others asked too.
type Scheduler struct {
	// Interval is the wait between two asks of one moving id.
	Interval time.Duration
	// Gap is the shortest time between two requests: 1s / rate.
	Gap time.Duration
	// Jitter draws in [0, n) for the error backoff (PollDelay).
	Jitter func(n int64) int64
	// Recall starts each own id from the journal's record (Own.Recall):
	// the console's board does, `status` asks the service alone.
	Recall bool

	ids       map[string]*Followed
	hot, cold dueHeap
	hotRun    int       // hot asks in a row while a cold id was due
	nextSlot  time.Time // no request before this: budget and 429 pauses
	paused    time.Time // the end of the last 429's pause
	own       Own
}

// NewScheduler returns a scheduler spending at most rate requests a second
// (DefaultFollowRate when rate ≤ 0).
func NewScheduler(rate int) *Scheduler {
	if rate <= 0 {
		rate = config.DefaultFollowRate
	}
	return &Scheduler{
		Interval: FollowInterval,
		Gap:      time.Second / time.Duration(rate),
		Jitter:   func(n int64) int64 { return n / 2 },
		ids:      map[string]*Followed{},
	}
}

// Know tells the scheduler this account's own withdrawals, read from its
// journal (OwnOf): their answers say which state to journal
// (Step.JournalState). Ids followed already learn it too; one taken for
// unknown that the journal saw accepted contradicts it (Vanished), and is
// due again at once.
func (s *Scheduler) Know(own Own) {
	s.own = own
	for _, f := range s.ids {
		own.Seed(&f.Follow)
		if s.Recall && !f.Final {
			own.Recall(&f.Follow)
		}
		if f.NotFound && !f.AcceptedAt.IsZero() {
			f.NotFound, f.Vanished, f.Final, f.Due = false, true, false, time.Time{}
			s.queue(f)
		}
	}
}

// Record is the journal's record of id when it is one of this account's
// own withdrawals (Know).
func (s *Scheduler) Record(id string) (journal.Record, bool) {
	r, ok := s.own[id]
	return r, ok
}

// Add starts following id, due at once; an id already followed is kept.
func (s *Scheduler) Add(id string, now time.Time) { s.AddKept(Kept{QuoteID: id}, now) }

// AddKept starts following what was kept of an id (Followed.Kept): its
// record is known at once; one that is final (a terminal state, an id the
// service did not know that the journal never saw accepted) is never
// asked, the others are due at once. An id already followed is kept.
func (s *Scheduler) AddKept(k Kept, now time.Time) {
	if _, ok := s.ids[k.QuoteID]; ok {
		return
	}
	f := &Followed{Follow: Follow{QuoteID: k.QuoteID, NotFound: k.NotFound}, Since: k.Since, LastChecked: k.Checked, Due: now, index: -1}
	if k.Record != nil {
		f.Last, f.Known = *k.Record, true
	}
	s.own.Seed(&f.Follow)
	// Unknown then, accepted by the journal: a contradiction, asked again.
	f.Vanished = f.NotFound && !f.AcceptedAt.IsZero()
	f.NotFound = f.NotFound && !f.Vanished
	s.ids[k.QuoteID] = f
	if f.Final = f.NotFound || f.Ended(); f.Final {
		f.Due = time.Time{}
		return
	}
	if s.Recall {
		s.own.Recall(&f.Follow)
	}
	// One not answered yet is not known to be hot: it waits with the cold
	// ones, which are due since they were added and so come first among
	// them.
	f.warm(now)
	s.queue(f)
}

// Kept is what is known of f to keep between runs (AddKept).
func (f Followed) Kept() Kept {
	k := Kept{QuoteID: f.QuoteID, NotFound: f.NotFound, Since: f.Since, Checked: f.LastChecked}
	if f.Known {
		k.Record = &f.Last
	}
	return k
}

// CSVHeader names the columns of Followed.CSVRow.
var CSVHeader = []string{"quote_id", "state", "chain", "receive_amount", "token_out", "withdraw_tx_hash", "tx_id", "updated_at", "state_seen", "last_checked"}

// CSVRow is f as a CSV row (safetext.WriteCSV), for the board's export and
// `svcwallet status --csv`: its Outcome's name (in the state column), the
// last record's fields, and times in RFC 3339, UTC; a cell is empty where
// nothing is known.
func (f Followed) CSVRow() []string {
	at := func(t time.Time) string {
		if t.IsZero() {
			return ""
		}
		return t.UTC().Format(time.RFC3339)
	}
	w, amount := f.Last, ""
	if f.Known {
		amount = w.ReceiveAmount.String()
	}
	return []string{f.QuoteID, f.Outcome().Name, w.Chain, amount, w.TokenOut, w.WithdrawTxHash, w.TxID, at(w.UpdatedAt), at(f.Since), at(f.LastChecked)}
}

// warm says whether f is hot at now: answered, and changed within
// HotWindow by the service's updated_at (or, without one, since its state
// was first seen here), so an old withdrawal first seen now is not hot.
func (f *Followed) warm(now time.Time) {
	if !f.Known {
		return
	}
	changed := f.Last.UpdatedAt
	if changed.IsZero() {
		changed = f.Since
	}
	f.hot = now.Sub(changed) < HotWindow
}

// PausedFor is how much longer the pause a 429 asked for (Retry-After, or
// the backoff without one) holds every ask at now; 0 when none does.
func (s *Scheduler) PausedFor(now time.Time) time.Duration {
	return max(s.paused.Sub(now), 0)
}

// queue puts f in the due queue of its kind.
func (s *Scheduler) queue(f *Followed) {
	if f.hot {
		heap.Push(&s.hot, f)
		return
	}
	heap.Push(&s.cold, f)
}

// unqueue takes f out of its due queue, if it is in one.
func (s *Scheduler) unqueue(f *Followed) {
	switch {
	case f.index < 0:
	case f.hot:
		heap.Remove(&s.hot, f.index)
	default:
		heap.Remove(&s.cold, f.index)
	}
}

// Remove stops following id.
func (s *Scheduler) Remove(id string) {
	f, ok := s.ids[id]
	if !ok {
		return
	}
	s.unqueue(f)
	delete(s.ids, id)
}

// Requeue makes id, handed out by Next but whose answer was lost (its
// screen was hidden), due again at now; other ids are left alone.
func (s *Scheduler) Requeue(id string, now time.Time) {
	f, ok := s.ids[id]
	if !ok || f.Final || f.index >= 0 {
		return
	}
	f.Due = now
	s.queue(f)
}

// Get returns what is known about id.
func (s *Scheduler) Get(id string) (Followed, bool) {
	f, ok := s.ids[id]
	if !ok {
		return Followed{}, false
	}
	return *f, true
}

// Len is the number of ids followed; Moving those not final yet.
func (s *Scheduler) Len() int    { return len(s.ids) }
func (s *Scheduler) Moving() int { return s.hot.Len() + s.cold.Len() }

// Next returns the id to ask now, or, when none may be asked yet, how long
// to wait before calling Next again (ok false, wait 0 when nothing moves).
// Asking takes one slot of the budget: the caller must ask id and report
// it with Answer. The id asked is a hot one due the longest, unless hot ids
// took the last hotRun slots while a cold one is due; it is not handed out
// again until answered.
func (s *Scheduler) Next(now time.Time) (id string, wait time.Duration, ok bool) {
	if s.Moving() == 0 {
		return "", 0, false
	}
	at := time.Time{}
	for _, h := range []dueHeap{s.hot, s.cold} {
		if h.Len() > 0 && (at.IsZero() || h[0].Due.Before(at)) {
			at = h[0].Due
		}
	}
	if s.nextSlot.After(at) {
		at = s.nextSlot
	}
	if at.After(now) {
		return "", at.Sub(now), false
	}
	s.nextSlot = now.Add(s.Gap)
	hotDue := s.hot.Len() > 0 && !s.hot[0].Due.After(now)
	coldDue := s.cold.Len() > 0 && !s.cold[0].Due.After(now)
	if hotDue && (!coldDue || s.hotRun < hotRun) {
		if coldDue {
			s.hotRun++
		}
		return heap.Pop(&s.hot).(*Followed).QuoteID, 0, true
	}
	s.hotRun = 0
	return heap.Pop(&s.cold).(*Followed).QuoteID, 0, true
}

// Answer reports the ask of id: w when err is nil. Its step says whether
// the state changed (or the id became final), which is worth announcing,
// and the state to journal for an own withdrawal. A 429 pauses the whole
// budget for Retry-After (or the backoff) and asks id again first; an
// unknown id, a terminal state or a quote past its lifetime is final and
// never asked again (Follow.Answer decides).
func (s *Scheduler) Answer(id string, w exchange.Withdrawal, err error, now time.Time) Step {
	f, ok := s.ids[id]
	if !ok || f.Final {
		return Step{}
	}
	f.LastChecked = now
	if err == nil && (!f.Known || f.Last.State != w.State) {
		f.Since = now
	}
	step := f.Follow.Answer(w, err, s.Interval, s.Jitter)
	f.warm(now)
	switch {
	case step.RateLimited:
		if t := now.Add(step.Delay); t.After(s.nextSlot) {
			s.nextSlot, s.paused = t, t
		}
		f.Due = now
	case f.Final:
		f.Due = time.Time{}
		return step
	default:
		f.Due = now.Add(step.Delay)
	}
	s.queue(f)
	return step
}

// dueHeap orders moving ids by due time.
type dueHeap []*Followed

func (h dueHeap) Len() int           { return len(h) }
func (h dueHeap) Less(i, j int) bool { return h[i].Due.Before(h[j].Due) }
func (h dueHeap) Swap(i, j int) {
	h[i], h[j] = h[j], h[i]
	h[i].index, h[j].index = i, j
}
func (h *dueHeap) Push(x any) {
	f := x.(*Followed)
	f.index = len(*h)
	*h = append(*h, f)
}
func (h *dueHeap) Pop() any {
	old := *h
	f := old[len(old)-1]
	old[len(old)-1] = nil
	f.index = -1
	*h = old[:len(old)-1]
	return f
}
