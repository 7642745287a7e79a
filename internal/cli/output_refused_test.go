package cli

import (
	"bytes"
	"errors"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/svcwallet/svcwallet/service/sandbox"
	"github.com/svcwallet/svcwallet/signer"
)

// takesNothing is a stdout that refuses every write, as /dev/full and a
// pipe whose reader has gone do: the error line after a refused document
// is refused too.
type takesNothing struct{}

func (takesNothing) Write([]byte) (int, error) { return 0, errors.New("no space left on device") }

// TestJSONErrorNotTakenIsSaidOnStderr: with --json an error is a line on
// stdout; one stdout does not take is said on stderr as without --json.
// builder authorize --json --yes > /dev/full authorized the builder and
// made its API key, then exited 5 saying nothing anywhere, so nobody was
// told to revoke the key never shown; a withdrawal whose acceptance was
// refused was not said accepted; a usage error was unsaid.
func TestJSONErrorNotTakenIsSaidOnStderr(t *testing.T) {
	e := newBcliEnv(t)
	var errOut bytes.Buffer
	c := builderCmd{env: CLIEnv{Stdin: strings.NewReader(""), Stdout: takesNothing{}, Stderr: &errOut, Getenv: func(k string) string { return demoKeyVars[k] }},
		now: time.Now, nonce: signer.NewNonce, terminal: func(CLIEnv) bool { return false }}
	code := c.runLine(authorizeArgs(e, append(keyArgs, "--json")...))
	if said := errOut.String(); code != exitError || !strings.Contains(said, "svcwallet builder authorize: the service accepted the authorization, so ") ||
		!strings.Contains(said, sandbox.BuilderAddress+" is authorized, but its answer cannot be written to the output (no space left on device)") ||
		!strings.Contains(said, "revoke it there") {
		t.Errorf("builder authorize --json, stdout taking nothing: exit %d, stderr %q; want 5, authorized and where to revoke, on stderr", code, said)
	}

	r := newStatusRig(t)
	withdrawState(t)
	out := &writesKept{failAt: 1, full: true} // the review taken, then nothing
	r.stdout = out
	res := r.runWithdraw(withdrawRunOpts{}, withdrawArgs(sandbox.DestCompleted, "25", "--yes", "--json")...)
	r.stdout = nil
	id := regexp.MustCompile(`q-[a-z0-9]+`).FindString(out.kept.String())
	if res.code != exitError || id == "" || !strings.Contains(res.stderr, "svcwallet withdraw: withdrawal "+id+" was accepted") {
		t.Errorf("withdraw --json, stdout full after the review: exit %d, stderr %q; want 5 naming the accepted withdrawal on stderr", res.code, res.stderr)
	}
	r.wantBalance("9975")

	errOut.Reset()
	code = Run([]string{"status", "--json", "--jsno"}, CLIEnv{Stdin: strings.NewReader(""), Stdout: takesNothing{}, Stderr: &errOut, Getenv: func(string) string { return "" }})
	if code != exitUsage || !strings.Contains(errOut.String(), "svcwallet status: unknown flag: --jsno") {
		t.Errorf("status --json --jsno, stdout taking nothing: exit %d, stderr %q; want 2 and the usage error", code, errOut.String())
	}
}

// TestWatchEndsAtALineRefused: status --watch and withdraw --wait whose
// stdout refuses a line (status --watch | head -1, the reader gone) stop
// asking and end with the output error: with SIGPIPE caught they asked
// on, unread, until every withdrawal ended, where SIGPIPE had ended them
// at that line.
func TestWatchEndsAtALineRefused(t *testing.T) {
	r := newJournalingRig(t)
	asked := func() int {
		r.mu.Lock()
		defer r.mu.Unlock()
		return len(r.asks)
	}
	ids := []string{r.withdraw(sandbox.DemoAPIKey, sandbox.DemoPrivateKey, sandbox.DestCompleted, true),
		r.withdraw(sandbox.DemoAPIKey, sandbox.DemoPrivateKey, sandbox.DestCompleted, true)}
	before := asked()
	r.stdout = &writesKept{failAt: 0, full: true}
	res := r.run(nil, append([]string{"--watch"}, ids...)...)
	if n := asked() - before; res.code != exitError || !strings.Contains(res.stderr, "svcwallet status: cannot write the output: no space left on device") || n > len(ids) {
		t.Errorf("status --watch, its first line refused: exit %d, %d asks, stderr %q; want 5, cannot write the output, each asked once", res.code, n, res.stderr)
	}

	before = asked()
	out := &writesKept{failAt: -1}
	r.stdout = out
	r.runWithdraw(withdrawRunOpts{}, withdrawArgs(sandbox.DestCompleted, "25", "--yes", "--json")...).want(t, exitCompleted)
	r.stdout = &writesKept{failAt: len(out.writes), full: true} // the follow's first line
	w := r.runWithdraw(withdrawRunOpts{}, withdrawArgs(sandbox.DestCompleted, "25", "--yes", "--wait", "--json")...)
	r.stdout = nil
	if n := asked() - before; w.code != exitError || n != 1 || !strings.Contains(w.stderr, "was accepted, but its status cannot be written to the output") {
		t.Errorf("withdraw --wait --json, the follow's first line refused: exit %d, %d asks, stderr %q; want 5, asked once, said accepted", w.code, n, w.stderr)
	}
}
