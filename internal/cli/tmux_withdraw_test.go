//go:build e2e && unix

package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/sandbox"
)

// withdrawRig is the built binary in a real 120x40 tmux terminal, talking
// to a sandbox this test owns (so a second process, `svcwallet status`, and
// a restarted console reach the same exchange), with an isolated home.
type withdrawRig struct {
	*tmuxSession
	bin, home string
	srv       *sandbox.Server
	run       string // the pane's command line
}

func newWithdrawRig(t *testing.T, opts sandbox.Options) *withdrawRig {
	t.Helper()
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("tmux is not installed (.ci/run installs it)")
	}
	dir := t.TempDir()
	r := &withdrawRig{bin: filepath.Join(dir, "svcwallet"), home: filepath.Join(dir, "home")}
	if out, err := exec.Command("go", "build", "-o", r.bin, "../..").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	srv, err := sandbox.Start("127.0.0.1:0", opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	r.srv = srv
	cfgDir := filepath.Join(r.home, ".config", "svcwallet")
	if err := os.MkdirAll(cfgDir, 0o700); err != nil {
		t.Fatal(err)
	}
	cfg := fmt.Sprintf("default_env = \"rig\"\n[env.rig]\nauth_url = %[1]q\nbase_url = %[1]q\nmarket_data_url = %[1]q\nchain_id = %[2]d\n", srv.URL, sandbox.DefaultChainID)
	if err := os.WriteFile(filepath.Join(cfgDir, "config.toml"), []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "TMUX") {
			env = append(env, kv)
		}
	}
	r.tmuxSession = &tmuxSession{t: t, socket: fmt.Sprintf("svcwallet-wd-%d-%d", os.Getpid(), time.Now().UnixNano()), env: env}
	t.Cleanup(func() { _, _ = r.tmux("kill-server") })
	// The wallet key signs the withdrawal after an API-key login; it is the
	// sandbox's public development key.
	r.run = fmt.Sprintf("env %s SVCWALLET_PRIVATE_KEY=%s %s --theme dark", r.homeEnv(), sandbox.DemoPrivateKey, r.bin)
	r.must("new-session", "-d", "-s", "main", "-x", "120", "-y", "40", r.run)
	r.must("set-option", "-t", "main", "remain-on-exit", "on")
	return r
}

func (r *withdrawRig) homeEnv() string {
	// TMPDIR too: a console killed on purpose leaves its sandbox journal
	// directory, which must land in the test's own directory.
	return fmt.Sprintf("HOME=%[1]s TMPDIR=%[1]s XDG_CONFIG_HOME=%[1]s/.config XDG_STATE_HOME=%[1]s/.state XDG_DATA_HOME=%[1]s/.data XDG_CACHE_HOME=%[1]s/.cache", r.home)
}

// login types the demo API key on the login screen. The exported wallet
// key has wallet login preselected, with the focus on the method (issue 35
// item 13): it goes back to the API key first.
func (r *withdrawRig) login() {
	r.waitShows("Log in", "› Method")
	r.keys("Left", "Tab")
	r.waitShows("› API key")
	r.keys("-l", sandbox.DemoAPIKey)
	r.keys("Enter")
	r.waitShows("Funding address", sandbox.DemoAddress)
}

// withdraw goes from home through route, destination, quote and review,
// and presses enter to sign.
func (r *withdrawRig) withdraw(to, amount string) {
	r.keys("w")
	r.waitShows("DESTINATION", "ARBITRUM")
	r.keys("Enter")
	r.waitShows("Withdraw: destination")
	r.keys("-l", to)
	r.keys("Tab")
	r.keys("-l", amount)
	r.waitShows("valid EVM address")
	r.keys("Enter")
	r.waitShows("Expires in")
	r.keys("Enter")
	r.waitShows("Press enter to sign")
	r.keys("Enter")
}

var quoteIDPattern = regexp.MustCompile(`Quote id\s+(\S+)`)

func (r *withdrawRig) quoteID() string {
	r.t.Helper()
	m := quoteIDPattern.FindStringSubmatch(r.pane())
	if m == nil {
		r.t.Fatalf("no quote id on screen:\n%s", r.pane())
	}
	return m[1]
}

