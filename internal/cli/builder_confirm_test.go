package cli

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/svcwallet/svcwallet/service/sandbox"
	"github.com/svcwallet/svcwallet/signer"
)

// TestBuilderCLIOwnAccount (issue 12 bug 9): --builder naming the signing
// account itself is a warning in the review, before the question: "n"
// sends nothing, --yes goes on (the warning still said).
func TestBuilderCLIOwnAccount(t *testing.T) {
	e := newBcliEnv(t)
	own := []string{"authorize", "--env", "local", "--config", e.config,
		"--builder", sandbox.DemoAddress, "--max-futures-fee", "0.1", "--max-spot-fee", "0.05"}
	const warning = "Warning: The builder is your own account"
	r := bcliOnTerminal(t, demoKeyVars, "n\n", own...)
	if r.code != 1 || !strings.Contains(r.stderr, warning) || !strings.Contains(r.stderr, "not confirmed") || e.requests.Load() != 0 {
		t.Fatalf("exit %d, %d requests:\n%s\n%s", r.code, e.requests.Load(), r.stdout, r.stderr)
	}
	r = bcli(t, demoKeyVars, "", false, append(own, "--yes")...)
	if r.code != 0 || !strings.Contains(r.stdout, warning) {
		t.Fatalf("with --yes: exit %d:\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	r = bcli(t, demoKeyVars, "", false, append(own, "--yes", "--json")...)
	if r.code != 0 || !strings.Contains(r.stderr, warning) || !json.Valid([]byte(r.stdout)) {
		t.Fatalf("with --yes --json: exit %d:\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	r = bcli(t, demoKeyVars, "", false, append(own, "--dry-run")...)
	if r.code != 0 || !strings.Contains(r.stderr, warning) {
		t.Fatalf("dry run: exit %d:\n%s\n%s", r.code, r.stdout, r.stderr)
	}
}

// TestBuilderCLIConfirmation (review item 4): builder authorize follows
// withdraw's rule. Without a terminal and without --yes it refuses (exit 2)
// before any key is opened or request sent; on a terminal it prints what
// will be signed, then asks: anything but y signs and sends nothing, y
// authorizes. --dry-run and --signer offline ask nothing.
func TestBuilderCLIConfirmation(t *testing.T) {
	e := newBcliEnv(t)
	r := bcli(t, demoKeyVars, "y\n", false, unconfirmedArgs(e, keyArgs...)...)
	if r.code != exitUsage || !strings.Contains(r.stderr, "standard input or standard error is not a terminal, so the builder authorization cannot be confirmed") ||
		!strings.Contains(r.stderr, "add --yes") || r.stdout != "" {
		t.Fatalf("no terminal: exit %d:\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	// Not even a passphrase is asked for.
	r = bcli(t, nil, "secret\n", false, unconfirmedArgs(e, "--keystore-file", filepath.Join(t.TempDir(), "none.json"))...)
	if r.code != exitUsage || !strings.Contains(r.stderr, "not a terminal") {
		t.Fatalf("no terminal, keystore: exit %d:\n%s", r.code, r.stderr)
	}
	for _, answer := range []string{"n\n", "\n", "", "yes please\n"} {
		r = bcliOnTerminal(t, demoKeyVars, answer, unconfirmedArgs(e, keyArgs...)...)
		if r.code != exitFailed || !strings.Contains(r.stderr, "Sign and authorize builder 0x70997970C51812dc3A010C7d01b50e0d17dc79C8 to charge fees up to 0.1% on futures and 0.05% on spot, with an API key for Admin and Trade, in environment local? [y/N] ") ||
			!strings.Contains(r.stderr, "not confirmed: nothing was signed or sent") || strings.Contains(r.stdout, "Builder authorized") {
			t.Fatalf("answer %q: exit %d:\n%s\n%s", answer, r.code, r.stdout, r.stderr)
		}
	}
	if n := e.requests.Load(); n != 0 {
		t.Fatalf("%d requests before a yes", n)
	}
	// The review comes first, where the question is (stderr), whatever
	// stdout is (issue 33 item 10): the message field by field (the two fee
	// caps' notes in one column), its digest and the key; then the question; then the authorization, on stdout.
	r = bcliOnTerminal(t, demoKeyVars, "y\n", unconfirmedArgs(e, keyArgs...)...)
	if r.code != 0 {
		t.Fatalf("y: exit %d:\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	review, _, ok := strings.Cut(r.stderr, "Sign and authorize builder ")
	result := r.stdout
	if strings.Contains(result, "To sign") || !strings.Contains(result, "Builder authorized") {
		t.Errorf("stdout holds more than the result:\n%s", result)
	}
	for _, want := range []string{"Builder authorization (authorize and create an API key)", "To sign (EIP-712)", "AddAccountSignerWithBuilder",
		"    maxFutureFeeRate 1000  = 0.1% futures cap\n    maxSpotFeeRate   500   = 0.05% spot cap\n", "    permissions      Admin&Trade", "  Digest             0x",
		"  Signer             " + sandbox.DemoAddress + "  from $SVCWALLET_PRIVATE_KEY"} {
		if !ok || !strings.Contains(review, want) {
			t.Errorf("the review before the question lacks %q:\n%s", want, r.stderr)
		}
	}
	if !strings.Contains(result, "API key ") {
		t.Errorf("result:\n%s", r.stdout)
	}
	// Admin besides Trade is the one thing warned of.
	if strings.Count(review, "Warning") != 1 || !strings.Contains(review, "Warning: The builder's API key also gets Admin; a builder needs only Trade.") {
		t.Errorf("the review's warnings are not Admin's alone:\n%s", review)
	}
	// With --json the review goes to stderr, where the question is: stdout
	// keeps its one document.
	r = bcliOnTerminal(t, demoKeyVars, "y\n", unconfirmedArgs(e, "--json")...)
	var out builderResultJSON
	if r.code != 0 || json.Unmarshal([]byte(r.stdout), &out) != nil || !out.Authorized ||
		!strings.Contains(r.stderr, "To sign (EIP-712)") || !strings.Contains(r.stderr, "[y/N]") {
		t.Fatalf("--json on a terminal: exit %d:\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	// A dry run asks nothing, on a terminal or not.
	for _, terminal := range []bool{false, true} {
		r = bcliRun(t, demoKeyVars, "", true, terminal, unconfirmedArgs(e, "--dry-run")...)
		if r.code != 0 || strings.Contains(r.stderr, "[y/N]") || !strings.Contains(r.stdout, "Dry run: nothing was signed or sent") {
			t.Fatalf("dry run, terminal %v: exit %d:\n%s\n%s", terminal, r.code, r.stdout, r.stderr)
		}
	}
}

// TestBuilderCLIHighFeeWarning (review item 4): a fee cap above 1% is a
// warning line in the review (on stderr with --json or a dry run); 1% is
// not.
func TestBuilderCLIHighFeeWarning(t *testing.T) {
	e := newBcliEnv(t)
	const warning = "Warning: The futures fee cap 2.5% is above 1%: the builder may charge up to 2.5% of every futures trade it makes for you"
	r := bcli(t, demoKeyVars, "", false, authorizeArgs(e, "--max-futures-fee", "2.5")...)
	review, _, _ := strings.Cut(r.stdout, "Builder authorized")
	if r.code != 0 || !strings.Contains(review, warning) || strings.Contains(r.stdout, "spot fee cap") {
		t.Fatalf("exit %d:\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	for _, extra := range [][]string{{"--json"}, {"--dry-run"}, {"--dry-run", "--json"}} {
		r = bcli(t, demoKeyVars, "", false, authorizeArgs(e, append([]string{"--max-futures-fee", "2.5"}, extra...)...)...)
		if r.code != 0 || !strings.Contains(r.stderr, warning) || strings.Contains(r.stdout, "Warning") {
			t.Fatalf("%v: exit %d:\n%s\n%s", extra, r.code, r.stdout, r.stderr)
		}
	}
	r = bcli(t, demoKeyVars, "", false, authorizeArgs(e, "--max-futures-fee", "1", "--max-spot-fee", "1%")...)
	if r.code != 0 || strings.Contains(r.stdout+r.stderr, "Warning") {
		t.Fatalf("1%%: exit %d:\n%s\n%s", r.code, r.stdout, r.stderr)
	}
}

// TestBuilderCLIAsksMissingFlags: on a terminal, a --builder,
// --max-futures-fee or --max-spot-fee not given is asked on stderr, one a
// line as plain mode asks it (builder.Field.Question, checked as typed),
// then the authorization goes on as if given; the input's end leaves the
// usage error of the flag, and without a terminal nothing is asked.
func TestBuilderCLIAsksMissingFlags(t *testing.T) {
	e := newBcliEnv(t)
	args := []string{"authorize", "--config", e.config, "--env", "local", "--max-spot-fee", "0.05"}
	r := bcliOnTerminal(t, demoKeyVars, "0xnot\n"+sandbox.BuilderAddress+"\n\n0.1\ny\n", args...)
	if r.code != 0 || !strings.Contains(r.stderr, "Builder account address (0x and 40 hex digits): Not accepted: ") ||
		strings.Count(r.stderr, "Max futures fee, in percent (such as 0.1): ") != 2 || strings.Contains(r.stderr, "Max spot fee, in percent") ||
		!strings.Contains(r.stdout, "Builder authorized (AuthorizeBuilder") {
		t.Fatalf("exit %d:\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	sent := e.requests.Load()
	r = bcliOnTerminal(t, demoKeyVars, sandbox.BuilderAddress+"\n", args...)
	if r.code != exitUsage || !strings.Contains(r.stderr, "--max-futures-fee: ") {
		t.Fatalf("the input ended: exit %d:\n%s", r.code, r.stderr)
	}
	r = bcli(t, demoKeyVars, sandbox.BuilderAddress+"\n0.1\n", false, append(args, "--yes")...)
	if r.code != exitUsage || strings.Contains(r.stderr, "Builder account address") || !strings.Contains(r.stderr, "--builder: ") {
		t.Fatalf("no terminal: exit %d:\n%s", r.code, r.stderr)
	}
	if n := e.requests.Load(); n != sent {
		t.Fatalf("%d requests after the input ended or without a terminal", n-sent)
	}
}

// TestBuilderCLISaysNoKeyFirst: on a terminal, with no key given (no
// --signer, no $SVCWALLET_PRIVATE_KEY, not the embedded sandbox), builder
// authorize says no key signs (builder.SigningKey) before it asks for the
// builder or a fee cap, and asks nothing; given a key it asks them, and
// given another account's in $SVCWALLET_PRIVATE_KEY it says so first.
func TestBuilderCLISaysNoKeyFirst(t *testing.T) {
	e := newBcliEnv(t)
	args := []string{"authorize", "--config", e.config, "--env", "local"}
	answers := sandbox.BuilderAddress + "\n0.1\n0.05\ny\n"
	r := bcliOnTerminal(t, nil, answers, args...)
	if r.code != exitUsage || !strings.Contains(r.stderr, "no key here signs for the main account, so no builder authorization can be signed here; nothing was asked, signed or sent") ||
		!strings.Contains(r.stderr, "$"+signer.KeyEnvVar) {
		t.Fatalf("no key: exit %d:\n%s", r.code, r.stderr)
	}
	for _, q := range []string{"Builder account address", "Max futures fee", "Max spot fee"} {
		if strings.Contains(r.stderr, q) {
			t.Errorf("%q was asked with no key to sign:\n%s", q, r.stderr)
		}
	}
	if n := e.requests.Load(); n != 0 {
		t.Errorf("%d requests with no key", n)
	}
	r = bcliOnTerminal(t, demoKeyVars, answers, args...)
	if r.code != 0 || !strings.Contains(r.stderr, "Builder account address") || strings.Contains(r.stderr, "no key here") {
		t.Fatalf("with a key: exit %d:\n%s", r.code, r.stderr)
	}
	// The variable holding another account's key is said before any
	// question too: it asked all three, then refused the key.
	other := map[string]string{signer.KeyEnvVar: sandbox.BuilderPrivateKey}
	r = bcliOnTerminal(t, other, answers, append(args, "--account", sandbox.DemoAddress)...)
	if r.code != exitUsage || !strings.Contains(r.stderr, "$"+signer.KeyEnvVar+" holds the key of "+sandbox.BuilderAddress+", not of --account "+sandbox.DemoAddress) ||
		strings.Contains(r.stderr, "Builder account address") || strings.Contains(r.stderr, "Max futures fee") {
		t.Errorf("another account's key in $%s: exit %d:\n%s", signer.KeyEnvVar, r.code, r.stderr)
	}
	r = bcliOnTerminal(t, map[string]string{signer.KeyEnvVar: "0x1234"}, answers, args...)
	if r.code != exitUsage || !strings.Contains(r.stderr, "$"+signer.KeyEnvVar) || strings.Contains(r.stderr, "Builder account address") {
		t.Errorf("not a key in $%s: exit %d:\n%s", signer.KeyEnvVar, r.code, r.stderr)
	}
}
