package plain

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/svcwallet/svcwallet/service/sandbox"
)

// TestTypedAheadSendsNoAuthorizationAgain: the question that sends a
// signed builder authorization again is held to the gate as the one that
// signed it: "Send it again" typed while the first was awaited is dropped,
// not taken as the answer, and only the answer typed once the question
// shows is.
func TestTypedAheadSendsNoAuthorizationAgain(t *testing.T) {
	var authorizations atomic.Int32
	r, _ := newGatewayRig(t, func(w http.ResponseWriter, _ *http.Request) bool {
		if authorizations.Add(1) != 1 {
			return false
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(499) // passed on, and no word of whether it was taken
		w.Write([]byte(`{"message":"from the gateway"}`))
		return true
	})
	out, err := r.runPasting(steps(logIn, builderForm, withKey("no"),
		[]scripted{after("[y/n] ", "y")}, typed("Send it again"),
		[]scripted{after("Nothing is signed anew.\n", "Back home")}, typed("quit"))...)
	if err != nil {
		t.Fatal(err)
	}
	if n := authorizations.Load(); n != 1 || strings.Contains(out, "Builder authorized") {
		t.Fatalf("%d authorizations sent: a line typed ahead answered the question that sends it again:\n%s", n, out)
	}
	wants(t, out, "Not authorized so far: ", "(HTTP 499, which does not say whether it was taken)")
}

// TestResentAfterNoAnswerFoundTaken: an authorization the service took
// but whose answer never came (the gateway's 499 after passing it on),
// sent again, is refused as a nonce already used: that says the first
// went through, the builder authorized, never "Not authorized" inviting a
// new review that would authorize it twice.
func TestResentAfterNoAnswerFoundTaken(t *testing.T) {
	var authorizations atomic.Int32
	var r *rig
	r, _ = newGatewayRig(t, func(w http.ResponseWriter, req *http.Request) bool {
		if authorizations.Add(1) != 1 {
			return false
		}
		r.ex.ServeHTTP(httptest.NewRecorder(), req) // taken, its answer lost
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(499)
		w.Write([]byte(`{"message":"from the gateway"}`))
		return true
	})
	out, err := r.run(steps(logIn, typed("builder", sandbox.BuilderAddress, "0.1", "0.05", "7d", "no", "y", "Send it again", "quit"))...)
	if err != nil {
		t.Fatal(err)
	}
	wants(t, out, "Not authorized so far: ", "the attempt that got no answer went through, so "+sandbox.BuilderAddress+" is authorized",
		"Authorized by the earlier send: ", "sent a builder authorization of "+sandbox.BuilderAddress+" (taken by the send that got no answer)")
	if strings.Contains(out, "Not authorized: This authorization's nonce") || strings.Contains(out, "(refused)") {
		t.Errorf("the authorization taken is said as refused:\n%s", out)
	}
}
