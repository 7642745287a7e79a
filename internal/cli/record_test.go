package cli

import (
	"bytes"
	"slices"
	"strings"
	"testing"

	"github.com/shopspring/decimal"
	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/journal"
	"github.com/svcwallet/svcwallet/service/sandbox"
	"github.com/svcwallet/svcwallet/tui"
)

// journaled writes to the journal what the console writes for a withdrawal
// of account made on "local": its intent and the service's acceptance (the
// user pressed esc right after SUBMITTED).
func (r *statusRig) journaled(account, id string) {
	r.t.Helper()
	r.journaledIntent(account, id, journal.Intent{Chain: "BASE", ToAddress: sandbox.DestCompleted, TokenIn: "USDT", TokenOut: "USDT"})
}

// journaledIntent is journaled with the intent given.
func (r *statusRig) journaledIntent(account, id string, in journal.Intent) {
	r.t.Helper()
	j, err := journal.Open(journal.DefaultPath())
	if err != nil {
		r.t.Fatal(err)
	}
	for _, kind := range []string{journal.KindIntent, journal.KindAccepted} {
		e := journal.Entry{Time: r.clock.Now(), Kind: kind, Env: "local", AccountID: account, QuoteID: id}
		if kind == journal.KindIntent {
			e.Intent = &in
		}
		if err := j.Append(e); err != nil {
			r.t.Fatal(err)
		}
	}
}

// journalStates lists the answers journaled for id: "accepted" and states.
func journalStates(t *testing.T, id string) []string {
	t.Helper()
	j, err := journal.Open(journal.DefaultPath())
	if err != nil {
		t.Fatal(err)
	}
	entries, err := j.Entries()
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		switch {
		case e.QuoteID != id:
		case e.Kind == journal.KindAccepted:
			out = append(out, "accepted")
		case e.Kind == journal.KindState:
			out = append(out, e.State)
		}
	}
	return out
}

// TestStatusWatchJournalsOwn (issue 18): `status --watch` follows the
// account's own withdrawal to COMPLETED and journals SENDING and COMPLETED
// once each (SUBMITTED is the acceptance), so `history` and `doctor` call
// it finished; following it again, another process, writes nothing. An id
// the journal does not hold for this account, one made elsewhere or one
// whose intent another account journaled here, is never journaled.
func TestStatusWatchJournalsOwn(t *testing.T) {
	state := t.TempDir()
	t.Setenv("XDG_STATE_HOME", state)
	r := newStatusRig(t)
	own := r.withdraw(sandbox.DemoAPIKey, sandbox.DemoPrivateKey, sandbox.DestCompleted, true)
	r.journaled(sandbox.DemoAccountID, own)
	elsewhere := r.withdraw(sandbox.DemoAPIKey, sandbox.DemoPrivateKey, sandbox.DestCompleted, true)
	others := r.withdraw(sandbox.DemoAPIKey, sandbox.DemoPrivateKey, sandbox.DestCompleted, true)
	r.journaled(sandbox.NoChainAccountID, others)

	list := r.runLine(nil, statusCmd.runHistoryLine, "--env", "local")
	list.want(t, 0, []string{"SUBMITTED: follow it with svcwallet status " + own + " --watch --env local --config " + r.config}, nil)

	r.run(nil, "--watch", own, elsewhere, others).want(t, exitCompleted, nil, nil)
	want := []string{"accepted", exchange.StateSending, exchange.StateCompleted}
	if got := journalStates(t, own); !slices.Equal(got, want) {
		t.Errorf("own withdrawal journaled %v, want %v", got, want)
	}
	if got := journalStates(t, elsewhere); len(got) != 0 {
		t.Errorf("a withdrawal this journal never held was journaled: %v", got)
	}
	if got := journalStates(t, others); !slices.Equal(got, []string{"accepted"}) {
		t.Errorf("another account's withdrawal was journaled for this one: %v", got)
	}
	r.run(nil, own).want(t, exitCompleted, nil, nil)
	if got := journalStates(t, own); !slices.Equal(got, want) {
		t.Errorf("asked again, the journal holds %v, want %v once each", got, want)
	}

	list = r.runLine(nil, statusCmd.runHistoryLine, "--env", "local")
	list.want(t, 0, nil, nil)
	if line := lineWith(list.stdout, own[:20]); !strings.HasSuffix(line, "  "+exchange.StateCompleted) {
		t.Errorf("history lists the withdrawal as %q, want COMPLETED:\n%s", line, list.stdout)
	}
	if _, _, out := doctorState(t, state, nil, noTmux, "--config", r.config); !strings.Contains(out, "2 withdrawals, 1 unfinished") {
		t.Errorf("doctor, want this account's withdrawal finished (the other account's stays):\n%s", out)
	}
}

