package follow_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/svcwallet/svcwallet/service/config"
	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/follow"
	"github.com/svcwallet/svcwallet/service/journal"
)

// TestOutcomeNames: one fact, one name, whichever view asks. A quote that
// expired unexecuted is EXPIRED from a status answer (CREATED past its
// expiry) and from the journal (a 410, a resume that found it never
// executed, an older journal's NeverPaid) alike; a refusal for a reason
// of the service's is REFUSED, its reason kept apart; a request without an
// answer is UNANSWERED; the service's states keep their names.
func TestOutcomeNames(t *testing.T) {
	now := time.Date(2026, 11, 23, 10, 0, 0, 0, time.UTC)
	created := exchange.Withdrawal{QuoteID: "q-1", State: exchange.StateCreated, UpdatedAt: now.Add(-time.Hour), ServiceTime: now}
	follows := []struct {
		name string
		f    follow.Follow
		want string
	}{
		{"expired unexecuted", follow.Follow{QuoteID: "q-1", Last: created, Known: true}, follow.LabelExpired},
		{"expired and final", follow.Follow{QuoteID: "q-1", Last: created, Known: true, Final: true}, follow.LabelExpired},
		{"still executable", follow.Follow{QuoteID: "q-1", Last: created, Known: true, QuoteExpiry: now.Add(time.Minute)}, exchange.StateCreated},
		{"accepted yet CREATED", follow.Follow{QuoteID: "q-1", Last: created, Known: true, AcceptedAt: now.Add(-time.Hour)}, follow.LabelContradicts},
		{"a state", follow.Follow{QuoteID: "q-1", Last: exchange.Withdrawal{State: exchange.StateRefunded}, Known: true}, exchange.StateRefunded},
		{"not found", follow.Follow{QuoteID: "q-1", NotFound: true}, follow.LabelNotFound},
		{"rate limited", follow.Follow{QuoteID: "q-1", Err: exchange.ErrRateLimited}, follow.LabelRateLimited},
		{"no answer", follow.Follow{QuoteID: "q-1", Err: errors.New("down")}, follow.LabelNoAnswer},
		{"asking", follow.Follow{QuoteID: "q-1"}, follow.LabelAsking},
	}
	for _, c := range follows {
		if o := c.f.Outcome(); o.Name != c.want || o.Words == "" || o.Reason != "" {
			t.Errorf("%s: %+v, want %s with words", c.name, o, c.want)
		}
	}
	// An id the service does not know says what to do next, in every face
	// that words it from here (the board, history, plain mode, JSON).
	if o := follows[5].f.Outcome(); !strings.Contains(o.Words, "Check the id") {
		t.Errorf("not found says no next step: %q", o.Words)
	}
	if o := follows[0].f.Outcome(); o.Words != exchange.ExpiredWords {
		t.Errorf("expired: %q", o.Words)
	}

	reason := "Insufficient balance in the funding account: enter a smaller amount"
	records := []struct {
		name string
		r    journal.Record
		want string
	}{
		{"unanswered", journal.Record{}, follow.LabelUnanswered},
		{"refused", journal.Record{Answered: true, Error: reason}, follow.LabelRefused},
		{"expired", journal.Record{Answered: true, Error: "Quote expired: press r to get a new one and sign again", QuoteExpired: true}, follow.LabelExpired},
		{"a state", journal.Record{Answered: true, State: exchange.StateSending}, exchange.StateSending},
	}
	for _, c := range records {
		if o := follow.RecordOutcome(c.r); o.Name != c.want || o.Words == "" {
			t.Errorf("%s: %+v, want %s with words", c.name, o, c.want)
		}
	}
	if o := follow.RecordOutcome(records[2].r); o.Words != exchange.ExpiredWords || o.Reason != "" || o.Sentence() != exchange.ExpiredWords {
		t.Errorf("expired: %+v, sentence %q", o, o.Sentence())
	}
	if o := follow.RecordOutcome(records[1].r); o.Reason != reason || o.Sentence() != o.Words+" Reason: "+reason+"." {
		t.Errorf("refused: %+v, sentence %q", o, o.Sentence())
	}
	if o := follow.NeverHappened(journal.NeverPaid); o.Name != follow.LabelExpired || o.Sentence() != exchange.ExpiredWords {
		t.Errorf("never happened, quote expired: %+v", o)
	}
	if o := follow.NeverHappened(reason); o.Name != follow.LabelRefused || o.Reason != reason {
		t.Errorf("never happened, refused: %+v", o)
	}

	// The journal reads an expired quote as such, flagged or (older
	// journals) by its words alone; a refusal for a reason is not.
	for _, c := range []struct {
		e       journal.Entry
		expired bool
	}{
		{journal.Entry{Error: "Quote expired: press r to get a new one and sign again", QuoteExpired: true}, true},
		{journal.Entry{Error: journal.NeverPaid}, true},
		{journal.Entry{Error: exchange.QuoteExpiredWords}, true},
		{journal.Entry{Error: "Quote expired: press r to get a new one and sign again (service: gone)"}, true},
		{journal.Entry{Error: reason}, false},
	} {
		c.e.Kind, c.e.Env, c.e.QuoteID, c.e.Time = journal.KindRejected, "local", "q-1", now
		recs := journal.FoldRecords([]journal.Entry{c.e})
		if len(recs) != 1 || recs[0].QuoteExpired != c.expired || recs[0].Answered != true {
			t.Errorf("%+v folds into %+v, want expired %v", c.e, recs, c.expired)
		}
	}
}

