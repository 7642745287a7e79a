// Package target is an environment a face may log in to: its client, its
// journal, and on the embedded sandbox the demo data it publishes.
package target

import (
	"path/filepath"

	"github.com/svcwallet/svcwallet/service/config"
	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/journal"
	"github.com/svcwallet/svcwallet/service/withdrawal"
)

// Target is one environment the user may log in to, with its client, as
// the console and plain mode offer it.
type Target struct {
	Env    config.Environment
	Client *exchange.Client
	// Journal records this target's withdrawals (D11).
	Journal *journal.Journal
	// Demo holds the embedded sandbox's published data; nil for a real
	// service.
	Demo *Demo
	// Kept: Client holds a session kept between runs (svcwallet auth
	// login), so no login is asked.
	Kept bool
	// Unkept says why a session kept between runs does not serve beside
	// the signing key given (session.UnservedError, with what to do), for
	// the login to show; "" when none was left aside so.
	Unkept string
}

// BridgePins is where the target's bridge addresses are recorded: beside
// its journal, in the state directory; "" (nothing recorded) without one.
func (t Target) BridgePins() string {
	if t.Journal == nil {
		return ""
	}
	return withdrawal.BridgePinsPath(filepath.Dir(t.Journal.Path()))
}

// Owner is whose withdrawals in the journal are this login's: the logged-in
// account's on this environment's service (journal.SessionOwner).
func (t Target) Owner() journal.Owner { return journal.SessionOwner(t.Client) }

// Demo is the embedded sandbox's demo data: its credentials, offered at
// login (a published development key, never a real one), its demo
// account's address book, offered for a first withdrawal, and its builder
// account, offered for a first builder authorization.
type Demo struct {
	APIKey, PrivateKey string
	AddressBook        []Payee
	Builder            string
}

// Payee is a destination of the sandbox's address book: its chain type
// and what the sandbox does with a withdrawal to it, at length and short.
type Payee struct{ Address, ChainType, Fate, Short string }
