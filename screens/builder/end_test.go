package builder

import (
	"context"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/svcwallet/svcwallet/internal/exchangetest"
	"github.com/svcwallet/svcwallet/screens/screentest"
	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/sandbox"
	"github.com/svcwallet/svcwallet/signer"
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

// TestEndSaysAnAuthorizationTheQuitCut: quitting cancels an authorization's
// request (its context is the console's); one signed whose request was out
// then is said as maybe sent, with where to check, not passed over as one
// that ended.
func TestEndSaysAnAuthorizationTheQuitCut(t *testing.T) {
	demo, err := signer.ParsePrivateKeyHex(sandbox.DemoPrivateKey)
	if err != nil {
		t.Fatal(err)
	}
	reached, release := make(chan struct{}), make(chan struct{})
	var once sync.Once
	clock := exchangetest.NewFakeClock(bldStart)
	c := screentest.NewLoggedInConsole(t, 120, 40, screentest.ConsoleOpts{Clock: clock.Now, Front: func(h http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
			if req.URL.Path == exchange.PathBuilderAuthorize {
				once.Do(func() { close(reached) })
				<-release // never answered while the console runs
				return
			}
			h.ServeHTTP(w, req)
		})
	}})
	t.Cleanup(func() { close(release) }) // before the servers close
	root, quit := context.WithCancel(context.Background())
	defer quit()
	c.App.Signer, c.App.SignerFrom, c.App.Context = demo, "the demo key", root
	r := &bldRig{Console: c, clock: clock}
	r.openForm()
	r.fill(sandbox.BuilderAddress, "0.1", "0.05", "")
	r.toReviewWith("from the demo key")
	r.UntilShows("Press enter to sign")
	r.Press("enter")
	r.Until("the request at the service", func(string) bool {
		select {
		case <-reached:
			return true
		default:
			return false
		}
	})
	quit()
	_, _, left := c.App.Ended(time.Minute) // the request ends with root: the bound decides nothing
	want := "the authorization of builder " + sandbox.BuilderAddress + " was signed, and the console ended before the service answered: it may or may not have been sent; the service offers no way to ask"
	if left == nil || !strings.Contains(left.Error(), want) {
		t.Errorf("an authorization the quit cut is said %v, want %q", left, want)
	}
}
