package builder

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/svcwallet/svcwallet/screens/kit"
	"github.com/svcwallet/svcwallet/screens/screentest"
	"github.com/svcwallet/svcwallet/service/exchange"
)

// TestBuilderReviewHoldsKeysAfterARefusal: the review the service's
// refusal brought back shows again with it, so it holds keys
// kit.ShownGuard from then: an enter pressed twice, or held through the
// send, never signs again before the refusal was read.
func TestBuilderReviewHoldsKeysAfterARefusal(t *testing.T) {
	r := newBldRig(t, 120, 40)
	rv := r.demoReview(120, 36)
	rv.Init() // its guard timer is not run: the fake clock decides
	rv.Update(rv.gate.Key.Find()())
	r.clock.Advance(kit.ShownGuard)
	if _, cmd := screentest.Press(rv, "enter"); cmd == nil || !rv.gate.Sending {
		t.Fatal("enter on the review did not sign")
	}
	rv.Update(builderSentMsg{err: &exchange.APIError{Status: 503, Message: "busy"}})
	r.clock.Advance(kit.KeyGuard)
	if _, cmd := screentest.Press(rv, "enter"); cmd != nil || rv.gate.Sending {
		t.Fatalf("enter %v after the refusal signed again", kit.KeyGuard)
	}
	if km := rv.KeyMap().ShortHelp(); len(km) != 0 {
		t.Fatalf("the review the refusal brought back offers %v while held", km)
	}
	r.clock.Advance(kit.ShownGuard)
	if _, cmd := screentest.Press(rv, "enter"); cmd == nil || !rv.gate.Sending {
		t.Fatal("enter once the refusal was on screen a while did not sign again")
	}
}

// TestBuilderReviewTakesNoRepeat: where the terminal says which presses
// are a held key's repeats, an enter's repeat never authorizes the
// builder, however long after the review showed it first came; a press
// after the repeats stopped does.
func TestBuilderReviewTakesNoRepeat(t *testing.T) {
	r := newBldRig(t, 120, 40)
	rv := r.demoReview(120, 36)
	rv.Init()
	rv.Update(rv.gate.Key.Find()())
	r.clock.Advance(3 * kit.ShownGuard / 2) // a repeat delay over the review's hold
	for range 30 {
		if screentest.SendTo(rv, "\x1b[13;1:2u"); rv.gate.Sending {
			t.Fatal("an enter's repeat authorized the builder")
		}
		r.clock.Advance(kit.KeyGuard / 15)
	}
	r.clock.Advance(kit.KeyGuard)
	if screentest.SendTo(rv, "\r"); !rv.gate.Sending {
		t.Fatal("an enter pressed once the repeats stopped did not sign")
	}
}

// TestBuilderAgainWordsOnlyWhenKeysAct: the review a send that got no
// clear answer brought back holds keys as it shows again, when enter and
// esc do nothing: under the error it says when keys come, and
// names enter's and esc's steps once they act (a key hint is a promise).
func TestBuilderAgainWordsOnlyWhenKeysAct(t *testing.T) {
	r := newBldRig(t, 120, 40)
	rv := r.demoReview(120, 36)
	signed := exchange.BuilderAuthorizeRequest{Signature: exchange.Signature{R: "0x01", S: "0x02"}}
	rv.Update(builderSentMsg{req: signed, err: &exchange.APIError{Status: 499}})
	view := strings.Join(strings.Fields(ansi.Strip(rv.View())), " ")
	if strings.Contains(view, "Enter sends") || strings.Contains(view, "esc goes back") || !strings.Contains(view, "keys are enabled in 2 s") {
		t.Fatalf("while keys are held the review names enter and esc:\n%s", view)
	}
	r.clock.Advance(kit.ShownGuard)
	if view = strings.Join(strings.Fields(ansi.Strip(rv.View())), " "); !strings.Contains(view, "Enter sends the same signed authorization again") {
		t.Fatalf("once keys act the review does not say enter's step:\n%s", view)
	}
}
