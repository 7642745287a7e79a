package cli

import (
	"errors"
	"fmt"
	"os"

	"github.com/svcwallet/svcwallet/screens/kit"
	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/follow"
	"github.com/svcwallet/svcwallet/service/journal"
	"github.com/svcwallet/svcwallet/tui"
)

// readIDs is what `status -` read: quote ids, and payout hashes and
// transfer ids to find.
type readIDs struct {
	ids     []string
	lookups []follow.Lookup
}

// find turns each payout hash and transfer id given (f.lookups) into the
// quote id of the withdrawal this machine has seen with it, in its
// journal or on its watch board, put among the ids asked where it was
// given; neither is ever sent. One not found is said, and makes the exit
// status at least 4.
func (c *statusCmd) find(client *exchange.Client, f statusFlags) (statusFlags, error) {
	if len(f.lookups) == 0 {
		return f, nil
	}
	known := c.known(client)
	ids, err := follow.InPlace(f.quoteIDs, f.lookups, func(l follow.Lookup) ([]string, error) {
		found, err := known.Find(l, client.OwnSecret)
		var nf *follow.NotSeenError
		switch {
		case errors.As(err, &nf):
			c.floor = max(c.floor, c.app.say(notSeen(l, c.app.invocation())))
		case len(found.QuoteIDs) == 0: // seen as another account's alone: not asked as this one
			c.floor = max(c.floor, c.app.say(namingInput(failure(exitNotFound, "%s", found.Said(kit.LookupName(l))), l)))
		case found.Seen: // else asked as the quote id it may be
			fmt.Fprintf(c.errOut, "%s: %s\n", c.app.name, found.Said(kit.LookupName(l)))
		}
		return found.QuoteIDs, nil
	})
	f.quoteIDs, f.lookups = ids, nil
	return f, err
}

// known is what this machine has seen of the account's withdrawals
// (follow.KnownHere): its journal's and its watch board's.
func (c *statusCmd) known(client *exchange.Client) follow.Known {
	var j *journal.Journal
	if path := journal.DefaultPath(); path != "" {
		if _, err := os.Lstat(path); err == nil {
			j, _ = journal.Open(path)
		}
	}
	return follow.KnownHere(j, journal.SessionOwner(client))
}

// notSeen says that a payout hash or transfer id is not among the
// withdrawals this machine has seen, and how to get the quote id; a hash
// is never repeated whole (a private key has its shape). With --json its
// error names the input under the answers' key: tx_id, or
// withdraw_tx_hash shortened.
func notSeen(l follow.Lookup, inv invocation) error {
	return namingInput(failure(exitNotFound, "%s, and %s lists it on the machine that made it", follow.NotSeenSentence(l), inv.command("history")), l)
}

// namingInput is e naming in --json the payout hash or transfer id l it
// is about, under the answers' key, so a script given several tells
// which one it was not answered for.
func namingInput(e *cmdError, l follow.Lookup) *cmdError {
	if l.Kind == follow.PayoutHash {
		e.payoutHash = tui.ShortAddress(l.Text) // never whole: it may be a key
	} else {
		e.txID = l.Text
	}
	return e
}

// atLeastFloor is err, its exit status raised to c.floor: a payout hash or
// transfer id not found counts as an id not found.
func (c *statusCmd) atLeastFloor(err error) error {
	var ce *cmdError
	switch {
	case c.floor == 0:
		return err
	case err == nil:
		return exitStatus(c.floor)
	case errors.As(err, &ce) && ce.exit < c.floor && ce.silent:
		return exitStatus(c.floor)
	}
	return err
}
