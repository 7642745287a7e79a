package follow

import (
	"cmp"
	"container/heap"
	"time"

	"github.com/svcwallet/svcwallet/service/config"
	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/journal"
)

// Defaults of the follow scheduler.
const (
	// LongestQuoteLife is the longest a quote may live past the service's
	// clock for svcwallet to sign it. One whose expires_at this journal does
	// not hold is taken to live this long after its updated_at: five times
	// the minute or so quotes live (SPEC.md §3), so that EXPIRED is not
	// called early for a quote of the service's usual life.
	LongestQuoteLife = 5 * time.Minute
	// HotWindow is how long after its last change a withdrawal counts as
	// likely to move: one submitted or changed within it is asked before
	// the others (hot).
	HotWindow = 10 * time.Minute
	// freshRun is how many asks of ids never asked may follow one another
	// while an id asked before is due again: they get four slots in five
	// of the budget, so 100 pasted ids are all first asked within 25 s at 5
	// requests a second, however many ids are hot, and the re-asks still
	// get a fifth.
	freshRun = 4
	// hotRun is how many re-asks of hot ids may follow one another while a
	// cold id is due: they get three in four of the re-asks, so 50 hot ones
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
	// As is the account it is followed as; Held: another than the
	// scheduler's (Scheduler.Account), so it is never asked.
	As       string
	Held     bool
	index    int  // in its queue; -1 when not in one
	kind     kind // the queue it waits in
	answered bool // asked, here or in an earlier run, and answered (a 429 is no answer)
	// born is when the withdrawal was made (the journal's) or else added,
	// and seq the order added: ids never asked are asked newest first.
	born time.Time
	seq  uint64
}

// Scheduler follows many quote ids with one shared request budget. It is
// pure: it does no I/O and reads no clock; the caller asks Next what to ask
// and when, performs the request, and reports it with Answer. Only ids still
// moving are in its queues, so a step costs O(log moving). Ids never asked
// (fresh: just added, newest first) and ids likely to move (hot: changed
// within HotWindow) are served first, within a share that leaves the
// others (cold) asked too: a pasted id is asked at the next slot, and a
// new withdrawal among 10,000 within seconds.
type Scheduler struct {
	// Interval is the wait between two asks of one moving id.
	Interval time.Duration
	// Gap is the time between two requests at the budget: 1s / rate. A
	// request asked late takes no more than half of it from the next.
	Gap time.Duration
	// Jitter draws in [0, n) for the error backoff (PollDelay).
	Jitter func(n int64) int64
	// Recall starts each own id from the journal's record (Own.Recall):
	// the console's board does, `status` asks the service alone.
	Recall bool
	// Account is the account the ids are asked as (Loop.As): a kept id
	// followed as another (Kept.As) is held, shown as it was and never
	// asked, since that account's service alone knows it; "" holds none.
	Account string

	rate             int // the budget, requests a second
	ids              map[string]*Followed
	fresh, hot, cold *queue
	freshAsks        int       // fresh asks in a row while a re-ask was due
	hotAsks          int       // hot asks in a row while a cold id was due
	nextSlot         time.Time // no request before this: budget and 429 pauses
	paused           time.Time // the end of the last 429's pause
	added            uint64    // ids added so far, for their seq
	own              Own
}

// NewScheduler returns a scheduler spending at most rate requests a second
// (DefaultFollowRate when rate ≤ 0).
func NewScheduler(rate int) *Scheduler {
	if rate <= 0 {
		rate = config.DefaultFollowRate
	}
	return &Scheduler{
		rate:     rate,
		Interval: DefaultPollInterval, // when the budget allows
		Gap:      time.Second / time.Duration(rate),
		Jitter:   func(n int64) int64 { return n / 2 },
		ids:      map[string]*Followed{},
		fresh:    &queue{less: newer}, hot: &queue{less: sooner}, cold: &queue{less: sooner},
	}
}

// AskedOnceIn is how long asking n ids once each takes at rate requests a
// second (DefaultFollowRate when rate ≤ 0), as a Scheduler spends it: what
// a face says of a look-up of many before it starts.
func AskedOnceIn(n, rate int) time.Duration {
	if rate <= 0 {
		rate = config.DefaultFollowRate
	}
	return time.Duration(n) * time.Second / time.Duration(rate)
}

// Lend shares the budget with another asker that takes one request every
// each (a status screen opened on one of the ids), so that together they
// keep to the rate: Gap grows by what it takes. Lend(0) takes it back.
func (s *Scheduler) Lend(each time.Duration) {
	s.Gap = time.Second / time.Duration(s.rate)
	if slots := int(each / s.Gap); each > 0 && slots > 1 {
		s.Gap = each / time.Duration(slots-1)
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
		s.seed(f)
	}
}

