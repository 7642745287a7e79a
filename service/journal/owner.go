package journal

import (
	"github.com/svcwallet/svcwallet/service/config"
	"github.com/svcwallet/svcwallet/service/exchange"
)

// Owner is whose withdrawals a query reads: an account (its id, as the
// login returned it) on one chain (its service's chain id,
// config.Service), whatever the environment is called or which host
// reached it. Every environment that reaches one account (an old and a new
// name, a proxy and the direct URL) sees the same withdrawals, the
// unfinished ones the repeat guard looks through among them.
//
// A withdrawal whose lines name no chain (written before lines named
// their service, by an intent without typed data) is found by its
// environment's name alone (Env), as it always was; so are all of an
// Owner without a chain (ChainID 0: the embedded sandbox's).
type Owner struct {
	Env       string
	ChainID   uint64
	AccountID string
}

// OwnerOf is the owner of accountID's withdrawals on env. The embedded
// sandbox is made anew by every run, with the demo account and the chain
// id a standalone sandbox has too: its withdrawals are its name's alone.
func OwnerOf(env config.Environment, accountID string) Owner {
	o := Owner{Env: env.Name, ChainID: env.ChainID, AccountID: accountID}
	if env.Embedded() {
		o.ChainID = 0
	}
	return o
}

// SessionOwner is whose withdrawals are the login c holds: its account on
// c's environment (OwnerOf), the one place a face or a journey asks it.
func SessionOwner(c *exchange.Client) Owner {
	s, _ := c.Session()
	return OwnerOf(c.Env(), s.AccountID)
}

// Holds reports whether r is one of o's withdrawals.
func (o Owner) Holds(r Record) bool {
	switch {
	case !exchange.SameAccountID(r.AccountID, o.AccountID):
		return false
	case r.ChainID != 0 && o.ChainID != 0:
		return r.ChainID == o.ChainID
	}
	return r.Env == o.Env
}

// mayHold reports whether line e may be one of o's withdrawals': one of
// its account. Its whole record decides (Holds): a withdrawal's lines
// written by earlier versions name no chain.
func (o Owner) mayHold(e Entry) bool { return exchange.SameAccountID(e.AccountID, o.AccountID) }

// likely reports whether line e, alone, looks like one of o's
// withdrawals': of its account, and of its chain, or (naming none) of its
// environment's name. Holds decides on the whole record.
func (o Owner) likely(e Entry) bool {
	c := chainOf(e)
	switch {
	case !o.mayHold(e):
		return false
	case o.ChainID != 0 && c != 0:
		return c == o.ChainID
	}
	return e.Env == o.Env
}

// chainOf is the chain a line names: its service's, or on an intent or a
// prepared line of an earlier version, the chain of the typed data it
// signs; 0 when it names none.
func chainOf(e Entry) uint64 {
	switch {
	case e.Service != nil:
		return e.Service.ChainID
	case e.Domain != nil:
		return e.Domain.ChainID
	}
	return 0
}

// fold folds the lines of o's withdrawals.
func fold(lines []line, o Owner) []Record {
	var f folder
	for _, l := range lines {
		if o.mayHold(l.Entry) {
			f.add(l.Entry)
		}
	}
	return o.keep(f.records())
}

// keep is the records of recs that are o's, in their order.
func (o Owner) keep(recs []Record) []Record {
	out := recs[:0]
	for _, r := range recs {
		if o.Holds(r) {
			out = append(out, r)
		}
	}
	return out
}
