package withdrawal

import (
	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/journal"
)

// RecentWithdrawals is how many of an account's latest withdrawals its
// recent destinations come from (journal.Journal.Recent): what the
// destination form offers again and compares a typed address with
// (LookAlike), read at a cost that does not grow with the journal.
const RecentWithdrawals = 500

// Destination is a destination used before on a chain, and the state its
// last withdrawal there came to ("" while it has none).
type Destination struct {
	Address   string
	LastState string
}

// NotPaid reports whether the last withdrawal to the destination ended
// without paying out (FAILED or REFUNDED): worth a look before another.
func (d Destination) NotPaid() bool {
	return d.LastState == exchange.StateFailed || d.LastState == exchange.StateRefunded
}

// Destinations are the destinations on chain that recs (newest first) went
// to, newest first, each once, with how its newest withdrawal ended.
func Destinations(recs []journal.Record, chain string) []Destination {
	seen := map[string]bool{}
	var out []Destination
	for _, r := range recs {
		if r.Intent.Chain == chain && r.Intent.ToAddress != "" && !seen[r.Intent.ToAddress] {
			seen[r.Intent.ToAddress] = true
			out = append(out, Destination{Address: r.Intent.ToAddress, LastState: r.State})
		}
	}
	return out
}
