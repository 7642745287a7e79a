package follow

import (
	"time"

	"github.com/svcwallet/svcwallet/service/exchange"
)

// ExecutableMargin is how long past its expires_at, on the service's
// clock, a quote is still taken to be able to execute: the clock skew
// svcwallet tolerates (exchange.MaxClockSkew: the service's hosts may
// disagree with the /time it read by as much) and a request still in
// flight (every retry of one withdraw, exchange.WithdrawTimeout, which a
// gateway may hold and deliver late).
const ExecutableMargin = exchange.MaxClockSkew + exchange.WithdrawTimeout

// MayStillExecute reports whether a quote expiring at expiresAt may still
// execute when the service's clock reads serviceNow: until serviceNow is
// past expiresAt + ExecutableMargin, and always when either is unknown
// (zero). It is the one decision that a quote can no longer execute,
// behind every "nothing was paid" (D15): EXPIRED is journaled or shown
// only when it is false.
func MayStillExecute(expiresAt, serviceNow time.Time) bool {
	return expiresAt.IsZero() || serviceNow.IsZero() || !serviceNow.After(expiresAt.Add(ExecutableMargin))
}
