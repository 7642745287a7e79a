package status

import (
	"time"

	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/follow"
	"github.com/svcwallet/svcwallet/service/journal"
)

// seen is one state of the timeline: when this console first saw it and the
// service's updated_at (zero when it came from the journal).
type seen struct {
	state   string
	at      time.Time
	updated time.Time
}

// addSeen puts x at the timeline's end, unless its state is the last one
// there: then only the service's updated_at is added when it lacked one.
func (s *statusScreen) addSeen(x seen) {
	if n := len(s.timeline); n > 0 && s.timeline[n-1].state == x.state {
		if s.timeline[n-1].updated.IsZero() {
			s.timeline[n-1].updated = x.updated
		}
		return
	}
	s.timeline = append(s.timeline, x)
}

// seed tells the follow what the journal holds of this withdrawal (whether
// it is own, the last state journaled, its acceptance, its last record)
// and puts its past in front of the timeline, once, so reopening it shows the states seen in
// earlier sessions and none is journaled twice.
func (s *statusScreen) seed(entries []journal.Entry, ok bool) {
	if !ok || s.seeded {
		return
	}
	s.seeded = true
	recs := journal.FoldRecords(entries)
	s.sched.Know(follow.OwnOf(recs)) // recalled: shown while the service cannot be asked
	s.sync()
	if len(recs) == 1 && recs[0].Intent.Chain != "" && s.intent == nil {
		s.intent = &recs[0].Intent // the kept request's: the one that may have run
	}
	accepted := false // an acceptance after one, or after a state, says nothing more (the journal's rule)
	for _, e := range entries {
		switch e.Kind {
		case journal.KindAccepted:
			if !accepted {
				s.addSeen(seen{state: exchange.StateSubmitted, at: e.Time})
			}
			accepted = true
		case journal.KindState:
			s.addSeen(seen{state: e.State, at: e.Time})
			accepted = true
		}
	}
}