// Learn takes records the journal gained since Know (another process's
// withdraw refused or accepted, a state another follower journaled): each
// of this account's replaces what was known of its id, whose follow is
// seeded again as Know does. It returns the ids followed it told.
func (s *Scheduler) Learn(recs []journal.Record) []string {
	var told []string
	for _, r := range recs {
		if !r.Made {
			continue
		}
		if s.own == nil {
			s.own = Own{}
		}
		s.own[r.QuoteID] = r
		if f, ok := s.ids[r.QuoteID]; ok {
			s.seed(f)
			told = append(told, r.QuoteID)
		}
	}
	return told
}

// seed tells f what the journal holds of it (Own.Seed, Own.Recall); a
// not-found the journal saw accepted is asked again.
func (s *Scheduler) seed(f *Followed) {
	s.own.Seed(&f.Follow)
	f.keptAsJournaled()
	if s.Recall && !f.Final {
		s.own.Recall(&f.Follow)
	}
	if f.NotFound && f.MayBeUnderway(time.Time{}) {
		f.NotFound, f.Vanished, f.Final, f.Due = false, true, false, time.Time{}
		s.queue(f, f.LastChecked)
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
// asked, the others are due at once. One another login followed is held
// (Account), unless that login's service did not know it: it is this
// one's to ask. An id already followed is kept.
func (s *Scheduler) AddKept(k Kept, now time.Time) {
	if _, ok := s.ids[k.QuoteID]; ok {
		return
	}
	other := otherAccount(k.As, s.Account)
	if other && k.NotFound {
		// "Not found" says only that it is not that login's withdrawal:
		// this one has not asked it yet.
		k, other = Kept{QuoteID: k.QuoteID}, false
	}
	s.added++
	f := &Followed{Follow: Follow{QuoteID: k.QuoteID, NotFound: k.NotFound}, Since: k.Since, LastChecked: k.Checked, Due: now, index: -1,
		answered: !k.Checked.IsZero(), born: now, seq: s.added}
	if r, own := s.own[k.QuoteID]; own && !r.Started.IsZero() {
		f.born = r.Started
	}
	if k.Record != nil {
		f.Last, f.Known = *k.Record, true
	}
	f.As, f.Held = cmp.Or(k.As, s.Account), other
	s.own.Seed(&f.Follow)
	f.reclaim(k.Claim)
	f.keptAsJournaled()
	// Unknown then, and may be under way by the journal: asked again.
	f.Vanished = f.NotFound && f.MayBeUnderway(time.Time{})
	f.NotFound = f.NotFound && !f.Vanished
	s.ids[k.QuoteID] = f
	// A final row is never asked anyway: held is said of moving ones.
	if f.Final = f.NotFound || f.Ended(); f.Final || f.Held {
		f.Held, f.Due = f.Held && !f.Final, time.Time{}
		return
	}
	if s.Recall {
		s.own.Recall(&f.Follow)
	}
	s.queue(f, now)
}

// Outcome is the Follow's, but for a held id of which nothing is known:
// it names the login it belongs to, never one being asked.
func (f Followed) Outcome() Outcome {
	if f.Held && !f.Known {
		return Outcome{Name: LabelOtherLogin, Words: HeldSentence(f.As)}
	}
	return f.Follow.Outcome()
}

// Answered reports whether the service answered an ask of f, here or in
// an earlier run: a 429 is no answer, so an id asked and rate limited
// only is still to be asked.
func (f Followed) Answered() bool { return f.answered }

// Kept is what is known of f to keep between runs (AddKept).
func (f Followed) Kept() Kept {
	k := Kept{QuoteID: f.QuoteID, NotFound: f.NotFound, Since: f.Since, Checked: f.LastChecked, As: f.As}
	if f.Known {
		k.Record, k.Claim = &f.Last, f.Claim
	}
	return k
}

// hotAt says whether f is hot at now: answered, and changed within
// HotWindow by the service's updated_at (or, without one, since its state
// was first seen here), so an old withdrawal first seen now is not hot.
func (f *Followed) hotAt(now time.Time) bool {
	if !f.Known {
		return false
	}
	changed := f.Last.UpdatedAt
	if changed.IsZero() {
		changed = f.Since
	}
	return now.Sub(changed) < HotWindow
}

// PausedFor is how much longer the pause a 429 asked for (Retry-After, or
// the backoff without one) holds every ask at now; 0 when none does.
func (s *Scheduler) PausedFor(now time.Time) time.Duration {
	return max(s.paused.Sub(now), 0)
}

// queue puts f in the queue of its kind at now: fresh until answered,
// then hot or cold.
func (s *Scheduler) queue(f *Followed, now time.Time) {
	switch {
	case !f.answered:
		f.kind = kindFresh
	case f.hotAt(now):
		f.kind = kindHot
	default:
		f.kind = kindCold
	}
	heap.Push(s.queueOf(f.kind), f)
}

func (s *Scheduler) queueOf(k kind) *queue {
	switch k {
	case kindFresh:
		return s.fresh
	case kindHot:
		return s.hot
	}
	return s.cold
}

// unqueue takes f out of its queue, if it is in one.
func (s *Scheduler) unqueue(f *Followed) {
	if f.index >= 0 {
		heap.Remove(s.queueOf(f.kind), f.index)
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
	s.queue(f, now)
}

// Again makes id due at now, as when a person asks for it (the status
// screen's r, or coming back to it): an id taken for unknown, or ended
// without a terminal state, is followed again (Follow.Refresh). It reports
// whether id is followed now; one that ended in a terminal state is not.
func (s *Scheduler) Again(id string, now time.Time) bool {
	f, ok := s.ids[id]
	if !ok || f.Held {
		return false
	}
	f.Refresh()
	if f.Final {
		return false
	}
	s.unqueue(f)
	f.Due = now
	s.queue(f, now)
	return true
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
func (s *Scheduler) Moving() int { return s.fresh.Len() + s.hot.Len() + s.cold.Len() }

// Next returns the id to ask now, or, when none may be asked yet, how long
// to wait before calling Next again (ok false, wait 0 when nothing moves).
// Asking takes one slot of the budget: the caller must ask id and report
// it with Answer. The slots are shared, so that no kind of id starves
// another: ids never asked (the newest first) take freshRun slots in a
// row, then an id asked before that is due again takes one; of those
// re-asks, hot ids (due the longest first) take hotRun in a row, then a
// cold one. A kind with nothing due gives its slot to the others. An id
// handed out is not handed out again until answered.
func (s *Scheduler) Next(now time.Time) (id string, wait time.Duration, ok bool) {
	if s.Moving() == 0 {
		return "", 0, false
	}
	at := time.Time{}
	for _, q := range []*queue{s.fresh, s.hot, s.cold} {
		if d := q.due(); !d.IsZero() && (at.IsZero() || d.Before(at)) {
			at = d
		}
	}
	if s.nextSlot.After(at) {
		at = s.nextSlot
	}
	if at.After(now) {
		return "", at.Sub(now), false
	}
	// A timer fires a little late: the next slot counts from when this one
	// was due, so the budget is spent, not lost a few ms a slot.
	base := now
	if late := now.Sub(s.nextSlot); at.Equal(s.nextSlot) && late < s.Gap/2 {
		base = s.nextSlot
	}
	s.nextSlot = base.Add(s.Gap)
	freshDue := s.fresh.Len() > 0 && !s.fresh.due().After(now)
	hotDue := s.hot.Len() > 0 && !s.hot.due().After(now)
	coldDue := s.cold.Len() > 0 && !s.cold.due().After(now)
	if freshDue && (!(hotDue || coldDue) || s.freshAsks < freshRun) {
		if hotDue || coldDue {
			s.freshAsks++
		}
		return s.pop(s.fresh), 0, true
	}
	s.freshAsks = 0
	if hotDue && (!coldDue || s.hotAsks < hotRun) {
		if coldDue {
			s.hotAsks++
		}
		return s.pop(s.hot), 0, true
	}
	s.hotAsks = 0
	return s.pop(s.cold), 0, true
}

func (s *Scheduler) pop(q *queue) string { return heap.Pop(q).(*Followed).QuoteID }

// Answer reports the ask of id: w when err is nil. Its step says whether
// the state changed (or the id became final), which is worth announcing,
// and the state to journal for an own withdrawal. A 429 pauses the whole
// budget for Retry-After (or the backoff) and asks id again first; an
// unknown id, a terminal state or a quote past its lifetime is final and
// never asked again (Follow.Answer decides).
func (s *Scheduler) Answer(id string, w exchange.Withdrawal, err error, now time.Time) Step {
	f, ok := s.ids[id]
	if !ok || f.Final || f.Held {
		return Step{}
	}
	f.LastChecked = now
	// Since is when this follower first saw the state: also for a state
	// the journal held already (Recall), which it had not seen itself.
	if err == nil && (!f.Known || f.Last.State != w.State || f.Since.IsZero()) {
		f.Since = now
	}
	step := f.Follow.Answer(w, err, s.Interval, s.Jitter)
	// An id answered while it waits in a queue (told by another asker, or
	// handed out in a span and told meanwhile) is queued once, not twice.
	s.unqueue(f)
	switch {
	case step.RateLimited:
		// No answer: a fresh id stays fresh, asked again first.
		if t := now.Add(step.Delay); t.After(s.nextSlot) {
			s.nextSlot, s.paused = t, t
		}
		f.Due = now
	case f.Final:
		f.answered, f.Due = true, time.Time{}
		return step
	default:
		f.answered, f.Due = true, now.Add(step.Delay)
	}
	s.queue(f, now)
	return step
}
