package exchange_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/svcwallet/svcwallet/internal/config"
	"github.com/svcwallet/svcwallet/internal/exchange"
	"github.com/svcwallet/svcwallet/internal/sandbox"
)

// TestMeasureClockAtTheMidpoint: the service's reading is compared with the
// local clock halfway through the round trip, the best match for when the
// service read its clock.
func TestMeasureClockAtTheMidpoint(t *testing.T) {
	server := t0.Add(30 * time.Second)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, `{"server_time":%d}`, server.UnixMilli())
	}))
	t.Cleanup(srv.Close)
	reads := []time.Time{t0, t0.Add(4 * time.Second)} // sent, then answered
	now := func() time.Time {
		if len(reads) == 0 {
			return t0.Add(4 * time.Second)
		}
		r := reads[0]
		reads = reads[1:]
		return r
	}
	c := exchange.New(config.SandboxEnvironment(srv.URL, sandbox.DefaultChainID), exchange.Options{Now: now})
	r, err := c.MeasureClock(context.Background())
	if err != nil || r.RTT != 4*time.Second || r.Offset != 28*time.Second {
		t.Fatalf("reading %+v, %v; want a 4s round trip and the service 28s ahead of the midpoint", r, err)
	}
}
