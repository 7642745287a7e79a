package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/follow"
	"github.com/svcwallet/svcwallet/service/sandbox"
)

// dropAnswers makes the rig's server a proxy that passes every withdraw
// request on to the sandbox (which executes it, or answers a repeat with
// its first 202) and drops the answer while drop is set: the connection
// closes with no answer, as a proxy timing out does.
func (r *statusRig) dropAnswers(drop *atomic.Bool) {
	hook := func(w http.ResponseWriter, req *http.Request, ex http.Handler) bool {
		if !drop.Load() {
			return false
		}
		ex.ServeHTTP(httptest.NewRecorder(), req)
		conn, _, err := http.NewResponseController(w).Hijack()
		if err != nil {
			panic(http.ErrAbortHandler)
		}
		conn.Close()
		return true
	}
	r.withdrawHook.Store(&hook)
}

// TestWithdrawRefusesRepeatOfUnanswered: the reviewer's reproduction. A
// proxy drops the answer to a withdrawal of 14 USDT on BASE: exit 5, paid.
// The same command again is refused before signing (exit 1, the earlier
// quote id and how to resume it, --json too), sending nothing; resume
// settles the first, after which the same withdrawal goes through, with a
// warning while an identical one is accepted and unfinished; and
// --allow-repeat signs past another unanswered one.
func TestWithdrawRefusesRepeatOfUnanswered(t *testing.T) {
	state := withdrawState(t)
	r := newStatusRig(t)
	var drop atomic.Bool
	r.dropAnswers(&drop)
	args := []string{"--env", "local", "--chain", "base", "--to", sandbox.DestCompleted, "--amount", "14", "--yes"}

	drop.Store(true)
	res := r.runWithdraw(withdrawRunOpts{}, args...)
	res.want(t, exitError, "no answer from the service", "svcwallet withdraw resume q-")
	first := quoteIDOf(t, res.stderr)
	r.wantBalance("9986")

	// A script retrying on exit 5, or a person running it again.
	sent := r.withdraws.Load()
	refused := "An earlier withdrawal of 14 USDT to " + sandbox.DestCompleted + " on BASE (" + first
	for range 2 {
		res = r.runWithdraw(withdrawRunOpts{}, args...)
		res.want(t, exitFailed, refused, "got no answer and may have been paid: run svcwallet withdraw resume "+first+" --env local --config "+r.config+" first",
			"nothing was signed or sent", "add --allow-repeat")
		if strings.Contains(res.stdout, "Withdrawal accepted") || strings.Contains(res.stdout, "To sign (EIP-712)") {
			t.Errorf("the refused repeat was reviewed or accepted:\n%s", res.stdout)
		}
	}
	res = r.runWithdraw(withdrawRunOpts{}, append(args, "--json")...)
	var e errorJSON
	if err := json.Unmarshal([]byte(res.stdout), &e); err != nil || e.Error.Exit != exitFailed || e.Error.Code != "failed" || e.QuoteID != first ||
		!strings.Contains(e.Error.Message, refused) {
		t.Errorf("--json refusal %s: %v", res.stdout, err)
	}
	// Offline preparation is refused the same way, and a bridge change
	// accepted with it is not recorded (found by review: it was, before
	// the refusal).
	pins := filepath.Join(state, "bridge_pins.json")
	const old = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8"
	if err := os.WriteFile(pins, []byte(`{"local": {"address": "`+old+`", "first_seen": "2026-01-02T00:00:00Z"}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	r.runWithdraw(withdrawRunOpts{}, "--env", "local", "--chain", "base", "--to", sandbox.DestCompleted, "--amount", "14",
		"--signer", "offline", "--account", sandbox.DemoAddress, "--out", t.TempDir()+"/t.json", "--accept-bridge", sandbox.BridgeFundingAddress).
		want(t, exitFailed, refused, "resume "+first)
	if b, err := os.ReadFile(pins); err != nil || !strings.Contains(string(b), old) {
		t.Fatalf("a refused offline preparation recorded the accepted bridge address: %s (%v)", b, err)
	}
	if err := os.Remove(pins); err != nil {
		t.Fatal(err)
	}
	if n := r.withdraws.Load() - sent; n != 0 {
		t.Fatalf("the refused repeats sent %d withdraw requests", n)
	}
	r.wantBalance("9986")

	// Resumed, the first is settled: the identical request is answered with
	// its acceptance and followed to its end.
	drop.Store(false)
	r.runWithdraw(withdrawRunOpts{}, "resume", first, "--env", "local").want(t, exitCompleted, "Withdrawal accepted", "State        COMPLETED")
	r.wantBalance("9986")
	res = r.runWithdraw(withdrawRunOpts{}, args...)
	res.want(t, exitCompleted, "Withdrawal accepted")
	second := quoteIDOf(t, res.stdout[strings.Index(res.stdout, "Withdrawal accepted"):])
	if strings.Contains(res.stderr, "identical") {
		t.Errorf("a finished identical withdrawal drew a warning:\n%s", res.stderr)
	}
	r.wantBalance("9972")

	// The second is accepted and unfinished: a third is only warned about.
	// Its answer is dropped too.
	drop.Store(true)
	res = r.runWithdraw(withdrawRunOpts{}, args...)
	res.want(t, exitError, "warning: an identical withdrawal of 14 USDT to "+sandbox.DestCompleted+" on BASE ("+second+") was made", "is SUBMITTED, not finished: this one pays again")
	third := quoteIDOf(t, res.stderr[strings.Index(res.stderr, "no answer from the service"):])
	r.wantBalance("9958")

	// --allow-repeat pays again past the unanswered third, saying so.
	drop.Store(false)
	res = r.runWithdraw(withdrawRunOpts{}, append(args, "--allow-repeat")...)
	res.want(t, exitCompleted, "Withdrawal accepted", "warning: an earlier withdrawal of 14 USDT to "+sandbox.DestCompleted+" on BASE ("+third, "--allow-repeat: this one is another payment")
	r.wantBalance("9944")
	// The third is still unanswered: without the flag, refused again.
	r.runWithdraw(withdrawRunOpts{}, args...).want(t, exitFailed, "("+third)
	// Another amount is another withdrawal.
	r.runWithdraw(withdrawRunOpts{}, "--env", "local", "--chain", "base", "--to", sandbox.DestCompleted, "--amount", "15", "--yes").want(t, exitCompleted, "Withdrawal accepted")
}

// answerLater is a person at the confirmation prompt: the answer comes
// after wait on the rig's clock.
type answerLater struct {
	r      *statusRig
	wait   time.Duration
	answer io.Reader
	waited bool
}

func (a *answerLater) Read(p []byte) (int, error) {
	if !a.waited {
		a.waited = true
		a.r.clock.Advance(a.wait)
	}
	return a.answer.Read(p)
}

// TestWithdrawConfirmedAfterQuoteExpired: the reviewer's reproduction. The
// quote runs out (or all but) while the person reads the review; their y
// then signs and sends nothing, says so plainly and offers a new quote;
// declined, it says to run the command again, in the command line's words,
// never the console's "press r". An answer in time withdraws. The prompt
// names the signer, as nothing is signed yet (issue 28 item 14).
func TestWithdrawConfirmedAfterQuoteExpired(t *testing.T) {
	r := newJournalingRig(t)
	for _, tc := range []struct {
		wait time.Duration
		says string
	}{
		{sandbox.DefaultQuoteTTL + 2*time.Second, " expired while you answered (it was valid until "},
		{sandbox.DefaultQuoteTTL - 3*time.Second, " was about to expire while you answered (3s left, until "},
	} {
		res := r.runWithdraw(withdrawRunOpts{terminal: true, answer: &answerLater{r: r, wait: tc.wait, answer: strings.NewReader("y\n")}},
			withdrawArgs(sandbox.DestCompleted, "17")...)
		res.want(t, exitFailed, "Signer           "+sandbox.DemoAddress, withdrawAsked,
			tc.says, "by the service's clock): ", "nothing was signed or sent.\nGet a new quote? [y/N]",
			"no new quote: nothing was signed or sent; run the command again for one")
		if strings.Contains(res.stdout+res.stderr, "press r") || strings.Contains(res.stdout, "Signed by") {
			t.Errorf("the console's words on the command line:\n%s\n%s", res.stdout, res.stderr)
		}
	}
	if n := r.withdraws.Load(); n != 0 {
		t.Fatalf("%d withdraw requests for expired quotes, want 0", n)
	}
	if lines := r.runLine(nil, statusCmd.runHistoryLine, "--env", "local"); strings.Contains(lines.stdout, "q-") {
		t.Errorf("the expired quotes were journaled:\n%s", lines.stdout)
	}
	r.runWithdraw(withdrawRunOpts{terminal: true, answer: &answerLater{r: r, wait: 30 * time.Second, answer: strings.NewReader("y\n")}},
		withdrawArgs(sandbox.DestCompleted, "17")...).want(t, exitCompleted, "Withdrawal accepted")
	r.wantBalance("9983")

	// A new quote taken is reviewed and asked about again, and withdraws.
	res := r.runWithdraw(withdrawRunOpts{terminal: true, answer: &answerLater{r: r, wait: sandbox.DefaultQuoteTTL + time.Second, answer: strings.NewReader("y\ny\ny\n")}},
		withdrawArgs(sandbox.DestCompleted, "16", "--allow-repeat")...)
	res.want(t, exitCompleted, "Get a new quote? [y/N]", "Withdrawal accepted")
	if n := strings.Count(res.stderr, "Environment local"); n != 2 || strings.Count(res.stderr, withdrawAsked) != 2 {
		t.Errorf("%d reviews, want the expired quote's and the new one's:\n%s\n%s", n, res.stdout, res.stderr)
	}
	r.wantBalance("9967")
}

// TestWithdrawServiceRefusesExpiredQuote: when the service itself refuses
// the quote as expired, the command line says its own next step, and the
// journal (`svcwallet history`) keeps words that name no console key.
func TestWithdrawServiceRefusesExpiredQuote(t *testing.T) {
	r := newJournalingRig(t)
	hook := func(w http.ResponseWriter, req *http.Request, ex http.Handler) bool {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusGone)
		fmt.Fprintf(w, `{"code":%d,"message":"the quote has expired","status":410}`, exchange.CodeQuoteExpired)
		return true
	}
	r.withdrawHook.Store(&hook)
	res := r.runWithdraw(withdrawRunOpts{}, withdrawArgs(sandbox.DestCompleted, "25", "--yes")...)
	res.want(t, exitFailed, "not withdrawn: the service refused quote q-", "as expired before executing it, so nothing was paid; run the command again for a new quote")
	if strings.Contains(res.stderr, "press r") {
		t.Errorf("the console's words on the command line:\n%s", res.stderr)
	}
	// `svcwallet history` names it as every view does; the journal's words,
	// its --json error, name no console key.
	list := r.runLine(nil, statusCmd.runHistoryLine, "--env", "local")
	if !strings.HasSuffix(strings.TrimSpace(list.stdout), "  EXPIRED") || strings.Contains(list.stdout, "press r") {
		t.Errorf("history:\n%s", list.stdout)
	}
	list = r.runLine(nil, statusCmd.runHistoryLine, "--env", "local", "--json")
	var out []follow.Record
	if err := json.Unmarshal([]byte(list.stdout), &out); err != nil || len(out) != 1 || out[0].Outcome != "EXPIRED" ||
		!strings.Contains(out[0].Error, "Quote expired before the withdrawal was executed, so nothing was paid") || strings.Contains(list.stdout, "press r") {
		t.Errorf("history --json (%v):\n%s", err, list.stdout)
	}
}