// TestTally: the line a follow of several ends with counts each outcome
// in the order first met, one never answered as "no answer".
func TestTally(t *testing.T) {
	done := func(state string) follow.Follow {
		return follow.Follow{Known: true, Last: exchange.Withdrawal{State: state}}
	}
	got := follow.Tally([]follow.Follow{done(exchange.StateCompleted), {}, done(exchange.StateCompleted), {NotFound: true}})
	if want := "2 completed, 1 no answer, 1 not found"; got != want {
		t.Errorf("Tally = %q, want %q", got, want)
	}
}

// TestNotSeenSentence: the one wording of payout hashes and transfer ids
// not seen here names transfer ids (the first three, then how many more),
// counts hashes without repeating one (a key's shape), and says what to do.
func TestNotSeenSentence(t *testing.T) {
	hash := "0x" + strings.Repeat("ab", 32)
	var many []follow.Lookup
	for _, id := range []string{"tx-1aaaa", "tx-2bbbb", "tx-3cccc", "tx-4dddd", "tx-5eeee"} {
		many = append(many, follow.Lookup{Text: id, Kind: follow.TransferID})
	}
	for _, c := range []struct {
		name    string
		lookups []follow.Lookup
		want    string
	}{
		{"one transfer id", many[:1], "transfer id tx-1aaaa was not found: "},
		{"one hash", []follow.Lookup{{Text: hash, Kind: follow.PayoutHash}}, "the payout hash you gave was not found: "},
		// A transfer id is named as typed, cleaned, a run of a key's length
		// cut: whoever passes one in need not have checked it.
		{"a transfer id holding a key and an escape", []follow.Lookup{{Text: "tx-\x1b[2J" + strings.Repeat("ab", 32), Kind: follow.TransferID}},
			"transfer id tx-abababab… was not found: "},
		{"many of both", append(many, follow.Lookup{Text: hash, Kind: follow.PayoutHash}, follow.Lookup{Text: hash, Kind: follow.PayoutHash}),
			"transfer id tx-1aaaa, transfer id tx-2bbbb, transfer id tx-3cccc, 2 more transfer ids, the 2 payout hashes you gave were not found: "},
	} {
		got := follow.NotSeenSentence(c.lookups...)
		if !strings.HasPrefix(got, c.want) || strings.Contains(got, strings.Repeat("ab", 5)) || !strings.HasSuffix(got, "ask for the quote id: it is in the withdrawal's confirmation") {
			t.Errorf("%s: %q, want it to start %q", c.name, got, c.want)
		}
	}
}

