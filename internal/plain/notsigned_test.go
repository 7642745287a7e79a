package plain

import (
	"strings"
	"testing"

	"github.com/svcwallet/svcwallet/internal/exchangetest"
	"github.com/svcwallet/svcwallet/service/config"
	"github.com/svcwallet/svcwallet/service/sandbox"
)

// TestNotSignedSaidOnce: a withdrawal whose key source refuses to sign
// (clef's "request denied", as a cancelled wait) says it was not signed
// and that nothing was sent, once: it read "Not withdrawn: Not signed: …",
// the face's label before the signature's.
func TestNotSignedSaidOnce(t *testing.T) {
	f := exchangetest.NewFakeClef(t)
	f.Deny = true
	r := newRigOn(t, func(url string) config.Environment {
		e := config.SandboxEnvironment(url, sandbox.DefaultChainID)
		e.Signer = "clef:" + f.URL
		return e
	})
	out, err := r.run(steps(logIn, withdraw25, typed("y", "Back home", "quit"))...)
	if err != nil {
		t.Fatal(err)
	}
	wants(t, out, "Not signed: clef at "+f.URL+" refused to sign (request denied); nothing was sent.")
	if strings.Contains(out, "Not withdrawn") {
		t.Errorf("the refusal is labelled twice:\n%s", out)
	}
	if n := r.intents(); n != 0 {
		t.Errorf("%d withdrawals journaled after clef refused", n)
	}
}
