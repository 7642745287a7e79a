package builder

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/svcwallet/svcwallet/internal/exchangetest"
	"github.com/svcwallet/svcwallet/screens/kit"
	"github.com/svcwallet/svcwallet/screens/screentest"
	"github.com/svcwallet/svcwallet/service/builder"
	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/sandbox"
	"github.com/svcwallet/svcwallet/signer"
)

// clefReview is the builder review of an authorization, logged in by the
// fake clef's demo account.
func clefReview(t *testing.T, fake *exchangetest.FakeClef) *bldRig {
	t.Helper()
	r := newBldRig(t, 120, 40)
	r.App.Signer = signer.NewClef(fake.URL, 0).Key(exchangetest.KeyAddress(exchangetest.DemoKeyHex))
	r.App.SignerFrom = "clef at " + fake.URL
	r.openForm()
	r.fill(sandbox.BuilderAddress, "0.1", "0.05", "")
	r.toReviewWith("from clef at " + fake.URL)
	r.UntilShows("Press enter to sign")
	return r
}

// TestBuilderReviewWaitsForClef (issue 20 item 5): the review names clef,
// shows the wait while clef has the request, esc ends it and nothing is
// sent; once clef approves, the authorization goes through.
func TestBuilderReviewWaitsForClef(t *testing.T) {
	fake := exchangetest.NewFakeClef(t)
	arrived := make(chan struct{}, 1)
	fake.OnSign = func() bool { // never answered: a person away
		arrived <- struct{}{}
		return false
	}
	r := clefReview(t, fake)
	r.Press("enter")
	r.UntilShows("Waiting for approval in clef at "+fake.URL+"…", "esc cancel the signature")
	<-arrived // clef has the request: esc ends a wait that is under way
	r.Press("esc")
	r.UntilShows("Not signed:", "nothing was sent")
	if got := fake.Calls(); len(got) != 1 || got[0] != "account_signTypedData" {
		t.Errorf("clef was asked %v", got)
	}
	if strings.Contains(r.Plain(), "Enter sends the same signed authorization again") {
		t.Errorf("a cancelled signature counts as a signed authorization:\n%s", r.Plain())
	}

	// Approved this time: the same review signs and authorizes.
	fake.OnSign = nil
	r.clock.Advance(kit.ShownGuard) // the review shown again with the cancel holds keys from then
	r.Press("enter")
	r.UntilShows("Builder authorized", "May trade for")
	if got := fake.Signed(); len(got) != 2 || got[1].PrimaryType != "AuthorizeBuilder" {
		t.Errorf("clef signed %d requests", len(got))
	}
}

// TestBuilderReviewClefRefusal: clef's refusal reads as one clear line.
func TestBuilderReviewClefRefusal(t *testing.T) {
	fake := exchangetest.NewFakeClef(t)
	fake.Deny = true
	r := clefReview(t, fake)
	r.Press("enter")
	r.UntilShows("Not signed:")
	want := "Not signed: clef at " + fake.URL + " refused to sign (request denied); nothing was sent"
	if !strings.Contains(screentest.OneLine(r.Plain()), want) || strings.Contains(r.Plain(), "Not authorized") {
		t.Errorf("the refusal does not read %q, said once:\n%s", want, r.Plain())
	}
}