// TestParticularsSayTimesAsTheReview: when the service last updated a
// withdrawal is said as the review says a quote's expiry, "2026-11-23
// 10:00:05 UTC", in every face that lists it (plain mode and `status`
// printed the wire's "2026-11-23T10:00:05Z" beside the rest's).
func TestParticularsSayTimesAsTheReview(t *testing.T) {
	at := time.Date(2026, 11, 23, 11, 0, 5, 0, time.FixedZone("CET", 3600))
	f := follow.Follow{QuoteID: "q-1", Known: true, Last: exchange.Withdrawal{QuoteID: "q-1", State: exchange.StateSending, UpdatedAt: at}}
	said := map[string]string{}
	for _, fact := range f.Particulars(config.Environment{}, journal.Intent{}) {
		said[fact.Label] = fact.Value
	}
	if got := said["Updated at"]; got != "2026-11-23 10:00:05 UTC" {
		t.Errorf("updated at %q", got)
	}
}

// TestChainlessRecordSaysNoChainWasGiven: a COMPLETED record that names
// no chain, of a withdrawal the journal holds no intent of, says its chain
// was not given (follow.NoChain) among the particulars plain mode and one
// id's print list; the journal's chain fills it where there is one. The
// line was left out, and a payout hash read as of no chain in particular.
func TestChainlessRecordSaysNoChainWasGiven(t *testing.T) {
	f := follow.Follow{QuoteID: "q-1", Known: true, Last: exchange.Withdrawal{QuoteID: "q-1", State: exchange.StateCompleted,
		WithdrawTxHash: "0x" + strings.Repeat("ab", 32)}}
	for own, want := range map[string]string{"": "not given by the service", "BASE": "BASE"} {
		said := map[string]string{}
		for _, fact := range f.Particulars(config.Environment{}, journal.Intent{Chain: own}) {
			said[fact.Label] = fact.Value
		}
		if said["Chain"] != want {
			t.Errorf("journal's chain %q: Chain %q, want %q", own, said["Chain"], want)
		}
	}
}

// TestNearHashRefusedAsAKeySaysItLooksLikeOne: 0x and a digit or two fewer
// or more than a payout hash has a private key's shape (written as a
// number without leading zeros, or with 00 in front) and is refused as
// one, never sent; the next step says it looks like a payout hash
// miscopied, where it said to put 0x in front of what had it. A key in
// pieces is told no hash or id is written so: 0x in front is no step.
func TestNearHashRefusedAsAKeySaysItLooksLikeOne(t *testing.T) {
	hex := strings.Repeat("5f0c9e1b", 9)
	for words, want := range map[string]string{
		"0x" + hex[:62]:             "it looks like a payout hash 2 digits short (0x and 64 hex digits): copy it again, whole",
		"0x" + hex[:63]:             "it looks like a payout hash a digit short (0x and 64 hex digits): copy it again, whole",
		"0x" + hex[:65]:             "it looks like a payout hash a digit too long (0x and 64 hex digits): copy it again, whole",
		"q-1 0x" + hex[:66]:         "it looks like a payout hash 2 digits too long (0x and 64 hex digits): copy it again, whole",
		hex[:64]:                    follow.TronHashAdvice,
		"0x" + hex[:67]:             follow.TronHashAdvice,
		hex[:32] + " " + hex[32:64]: follow.SplitKeyAdvice,
		strings.Join([]string{hex[:8], hex[8:16], hex[16:24], hex[24:32], hex[32:40], hex[40:48], hex[48:56], hex[56:64]}, ":"): follow.SplitKeyAdvice,
		"https://x.io/tx/" + hex: follow.LinkAdvice,
	} {
		if got := follow.HashAdvice(words); got != want {
			t.Errorf("%s: %q, want %q", words, got, want)
		}
		if _, _, bad := follow.ParseQuoteIDs(words, true); len(bad) != 1 || !errors.Is(bad[0].Err, exchange.ErrKeyShape) {
			t.Errorf("%s is not refused for a key's shape (%d refused)", words, len(bad))
		}
	}
}
