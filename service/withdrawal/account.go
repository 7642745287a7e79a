package withdrawal

import (
	"github.com/ethereum/go-ethereum/common"

	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/journal"
)

// OtherAccountError refuses to sign, send or journal a withdrawal on a
// session that is not the account its Transfer pays from (a login made
// meanwhile on the same client answered another, or a Transfer prepared
// offline from another account): its request would go as that account's,
// and its intent be journaled and taken up as its.
type OtherAccountError struct {
	QuoteID string
	// SignedFrom is the funding account the Transfer pays from; Account and
	// Funding the session's account id and funding account.
	SignedFrom, Account, Funding string
}

func (e *OtherAccountError) Error() string {
	return "Not sent: withdrawal " + e.QuoteID + " pays from funding account " + e.SignedFrom + ", but this session is account " +
		e.Account + "'s (funding account " + e.Funding + "): nothing was sent. Log in as the account it pays from, then try again"
}

// signedFor refuses o on a session whose funding account is not the one
// its Transfer pays from (OtherAccountError), compared as addresses: the
// one rule for Execute and Submit. Logged out, the send says so itself,
// as never sent.
func (w Withdrawer) signedFor(o Order) error {
	s, in := w.client.Session()
	if in && (!common.IsHexAddress(s.FundingAccountAddress) || common.HexToAddress(s.FundingAccountAddress) != o.Transfer.FromAccount) {
		return &OtherAccountError{QuoteID: o.Quote.QuoteID, SignedFrom: o.Transfer.FromAccount.Hex(), Account: s.AccountID, Funding: s.FundingAccountAddress}
	}
	return nil
}

// OtherRecordAccountError refuses to settle a withdrawal journaled as
// another account than the session's: its re-send and its status would be
// asked as that account's, the service's "not found" taken for never paid.
type OtherRecordAccountError struct {
	QuoteID, Journaled, Account string
}

func (e *OtherRecordAccountError) Error() string {
	return "withdrawal " + e.QuoteID + " was journaled as account " + e.Journaled + "'s, but this session is account " + e.Account +
		"'s, so nothing was asked; log in as account " + e.Journaled + ", then take it up again"
}

// LoggedOutError refuses to settle a withdrawal with no session: its
// requests would be pinned to no account (exchange.AsAccount), and a login
// landing meanwhile would be asked as whichever account it is.
type LoggedOutError struct {
	QuoteID, Journaled string
}

func (e *LoggedOutError) Error() string {
	as := "the account that made it"
	if e.Journaled != "" {
		as = "account " + e.Journaled
	}
	return "no session is logged in, so withdrawal " + e.QuoteID + " was neither sent again nor asked about; log in as " + as + ", then take it up again"
}

// recordOf is the session rec is settled as, refused when there is none
// (LoggedOutError) or it is another account's (OtherRecordAccountError); a
// record of an earlier version that names no account is its environment's,
// as it was.
func (w Withdrawer) recordOf(rec journal.Record) (exchange.Session, error) {
	s, in := w.client.Session()
	if !in {
		return s, &LoggedOutError{QuoteID: rec.QuoteID, Journaled: rec.AccountID}
	}
	if rec.AccountID != "" && !exchange.SameAccountID(s.AccountID, rec.AccountID) {
		return s, &OtherRecordAccountError{QuoteID: rec.QuoteID, Journaled: rec.AccountID, Account: s.AccountID}
	}
	return s, nil
}
