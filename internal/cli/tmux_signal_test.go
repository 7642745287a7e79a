//go:build e2e && unix

package cli

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/svcwallet/svcwallet/service/follow"
	"github.com/svcwallet/svcwallet/service/sandbox"
)

// TestTmuxSignalCleansUp runs the built binary on the embedded sandbox in a
// tmux terminal, with TMPDIR a fresh directory, and ends it with SIGHUP
// (what closing the terminal sends), SIGTERM or SIGQUIT (a ctrl+\ typed
// before it takes the terminal): like q, the console leaves the full
// screen, removes the sandbox's temporary journal directory, says what
// ended it and exits with status 128+signal, instead of dying with the
// directory left (SIGQUIT: and Go's goroutine dump printed).
func TestTmuxSignalCleansUp(t *testing.T) {
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("tmux is not installed (.ci/run installs it)")
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "svcwallet")
	if out, err := exec.Command("go", "build", "-o", bin, "../..").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "TMUX") {
			env = append(env, kv)
		}
	}
	for _, sig := range []syscall.Signal{syscall.SIGHUP, syscall.SIGTERM, syscall.SIGQUIT} {
		t.Run(sig.String(), func(t *testing.T) {
			root := filepath.Join(dir, strconv.Itoa(int(sig)))
			tmp, home := filepath.Join(root, "tmp"), filepath.Join(root, "home")
			if err := os.MkdirAll(tmp, 0o700); err != nil {
				t.Fatal(err)
			}
			pidFile := filepath.Join(root, "pid")
			s := &tmuxSession{t: t, socket: fmt.Sprintf("svcwallet-sig-%d-%d", os.Getpid(), time.Now().UnixNano()), env: env}
			t.Cleanup(func() { _, _ = s.tmux("kill-server") })
			// The shell writes its pid, runs the console and writes its exit
			// status when it ends (tmux may learn of the exit much later),
			// then keeps the pane alive: a dead pane shows nothing of what
			// was written last.
			exitFile := filepath.Join(root, "exit")
			run := fmt.Sprintf("echo $$ > %[1]s; env TMPDIR=%[2]s HOME=%[3]s XDG_CONFIG_HOME=%[3]s/.config XDG_STATE_HOME=%[3]s/.state XDG_DATA_HOME=%[3]s/.data XDG_CACHE_HOME=%[3]s/.cache %[4]s --theme dark; echo $? > %[5]s; sleep 60",
				pidFile, tmp, home, bin, exitFile)
			s.must("new-session", "-d", "-s", "main", "-x", "120", "-y", "40", run)
			s.must("set-option", "-t", "main", "remain-on-exit", "on")
			s.waitShows("Sandbox demo", "sandbox-demo-key")

			journals := func() []string {
				m, err := filepath.Glob(filepath.Join(tmp, "svcwallet-sandbox-*"))
				if err != nil {
					t.Fatal(err)
				}
				return m
			}
			if got := journals(); len(got) != 1 {
				t.Fatalf("before the signal: sandbox journal directories %q, want one", got)
			}
			// The console is the shell's only child (env execs it).
			b, err := os.ReadFile(pidFile)
			if err != nil {
				t.Fatal(err)
			}
			shell := strings.TrimSpace(string(b))
			b, err = os.ReadFile(fmt.Sprintf("/proc/%s/task/%s/children", shell, shell))
			if err != nil {
				t.Skipf("cannot find the console's pid: %v", err)
			}
			pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
			if err != nil {
				t.Fatalf("the shell's children: %q", b)
			}
			if err := syscall.Kill(pid, sig); err != nil {
				t.Fatal(err)
			}
			s.waitFor("the console to exit", func() bool {
				b, err := os.ReadFile(exitFile)
				return err == nil && strings.HasSuffix(string(b), "\n")
			})
			if b, _ := os.ReadFile(exitFile); strings.TrimSpace(string(b)) != strconv.Itoa(128+int(sig)) {
				t.Errorf("exit status %q, want %d", strings.TrimSpace(string(b)), 128+int(sig))
			}
			if got := journals(); len(got) != 0 {
				t.Errorf("after %v: sandbox journal directories left: %q", sig, got)
			}
			said := consoleEndedBy(signalCause(sig))
			s.waitFor("the console to say "+said, func() bool { return strings.Contains(s.pane(), said) })
			if p := s.pane(); strings.Contains(p, "Sandbox demo") || strings.Contains(p, "goroutine ") {
				t.Errorf("the full screen was not left, or Go's dump was printed:\n%s", p)
			}
		})
	}
}

