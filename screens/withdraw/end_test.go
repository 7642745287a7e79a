package withdraw

import (
	"context"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/svcwallet/svcwallet/internal/exchangetest"
	"github.com/svcwallet/svcwallet/screens/kit"
	"github.com/svcwallet/svcwallet/screens/screentest"
	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/journal"
	"github.com/svcwallet/svcwallet/service/sandbox"
	"github.com/svcwallet/svcwallet/service/withdrawal"
	"github.com/svcwallet/svcwallet/signer"
	"github.com/svcwallet/svcwallet/tui"
)

// endBound is the console's end bound in these tests: what is out blocks
// until after the end returns, so its length decides nothing.
const endBound = 50 * time.Millisecond

// TestEndSaysASignatureStillAwaited: a signer that blocks past the
// console's end (its context ended at quit) is said after the program
// ends, with what is known: nothing was sent, and what to do; the
// signature it makes later is dropped.
func TestEndSaysASignatureStillAwaited(t *testing.T) {
	demo, err := signer.ParsePrivateKeyHex(sandbox.DemoPrivateKey)
	if err != nil {
		t.Fatal(err)
	}
	root, quit := context.WithCancel(context.Background())
	defer quit()
	key := stubbornKey{Key: demo, approve: make(chan struct{})}
	c, _ := waitingReviewIn(t, root, key, "the stubborn device")
	c.Press("enter")
	c.UntilShows("Waiting for approval on the stubborn device…")
	quit()
	_, _, left := c.App.Ended(endBound)
	close(key.approve)
	if left == nil || !strings.Contains(left.Error(), "the console ended while the withdrawal of quote ") || !strings.Contains(left.Error(), "waited for approval on the stubborn device: nothing was sent") {
		t.Fatalf("a signature awaited at the end is said %v", left)
	}
	c.UntilShows("Not signed:", "nothing was sent")
	if entries, err := c.App.Journal().Entries(); err != nil || len(entries) != 0 {
		t.Errorf("the journal holds %d entries (%v) after a signature made once the console ended", len(entries), err)
	}
}

// TestEndSaysAWithdrawalMaybeSent: a withdrawal signed whose request has
// no answer at the console's end is said as it is: it may or may not have
// been sent, and the command that tells.
func TestEndSaysAWithdrawalMaybeSent(t *testing.T) {
	demo, err := signer.ParsePrivateKeyHex(sandbox.DemoPrivateKey)
	if err != nil {
		t.Fatal(err)
	}
	reached, release := make(chan struct{}), make(chan struct{})
	var once, freed sync.Once
	free := func() { freed.Do(func() { close(release) }) }
	clock := exchangetest.NewFakeClock(screentest.Now)
	c := screentest.NewLoggedInConsole(t, 120, 40, screentest.ConsoleOpts{Clock: clock.Now, Front: func(h http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Path == exchange.PathWithdraw {
				once.Do(func() { close(reached) })
				<-release
			}
			h.ServeHTTP(w, r)
		})
	}})
	t.Cleanup(free) // before the servers close
	c.App.Signer, c.App.SignerFrom = demo, "the demo key"
	c.App.Makers.Status = func(app *kit.App, _ string) tui.Screen { return screentest.NewHome(app) }
	w, q := sandboxQuote(t, c.App)
	c.Open(newReview(c.App, w, withdrawal.PricedQuote{Quote: q}))
	c.UntilShows("Withdraw: review and sign", "the wallet you logged in with", "from the demo key", "pinned")
	clock.Advance(kit.ShownGuard)
	c.UntilShows("Press enter to sign and withdraw")
	c.Press("enter")
	c.Until("the request at the service", func(string) bool {
		select {
		case <-reached:
			return true
		default:
			return false
		}
	})
	_, _, left := c.App.Ended(endBound)
	free()
	want := "the withdrawal of quote " + q.QuoteID + " was signed, and the console ended before the service answered: it may or may not have been sent; check it with svcwallet status " + q.QuoteID
	if left == nil || !strings.Contains(left.Error(), want) {
		t.Fatalf("a withdrawal out at the end is said %v, want %q", left, want)
	}
	c.UntilShows("Withdrawal accepted")
	if entries, err := c.App.Journal().Entries(); err != nil || len(entries) == 0 || entries[len(entries)-1].Kind != journal.KindAccepted {
		t.Errorf("the answer that came after the end was not journaled: %v %v", entries, err)
	}
}
