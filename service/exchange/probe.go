package exchange

import (
	"context"
	"errors"
	"net/http"
	"time"
)

// HostProbe is how one host of an environment answered a probe.
type HostProbe struct {
	Label string // auth_url, base_url or market_data_url
	URL   string
	RTT   time.Duration
	Err   error // nil when the host answered HTTP, whatever the status
}

// EnvProbe is what `svcwallet doctor` learns of an environment without
// logging in: whether each host answers, how fast, and how far the server's
// clock is from ours (signatures carry expirations set from both).
type EnvProbe struct {
	Env         string
	Hosts       []HostProbe
	ClockOffset time.Duration // server minus local; valid when ClockErr is nil
	ClockErr    error
}

// Probe asks each host once: the auth and API hosts at their root (any HTTP
// answer means reachable) and the market-data host for its time.
func (c *Client) Probe(ctx context.Context) EnvProbe {
	p := EnvProbe{Env: c.env.Name}
	for _, h := range []struct{ label, url string }{{"auth_url", c.env.AuthURL}, {"base_url", c.env.BaseURL}} {
		start := c.now()
		err := c.ping(ctx, h.url)
		p.Hosts = append(p.Hosts, HostProbe{Label: h.label, URL: h.url, RTT: c.now().Sub(start), Err: err})
	}
	start := c.now()
	reading, err := c.MeasureClock(ctx)
	var te *TransportError
	reachErr := err
	if err != nil && !errors.As(err, &te) {
		reachErr = nil // it answered, only not with a time
	}
	rtt := reading.RTT
	if err != nil {
		rtt = c.now().Sub(start)
	}
	p.Hosts = append(p.Hosts, HostProbe{Label: "market_data_url", URL: c.env.MarketDataURL, RTT: rtt, Err: reachErr})
	p.ClockOffset, p.ClockErr = reading.Offset, err
	return p
}

// ping sends one GET to a host's root and reads no more than the status.
func (c *Client) ping(ctx context.Context, base string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, base+"/", nil)
	if err != nil {
		return err
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return &TransportError{Op: "GET /", Host: req.URL.Host, Err: err}
	}
	resp.Body.Close()
	return nil
}
