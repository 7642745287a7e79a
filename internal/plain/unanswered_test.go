package plain

import (
	"regexp"
	"testing"

	"github.com/svcwallet/svcwallet/service/follow"
)

// TestLookUpOfUnansweredRequestNotFound: a withdraw request whose answer
// was lost, which the service's status does not know, is looked up as
// NOT FOUND YET with the time it may still execute until, never as NOT
// FOUND.
func TestLookUpOfUnansweredRequestNotFound(t *testing.T) {
	r := newRig(t)
	r.noAnswer.Store(true)
	r.statusGone.Store(true)
	r.statusAnswered.Store(1)
	r.statusAsks.Store(1) // every status ask is a 404
	out, err := r.run(steps(logIn, withdraw25, typed("y", "quit"))...)
	if err != nil {
		t.Fatal(err)
	}
	id := regexp.MustCompile(`(q-[a-z0-9]+)`).FindString(out)
	if id == "" {
		t.Fatalf("no quote id:\n%s", out)
	}
	out, err = r.run(steps(logIn, typed("look up", id, "quit"))...)
	if err != nil {
		t.Fatal(err)
	}
	wants(t, out, follow.LabelNotFoundYet+": Sent, no answer yet; not found so far: it may still execute until")
	if regexp.MustCompile(follow.LabelNotFound + `:`).MatchString(out) {
		t.Errorf("said NOT FOUND:\n%s", out)
	}
}
