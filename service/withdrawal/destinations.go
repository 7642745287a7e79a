package withdrawal

import (
	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/follow"
	"github.com/svcwallet/svcwallet/service/journal"
)

// RecentWithdrawals is how many of an account's latest withdrawals its
// recent destinations come from (journal.Journal.Recent): what the
// destination form offers again and compares a typed address with
// (LookAlike), read at a cost that does not grow with the journal.
const RecentWithdrawals = 500

// Destination is a destination used before on a chain, and what its last
// withdrawal there came to, named as every view names it
// (follow.RecordOutcome): LastState is the name, Reason a refusal's.
type Destination struct {
	Address   string
	LastState string
	Reason    string
}

// NotPaid reports whether the last withdrawal to the destination ended
// without paying out for a reason of the destination's (FAILED, REFUNDED,
// or REFUSED: screening, say): worth a look before another.
func (d Destination) NotPaid() bool {
	return d.LastState == exchange.StateFailed || d.LastState == exchange.StateRefunded || d.LastState == follow.LabelRefused
}

// Destinations are the destinations on chain that recs (newest first) went
// to, newest first, each once, with how its newest withdrawal ended.
func Destinations(recs []journal.Record, chain string) []Destination {
	seen := map[string]bool{}
	var out []Destination
	for _, r := range recs {
		if r.Intent.Chain == chain && r.Intent.ToAddress != "" && !seen[r.Intent.ToAddress] {
			seen[r.Intent.ToAddress] = true
			o := follow.RecordOutcome(r)
			out = append(out, Destination{Address: r.Intent.ToAddress, LastState: o.Name, Reason: o.Reason})
		}
	}
	return out
}
