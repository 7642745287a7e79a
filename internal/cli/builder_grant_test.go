package cli

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/svcwallet/svcwallet/service/sandbox"
)

// withdrawKey gives the builder an API key that may withdraw, its grant
// not named again.
var withdrawKey = []string{"--api-key-signer", sandbox.NoChainAddress, "--permissions", "Trade,Withdraw", "--label", "bot"}

// TestBuilderCLIGrantNeedsItsOwnAnswer: an API key that may move funds
// (builder.AcceptsGrant) is not granted on --yes alone, nor prepared for
// offline signing without --grant (usage errors naming the
// flag, before a key is opened or a request made); a --grant
// unlike --permissions is refused, in a dry run too; named exactly, --yes
// grants it, and it is prepared for offline signing.
func TestBuilderCLIGrantNeedsItsOwnAnswer(t *testing.T) {
	e := newBcliEnv(t)
	out := filepath.Join(t.TempDir(), "b.json")
	for name, args := range map[string][]string{
		"--yes alone": authorizeArgs(e, withdrawKey...),
		"offline":     unconfirmedArgs(e, append(withdrawKey, "--signer", "offline", "--account", sandbox.DemoAddress, "--out", out)...),
	} {
		r := bcli(t, demoKeyVars, "", false, args...)
		if r.code != exitUsage || !strings.Contains(r.stderr, "The builder's API key gets Withdraw: the builder may move or administer your account's funds; --yes alone does not grant it: add --grant 'Withdraw&Trade'") {
			t.Errorf("%s: exit %d:\n%s%s", name, r.code, r.stdout, r.stderr)
		}
	}
	r := bcli(t, demoKeyVars, "", false, authorizeArgs(e, append(withdrawKey, "--grant", "Trade")...)...)
	if r.code != exitUsage || !strings.Contains(r.stderr, "the grant named, Trade, is not the API key's permissions (Withdraw&Trade)") {
		t.Errorf("unlike: exit %d:\n%s", r.code, r.stderr)
	}
	// A dry run rehearses the command: --grant is read there too.
	r = bcli(t, demoKeyVars, "", false, authorizeArgs(e, append(withdrawKey, "--grant", "Trade", "--dry-run")...)...)
	if r.code != exitUsage || !strings.Contains(r.stderr, "the grant named, Trade, is not the API key's permissions (Withdraw&Trade)") {
		t.Errorf("unlike, dry run: exit %d:\n%s", r.code, r.stderr)
	}
	if n := e.requests.Load(); n != 0 {
		t.Fatalf("%d requests for grants refused", n)
	}
	r = bcli(t, demoKeyVars, "", false, authorizeArgs(e, append(withdrawKey, "--grant", "withdraw&trade")...)...)
	if r.code != 0 || !strings.Contains(r.stdout, "Builder authorized") {
		t.Fatalf("named exactly: exit %d:\n%s%s", r.code, r.stdout, r.stderr)
	}
	r = bcli(t, demoKeyVars, "", false, unconfirmedArgs(e, append(withdrawKey, "--grant", "Withdraw&Trade", "--signer", "offline", "--account", sandbox.DemoAddress, "--out", out)...)...)
	if r.code != 0 {
		t.Fatalf("named exactly, offline: exit %d:\n%s%s", r.code, r.stdout, r.stderr)
	}
}

// TestBuilderCLIGrantAskedAgain: on a terminal without --yes, a key that
// may move funds is asked of again after the question that
// signs: only a second y authorizes it.
func TestBuilderCLIGrantAskedAgain(t *testing.T) {
	e := newBcliEnv(t)
	const second = "The builder's API key gets Withdraw: the builder may move or administer your account's funds. Grant it all the same? [y/N] "
	for _, answer := range []string{"y\nn\n", "y\n\n", "y\n"} {
		r := bcliOnTerminal(t, demoKeyVars, answer, unconfirmedArgs(e, withdrawKey...)...)
		if r.code != exitFailed || !strings.Contains(r.stderr, "Withdraw and Trade, in environment local? [y/N] "+second) || strings.Contains(r.stdout, "Builder authorized") {
			t.Errorf("answers %q: exit %d:\n%s%s", answer, r.code, r.stdout, r.stderr)
		}
	}
	if n := e.requests.Load(); n != 0 {
		t.Fatalf("%d requests before the second yes", n)
	}
	r := bcliOnTerminal(t, demoKeyVars, "y\ny\n", unconfirmedArgs(e, withdrawKey...)...)
	if r.code != 0 || !strings.Contains(r.stderr, second) || !strings.Contains(r.stdout, "Builder authorized") {
		t.Fatalf("two yeses: exit %d:\n%s%s", r.code, r.stdout, r.stderr)
	}
	// Trade alone asks once.
	r = bcliOnTerminal(t, demoKeyVars, "y\n", unconfirmedArgs(e, "--api-key-signer", sandbox.NoChainAddress, "--permissions", "Trade", "--label", "bot")...)
	if r.code != 0 || strings.Contains(r.stderr, "Grant it") {
		t.Fatalf("Trade: exit %d:\n%s%s", r.code, r.stdout, r.stderr)
	}
}