// TestHistoryRefresh (issue 18): `history --refresh` asks the service about
// the account's unfinished withdrawal, journals its COMPLETED and lists it
// finished; without an API key it says what to set and exits 2. Another
// account's unfinished withdrawal is not asked, and that is said once,
// with the login that would; so is, in the listing, that its command asks
// as the account logged in.
func TestHistoryRefresh(t *testing.T) {
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	r := newStatusRig(t)
	id := r.withdraw(sandbox.DemoAPIKey, sandbox.DemoPrivateKey, sandbox.DestCompleted, true)
	r.journaled(sandbox.DemoAccountID, id)
	others := r.withdraw(sandbox.DemoAPIKey, sandbox.DemoPrivateKey, sandbox.DestCompleted, true)
	r.journaled(sandbox.NoChainAccountID, others)
	r.clock.Advance(sandbox.DefaultSettle)

	r.runLine(map[string]string{apiKeyVar: ""}, statusCmd.runHistoryLine, "--env", "local", "--refresh").
		want(t, exitUsage, nil, []string{"--refresh: log in once with svcwallet auth login --env local --config " + r.config + ", or set SVCWALLET_API_KEY to an API key of the account"})
	if got := journalStates(t, id); !slices.Equal(got, []string{"accepted"}) {
		t.Fatalf("journaled %v without a session", got)
	}

	list := r.runLine(nil, statusCmd.runHistoryLine, "--env", "local")
	list.want(t, 0, nil, []string{"svcwallet history: unfinished withdrawals of 2 accounts are listed", "log in as the ACCOUNT a row names"})
	res := r.runLine(nil, statusCmd.runHistoryLine, "--env", "local", "--refresh")
	if unasked := "svcwallet history: 1 unfinished withdrawal of another account (" + tui.ShortAddress(sandbox.NoChainAccountID) + ") was not asked about: the service tells a withdrawal only to the account that made it; log in as that account (svcwallet auth login --env local --config " + r.config + "), then run svcwallet history --refresh"; res.code != 0 || !strings.Contains(res.stdout, id[:20]) || !strings.Contains(res.stderr, "asking the service about 1 unfinished withdrawal") ||
		strings.Count(res.stderr, unasked) != 1 {
		t.Errorf("--refresh: exit %d, stderr lacks once %q:\n%s", res.code, unasked, res.stderr)
	}
	if got := journalStates(t, others); !slices.Equal(got, []string{"accepted"}) {
		t.Errorf("another account's withdrawal was asked and journaled: %v", got)
	}
	if got := journalStates(t, id); !slices.Equal(got, []string{"accepted", exchange.StateCompleted}) {
		t.Errorf("journaled %v, want the COMPLETED learned", got)
	}
	if line := lineWith(res.stdout, id[:20]); !strings.HasSuffix(line, "  "+exchange.StateCompleted) {
		t.Errorf("the listing after --refresh shows %q, want COMPLETED:\n%s", line, res.stdout)
	}
}

// lineWith is the first line of s that holds sub, "" when none does.
func lineWith(s, sub string) string {
	for _, l := range strings.Split(s, "\n") {
		if strings.Contains(l, sub) {
			return l
		}
	}
	return ""
}

