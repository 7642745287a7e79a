package withdrawal

import (
	"strings"

	"github.com/svcwallet/svcwallet/service/journal"
)

// RecentDestinations are the destinations on chain that recs (the
// journal's records, newest first) went to, newest first, each once: what
// a destination is compared with (LookAlike), and offered again.
func RecentDestinations(recs []journal.Record, chain string) []string {
	var addrs []string
	for _, d := range Destinations(recs, chain) {
		addrs = append(addrs, d.Address)
	}
	return addrs
}

// LookAlike returns a recent address that shares addr's first and last
// characters but differs in the middle: the shape of an address-poisoning
// attack, where a look-alike is planted in the user's history. Every face
// stops there until the user compares the two and says which is meant.
func LookAlike(addr string, recent []string) string {
	const head, tail = 6, 4
	for _, r := range recent {
		if len(r) != len(addr) || len(r) < head+tail || strings.EqualFold(r, addr) {
			continue
		}
		if strings.EqualFold(r[:head], addr[:head]) && strings.EqualFold(r[len(r)-tail:], addr[len(addr)-tail:]) {
			return r
		}
	}
	return ""
}

// What every face says when it stops on a look-alike: the stop, and why.
const (
	LookAlikeStop = "Stop: this address looks like one you used before, but it is different."
	LookAlikeWhy  = "Look-alike addresses are planted in wallet histories: compare every character."
)
