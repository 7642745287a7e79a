package exchangetest

import (
	"testing"
	"time"
)

func TestFakeClock(t *testing.T) {
	t0 := time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)
	c := NewFakeClock(t0)
	c.Advance(90 * time.Second)
	if got := c.Now().Sub(t0); got != 90*time.Second {
		t.Fatalf("advanced %s", got)
	}
	c.Set(t0)
	if !c.Now().Equal(t0) {
		t.Fatal("Set did not move the clock")
	}
}
