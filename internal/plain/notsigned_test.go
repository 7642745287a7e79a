package plain

import (
	"context"
	"errors"
	"io"
	"path/filepath"
	"strconv"
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
// ways of bringing a key, which its builder authorization names too, in
// the one rule's set (signer.NoKeyError.Steps): the signer set is fixed
// first (its config key named), never set again, and the other ways wait
// for it to be out of the config.
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
	if !ok || nk.Err == nil || k.err.Error() != nk.Error()+". "+s.keyWays(nk) {
		t.Fatalf("no key said as %v", k.err)
	}
	got := k.err.Error()
	if !strings.HasPrefix(got, "no key here signs for "+want.Hex()+` (the environment's signer, signer = "command" in the config: `) || !strings.Contains(got, "key import") {
		t.Errorf("no key said as %q", got)
	}
	// The signer's error in its fewest words, then its fix once and a
	// login by wallet, which act now; the raw key and the keystore, which
	// the look does not reach while it is set, only with it out of the
	// config; never a signer set again.
	if _, ways, _ := strings.Cut(got, "no signing command). Ways: "); !strings.HasPrefix(ways, "set sign_command or log in with the account's wallet; with signer out of the config, set $SVCWALLET_PRIVATE_KEY or import") || strings.Contains(ways, "signer (config)") || strings.Count(got, "sign_command") != 1 {
		t.Errorf("a signer set but unusable: its fix said twice, the raw key as if it signed now, or the signer set again: %q", got)
	}
}

// TestWithdrawSaysNoKeyFirst: with no key here for the funding account
// (the environment's signer a signing command never set), a withdrawal
// says so before its first question (withdrawal.SigningKey), in the one
// rule's words with plain mode's ways, once, and what plain mode can still
// do; its review says it was not signed without the ways again. It asked
// route, destination and amount and got a quote before saying it. The
// command line's offline preparing is named only where the environment
// outlives plain mode, not on the embedded sandbox, which it ends. With
// a key (the sandbox's demo key) nothing of it is said.
func TestWithdrawSaysNoKeyFirst(t *testing.T) {
	for _, c := range []struct {
		signer string
		demo   bool // the embedded sandbox, which ends with plain mode
	}{{"command", false}, {"command", true}, {"", true}} {
		key := c.signer == ""
		r := newRigOn(t, func(url string) config.Environment {
			e := config.SandboxEnvironment(url, sandbox.DefaultChainID)
			e.Signer = c.signer // "command": and no signing command set
			return e
		})
		if !c.demo {
			r.console.Targets[0].Demo = nil
		}
		answers := typed("Back home", "quit")
		if !key {
			answers = typed("quit")
		}
		out, err := r.run(steps(logIn, withdraw25, answers)...)
		if err != nil {
			t.Fatal(err)
		}
		said, first := strings.Index(out, "No key here signs for "+sandbox.DemoAddress), strings.Index(out, "to which chain?")
		if key {
			if said >= 0 || strings.Contains(out, "Not signed") {
				t.Errorf("with the demo key, no key is said:\n%s", out)
			}
			continue
		}
		if said < 0 || first < said {
			t.Fatalf("no key not said before the first question (at %d, the question at %d):\n%s", said, first, out)
		}
		wants(t, out, "so no withdrawal can be signed here. Ways: set sign_command or log in with the account's wallet; with signer out of the config, set $SVCWALLET_PRIVATE_KEY or ",
			"Plain mode can still get a quote and show what would be signed; it signs and sends nothing.",
			"Not signed: no key here signs for this account; the ways to bring one are said before the route question. Nothing was signed or sent.")
		if offline := strings.Contains(out, "help offline"); offline == c.demo {
			t.Errorf("on the embedded sandbox %v, the command line's offline preparing named %v:\n%s", c.demo, offline, out)
		}
		if n, m := strings.Count(strings.ToLower(out), "ways: "), strings.Count(out, "sign_command"); n != 1 || m != 1 {
			t.Errorf("the ways said %d times, sign_command %d:\n%s", n, m, out)
		}
	}
}

// TestBuilderSaysNoKeyFirst: with no key here for the account (an API-key
// login, no $SVCWALLET_PRIVATE_KEY, no demo key), the builder
// authorization says so (builder.SigningKey), with plain mode's ways to
// get one, before asking anything: it asked every field and showed the
// whole review first. The ways are the one rule's set: setting a signer
// where none is set, fixing the one set (its config key named) where it
// cannot sign, never setting it again.
func TestBuilderSaysNoKeyFirst(t *testing.T) {
	for _, c := range []struct{ signer, way, never string }{{"", " or signer (config), ", "fix "}, {"command", "start it again. Ways: set sign_command or log in with the account's wallet; with signer out of the config, set $", "Other ways"}} {
		r := newRigOn(t, func(url string) config.Environment {
			e := config.SandboxEnvironment(url, sandbox.DefaultChainID)
			e.Signer = c.signer // and no signing command set
			return e
		})
		r.console.Targets[0].Demo = nil
		out, err := r.run(steps(logIn, typed("builder", "quit"))...)
		if err != nil {
			t.Fatal(err)
		}
		wants(t, out, "No key here signs for "+sandbox.DemoAddress, "so no builder authorization can be signed here; nothing was asked, signed or sent", "$"+signer.KeyEnvVar, "key import", c.way)
		if strings.Contains(out, "Builder account") || strings.Contains(out, "Review:") {
			t.Errorf("the builder's questions or review came before the missing key:\n%s", out)
		}
		if strings.Contains(out, c.never) {
			t.Errorf("signer %q: the ways say %q:\n%s", c.signer, c.never, out)
		}
	}
}

// TestWithdrawSaysTheKeystoreFault: the environment's signer naming a
// keystore file that is not there is said before the withdrawal's first
// question, in the one rule's words (the file named as the config has it,
// its fault, "fix signer" first, the raw key only with signer out of the
// config): it said only that no key signs, and
// logging in by wallet then failed on the same file.
func TestWithdrawSaysTheKeystoreFault(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "missing.json")
	r := newRigOn(t, func(url string) config.Environment {
		e := config.SandboxEnvironment(url, sandbox.DefaultChainID)
		e.Signer = missing
		return e
	})
	r.console.Targets[0].Demo = nil
	out, err := r.run(steps(logIn, withdraw25, typed("quit"))...)
	if err != nil {
		t.Fatal(err)
	}
	said, first := strings.Index(out, "No key here signs for "+sandbox.DemoAddress+" (the environment's signer, signer = "+strconv.Quote(missing)+" in the config: the file is not there), so no withdrawal can be signed here. Ways: fix signer or log in with the account's wallet; with signer out of the config, set $"), strings.Index(out, "to which chain?")
	if said < 0 || first < said {
		t.Fatalf("the missing keystore file not said before the first question (at %d, the question at %d):\n%s", said, first, out)
	}
}
