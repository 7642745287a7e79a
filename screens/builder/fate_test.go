package builder

import (
	"errors"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/svcwallet/svcwallet/screens/kit"
	"github.com/svcwallet/svcwallet/service/exchange"
)

// TestBuilderReviewSaysEachFate: the review says what became of a signed
// authorization not accepted as builder.Auth.Failed judges it, and enter's
// step after it: one never sent is said not sent, with nothing authorized;
// a 429 not taken, with the wait it asked; one unanswered may have been
// taken, where to check said; each of these keeps the signed body for
// enter; a refusal for good drops it and offers no resend; one accepted
// whose answer cannot be read is said authorized, with where to revoke
// it, and offers neither enter nor another signing.
func TestBuilderReviewSaysEachFate(t *testing.T) {
	dial := &exchange.TransportError{Op: "dial", Host: "auth.example", Err: errors.New("connection refused")}
	signed := exchange.BuilderAuthorizeRequest{Signature: exchange.Signature{R: "0x01", S: "0x02"}}
	for _, c := range []struct {
		name string
		err  error
		says []string
		not  []string
		kept bool
	}{
		{"never sent", &exchange.NotSentError{Err: dial}, []string{"Not authorized", "was not sent, so nothing was authorized", "Enter sends the same signed authorization, which was not sent"}, []string{"so far", "may authorize"}, true},
		{"429", &exchange.APIError{Status: http.StatusTooManyRequests, RetryAfter: 4 * time.Second}, []string{"did not take the authorization: wait 4 s", "Enter sends the same signed authorization once the wait is over"}, []string{"so far", "may authorize"}, true},
		{"499", &exchange.APIError{Status: 499}, []string{"Not authorized so far", "HTTP 499", "check the builder's authorization in the exchange's web UI", "Enter sends the same signed authorization again (nothing is signed anew)"}, []string{"not sent"}, true},
		{"refused", &exchange.APIError{Status: 403, Code: exchange.CodeUnauthorizedSigner}, []string{"Not authorized", "main account's own key"}, []string{"Enter sends", "so far"}, false},
		{"taken", &exchange.UnreadableAnswerError{Status: 200, Reason: exchange.NewShapeError("builder API key", "holds a space")}, []string{"Authorized, answer unreadable", "is authorized", "revoke it there"}, []string{"Enter sends", "Not authorized"}, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := newBldRig(t, 120, 40)
			rv := r.demoReview(120, 36)
			start := r.clock.Now()
			rv.Update(builderSentMsg{req: signed, err: c.err})
			r.clock.Advance(kit.ShownGuard)
			view := strings.Join(strings.Fields(ansi.Strip(rv.View())), " ")
			for _, w := range c.says {
				if !strings.Contains(view, w) {
					t.Errorf("%q not said:\n%s", w, view)
				}
			}
			for _, w := range c.not {
				if strings.Contains(view, w) {
					t.Errorf("%q said:\n%s", w, view)
				}
			}
			// Enter's send waits until then (sendBuilder): the 429's wait, else none.
			if wait := rv.retryAt.Sub(start); c.name == "429" && wait != 4*time.Second || c.name != "429" && wait > 0 {
				t.Errorf("the same body is sent %v after the answer", wait)
			}
			if kept := rv.sent != nil; kept != c.kept {
				t.Errorf("signed body kept %v, want %v", kept, c.kept)
			}
			// The footer's enter says what enter does: a kept body is sent
			// again, never signed anew.
			var enter []string
			for _, b := range rv.KeyMap().ShortHelp() {
				if b.Help().Key == "enter" {
					enter = append(enter, b.Help().Desc)
				}
			}
			want := []string{map[bool]string{true: "send again", false: "sign and authorize"}[c.kept]}
			if c.name == "taken" {
				want = nil // taken: nothing is signed or sent again from here
			}
			if !slices.Equal(enter, want) {
				t.Errorf("the footer offers enter as %q, want %q", enter, want)
			}
		})
	}
}

// TestBuilderReviewTakenByTheEarlierSend: a resend refused as its nonce
// already used, after the first got no answer, heads the review as
// authorized by that first send, never as an answer unreadable (none was
// read), and the review with it still fits an 80x24 terminal's content
// area, where a longer head wrapped the words into a notice to enlarge it.
func TestBuilderReviewTakenByTheEarlierSend(t *testing.T) {
	for _, size := range [][2]int{{120, 36}, {80, 22}} {
		r := newBldRig(t, size[0], size[1]+4)
		rv := r.demoReview(size[0], size[1])
		signed := exchange.BuilderAuthorizeRequest{Signature: exchange.Signature{R: "0x01", S: "0x02"}}
		rv.Update(builderSentMsg{req: signed, err: &exchange.APIError{Status: 499}})
		rv.Update(builderSentMsg{req: signed, err: &exchange.APIError{Status: 400, Code: exchange.CodeDuplicateSignature}})
		view := strings.Join(strings.Fields(ansi.Strip(rv.View())), " ")
		if !strings.Contains(view, "Authorized by the earlier send: The service says this authorization's nonce was already used") || strings.Contains(view, "answer unreadable") {
			t.Errorf("%dx%d: the head does not say the earlier send took it:\n%s", size[0], size[1], view)
		}
	}
}

// TestBuilderTakenShowsWhateverTheHeight: an authorization found taken
// (its nonce used after no answer, or accepted with an answer that cannot
// be read) says so on a review too short for the message, never
// only the notice to enlarge the terminal so that signing may go on:
// nothing is signed from here any more.
func TestBuilderTakenShowsWhateverTheHeight(t *testing.T) {
	for _, c := range []struct {
		head string
		errs []error
	}{
		{"Authorized by the earlier send", []error{&exchange.APIError{Status: 499}, &exchange.APIError{Status: 400, Code: exchange.CodeDuplicateSignature}}},
		{"Authorized, answer unreadable", []error{&exchange.UnreadableAnswerError{Status: 200, Reason: exchange.NewShapeError("builder API key", "holds a space")}}},
	} {
		r := newBldRig(t, 60, 20)
		rv := r.demoReview(60, 10)
		signed := exchange.BuilderAuthorizeRequest{Signature: exchange.Signature{R: "0x01", S: "0x02"}}
		for _, e := range c.errs {
			rv.Update(builderSentMsg{req: signed, err: e})
		}
		view := strings.Join(strings.Fields(ansi.Strip(rv.View())), " ")
		if !strings.Contains(view, c.head+":") || !strings.Contains(view, "is authorized") || strings.Contains(view, "Enlarge") {
			t.Errorf("%s: a review too short says:\n%s", c.head, view)
		}
	}
}
