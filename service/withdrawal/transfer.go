package withdrawal

import (
	"fmt"
	"time"

	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/follow"
)

// TransferMargin is how long past the quote's expires_at a Transfer signature
// stays valid. The service executes a quote only before it expires, so the
// margin only absorbs clock differences (MaxClockSkew) and the retries of one
// send (two minutes); 10 minutes covers both with room, and a leaked signature
// is useless soon after, where D9's 24 hours left it usable for a day.
// Resumption never re-signs: it re-sends the journaled request or asks the status.
const TransferMargin = 10 * time.Minute

// MaxTransferAhead bounds a Transfer's expiration at the moment it is signed,
// counted from SigningNow: whatever clock or quote a server sent before, no
// signature outlives this (the quote horizon plus the margin fit inside it).
const MaxTransferAhead = 15 * time.Minute

// CheckTransferExpiration is the last check before a Transfer is signed:
// its expiration must lie after now and at most MaxTransferAhead past it,
// now being SigningNow's (the earlier of the service's and the local clock).
func CheckTransferExpiration(expiration, now time.Time) error {
	switch {
	case !expiration.After(now):
		return exchange.UserError{Text: "The signature would already have expired (" + expiration.UTC().Format(time.RFC3339) + "): nothing was signed; get a new quote"}
	case expiration.After(now.Add(MaxTransferAhead)):
		return exchange.UserError{Text: fmt.Sprintf("The signature would stay valid until %s, more than %s from now: nothing was signed; check your clock and get a new quote",
			expiration.UTC().Format(time.RFC3339), MaxTransferAhead)}
	}
	return nil
}

// TransferExpiration is the Transfer's expiration for a quote, refused when
// the quote's expires_at lies too far past serverNow (the service's clock):
// one years ahead would make a signature that never expires.
func TransferExpiration(q exchange.Quote, serverNow time.Time) (time.Time, error) {
	if q.ExpiresAt.After(serverNow.Add(follow.LongestQuoteLife)) {
		return time.Time{}, exchange.UserError{Text: fmt.Sprintf("The quote expires %s, more than %s after the service's time: it will not be signed; get a new quote",
			q.ExpiresAt.UTC().Format(time.RFC3339), follow.LongestQuoteLife)}
	}
	return q.ExpiresAt.Add(TransferMargin), nil
}