// TestRefreshSaysTheClaim: a status record naming another chain than the
// quote signed is listed by `history --refresh` with the quote's
// (asSigned), and what it claimed is said on stderr with what to do; so is
// it in `status` (its Meaning) and `status --json` for scripts.
func TestRefreshSaysTheClaim(t *testing.T) {
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	r := newStatusRig(t)
	id := r.withdraw(sandbox.DemoAPIKey, sandbox.DemoPrivateKey, sandbox.DestCompleted, true)
	r.journaled(sandbox.DemoAccountID, id)
	r.clock.Advance(sandbox.DefaultSettle)
	r.rewrite.Store(onlyPath(exchange.PathWithdrawalStatus, func(b []byte) []byte {
		return bytes.Replace(b, []byte(`"chain":"BASE"`), []byte(`"chain":"ARBITRUM"`), 1)
	}))
	claim := "names the chain ARBITRUM (payout hash 0x"
	res := r.runLine(nil, statusCmd.runHistoryLine, "--env", "local", "--refresh")
	if res.code != 0 || !strings.Contains(res.stderr, claim) || !strings.Contains(res.stderr, "tell support") || strings.Contains(res.stderr, " 0 USDT") {
		t.Errorf("history --refresh: exit %d, stderr:\n%s", res.code, res.stderr)
	}
	if strings.Contains(res.stdout, "ARBITRUM") {
		t.Errorf("the listing shows the claim as the withdrawal's:\n%s", res.stdout)
	}
	for _, extra := range [][]string{nil, {"--json"}} {
		if out := r.run(nil, append([]string{id}, extra...)...); !strings.Contains(out.stdout, claim) {
			t.Errorf("status %v does not say the claim:\n%s%s", extra, out.stdout, out.stderr)
		}
	}
	// Several ids: the table shows what was signed, the claim is said
	// after it.
	other := r.withdraw(sandbox.DemoAPIKey, sandbox.DemoPrivateKey, sandbox.DestCompleted, true)
	r.journaled(sandbox.DemoAccountID, other)
	r.clock.Advance(sandbox.DefaultSettle)
	out := r.run(nil, id, other)
	if strings.Count(out.stderr, claim) != 2 || strings.Contains(out.stdout, "ARBITRUM") {
		t.Errorf("status with two ids does not say each claim once, or shows it as the withdrawal's:\n%s%s", out.stdout, out.stderr)
	}
}

// TestWatchChangeLineSaysTheClaim: a status record claiming another receive
// amount than the quote signed is said in `status --watch`'s change line,
// with the state and what to do; the table after it shows what was signed.
func TestWatchChangeLineSaysTheClaim(t *testing.T) {
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	r := newStatusRig(t)
	id := r.withdraw(sandbox.DemoAPIKey, sandbox.DemoPrivateKey, sandbox.DestCompleted, true)
	// 20 USDT to BASE receives 18.5 in the sandbox: the quote's figure.
	r.journaledIntent(sandbox.DemoAccountID, id, journal.Intent{Chain: "BASE", ToAddress: sandbox.DestCompleted,
		TokenIn: "USDT", TokenOut: "USDT", ReceiveAmount: decimal.RequireFromString("18.5")})
	r.clock.Advance(sandbox.DefaultSettle)
	r.rewrite.Store(onlyPath(exchange.PathWithdrawalStatus, func(b []byte) []byte {
		return bytes.Replace(b, []byte(`"receive_amount":"18.5"`), []byte(`"receive_amount":"9.25"`), 1)
	}))
	res := r.run(nil, id, "--watch")
	changes, table, _ := strings.Cut(res.stdout, "\n\n")
	line := lineWith(changes, id)
	claim := "The service's record names a receive amount of 9.25 USDT, not the 18.5 USDT on BASE of the quote this account signed"
	if res.code != exitCompleted || !strings.Contains(line, exchange.StateCompleted) || !strings.Contains(line, claim) || !strings.Contains(line, "tell support") {
		t.Errorf("exit %d; the change line %q does not say the claim:\n%s%s", res.code, line, res.stdout, res.stderr)
	}
	if got := lineWith(table, "Receive "); !strings.HasSuffix(got, " 18.5 USDT") {
		t.Errorf("the table after the watch shows the claim as the withdrawal's:\n%s", table)
	}
}