// TestTmuxSignalFlushesBoard (issue 28 item 3): the console on a
// standalone sandbox follows a withdrawal on the watch board; the terminal
// is closed (SIGHUP) as soon as its first answer shows, well within the
// two seconds between two saves of answers: the board's file keeps what
// that answer said, not only the id.
func TestTmuxSignalFlushesBoard(t *testing.T) {
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("tmux is not installed (.ci/run installs it)")
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "svcwallet")
	if out, err := exec.Command("go", "build", "-o", bin, "../..").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	srv, err := sandbox.Start("127.0.0.1:0", sandbox.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	id, err := srv.Exchange.SeedWithdrawal(sandbox.DemoAccountID, sandbox.DestCompleted, "ARBITRUM", "10")
	if err != nil {
		t.Fatal(err)
	}
	home := filepath.Join(dir, "home")
	conf := filepath.Join(home, ".config", "svcwallet", "config.toml")
	if err := os.MkdirAll(filepath.Dir(conf), 0o700); err != nil {
		t.Fatal(err)
	}
	toml := fmt.Sprintf("[env.local]\nauth_url = %[1]q\nbase_url = %[1]q\nmarket_data_url = %[1]q\nchain_id = %[2]d\n", srv.URL, sandbox.DefaultChainID)
	if err := os.WriteFile(conf, []byte(toml), 0o600); err != nil {
		t.Fatal(err)
	}
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "TMUX") && !strings.HasPrefix(kv, "SVCWALLET_") {
			env = append(env, kv)
		}
	}
	s := &tmuxSession{t: t, socket: fmt.Sprintf("svcwallet-flush-%d-%d", os.Getpid(), time.Now().UnixNano()), env: env}
	t.Cleanup(func() { _, _ = s.tmux("kill-server") })
	pidFile, exitFile := filepath.Join(dir, "pid"), filepath.Join(dir, "exit")
	run := fmt.Sprintf("echo $$ > %[1]s; env HOME=%[2]s TMPDIR=%[3]s XDG_CONFIG_HOME=%[2]s/.config XDG_STATE_HOME=%[2]s/.state XDG_DATA_HOME=%[2]s/.data XDG_CACHE_HOME=%[2]s/.cache SVCWALLET_API_KEY=%[4]s %[5]s --env local --theme dark; echo $? > %[6]s",
		pidFile, home, dir, sandbox.DemoAPIKey, bin, exitFile)
	s.must("new-session", "-d", "-s", "main", "-x", "120", "-y", "40", run)
	s.must("set-option", "-t", "main", "remain-on-exit", "on")
	s.waitShows("API key")
	s.keys("Enter")
	s.waitShows("Funding address", sandbox.DemoAddress)
	s.keys("s")
	s.waitShows("Watch board", "payout hashes, transfer ids")
	s.keys("-l", id)
	s.keys("Enter")
	s.waitShows("SUBMITTED")

	b, err := os.ReadFile(pidFile)
	if err != nil {
		t.Fatal(err)
	}
	shell := strings.TrimSpace(string(b))
	b, err = os.ReadFile(fmt.Sprintf("/proc/%s/task/%s/children", shell, shell))
	if err != nil {
		t.Skipf("cannot find the console's pid: %v", err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil {
		t.Fatalf("the shell's children: %q", b)
	}
	if err := syscall.Kill(pid, syscall.SIGHUP); err != nil {
		t.Fatal(err)
	}
	s.waitFor("the console to exit", func() bool {
		b, err := os.ReadFile(exitFile)
		return err == nil && strings.HasSuffix(string(b), "\n")
	})
	kept, err := (&follow.WatchFile{Path: filepath.Join(home, ".state", "svcwallet", follow.WatchlistFile), Env: "local"}).Load()
	if err != nil || len(kept) != 1 || kept[0].QuoteID != id || kept[0].Record == nil {
		t.Fatalf("after SIGHUP the board's file keeps %+v (%v), want %s with its record", kept, err, id)
	}
}
