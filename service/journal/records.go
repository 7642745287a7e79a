package journal

import (
	"sort"
	"strings"
	"time"

	"github.com/svcwallet/svcwallet/service/config"
	"github.com/svcwallet/svcwallet/service/exchange"
)

// Record folds one withdrawal's entries into what is known of it.
type Record struct {
	QuoteID   string
	Env       string // the environment's name on its first line
	AccountID string
	// ChainID is the chain its lines name (chainOf); 0 when none does:
	// then its environment's name alone says whose it is (Owner.Holds).
	ChainID uint64
	// Service is the service its intent was signed for and sent to (the
	// intent's whose Request it holds); zero when the intent names none (an
	// earlier version's).
	Service  config.Service
	Request  exchange.WithdrawRequest
	Intent   Intent
	Started  time.Time
	Updated  time.Time
	Answered bool // the service accepted or refused it
	// Made: the journal holds its intent or the service's acceptance, so
	// this account made it (OwnOf).
	Made bool
	// AcceptedAt is when the journal first recorded the service's 202 or a
	// state after it; zero when it holds neither.
	AcceptedAt time.Time
	State      string // last state seen; "" while unanswered or after a refusal
	TxHash     string
	TxID       string // the service's transfer id, once accepted
	Error      string
	// QuoteExpired: the withdrawal never happened because its quote
	// expired unexecuted (Entry.QuoteExpired); Error says how it was
	// learned.
	QuoteExpired bool
	// NotSent: the request never left this machine (Entry.NotSent); Error
	// says why.
	NotSent bool
}

// Finished reports whether nothing more is to be done for the withdrawal.
func (r Record) Finished() bool {
	return (r.Answered && r.State == "") || exchange.Terminal(r.State)
}

// Records folds the journal into one record per withdrawal, newest first.
func (j *Journal) Records() ([]Record, error) {
	recs, _, err := j.RecordsSkipped()
	return recs, err
}

// RecordsSkipped is Records with the count of journal lines skipped. It
// reads the whole journal, folding as it reads.
func (j *Journal) RecordsSkipped() ([]Record, int, error) {
	var f folder
	skipped, err := j.readAll(f.add)
	if err != nil {
		return nil, skipped, err
	}
	return f.records(), skipped, nil
}

// AccountRecords is RecordsSkipped narrowed to o's withdrawals: every one
// it ever made, read from the whole journal (History lists them).
// UnfinishedRecords and RecordsOf read only what they return. A nil
// journal (none configured) has no records.
func (j *Journal) AccountRecords(o Owner) ([]Record, int, error) {
	if j == nil {
		return nil, 0, nil
	}
	var f folder
	skipped, err := j.readAll(func(e Entry) {
		if o.mayHold(e) {
			f.add(e)
		}
	})
	if err != nil {
		return nil, skipped, err
	}
	return o.keep(f.records()), skipped, nil
}

// Unfinished keeps the withdrawals that still need the user: unanswered
// requests and ones not yet in a terminal state (D11).
func Unfinished(recs []Record) []Record {
	var out []Record
	for _, r := range recs {
		if !r.Finished() {
			out = append(out, r)
		}
	}
	return out
}

// UnfinishedOwn is the quote ids of the unfinished withdrawals of recs
// (one account's records in one environment) that this account made (see
// OwnOf): what a refresh of History or `history --refresh` asks about.
func UnfinishedOwn(recs []Record) []string {
	var ids []string
	for _, r := range Unfinished(recs) {
		if r.Made {
			ids = append(ids, r.QuoteID)
		}
	}
	return ids
}

// FoldRecords folds entries into one record per withdrawal (a quote id of
// one account in one environment), newest first.
func FoldRecords(entries []Entry) []Record {
	var f folder
	for _, e := range entries {
		f.add(e)
	}
	return f.records()
}

// folder folds entries one at a time, in file order: FoldRecords, and the
// readers that fold as they read rather than keep every entry.
type folder struct {
	at   map[withdrawalKey]int // index in recs
	recs []Record              // in the order first seen
}

