//go:build e2e

package board

import (
	"context"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"
)

// TestMinimalPollerRun runs the minimal poller against a sandbox for the
// measurement of the board's cost over a long run (docs/testing.md):
// SVCWALLET_POLLER_URL is the sandbox, SVCWALLET_POLLER_IDS a file of
// quote ids, SVCWALLET_POLLER_FOR how long (10m), at 5 asks a second.
// Without them it is skipped.
func TestMinimalPollerRun(t *testing.T) {
	base, idsFile := os.Getenv("SVCWALLET_POLLER_URL"), os.Getenv("SVCWALLET_POLLER_IDS")
	if base == "" || idsFile == "" {
		t.Skip("SVCWALLET_POLLER_URL and SVCWALLET_POLLER_IDS are not set")
	}
	d, err := time.ParseDuration(os.Getenv("SVCWALLET_POLLER_FOR"))
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(idsFile)
	if err != nil {
		t.Fatal(err)
	}
	p, err := newMinimalPoller(base, "sandbox-demo-key", &http.Client{Timeout: 15 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), d)
	defer cancel()
	answers := 0
	if err := p.run(ctx, strings.Fields(string(b)), 5, &answers); err != nil {
		t.Fatal(err)
	}
	t.Logf("%d answers in %s", answers, d)
}

// run asks ids in turn at rate a second until ctx ends, counting answers.
func (p *minimalPoller) run(ctx context.Context, ids []string, rate int, answers *int) error {
	tick := time.NewTicker(time.Second / time.Duration(rate))
	defer tick.Stop()
	for i := 0; ; i++ {
		select {
		case <-ctx.Done():
			return nil
		case <-tick.C:
		}
		if _, err := p.ask(ctx, ids[i%len(ids)]); err != nil && ctx.Err() == nil {
			return err
		}
		*answers++
	}
}
