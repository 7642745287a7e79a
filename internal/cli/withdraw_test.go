package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/charmbracelet/x/exp/golden"
	"github.com/shopspring/decimal"

	"github.com/svcwallet/svcwallet/internal/plain"
	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/follow"
	"github.com/svcwallet/svcwallet/service/sandbox"
	"github.com/svcwallet/svcwallet/signer"
)

// wcliNonce is the first Transfer nonce of a rig's withdraw runs; each
// draw takes the next.
const wcliNonce = 4242

type withdrawRun struct {
	code           int
	stdout, stderr string
}

// withdrawRunOpts: what a run of `svcwallet withdraw` gets besides its
// arguments.
type withdrawRunOpts struct {
	terminal bool   // stdin is a terminal
	stdin    string // what the user types
	// answer, when set, is the standard input instead of stdin.
	answer io.Reader
	// typedAhead: stdin, a terminal, holds it all unread before anything
	// is asked, and a discard drops it.
	typedAhead bool
}

// runWithdraw runs `svcwallet withdraw args...` against the rig's sandbox
// "local", on its fake clock (waits advance it), with the demo API key and
// private key, a fixed nonce and retries that do not wait.
func (r *statusRig) runWithdraw(o withdrawRunOpts, args ...string) withdrawRun {
	r.t.Helper()
	var out, errOut bytes.Buffer
	var stdin io.Reader = strings.NewReader(o.stdin)
	if o.answer != nil {
		stdin = o.answer
	}
	env := CLIEnv{Stdin: stdin, Stdout: r.output(&out), Stderr: r.errOutput(&errOut), Getenv: func(k string) string {
		switch k {
		case apiKeyVar:
			return sandbox.DemoAPIKey
		case signer.KeyEnvVar:
			return sandbox.DemoPrivateKey
		}
		return ""
	}}
	if o.typedAhead {
		env.Terminal = func() plain.Gate {
			return plain.Gate{Now: r.now, Flush: func() (bool, error) {
				n, err := io.Copy(io.Discard, stdin)
				return n > 0, err
			}}
		}
	}
	c := withdrawCmd{env: env, now: r.now, nonce: func() uint32 { return wcliNonce + r.nonces.Add(1) - 1 },
		jitter: func(int64) int64 { return 0 },
		sleep:  func(_ context.Context, d time.Duration) error { r.clock.Advance(d); return nil },
		retry: exchange.RetryPolicy{Attempts: 3, Base: time.Millisecond, Max: time.Millisecond,
			Sleep: func(_ context.Context, d time.Duration) error { r.clock.Advance(d); return nil }},
		terminal: func(CLIEnv) bool { return o.terminal },
	}
	code := c.runLine(append([]string{"--config", r.config}, args...))
	return withdrawRun{code, out.String(), errOut.String()}
}

func (res withdrawRun) want(t *testing.T, code int, out ...string) {
	t.Helper()
	if res.code != code {
		t.Fatalf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", res.code, code, res.stdout, res.stderr)
	}
	for _, w := range out {
		if !strings.Contains(res.stdout+res.stderr, w) {
			t.Errorf("output lacks %q:\nstdout:\n%s\nstderr:\n%s", w, res.stdout, res.stderr)
		}
	}
}

// withdrawState gives the test its own state directory (journal, bridge pins).
func withdrawState(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	t.Setenv("XDG_STATE_HOME", dir)
	return filepath.Join(dir, "svcwallet")
}

// newJournalingRig is a status rig on a fresh state folder (withdrawState),
// where withdraw journals and records the bridge address.
func newJournalingRig(t *testing.T) *statusRig {
	t.Helper()
	withdrawState(t)
	return newStatusRig(t)
}

func withdrawArgs(dest, amount string, extra ...string) []string {
	return append([]string{"--chain", "arbitrum", "--to", dest, "--amount", amount}, extra...)
}

func (r *statusRig) balance() decimal.Decimal { return r.ex.Balance(sandbox.DemoAccountID) }

func (r *statusRig) wantBalance(want string) {
	r.t.Helper()
	if got := r.balance(); !got.Equal(decimal.RequireFromString(want)) {
		r.t.Errorf("balance %s, want %s", got, want)
	}
}

