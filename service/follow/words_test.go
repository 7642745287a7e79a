package follow

import (
	"strings"
	"testing"

	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/journal"
)

// TestOutcomeWordsReadOnceAfterTheName: every face prints "NAME: words",
// so the words carry no label of their own before a colon and do not say
// the name again: "FAILED: The withdrawal failed: nothing …" read as two
// labels, as "EXPIRED: The quote expired without being executed: …" did.
func TestOutcomeWordsReadOnceAfterTheName(t *testing.T) {
	outcomes := []Outcome{
		RecordOutcome(journal.Record{}),
		RecordOutcome(journal.Record{Answered: true, QuoteExpired: true}),
		RecordOutcome(journal.Record{Answered: true, NotSent: true}),
		RecordOutcome(journal.Record{Answered: true}),
	}
	for state := range exchange.StateWords {
		outcomes = append(outcomes, stateOutcome(state))
	}
	stems := map[string]string{
		exchange.StateCreated: "created", exchange.StateFailed: "failed", exchange.StateRefunded: "refund",
		LabelExpired: "expired", LabelRefused: "refused", LabelNotSent: "not sent", LabelUnanswered: "no answer",
	}
	for _, o := range outcomes {
		said := o.Name + ": " + o.Words
		if o.Words == "" || strings.Count(said, ":") != 1 {
			t.Errorf("%q reads as two labels", said)
		}
		if stem, ok := stems[o.Name]; ok && strings.Contains(strings.ToLower(o.Words), stem) {
			t.Errorf("%q says its name again", said)
		}
	}
}
