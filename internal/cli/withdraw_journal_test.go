package cli

import (
	"fmt"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/svcwallet/svcwallet/service/sandbox"
)

// TestWithdrawWithAJournalThatCannotBeOpened: a journal that cannot be
// opened (a directory in its place) stops a real withdrawal before it is
// signed: exit 1, the journal's fault named, no request sent, nothing
// paid. A dry run goes on without it.
func TestWithdrawWithAJournalThatCannotBeOpened(t *testing.T) {
	state := withdrawState(t)
	if err := os.MkdirAll(filepath.Join(state, "journal.jsonl"), 0o700); err != nil {
		t.Fatal(err)
	}
	r := newStatusRig(t)
	r.runWithdraw(withdrawRunOpts{}, withdrawArgs(sandbox.DestCompleted, "25", "--env", "local", "--yes")...).
		want(t, exitFailed, "the withdrawal journal cannot be opened (journal: ", "nothing was signed or sent")
	if n := r.withdraws.Load(); n != 0 {
		t.Fatalf("%d withdraw requests left with the journal unopenable", n)
	}
	r.wantBalance(sandbox.DemoBalance)
	r.runWithdraw(withdrawRunOpts{}, withdrawArgs(sandbox.DestCompleted, "25", "--env", "local", "--dry-run")...).
		want(t, exitCompleted, "To sign (EIP-712)")
}

// TestWithdrawOnARolledBackJournal is the attack of issue 33 item 4 on the
// command line: a withdrawal gets no answer (exit 5), then an older copy
// of the journal is put back. The identical withdrawal is refused before
// anything is signed, naming the doctor that says what was lost; history
// says it too; doctor names the withdrawal lost, how to ask the service
// about it and how to accept the journal; once accepted, withdrawals go.
func TestWithdrawOnARolledBackJournal(t *testing.T) {
	state := withdrawState(t)
	r := newStatusRig(t)
	args := withdrawArgs(sandbox.DestCompleted, "14", "--env", "local", "--yes")
	r.runWithdraw(withdrawRunOpts{}, withdrawArgs(sandbox.DestCompleted, "10", "--env", "local", "--yes")...).want(t, exitCompleted)
	path := filepath.Join(state, "journal.jsonl")
	backup, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var drop atomic.Bool
	r.dropAnswers(&drop)
	drop.Store(true)
	res := r.runWithdraw(withdrawRunOpts{}, args...)
	res.want(t, exitError, "no answer from the service")
	lostID := quoteIDOf(t, res.stderr)
	drop.Store(false)
	if err := os.WriteFile(path, backup, 0o600); err != nil { // a backup restored
		t.Fatal(err)
	}

	sent := r.withdraws.Load()
	r.runWithdraw(withdrawRunOpts{}, args...).want(t, exitFailed, "lost lines svcwallet wrote", lostID, "nothing was signed or sent",
		"run svcwallet doctor --env local --config "+r.config, "svcwallet doctor --accept-journal --env local --config "+r.config+" accepts it")
	if n := r.withdraws.Load() - sent; n != 0 {
		t.Fatalf("%d withdraw requests on a rolled-back journal", n)
	}
	r.wantBalance("9976")

	h := depositCmd(t, nil, "history", "--config", r.config, "--env", "local")
	if h.code != 0 || !strings.Contains(h.stderr, "lost lines svcwallet wrote") || !strings.Contains(h.stderr, "run svcwallet doctor") {
		t.Fatalf("history on a rolled-back journal, exit %d:\n%s", h.code, h.stderr)
	}
	code, rep, _ := doctorState(t, filepath.Dir(state), nil, noTmux, "--config", r.config)
	w := rep.warning("journal")
	if code != exitFailed || w == nil || !strings.Contains(w.Detail, lostID+")") || !strings.Contains(w.Detail, "1 of them no longer in it") ||
		!strings.Contains(w.Fix, "svcwallet status "+lostID) || !strings.Contains(w.Fix, "svcwallet doctor --accept-journal") {
		t.Fatalf("doctor, exit %d: %+v", code, w)
	}
	if code, rep, _ := doctorState(t, filepath.Dir(state), nil, noTmux, "--config", r.config, "--accept-journal"); rep.warning("journal") != nil {
		t.Fatalf("doctor --accept-journal, exit %d: %+v", code, rep.warning("journal"))
	}
	r.runWithdraw(withdrawRunOpts{}, withdrawArgs(sandbox.DestCompleted, "25", "--env", "local", "--yes")...).want(t, exitCompleted)
}