// TestBuilderResendWaitsOnTheConsolesClock: enter after a 429 asking 4 s
// sends the same body once the console's clock has passed those 4 s,
// through the App's timer (a fake clock here, never a real sleep): a
// timer that fires early sends nothing and is set for the rest.
func TestBuilderResendWaitsOnTheConsolesClock(t *testing.T) {
	r := newBldRig(t, 120, 40)
	timers := screentest.RecordTimers(r.App)
	rv := r.demoReview(120, 36)
	signed := exchange.BuilderAuthorizeRequest{Signature: exchange.Signature{R: "0x01", S: "0x02"}}
	rv.Update(builderSentMsg{req: signed, err: &exchange.APIError{Status: http.StatusTooManyRequests, RetryAfter: 4 * time.Second}})
	r.clock.Advance(kit.ShownGuard)
	*timers = nil
	if screentest.PressTimed(rv, "enter", timers); !rv.gate.Sending {
		t.Fatal("enter after the 429 did not send again")
	}
	// waited asks that the one timer set is the resend's, for d.
	waited := func(d time.Duration) {
		t.Helper()
		if len(*timers) != 1 || (*timers)[0].D != d || (*timers)[0].Msg != (builderResendMsg{tag: rv.waitTag}) {
			t.Fatalf("timers set %v, want one of %v for the resend", *timers, d)
		}
		*timers = nil
	}
	waited(4*time.Second - kit.ShownGuard)
	r.clock.Advance(time.Second) // the timer fires early: the clock decides
	if _, cmd := rv.Update(builderResendMsg{tag: rv.waitTag}); cmd != nil {
		t.Fatal("the resend ran before its wait was over")
	}
	waited(3*time.Second - kit.ShownGuard)
	r.clock.Advance(3*time.Second - kit.ShownGuard)
	_, cmd := rv.Update(builderResendMsg{tag: rv.waitTag})
	if cmd == nil || len(*timers) != 0 {
		t.Fatalf("the wait over, the same body was not sent (timers %v)", *timers)
	}
	if sent, ok := cmd().(builderSentMsg); !ok || sent.req != signed {
		t.Fatalf("the wait over, %T was sent, not the same signed body", sent)
	}
}

// TestBuilderResendWaitIsSaid: while a resend waits out a 429's wait,
// the review says the wait and what is left of it, and quitting says
// nothing was sent again (after an answer that never came, that an
// earlier send may have been taken); once the wait is over and the body
// is out, both say it is being sent.
func TestBuilderResendWaitIsSaid(t *testing.T) {
	for _, c := range []struct {
		name  string
		first error // what came before the 429
		quit  string
	}{
		{"after a 429", nil, "it is not sent and nothing is authorized"},
		{"after no answer", &exchange.APIError{Status: 499}, "an earlier send may have been taken"},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := newBldRig(t, 120, 40)
			screentest.RecordTimers(r.App)
			rv := r.demoReview(120, 36)
			signed := exchange.BuilderAuthorizeRequest{Signature: exchange.Signature{R: "0x01", S: "0x02"}}
			if c.first != nil {
				rv.Update(builderSentMsg{req: signed, err: c.first})
			}
			rv.Update(builderSentMsg{req: signed, err: &exchange.APIError{Status: http.StatusTooManyRequests, RetryAfter: 4 * time.Second}})
			r.clock.Advance(kit.ShownGuard)
			screentest.Press(rv, "enter")
			view := func() string { return strings.Join(strings.Fields(ansi.Strip(rv.View())), " ") }
			said := fmt.Sprintf("Waiting %d s, as the service asked, before sending the signed authorization again…", builder.Failure{Wait: 4*time.Second - kit.ShownGuard}.WaitSeconds())
			if v := view(); !strings.Contains(v, said) {
				t.Errorf("the wait is not said:\n%s", v)
			}
			if b := rv.Busy(); !strings.Contains(b, "is not sent again yet") || !strings.Contains(b, c.quit) {
				t.Errorf("quitting during the wait says %q", b)
			}
			// The countdown follows the clock, not a message.
			r.clock.Advance(time.Second)
			left := fmt.Sprintf("Waiting %d s,", builder.Failure{Wait: 3*time.Second - kit.ShownGuard}.WaitSeconds())
			if v := view(); !strings.Contains(v, left) {
				t.Errorf("a second later the wait left is not said (%q):\n%s", left, v)
			}
			r.clock.Advance(3*time.Second - kit.ShownGuard)
			if _, cmd := rv.Update(builderResendMsg{tag: rv.waitTag}); cmd == nil {
				t.Fatal("the wait over, nothing was sent")
			}
			if v, b := view(), rv.Busy(); !strings.Contains(v, "Sending the signed authorization again…") || !strings.HasPrefix(b, "The builder authorization is being sent") {
				t.Errorf("the body out, the review says:\n%s\nand quitting %q", v, b)
			}
		})
	}
}

