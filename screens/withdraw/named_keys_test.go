package withdraw

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/svcwallet/svcwallet/screens/kit"
	"github.com/svcwallet/svcwallet/screens/screentest"
	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/withdrawal"
	"github.com/svcwallet/svcwallet/tui"
)

// TestReviewNamesOnlyKeysThatAct walks the review's messages that name a
// key (a quote expired on screen, one the service found expired, the
// prompt), each while the guard holds keys and once it is over, at the
// console's three sizes: every key a message says to press is one that
// acts then, as the footer offers it (a key hint is a promise).
func TestReviewNamesOnlyKeysThatAct(t *testing.T) {
	for _, size := range [][2]int{{120, 36}, {80, 20}, {60, 16}} {
		for _, state := range []string{"ready", "expired", "expired on sending"} {
			r, _, now := shownReview(t)
			r.SetSize(size[0], size[1])
			r.Update(r.checkBridge()())
			switch state {
			case "expired":
				for !r.expired() {
					*now = now.Add(time.Second)
				}
				r.Update(tui.ShownAgainMsg{}) // shown again, the guard with it
			case "expired on sending":
				*now = now.Add(kit.ShownGuard)
				screentest.Press(r, "enter")
				r.Update(executedMsg{withdrawal.Sent{Err: exchange.ErrQuoteExpired}})
			}
			for _, when := range []string{"held", "acting"} {
				where := fmt.Sprintf("%dx%d, %s, keys %s", size[0], size[1], state, when)
				if r.gate.Guarded() != (when == "held") {
					t.Fatalf("%s: guarded %v", where, r.gate.Guarded())
				}
				// esc is the root's: it goes back unless the review holds
				// its keys (tui.Holding; TestEscHeldOnTheReview).
				screentest.RequireNamedKeysAct(t, where, r.View(), func(k string) bool {
					return screentest.Offers(r.KeyMap(), k) || k == "esc" && !r.HoldsKeys()
				})
				if keys := screentest.NamedKeys(r.View()); state == "ready" && when == "acting" && !slices.Contains(keys, "r") {
					t.Fatalf("%s: the prompt names %v, not r after enter", where, keys)
				}
				*now = now.Add(kit.ShownGuard)
			}
		}
	}
}

// TestAcceptedReviewOffersNoKey: once the service accepted the withdrawal
// the review, drawn until the status screen replaces it, says so and
// names and acts on no key at the console's three sizes, nor made too
// small for the review: it said "Press enter to sign and withdraw; r for a
// new quote" (too small: "or r for a new quote"), and enter signed again.
func TestAcceptedReviewOffersNoKey(t *testing.T) {
	for _, size := range [][2]int{{120, 36}, {80, 20}, {60, 18}} {
		r, _, now := shownReview(t)
		r.app.Makers.Home = func(*kit.App) tui.Screen { return nil }
		r.app.Makers.Status = func(*kit.App, string) tui.Screen { return nil }
		r.SetSize(size[0], size[1])
		r.Update(r.checkBridge()())
		*now = now.Add(kit.ShownGuard)
		if _, cmd := screentest.Press(r, "enter"); cmd == nil || !r.gate.Sending {
			t.Fatalf("%dx%d: enter did not sign:\n%s", size[0], size[1], r.View())
		}
		r.Update(executedMsg{withdrawal.Sent{Order: r.order}})
		where := fmt.Sprintf("%dx%d, accepted", size[0], size[1])
		view := r.View()
		screentest.RequireNamedKeysAct(t, where, view, func(k string) bool { return screentest.Offers(r.KeyMap(), k) })
		if km := r.KeyMap().ShortHelp(); len(km) != 0 || !strings.Contains(view, "Withdrawal accepted") {
			t.Errorf("%s: offers %v, says:\n%s", where, km, view)
		}
		// Made smaller meanwhile, too small for the review, it names no key.
		r.SetSize(size[0], 12)
		screentest.RequireNamedKeysAct(t, where+", smaller", r.View(), func(k string) bool { return screentest.Offers(r.KeyMap(), k) })
		r.SetSize(size[0], size[1])
		*now = now.Add(kit.ShownGuard) // no key is held for it
		if screentest.Press(r, "enter"); r.gate.Sending {
			t.Errorf("%s: enter signs again", where)
		}
		if _, cmd := screentest.Press(r, "r"); cmd != nil {
			if _, ok := cmd().(tui.PopMsg); ok {
				t.Errorf("%s: r goes for a new quote", where)
			}
		}
	}
}