// TestTmuxWithdrawCompletes logs in, withdraws 25 USDT to the destination
// that pays out, watches it complete on the status screen, then asks
// `svcwallet status QUOTE_ID --json` from a second process.
func TestTmuxWithdrawCompletes(t *testing.T) {
	r := newWithdrawRig(t, sandbox.Options{Settle: 2 * time.Second})
	r.login()
	r.withdraw(sandbox.DestCompleted, "25")
	r.waitShows("Quote id", "q-")
	id := r.quoteID()
	r.waitShows("✓ COMPLETED", "Payout hash")

	cmd := exec.Command(r.bin, "status", id, "--json")
	cmd.Env = append(os.Environ(), strings.Fields(r.homeEnv())...)
	cmd.Env = append(cmd.Env, "SVCWALLET_API_KEY="+sandbox.DemoAPIKey)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("svcwallet status: %v\n%s", err, out)
	}
	var w exchange.Withdrawal
	if err := json.Unmarshal(out, &w); err != nil {
		t.Fatalf("status --json printed %q: %v", out, err)
	}
	if w.QuoteID != id || w.State != exchange.StateCompleted || w.WithdrawTxHash == "" {
		t.Errorf("status --json = %+v; want %s COMPLETED with a payout hash", w, id)
	}
	if got, want := r.srv.Exchange.Balance(sandbox.DemoAccountID), decimal.RequireFromString("9975"); !got.Equal(want) {
		t.Errorf("balance %s, want %s", got, want)
	}
}

// TestTmuxCrashResumesWithdrawal kills the console with SIGKILL right after
// its withdraw request reaches the exchange, starts it again, and expects the
// journaled withdrawal to be offered, resumed and followed to COMPLETED,
// paid exactly once. "arrived" lets the request commit after the kill (only
// the answer is lost); "lost" drops it before commit (a 502 to a dead client),
// so only the re-sent identical request can pay.
func TestTmuxCrashResumesWithdrawal(t *testing.T) {
	for _, commit := range []bool{true, false} {
		name := map[bool]string{true: "arrived", false: "lost"}[commit]
		t.Run(name, func(t *testing.T) {
			var once sync.Once
			arrived, killed := make(chan struct{}), make(chan struct{})
			first := true
			var mu sync.Mutex
			r := newWithdrawRig(t, sandbox.Options{Settle: 2 * time.Second})
			r.srv.Exchange.InjectWithdrawFault(func(phase string) sandbox.Fault {
				mu.Lock()
				isFirst := first && phase == sandbox.PhaseBeforeCommit
				if isFirst {
					first = false
				}
				mu.Unlock()
				if !isFirst {
					return sandbox.FaultNone
				}
				once.Do(func() { close(arrived) })
				<-killed
				if commit {
					return sandbox.FaultNone
				}
				return sandbox.FaultBadGateway
			})
			r.login()
			r.withdraw(sandbox.DestCompleted, "25")
			select {
			case <-arrived:
			case <-time.After(15 * time.Second):
				t.Fatalf("the withdraw request never arrived; the pane shows:\n%s", r.pane())
			}
			pid, err := strconv.Atoi(strings.TrimSpace(r.must("display-message", "-p", "-t", "main", "#{pane_pid}")))
			if err != nil {
				t.Fatal(err)
			}
			if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
				t.Fatal(err)
			}
			r.waitFor("the console to die", func() bool {
				return strings.TrimSpace(r.must("display-message", "-p", "-t", "main", "#{pane_dead}")) == "1"
			})
			close(killed)

			r.must("respawn-pane", "-t", "main", r.run)
			r.login()
			r.waitShows("unfinished")
			r.keys("h")
			// The title is drawn before the journal's rows are read: an
			// enter then opens nothing.
			r.waitShows("Withdrawal history", "1 withdrawal · 1 unfinished")
			r.keys("Enter")
			r.waitShows("✓ COMPLETED", "Payout hash")
			if got, want := r.srv.Exchange.Balance(sandbox.DemoAccountID), decimal.RequireFromString("9975"); !got.Equal(want) {
				t.Errorf("balance %s, want %s: the withdrawal must be paid exactly once", got, want)
			}
		})
	}
}
