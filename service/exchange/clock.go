package exchange

import (
	"context"
	"fmt"
	"sync"
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

// ClockReading is the service's clock measured against ours, once, for
// every use: signing (SigningNow), a quote's countdown and `doctor`.
type ClockReading struct {
	Offset time.Duration // service clock − local clock
	RTT    time.Duration // the round trip of the /time request
}

// MeasureClock asks the service's /time and compares it with the local
// clock at the midpoint of the round trip, the best local match for the
// reading. It refuses nothing: CheckSkew does. A 429 is waited out
// (Patiently), each try timed on its own.
func (c *Client) MeasureClock(ctx context.Context) (ClockReading, error) {
	var sent time.Time
	serverNow, err := Patiently(ctx, c.retry, func(ctx context.Context) (time.Time, error) {
		sent = c.now()
		return c.ServerTime(ctx)
	})
	if err != nil {
		return ClockReading{}, err
	}
	end := c.now()
	rtt := end.Sub(sent)
	return ClockReading{Offset: serverNow.Sub(sent.Add(rtt / 2)), RTT: rtt}, nil
}

// CheckSkew refuses a reading whose clocks differ by more than MaxClockSkew
// with a *ClockSkewError.
func (r ClockReading) CheckSkew() error {
	if r.Offset > MaxClockSkew || r.Offset < -MaxClockSkew {
		return &ClockSkewError{Skew: r.Offset}
	}
	return nil
}

// SigningNow is the earlier of the service's clock and the local one,
// refused with a *ClockSkewError when they differ by more than
// MaxClockSkew. Every signing path (wallet login, Transfer, builder
// authorization) calls it first: the wallet login's expiry counts from it
// and a Transfer's is checked against it; a builder authorization's counts
// from the local clock, as its review shows it, within builderClockMargin.
func (c *Client) SigningNow(ctx context.Context) (time.Time, error) {
	r, err := c.MeasureClock(ctx)
	if err != nil {
		return time.Time{}, err
	}
	if err := r.CheckSkew(); err != nil {
		return time.Time{}, err
	}
	return c.now().Add(min(r.Offset, 0)), nil
}

// ExpiryNow is the clock a decision that a quote can no longer execute is
// taken on: the service's /time, never later than the local clock. A /time
// far ahead (a glitching host, a proxy, a unit mistake) cannot call a quote
// dead early; a local clock behind the service's only puts decisions off.
func (c *Client) ExpiryNow(ctx context.Context) (time.Time, error) {
	t, err := c.ServerTime(ctx)
	if err != nil {
		return time.Time{}, err
	}
	now := c.now()
	t = earlier(t, now)
	c.kept.keep(t, now)
	return t, nil
}

// ServiceTimeSince is the clock of ExpiryNow at an answer the service gave
// after sent (our clock, read before its request left), at the least: that
// clock now, less the time elapsed here since sent. Asked once, without
// waiting out a 429: a decision that needs it is put off, never taken
// without it.
func (c *Client) ServiceTimeSince(ctx context.Context, sent time.Time) (time.Time, error) {
	t, err := c.ExpiryNow(ctx)
	if err != nil {
		return time.Time{}, err
	}
	return t.Add(-max(c.now().Sub(sent), 0)), nil
}

// ServiceTimeAfter is w with the service's clock read again, after its
// answer, when the one it carries was kept from before
// (ServiceTimeKept): the reading a decision that its quote can no longer
// execute is taken on. When /time cannot be read, w stays as it was, and
// no such decision is taken on it.
func (c *Client) ServiceTimeAfter(ctx context.Context, w Withdrawal) Withdrawal {
	if !w.ServiceTimeKept || w.asked.IsZero() {
		return w
	}
	if t, err := c.ServiceTimeSince(ctx, w.asked); err == nil {
		w.ServiceTime, w.ServiceTimeKept = t, false
	}
	return w
}

// KeptReadingLife is how long one reading of the service's /time stands
// for its clock at the answers that follow (Client.WithdrawalStatus).
const KeptReadingLife = time.Minute

// keptDrift is how much faster than the service's our clock is taken to
// run, at the most, while a reading is kept: one part in keptDrift (a
// thousand, ten times a poor crystal's drift), taken off the estimate.
const keptDrift = 1000

// keptReading is the last /time read (service, never later than ours)
// and our clock then (local). Our clock's own steps do not move the
// estimate: time.Now's differences are monotonic.
type keptReading struct {
	mu             sync.Mutex
	service, local time.Time
}

func (k *keptReading) keep(service, local time.Time) {
	k.mu.Lock()
	defer k.mu.Unlock()
	k.service, k.local = service, local
}

// at is the service's clock at our sent, at the least, from the kept
// reading: its time plus ours elapsed since, less the drift, and never
// later than ours at sent. false when none is kept, or it is older than
// KeptReadingLife at now, or was read after now (a clock set back).
func (k *keptReading) at(sent, now time.Time) (time.Time, bool) {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.local.IsZero() || now.Before(k.local) || now.Sub(k.local) > KeptReadingLife {
		return time.Time{}, false
	}
	d := sent.Sub(k.local)
	return earlier(k.service.Add(d-max(d, -d)/keptDrift), sent), true
}

func earlier(a, b time.Time) time.Time {
	if b.Before(a) {
		return b
	}
	return a
}
