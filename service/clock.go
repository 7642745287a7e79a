package service

import (
	"context"
	"fmt"
	"time"
)

// MaxClockSkew is how far the service's clock and the local one may differ
// before any signature is refused: a server far ahead would otherwise collect
// signatures a real server accepts much later.
const MaxClockSkew = 2 * time.Minute

// ClockSkewError refuses a signature because the clocks disagree.
type ClockSkewError struct {
	Skew time.Duration // service clock − local clock
}

func (e *ClockSkewError) Error() string {
	d := e.Skew
	way := "ahead of"
	if d < 0 {
		d, way = -d, "behind"
	}
	return fmt.Sprintf("The service's clock is %s %s this computer's (more than %s): nothing was signed; check your clock (and the environment's base_url) and try again",
		d.Round(time.Second), way, MaxClockSkew)
}

// SigningNow is the time every signature's expiry is computed from: the
// earlier of the service's /time and the local clock, refused with a
// *ClockSkewError when they differ by more than MaxClockSkew. Every signing
// path (wallet login, Transfer, builder authorization) calls it first.
func (c *Client) SigningNow(ctx context.Context) (time.Time, error) {
	sent := c.now()
	serverNow, err := c.ServerTime(ctx)
	if err != nil {
		return time.Time{}, err
	}
	// The midpoint of the round trip is the best local match for the reading.
	local := sent.Add(c.now().Sub(sent) / 2)
	skew := serverNow.Sub(local)
	if skew > MaxClockSkew || skew < -MaxClockSkew {
		return time.Time{}, &ClockSkewError{Skew: skew}
	}
	if serverNow.Before(local) {
		return serverNow, nil
	}
	return local, nil
}