// TestDoctorWarnsOfOneServiceTwice: two environments on one chain id (an
// old and a new name of one host, or a proxy and the direct URL) are
// warned of, once per pair, saying what that means; another chain is not.
func TestDoctorWarnsOfOneServiceTwice(t *testing.T) {
	direct, proxy := sandboxURL(t), sandboxURL(t)
	cfg := filepath.Join(t.TempDir(), "config.toml")
	text := fmt.Sprintf(`default_env = "prod"
[env.prod]
auth_url = %[1]q
base_url = %[1]q
market_data_url = %[1]q
chain_id = 327
[env.prod-old]
auth_url = %[1]q
base_url = %[1]q
market_data_url = %[1]q
chain_id = 327
[env.prod-proxy]
auth_url = %[2]q
base_url = %[2]q
market_data_url = %[2]q
chain_id = 327
[env.testnet]
auth_url = %[2]q
base_url = %[2]q
market_data_url = %[2]q
chain_id = 326
`, direct, proxy)
	if err := os.WriteFile(cfg, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	_, rep, _ := doctor(t, nil, noTmux, "--config", cfg)
	var said []string
	for _, c := range rep.Checks {
		if c.Check == "environments" {
			said = append(said, c.Detail)
			if c.Status != "warning" || !strings.Contains(c.Fix, "one environment per service") {
				t.Errorf("%+v", c)
			}
		}
	}
	if len(said) != 3 || !strings.HasPrefix(said[0], "prod and prod-old name one service (chain id 327, the same base host") ||
		!strings.Contains(said[1], "prod and prod-proxy name one service") || !strings.Contains(said[1], "a proxy and the direct URL?") ||
		strings.Contains(strings.Join(said, "\n"), "testnet") {
		t.Fatalf("doctor says:\n%s", strings.Join(said, "\n"))
	}
}

// sandboxURL serves a sandbox on loopback for the test.
func sandboxURL(t *testing.T) string {
	t.Helper()
	srv, err := sandbox.Start("127.0.0.1:0", sandbox.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	return srv.URL
}

// TestWithdrawResumeOnlyWhereItWasSent is the attack of issue 33 item 7:
// after a withdrawal got no answer, its environment's name is pointed at
// another host (here a proxy of the same sandbox). resume refuses to send
// the signed request there, naming both services (exit 5, nothing sent);
// pointed back, it settles it.
func TestWithdrawResumeOnlyWhereItWasSent(t *testing.T) {
	r := newJournalingRig(t)
	var drop atomic.Bool
	r.dropAnswers(&drop)
	drop.Store(true)
	res := r.runWithdraw(withdrawRunOpts{}, withdrawArgs(sandbox.DestCompleted, "14", "--env", "local", "--yes")...)
	res.want(t, exitError, "no answer from the service")
	id := quoteIDOf(t, res.stderr)
	drop.Store(false)
	was, err := os.ReadFile(r.config)
	if err != nil {
		t.Fatal(err)
	}
	u, _ := url.Parse(r.srv.URL)
	proxy := httptest.NewServer(httputil.NewSingleHostReverseProxy(u))
	defer proxy.Close()
	moved := strings.Replace(string(was), "base_url = \""+r.srv.URL+"\"", "base_url = \""+proxy.URL+"\"", 1)
	if err := os.WriteFile(r.config, []byte(moved), 0o600); err != nil || moved == string(was) {
		t.Fatalf("the config's base_url was not moved (%v):\n%s", err, was)
	}
	sent := r.withdraws.Load()
	r.runWithdraw(withdrawRunOpts{}, "resume", id, "--env", "local").want(t, exitError,
		"withdrawal "+id+" was signed for and sent to "+strings.TrimPrefix(r.srv.URL, "http://")+", chain 327, but this environment reaches "+
			strings.TrimPrefix(proxy.URL, "http://")+", chain 327: nothing was sent")
	if n := r.withdraws.Load() - sent; n != 0 {
		t.Fatalf("%d withdraw requests through another host", n)
	}
	if err := os.WriteFile(r.config, was, 0o600); err != nil {
		t.Fatal(err)
	}
	r.runWithdraw(withdrawRunOpts{}, "resume", id, "--env", "local").want(t, exitCompleted, "COMPLETED")
}
