package journal

import (
	"sort"
	"strings"
	"time"

	"github.com/svcwallet/svcwallet/internal/exchange"
)

// Record folds one withdrawal's entries into what is known of it.
type Record struct {
	QuoteID   string
	Env       string
	AccountID string
	Request   exchange.WithdrawRequest
	Intent    Intent
	Started   time.Time
	Updated   time.Time
	Answered  bool // the service accepted or refused it
	// Made: the journal holds its intent or the service's acceptance, so
	// this account made it (OwnOf).
	Made bool
	// AcceptedAt is when the journal first recorded the service's 202 or a
	// state after it; zero when it holds neither.
	AcceptedAt time.Time
	State      string // last state seen; "" while unanswered or after a refusal
	TxHash     string
	Error      string
	// QuoteExpired: the withdrawal never happened because its quote
	// expired unexecuted (Entry.QuoteExpired); Error says how it was
	// learned.
	QuoteExpired bool
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

// RecordsSkipped is Records with the count of journal lines skipped.
func (j *Journal) RecordsSkipped() ([]Record, int, error) {
	entries, skipped, err := j.Scan()
	if err != nil {
		return nil, skipped, err
	}
	return FoldRecords(entries), skipped, nil
}

// AccountRecords is RecordsSkipped narrowed to one account in one
// environment. A nil journal (none configured) has no records.
func (j *Journal) AccountRecords(env, accountID string) ([]Record, int, error) {
	if j == nil {
		return nil, 0, nil
	}
	all, skipped, err := j.RecordsSkipped()
	if err != nil {
		return nil, skipped, err
	}
	var out []Record
	for _, r := range all {
		if r.Env == env && r.AccountID == accountID {
			out = append(out, r)
		}
	}
	return out, skipped, nil
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

// FoldRecords folds entries into one record per withdrawal, newest first.
func FoldRecords(entries []Entry) []Record {
	byID := map[string]*Record{}
	var order []*Record
	for _, e := range entries {
		if e.Kind == KindPrepared || builderKind(e.Kind) {
			// Not a withdrawal (yet, or at all: a builder authorization).
			continue
		}
		r := byID[e.QuoteID]
		if r == nil {
			r = &Record{QuoteID: e.QuoteID, Env: e.Env, AccountID: e.AccountID, Started: e.Time}
			byID[e.QuoteID] = r
			order = append(order, r)
		}
		r.Updated = e.Time
		switch e.Kind {
		case KindIntent:
			r.Made = true
			// The first signed request is the one that may have executed;
			// a later intent for the same quote never replaces it.
			if e.Request != nil && r.Request.QuoteID == "" {
				r.Request = *e.Request
			}
			if e.Intent != nil {
				r.Intent = *e.Intent
			}
		case KindAccepted:
			r.Answered, r.State, r.Made = true, exchange.StateSubmitted, true
			if r.AcceptedAt.IsZero() {
				r.AcceptedAt = e.Time
			}
		case KindRejected:
			r.Answered, r.State, r.Error = true, "", currentWords(e.Error)
			// Older lines lack the flag: their words tell (a 410's, in
			// today's words, or NeverPaid).
			r.QuoteExpired = e.QuoteExpired || e.Error == NeverPaid || strings.HasPrefix(r.Error, exchange.QuoteExpiredWords)
		case KindState:
			r.Answered, r.State = true, e.State
			if r.AcceptedAt.IsZero() {
				r.AcceptedAt = e.Time
			}
			if e.TxHash != "" {
				r.TxHash = e.TxHash
			}
		}
	}
	out := make([]Record, len(order))
	for i, r := range order {
		out[i] = *r
	}
	sort.SliceStable(out, func(a, b int) bool { return out[a].Started.After(out[b].Started) })
	return out
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

// EnvHistory is the journal's withdrawals in one environment, the unfinished
// ones (those that still need the user) first, each group newest first.
func EnvHistory(recs []Record, env string) []Record {
	var out []Record
	for _, r := range recs {
		if r.Env == env {
			out = append(out, r)
		}
	}
	sort.SliceStable(out, func(a, b int) bool {
		if fa, fb := out[a].Finished(), out[b].Finished(); fa != fb {
			return !fa
		}
		return out[a].Started.After(out[b].Started)
	})
	return out
}