func (f *folder) add(e Entry) {
	if !withdrawalKind(e.Kind) {
		return
	}
	if f.at == nil {
		f.at = map[withdrawalKey]int{}
	}
	i, ok := f.at[keyOf(e)]
	if !ok {
		i = len(f.recs)
		f.at[keyOf(e)] = i
		f.recs = append(f.recs, Record{QuoteID: e.QuoteID, Env: e.Env, AccountID: e.AccountID, Started: e.Time})
	}
	r := &f.recs[i]
	r.Updated = e.Time
	if e.TxID != "" {
		r.TxID = e.TxID
	}
	if r.ChainID == 0 {
		r.ChainID = chainOf(e)
	}
	accepted := !r.AcceptedAt.IsZero()
	reopened := reopens(r.Answered, r.State, e)
	if answered, state, ok := answerOf(accepted, e); ok || reopened {
		r.Answered, r.State = answered, state
	}
	if !accepted && e.accepts() {
		// A refusal or a request that never left, journaled before, was
		// not the last word: the service has it.
		r.Error, r.NotSent, r.QuoteExpired = "", false, false
	}
	switch e.Kind {
	case KindIntent:
		r.Made = true
		if reopened {
			r.Error, r.NotSent, r.QuoteExpired = "", false, false
		}
		// The first signed request is the one that may have executed, so
		// a later intent never replaces it, unless the journal holds the
		// first one's refusal or that it never left: then only the later
		// can have run. What it pays and where (Intent) is its own line's:
		// another intent of the quote never shows its amount beside it.
		if !keepsIntent(r.Request.QuoteID != "", reopened, e) {
			break
		}
		if e.Request != nil {
			r.Request = *e.Request
			if e.Service != nil {
				r.Service = *e.Service
			}
		}
		if e.Intent != nil {
			r.Intent = *e.Intent
		}
	case KindAccepted:
		r.Made = true
		if r.AcceptedAt.IsZero() {
			r.AcceptedAt = e.Time
		}
	case KindRejected:
		if accepted || e.unknownOutcome() {
			break // the service's acceptance stands, or it was no refusal (answerOf)
		}
		r.Error = currentWords(e.Error)
		// Older lines lack the flag: their words tell (a 410's, in
		// today's words, or NeverPaid).
		r.QuoteExpired = e.QuoteExpired || e.Error == NeverPaid || strings.HasPrefix(r.Error, exchange.QuoteExpiredWords)
		r.NotSent = e.NotSent
	case KindState:
		if r.AcceptedAt.IsZero() {
			r.AcceptedAt = e.Time
		}
		if e.TxHash != "" {
			r.TxHash = e.TxHash
		}
	}
}

// records is what was folded, newest first; f is done.
func (f *folder) records() []Record {
	out := f.recs
	if out == nil {
		out = []Record{}
	}
	for i := range out {
		fitHash(&out[i])
	}
	sort.SliceStable(out, func(a, b int) bool { return out[a].Started.After(out[b].Started) })
	return out
}

// withdrawalKind reports whether a line of kind belongs to a withdrawal's
// record: a prepared Transfer is not one yet, a builder authorization
// never.
func withdrawalKind(kind string) bool { return kind != KindPrepared && kind != KindBuilderSent }

// answerOf is what a line says of its withdrawal's answer (Record.Answered
// and State), ok when it says anything: the one rule of the records and of
// the index's finished withdrawals (status). Once the service accepted it
// (accepted: an acceptance or a state journaled before e), only a state
// says more: the journal is disk, and a refusal or a second acceptance
// after the first (a hand edit, a backup put back) must not make it look
// refused, re-sendable or back at SUBMITTED; its follow decides.
func answerOf(accepted bool, e Entry) (answered bool, state string, ok bool) {
	switch e.Kind {
	case KindAccepted:
		return true, exchange.StateSubmitted, !accepted
	case KindRejected:
		// An earlier version's refusal of an answer that said nothing of
		// whether it paid (unknownOutcome) leaves it unanswered.
		return !e.unknownOutcome(), "", !accepted
	case KindState:
		return true, e.State, true
	}
	return false, "", false
}

// accepts reports whether line e says the service accepted its
// withdrawal: the acceptance, or a state it reached since (Record.AcceptedAt).
func (e Entry) accepts() bool { return e.Kind == KindAccepted || e.Kind == KindState }

// reopens reports whether line e opens again a withdrawal whose lines so
// far say answered and state: an intent after a refusal (or a request
// that never left) is the same quote sent again, which may run. One the
// service accepted is never refused again (answerOf), so never reopened.
func reopens(answered bool, state string, e Entry) bool {
	return e.Kind == KindIntent && answered && state == ""
}

// keepsIntent reports whether intent line e gives its withdrawal's request
// and intent (Record.Request, Intent), when one was kept already (kept) or
// not, and e opens it again (reopens) or not: the one rule of the records
// and of the index's summary.
func keepsIntent(kept, reopened bool, e Entry) bool {
	return !kept || reopened && e.Request != nil
}

// legacyRejections are refusals older versions journaled in the console's
// words, with the console's key in them, and today's words for them: what
// History and `svcwallet history` show.
var legacyRejections = map[string]string{
	"Quote expired: press r to get a new one and sign again": exchange.QuoteExpiredWords,
}

// currentWords is a journaled refusal in today's words (legacyRejections),
// the service's own reason after them kept.
func currentWords(s string) string {
	for old, now := range legacyRejections {
		if rest, ok := strings.CutPrefix(s, old); ok {
			return now + rest
		}
	}
	return s
}

// Unanswered reports a withdrawal whose request got no answer yet: it may
// have executed, and only the console's resume (same body) or the status
// can tell.
func (r Record) Unanswered() bool { return !r.Answered }

// FailedSince reports a withdrawal that ended FAILED and started at or
// after since: the one edge of the FAILED-repeat window, which the index's
// pick (failedIDs), RepeatRecords' fold and the repeat check all keep.
func (r Record) FailedSince(since time.Time) bool {
	return failedSince(r.State == exchange.StateFailed, r.Started, since)
}
