package builder

import (
	"strings"
	"testing"
	"time"

	"github.com/svcwallet/svcwallet/internal/exchangetest"
	"github.com/svcwallet/svcwallet/service/sandbox"
)

// TestEndSaysAnAuthorizationAwaitingClef: clef still holding the request
// (a person away) when the console's end gives up waiting is said with
// the builder named, what it waits for, and that nothing was sent.
func TestEndSaysAnAuthorizationAwaitingClef(t *testing.T) {
	fake := exchangetest.NewFakeClef(t)
	arrived := make(chan struct{}, 1)
	fake.OnSign = func() bool { // never answered
		arrived <- struct{}{}
		return false
	}
	r := clefReview(t, fake)
	r.Press("enter")
	r.UntilShows("Waiting for approval in clef at " + fake.URL + "…")
	<-arrived
	_, _, left := r.App.Ended(50 * time.Millisecond) // clef never answers: the bound decides nothing
	want := "the console ended while the authorization of builder " + sandbox.BuilderAddress + " waited for approval in clef at " + fake.URL + ": nothing was sent"
	if left == nil || !strings.Contains(left.Error(), want) {
		t.Errorf("an authorization awaiting clef at the end is said %v, want %q", left, want)
	}
	r.Press("esc")
	r.UntilShows("Not signed:", "nothing was sent")
}