// TestBuilderResendWaitCancels: esc cancels a 429's wait before the
// signed authorization is sent again, and the footer offers it only while
// it waits; the review says nothing was sent again and offers to send it
// again or leave. The cancelled wait's timer, late, sends nothing, nor
// does it cut short the wait of the next enter.
func TestBuilderResendWaitCancels(t *testing.T) {
	r := newBldRig(t, 120, 40)
	timers := screentest.RecordTimers(r.App)
	rv := r.demoReview(120, 36)
	signed := exchange.BuilderAuthorizeRequest{Signature: exchange.Signature{R: "0x01", S: "0x02"}}
	rv.Update(builderSentMsg{req: signed, err: &exchange.APIError{Status: http.StatusTooManyRequests, RetryAfter: 4 * time.Second}})
	r.clock.Advance(kit.ShownGuard)
	if screentest.Offers(rv.KeyMap(), "esc") {
		t.Fatal("esc is offered by the review before any wait")
	}
	wait := func() screentest.Timer {
		t.Helper()
		*timers = nil
		if screentest.PressTimed(rv, "enter", timers); !rv.gate.Sending || len(*timers) != 1 {
			t.Fatalf("enter after the 429 did not wait to send again (timers %v)", *timers)
		}
		return (*timers)[0]
	}
	first := wait()
	if !screentest.Offers(rv.KeyMap(), "esc") {
		t.Fatalf("the wait's footer does not offer esc: %v", rv.KeyMap().ShortHelp())
	}
	if rv.Update(screentest.Key("esc")); rv.gate.Sending || rv.Busy() != "" {
		t.Fatalf("esc did not cancel the wait (busy %q)", rv.Busy())
	}
	view := func() string { return strings.Join(strings.Fields(ansi.Strip(rv.View())), " ") }
	if v := view(); !strings.Contains(v, "Wait cancelled: The signed authorization was not sent again") || strings.Contains(v, "Not authorized") || !strings.Contains(v, "keys are enabled in 2 s") {
		t.Errorf("the cancelled wait is not said, or that keys are held:\n%s", v)
	}
	if screentest.Offers(rv.KeyMap(), "esc") {
		t.Error("esc still offered by the review once the wait is cancelled")
	}
	r.clock.Advance(kit.KeyGuard) // a person's enter, no paste's, but before the review was read
	if screentest.Press(rv, "enter"); rv.gate.Sending {
		t.Fatal("an enter right after esc sent the authorization again: the review it sends from was not shown yet")
	}
	r.clock.Advance(4 * time.Second)
	if v := view(); !strings.Contains(v, "Enter sends the same signed authorization") {
		t.Errorf("once keys act the cancelled wait does not say what next:\n%s", v)
	}
	if _, cmd := rv.Update(first.Msg); cmd != nil || rv.gate.Sending {
		t.Fatal("the cancelled wait's timer sent the authorization")
	}
	// Sent again: the late timer of the wait cancelled does not end the new one.
	rv.Update(builderSentMsg{req: signed, err: &exchange.APIError{Status: http.StatusTooManyRequests, RetryAfter: 4 * time.Second}})
	r.clock.Advance(kit.ShownGuard)
	second := wait()
	if _, cmd := rv.Update(first.Msg); cmd != nil || len(*timers) != 1 {
		t.Fatalf("a cancelled wait's timer acted in the next wait (timers %v)", *timers)
	}
	r.clock.Advance(second.D)
	if _, cmd := rv.Update(second.Msg); cmd == nil {
		t.Fatal("the wait over, nothing was sent")
	}
}