// quoteIDOf finds the quote id the command printed.
func quoteIDOf(t *testing.T, out string) string {
	t.Helper()
	i := strings.Index(out, "q-")
	if i < 0 {
		t.Fatalf("no quote id in %s", out)
	}
	return strings.FieldsFunc(out[i:], func(r rune) bool { return !(r == '-' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9') })[0]
}

// TestWithdrawWait: --yes --wait signs, journals, sends and follows to the
// end with the exit statuses of status; the journal holds the intent, the
// acceptance and the final state.
func TestWithdrawWait(t *testing.T) {
	cases := []struct {
		name, dest, state string
		code              int
		balance           string
	}{
		{"completed", sandbox.DestCompleted, "COMPLETED", exitCompleted, "9975"},
		{"failed", sandbox.DestFailed, "FAILED", exitFailed, "10000"},
		{"refunded", sandbox.DestRefunded, "REFUNDED", exitFailed, "10000"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			withdrawState(t)
			r := newStatusRig(t)
			res := r.runWithdraw(withdrawRunOpts{}, withdrawArgs(tc.dest, "25", "--yes", "--wait")...)
			res.want(t, tc.code, "Withdrawal accepted (SUBMITTED): 23.5 USDT", "State        "+tc.state, "SENDING    q-")
			id := quoteIDOf(t, res.stdout)
			if got := journalStates(t, id); strings.Join(got, " ") != "accepted SENDING "+tc.state {
				t.Errorf("journaled %v", got)
			}
			if n := r.withdraws.Load(); n != 1 {
				t.Errorf("%d withdraw requests, want 1", n)
			}
			if tc.state != "FAILED" { // FAILED keeps the debit pending support
				r.wantBalance(tc.balance)
			}
		})
	}
}

// TestWithdrawJSONStream: --json prints the review, the acceptance and
// the followed states, one object a line.
func TestWithdrawJSONStream(t *testing.T) {
	r := newJournalingRig(t)
	res := r.runWithdraw(withdrawRunOpts{}, withdrawArgs(sandbox.DestCompleted, "25", "--yes", "--wait", "--json")...)
	res.want(t, exitCompleted)
	lines := strings.Split(strings.TrimSpace(res.stdout), "\n")
	var review reviewJSON
	var acc struct {
		Accepted bool   `json:"accepted"`
		QuoteID  string `json:"quote_id"`
	}
	if err := json.Unmarshal([]byte(lines[0]), &review); err != nil || review.Digest == "" || review.DryRun {
		t.Fatalf("review line %s: %v", lines[0], err)
	}
	if err := json.Unmarshal([]byte(lines[1]), &acc); err != nil || !acc.Accepted || acc.QuoteID != review.QuoteID {
		t.Fatalf("acceptance line %s: %v", lines[1], err)
	}
	var last exchange.Withdrawal
	if err := json.Unmarshal([]byte(lines[len(lines)-1]), &last); err != nil || last.State != exchange.StateCompleted {
		t.Fatalf("last line %s: %v", lines[len(lines)-1], err)
	}
}

// TestJSONLinesSayWhatTheyAre: every line of withdraw --wait --json says
// its kind, review, accepted, change (a state seen) and final (the record
// it ends with), and its times are RFC 3339 in whole seconds, as in CSV,
// though the service's are not (issue 28 item 13).
func TestJSONLinesSayWhatTheyAre(t *testing.T) {
	r := newJournalingRig(t)
	r.clock.Advance(1250 * time.Millisecond)
	res := r.runWithdraw(withdrawRunOpts{}, withdrawArgs(sandbox.DestCompleted, "25", "--yes", "--wait", "--json")...)
	res.want(t, exitCompleted)
	var kinds []string
	whole := regexp.MustCompile(`^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$`)
	for _, line := range strings.Split(strings.TrimSpace(res.stdout), "\n") {
		var l struct {
			Kind      string `json:"kind"`
			UpdatedAt string `json:"updated_at"`
			ExpiresAt string `json:"quote_expires_at"`
		}
		if err := json.Unmarshal([]byte(line), &l); err != nil {
			t.Fatalf("not a JSON line: %q", line)
		}
		kinds = append(kinds, l.Kind)
		for _, at := range []string{l.UpdatedAt, l.ExpiresAt} {
			if at != "" && !whole.MatchString(at) {
				t.Errorf("a time not in whole seconds: %s in %s", at, line)
			}
		}
	}
	if got := strings.Join(kinds, " "); !regexp.MustCompile(`^review accepted (change )+final$`).MatchString(got) {
		t.Errorf("kinds %s", got)
	}
	if one := r.run(nil, quoteIDOf(t, res.stdout), "--json"); !strings.HasPrefix(one.stdout, `{"kind":"status",`) {
		t.Errorf("status without --watch: %s", one.stdout)
	}
}

// TestWithdrawRefusalsSendNothing: a refusal before signing sends no
// withdraw request and says why, in the error shape of every command.
func TestWithdrawRefusalsSendNothing(t *testing.T) {
	state := withdrawState(t)
	r := newStatusRig(t)
	r.runWithdraw(withdrawRunOpts{}, withdrawArgs(sandbox.DestCompleted, "25", "--yes", "--max-fee", "1")...).
		want(t, exitFailed, "not signed: the fee 1.5 USDT is above your cap of 1 USDT; nothing was sent")
	res := r.runWithdraw(withdrawRunOpts{}, withdrawArgs(sandbox.DestCompleted, "25", "--yes", "--max-fee", "1", "--json")...)
	var e errorJSON
	if err := json.Unmarshal([]byte(res.stdout), &e); err != nil || e.Error.Exit != exitFailed || e.Error.Code != "failed" {
		t.Errorf("--json refusal %s: %v", res.stdout, err)
	}
	r.runWithdraw(withdrawRunOpts{}, withdrawArgs("0x3C44CdDdB6a900fa2b585dd299e03d12FA4293Bc", "25", "--yes")...).
		want(t, exitUsage, "checksum")
	r.runWithdraw(withdrawRunOpts{}, withdrawArgs(sandbox.DestCompleted, "25.0000001", "--yes")...).want(t, exitUsage)
	r.runWithdraw(withdrawRunOpts{}, "--chain", "narnia", "--to", sandbox.DestCompleted, "--amount", "25", "--yes").
		want(t, exitUsage, `--chain "narnia" is not a USDT withdrawal chain of local; its chains are: `, "ARBITRUM")
	r.runWithdraw(withdrawRunOpts{}, withdrawArgs(sandbox.DestCompleted, "25", "--yes", "--token-out", "DOGE")...).
		want(t, exitUsage, "is not paid out on ARBITRUM")

	// A bridge address other than the one recorded for "local".
	if err := os.MkdirAll(state, 0o700); err != nil {
		t.Fatal(err)
	}
	pins := `{"local": {"address": "0x70997970C51812dc3A010C7d01b50e0d17dc79C8", "first_seen": "2026-01-02T00:00:00Z"}}`
	if err := os.WriteFile(filepath.Join(state, "bridge_pins.json"), []byte(pins), 0o600); err != nil {
		t.Fatal(err)
	}
	r.runWithdraw(withdrawRunOpts{}, withdrawArgs(sandbox.DestCompleted, "25", "--yes")...).
		want(t, exitFailed, "but 0x70997970C51812dc3A010C7d01b50e0d17dc79C8 has been used for environment \"local\" since 2026-01-02: nothing was signed")
	if n := r.withdraws.Load(); n != 0 {
		t.Errorf("%d withdraw requests after refusals, want 0", n)
	}
	r.wantBalance("10000")
}

// TestWithdrawFlagged: a destination flagged by screening at execution is
// the service's refusal: exit 1, journaled as refused, nothing paid.
func TestWithdrawFlagged(t *testing.T) {
	r := newJournalingRig(t)
	res := r.runWithdraw(withdrawRunOpts{}, withdrawArgs(sandbox.DestFlagged, "25", "--yes", "--wait")...)
	res.want(t, exitFailed, "not withdrawn:", "screening")
	if strings.Contains(res.stdout, "accepted") {
		t.Errorf("a refusal printed as accepted:\n%s", res.stdout)
	}
	r.wantBalance("10000")
}

// TestWithdrawConfirmation: without a terminal and without --yes nothing is
// asked or sent (exit 2); on a terminal the answer decides.
func TestWithdrawConfirmation(t *testing.T) {
	r := newJournalingRig(t)
	r.runWithdraw(withdrawRunOpts{stdin: "y\n"}, withdrawArgs(sandbox.DestCompleted, "25")...).
		want(t, exitUsage, "standard input or standard error is not a terminal", "add --yes")
	r.runWithdraw(withdrawRunOpts{terminal: true, stdin: "n\n"}, withdrawArgs(sandbox.DestCompleted, "25")...).
		want(t, exitFailed, "Sign and withdraw 25 USDT (23.5 USDT received) to "+sandbox.DestCompleted+" on ARBITRUM, in environment local? [y/N]", "not confirmed: nothing was signed or sent")
	r.runWithdraw(withdrawRunOpts{terminal: true}, withdrawArgs(sandbox.DestCompleted, "25")...).
		want(t, exitFailed, "not confirmed")
	if n := r.withdraws.Load(); n != 0 {
		t.Fatalf("%d withdraw requests without a yes, want 0", n)
	}
	r.runWithdraw(withdrawRunOpts{terminal: true, stdin: "y\n"}, withdrawArgs(sandbox.DestCompleted, "25")...).
		want(t, exitCompleted, "Withdrawal accepted")
	if n := r.withdraws.Load(); n != 1 {
		t.Errorf("%d withdraw requests after y, want 1", n)
	}
}

// TestWithdrawReviewWhereAsked (issue 33 item 10): on a terminal the review
// is written where the question is (stderr), whatever stdout is (a file
// here); stdout gets the result. With --json, stdout keeps its lines and
// the review is on stderr all the same.
func TestWithdrawReviewWhereAsked(t *testing.T) {
	r := newJournalingRig(t)
	res := r.runWithdraw(withdrawRunOpts{terminal: true, stdin: "y\n"}, withdrawArgs(sandbox.DestCompleted, "25")...)
	res.want(t, exitCompleted, "Withdrawal accepted")
	review, _, asked := strings.Cut(res.stderr, withdrawAsked)
	for _, w := range []string{"Environment local", "Pays out to      " + sandbox.DestCompleted, "To sign (EIP-712)", "  Digest  ", "Signer "} {
		if !asked || !strings.Contains(review, w) {
			t.Errorf("no %q on stderr before the question:\n%s", w, res.stderr)
		}
	}
	if strings.Contains(res.stdout, "To sign") || strings.Contains(res.stdout, "Pays out to") || !strings.Contains(res.stdout, "Withdrawal accepted") {
		t.Errorf("stdout:\n%s", res.stdout)
	}
	res = r.runWithdraw(withdrawRunOpts{terminal: true, stdin: "y\n"}, withdrawArgs(sandbox.DestCompleted, "25", "--json", "--allow-repeat")...)
	res.want(t, exitCompleted, `"kind":"review"`, `"kind":"accepted"`)
	if review, _, _ := strings.Cut(res.stderr, withdrawAsked); !strings.Contains(review, "To sign (EIP-712)") || strings.Contains(res.stdout, "To sign") {
		t.Errorf("--json on a terminal:\nstdout:\n%s\nstderr:\n%s", res.stdout, res.stderr)
	}
}

// TestWithdrawDryRun: --dry-run prints the quote and typed data, needs no
// key and sends no withdraw.
func TestWithdrawDryRun(t *testing.T) {
	r := newJournalingRig(t)
	res := r.runWithdraw(withdrawRunOpts{}, withdrawArgs(sandbox.DestCompleted, "25", "--dry-run")...)
	res.want(t, 0, "You receive      23.5 USDT", "Speed            fast", "numTokens      25000000  = 25 USDT, the quote's pay amount",
		"Dry run: nothing was signed or sent.", `"primaryType": "Transfer"`, "nonce          4242")
	if n := r.withdraws.Load(); n != 0 {
		t.Errorf("%d withdraw requests in a dry run, want 0", n)
	}
}

// faultWhile makes every withdraw that reaches phase fail with f while on is set.
func (r *statusRig) faultWhile(on *atomic.Bool, phase string, f sandbox.Fault) {
	r.ex.InjectWithdrawFault(func(p string) sandbox.Fault {
		if on.Load() && p == phase {
			return f
		}
		return sandbox.FaultNone
	})
}

// TestWithdrawResume: a request left without an answer exits 5 naming
// resume; resume re-sends it identically while its quote is valid and
// follows it, paid once; once the quote expired it asks, and says nothing
// was paid only past the margin on the service's clock (exit 3 before).
func TestWithdrawResume(t *testing.T) {
	r := newJournalingRig(t)
	var down atomic.Bool
	down.Store(true)
	r.faultWhile(&down, sandbox.PhaseBeforeCommit, sandbox.FaultBadGateway)
	res := r.runWithdraw(withdrawRunOpts{}, withdrawArgs(sandbox.DestCompleted, "25", "--yes", "--wait")...)
	res.want(t, exitError, "run svcwallet withdraw resume q-")
	id := quoteIDOf(t, res.stderr)
	r.wantBalance("10000")
	down.Store(false)
	sent := r.withdraws.Load()
	r.runWithdraw(withdrawRunOpts{}, "resume", id).want(t, exitCompleted, "Withdrawal accepted", "State        COMPLETED")
	if n := r.withdraws.Load() - sent; n != 1 {
		t.Errorf("resume sent %d withdraw requests, want 1", n)
	}
	r.wantBalance("9975")
	r.runWithdraw(withdrawRunOpts{}, "resume", id).want(t, exitCompleted, "State        COMPLETED") // followed only
	if n := r.withdraws.Load() - sent; n != 1 {
		t.Errorf("a second resume sent again (%d requests)", n)
	}
	r.runWithdraw(withdrawRunOpts{}, "resume", "q-unknown").want(t, exitNotFound, "no withdrawal q-unknown of this account")

	// Lost again; by the time of resume its quote has expired: never arrived.
	down.Store(true)
	res = r.runWithdraw(withdrawRunOpts{}, withdrawArgs(sandbox.DestCompleted, "25", "--yes")...)
	res.want(t, exitError, "svcwallet withdraw resume")
	id = quoteIDOf(t, res.stderr)
	down.Store(false)
	r.clock.Advance(2 * sandbox.DefaultQuoteTTL)
	// Expired, but within the margin a request on its way may still execute
	// it: not decided, and an identical withdrawal is still refused.
	r.runWithdraw(withdrawRunOpts{}, "resume", id).want(t, exitPending, "withdrawal "+id+": whether it arrived cannot be told yet", "svcwallet withdraw resume "+id, "again after that")
	r.runWithdraw(withdrawRunOpts{}, withdrawArgs(sandbox.DestCompleted, "25", "--yes")...).want(t, exitFailed, "got no answer and may have been paid")
	r.clock.Advance(follow.ExecutableMargin)
	// Named as every view names it, the first time (asked) and the next
	// (from the journal) alike.
	expired := "withdrawal " + id + " EXPIRED: " + exchange.ExpiredWords + "\n"
	r.runWithdraw(withdrawRunOpts{}, "resume", id).want(t, exitFailed, expired)
	r.runWithdraw(withdrawRunOpts{}, "resume", id).want(t, exitFailed, expired)
	r.wantBalance("9975")
}

// TestWithdrawExactlyOnce: an answer dropped after the exchange committed
// is retried with the identical request, which is answered with the
// original acceptance: paid once.
func TestWithdrawExactlyOnce(t *testing.T) {
	r := newJournalingRig(t)
	var drop atomic.Bool
	drop.Store(true)
	r.ex.InjectWithdrawFault(func(p string) sandbox.Fault {
		if p == sandbox.PhaseAfterCommit && drop.CompareAndSwap(true, false) {
			return sandbox.FaultDrop
		}
		return sandbox.FaultNone
	})
	r.runWithdraw(withdrawRunOpts{}, withdrawArgs(sandbox.DestCompleted, "25", "--yes", "--wait")...).
		want(t, exitCompleted, "Withdrawal accepted", "State        COMPLETED")
	if n := r.withdraws.Load(); n != 2 {
		t.Errorf("%d withdraw requests, want 2 (one dropped, one retried)", n)
	}
	r.wantBalance("9975")
}

// withdrawJSONGolden pins the --json review (and the acceptance) on a fixed
// clock and nonce: TestJSONGolden/withdraw.
func withdrawJSONGolden(t *testing.T) {
	withdrawState(t)
	// The session outlives the real clock's distance to the fixed one.
	r := newStatusRigWith(t, sandbox.Options{SessionTTL: 20 * 365 * 24 * time.Hour})
	r.clock.Set(bcliNow)
	dry := r.runWithdraw(withdrawRunOpts{}, withdrawArgs(sandbox.DestCompleted, "25", "--max-fee", "2", "--dry-run", "--json")...)
	run := r.runWithdraw(withdrawRunOpts{}, withdrawArgs(sandbox.DestCompleted, "25", "--yes", "--json")...)
	if dry.code != 0 || run.code != 0 {
		t.Fatalf("exits %d %d: %s %s", dry.code, run.code, dry.stderr, run.stderr)
	}
	golden.RequireEqual(t, fmt.Sprintf("# withdraw --dry-run --json\n%s# withdraw --yes --json\n%s",
		maskJSON(dry.stdout, "quote_id", "base_url"), maskJSON(run.stdout, "quote_id", "tx_id", "base_url")))
}

// TestWithdrawWaitsOutRateLimits: against a service that allows one request
// a second, withdraw waits out each 429 (Retry-After) for the withdrawal
// info, the clock and the quote instead of failing, and pays once.
func TestWithdrawWaitsOutRateLimits(t *testing.T) {
	withdrawState(t)
	r := newStatusRigWith(t, sandbox.Options{RateLimit: 1})
	res := r.runWithdraw(withdrawRunOpts{}, withdrawArgs(sandbox.DestCompleted, "25", "--yes")...)
	res.want(t, 0, "Withdrawal accepted (SUBMITTED): 23.5 USDT")
	r.mu.Lock()
	limited := len(r.rejected)
	r.mu.Unlock()
	if limited == 0 {
		t.Fatal("no request was refused with 429: the rate limit was not met")
	}
	if n := r.withdraws.Load(); n < 1 {
		t.Fatalf("%d withdraw requests", n)
	}
	r.wantBalance("9975")
}

// TestWithdrawBadAmountSaidFirst: an --amount or --max-fee that is no
// amount is said before the key is looked for, so a script's author fixes
// it first and not after choosing a key.
func TestWithdrawBadAmountSaidFirst(t *testing.T) {
	r := newJournalingRig(t)
	noKey := []string{"--yes", "--keystore-file", filepath.Join(t.TempDir(), "absent.json")}
	r.runWithdraw(withdrawRunOpts{}, withdrawArgs(sandbox.DestCompleted, "abc", noKey...)...).
		want(t, exitUsage, "amount may hold only digits and one decimal point")
	r.runWithdraw(withdrawRunOpts{}, withdrawArgs(sandbox.DestCompleted, "25", append(noKey, "--max-fee", "lots")...)...).
		want(t, exitUsage, "fee cap must be a plain decimal")
	if n := r.withdraws.Load(); n != 0 {
		t.Errorf("%d withdraw requests, want 0", n)
	}
}

// TestStatusOfARefusedWithdrawal (seen in a walk): status of a quote whose
// execute the service refused (screening) says what history says, from
// this machine's journal and saying so: REFUSED, the reason, exit 1; not
// CREATED, "asked again until", exit 3.
func TestStatusOfARefusedWithdrawal(t *testing.T) {
	r := newJournalingRig(t)
	res := r.runWithdraw(withdrawRunOpts{}, withdrawArgs(sandbox.DestFlagged, "25", "--yes")...)
	res.want(t, exitFailed, "screening")
	id := quoteIDOf(t, res.stdout+res.stderr)
	st := r.run(nil, id)
	if st.code != exitFailed || !strings.Contains(st.stdout, "REFUSED") || !strings.Contains(st.stdout, "This machine's journal holds the refusal") ||
		!strings.Contains(st.stdout, "Reason:") || strings.Contains(st.stdout, "asked again") {
		t.Errorf("status of the refused quote: exit %d\n%s%s", st.code, st.stdout, st.stderr)
	}
	js := r.run(nil, id, "--json")
	if !strings.Contains(js.stdout, `"outcome":"REFUSED"`) || !strings.Contains(js.stdout, `"state":"CREATED"`) {
		t.Errorf("status --json of the refused quote:\n%s", js.stdout)
	}
}

// TestWithdrawOutsideTheBook: a destination outside the address book is
// refused at the quote; on the embedded sandbox, whose book is fixed and
// has no web UI, the refusal says so and where its destinations are listed,
// and another environment keeps the real service's words.
func TestWithdrawOutsideTheBook(t *testing.T) {
	r := newJournalingRig(t)
	outside := "0x1111111111111111111111111111111111111111"
	sandboxWords := "not quoted: The destination is not in the sandbox's address book, which is fixed (the sandbox has no web UI to add one in): pay out to one of its destinations, which `svcwallet sandbox` prints; nothing was sent"
	res := r.runWithdraw(withdrawRunOpts{}, withdrawArgs(outside, "25", "--yes", "--env", "sandbox")...)
	res.want(t, exitFailed, sandboxWords)
	if strings.Contains(res.stderr, "web UI first") {
		t.Errorf("the sandbox refusal names a web UI:\n%s", res.stderr)
	}
	res = r.runWithdraw(withdrawRunOpts{}, withdrawArgs(outside, "25", "--yes")...)
	res.want(t, exitFailed, "not quoted: The destination is not in the withdrawal address book: add it in the web UI first; nothing was sent")
}
