package plain

import (
	"context"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/common"

	"github.com/svcwallet/svcwallet/internal/exchangetest"
	"github.com/svcwallet/svcwallet/service/config"
	"github.com/svcwallet/svcwallet/service/sandbox"
	"github.com/svcwallet/svcwallet/signer"
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

// TestNoKeyReviewSaysTheOneWords: a review with no key to sign says so in
// the words every face says it (signer.NoKeyError: the environment's
// signer named as the config has it, and why it cannot), then plain mode's
// ways of bringing a key, which its builder authorization names too.
func TestNoKeyReviewSaysTheOneWords(t *testing.T) {
	r := newRigOn(t, func(url string) config.Environment {
		e := config.SandboxEnvironment(url, sandbox.DefaultChainID)
		e.Signer = "command" // and no signing command set
		return e
	})
	r.console.Targets[0].Demo = nil
	ctx := context.Background()
	s := &session{Console: r.console, p: NewPrompter(ctx, strings.NewReader(""), io.Discard, nil), ctx: ctx, target: r.console.Targets[0]}
	want := common.HexToAddress(sandbox.DemoAddress)
	k := s.keyFor(want)
	nk, ok := errors.AsType[*signer.NoKeyError](k.err)
	if !ok || nk.Err == nil || k.err.Error() != nk.Error()+". Ways: "+s.keyWays() {
		t.Fatalf("no key said as %v", k.err)
	}
	if got := k.err.Error(); !strings.HasPrefix(got, "no key here signs for "+want.Hex()+` (the environment's signer, signer = "command" in the config: `) || !strings.Contains(got, "key import") {
		t.Errorf("no key said as %q", got)
	}
}
