//go:build e2e

package cli

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/svcwallet/svcwallet/service/config"
	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/intent"
	"github.com/svcwallet/svcwallet/service/sandbox"
)

// tmuxSession is the built binary running in a real terminal: a detached
// tmux session of its own server (socket), so nothing of the user's tmux is
// touched.
type tmuxSession struct {
	t      *testing.T
	socket string
	env    []string
}

func (s *tmuxSession) tmux(args ...string) (string, error) {
	cmd := exec.Command("tmux", append([]string{"-L", s.socket, "-f", "/dev/null"}, args...)...)
	cmd.Env = s.env
	out, err := cmd.CombinedOutput()
	return string(out), err
}

func (s *tmuxSession) must(args ...string) string {
	s.t.Helper()
	out, err := s.tmux(args...)
	if err != nil {
		s.t.Fatalf("tmux %v: %v\n%s", args, err, out)
	}
	return out
}

func (s *tmuxSession) keys(keys ...string) {
	s.must(append([]string{"send-keys", "-t", "main"}, keys...)...)
}

// typingGap is the time between the keys a test types as a person: well
// over intent.PasteGap, the gap under which keys come as a paste.
const typingGap = 4 * intent.PasteGap

// typedAt types keys at question one at a time, typingGap apart, as a
// person types them (one send-keys of several writes them at once, a
// paste), each once the ones before it show after the question (echoed:
// read), so a slow reader never takes two in one read, nor two within
// intent.PasteGap, as a paste.
func (s *tmuxSession) typedAt(question string, keys ...string) {
	s.t.Helper()
	echoed := question + " "
	for i, k := range keys {
		if i > 0 {
			echoed += keys[i-1]
			s.waitFor(fmt.Sprintf("%q echoed", echoed), func() bool { return strings.HasSuffix(strings.TrimRight(s.pane(), "\n"), echoed) })
			time.Sleep(typingGap)
		}
		s.keys(k)
	}
}

func (s *tmuxSession) pane() string { return s.must("capture-pane", "-p", "-t", "main") }

// waitFor polls an observable state of the terminal until ok or a deadline.
func (s *tmuxSession) waitFor(what string, ok func() bool) {
	s.t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !ok() {
		if time.Now().After(deadline) {
			s.t.Fatalf("timed out waiting for %s; the pane shows:\n%s", what, s.pane())
		}
		time.Sleep(20 * time.Millisecond) // polling interval, not ordering
	}
}

func (s *tmuxSession) waitShows(texts ...string) {
	s.t.Helper()
	s.waitFor(strings.Join(texts, ", "), func() bool {
		p := s.pane()
		for _, x := range texts {
			if !strings.Contains(p, x) {
				return false
			}
		}
		return true
	})
}

// TestTmuxDepositSolana runs the built binary in a 120x40 tmux terminal
// with no configuration (so on the embedded sandbox): log in with the demo
// API key, open deposits, generate SOLANA, show its QR code, copy the
// address through OSC 52 into tmux's buffer, and quit.
func TestTmuxDepositSolana(t *testing.T) {
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("tmux is not installed (.ci/run installs it)")
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "svcwallet")
	if out, err := exec.Command("go", "build", "-o", bin, "../..").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	want := sandboxSolanaAddress(t)

	// An empty home: no config, keystore or journal of the user is read.
	home := filepath.Join(dir, "home")
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "TMUX") {
			env = append(env, kv)
		}
	}
	s := &tmuxSession{t: t, socket: fmt.Sprintf("svcwallet-test-%d-%d", os.Getpid(), time.Now().UnixNano()), env: env}
	t.Cleanup(func() { _, _ = s.tmux("kill-server") })
	exitFile := filepath.Join(dir, "exit")
	run := fmt.Sprintf("env HOME=%[1]s TMPDIR=%[4]s XDG_CONFIG_HOME=%[1]s/.config XDG_STATE_HOME=%[1]s/.state XDG_DATA_HOME=%[1]s/.data XDG_CACHE_HOME=%[1]s/.cache %[2]s --theme dark; echo $? > %[3]s",
		home, bin, exitFile, dir)
	s.must("new-session", "-d", "-s", "main", "-x", "120", "-y", "40", run)
	s.must("set-option", "-g", "set-clipboard", "on")
	s.must("set-option", "-t", "main", "remain-on-exit", "on")

	s.waitShows("Sandbox demo", "sandbox-demo-key")
	s.keys("C-d", "Enter")
	s.waitShows("Funding address", sandbox.DemoAddress)
	s.keys("d")
	s.waitShows("SOLANA", "not provisioned")
	for range 6 {
		s.keys("Down")
	}
	s.waitShows("› SOLANA")
	s.keys("g")
	s.waitShows(want)
	s.keys("Enter")
	s.waitFor("the QR code", func() bool {
		p := s.pane()
		return strings.Count(p, "█▀▀▀▀▀█") >= 2 && strings.Count(p, "▀▀▀▀▀▀▀") >= 3
	})

	s.keys("c")
	s.waitFor("the address in tmux's paste buffer (OSC 52)", func() bool {
		out, err := s.tmux("show-buffer")
		return err == nil && strings.TrimSpace(out) == want
	})

	// tmux marks the pane dead when the terminal closes and learns the exit
	// status a moment later, when it reaps the process: wait for both.
	// The shell around the program writes its exit status when it ends.
	s.keys("q")
	s.waitFor("the program to exit", func() bool {
		b, err := os.ReadFile(exitFile)
		return err == nil && strings.HasSuffix(string(b), "\n")
	})
	if b, _ := os.ReadFile(exitFile); strings.TrimSpace(string(b)) != "0" {
		t.Errorf("exit status %q, want 0", strings.TrimSpace(string(b)))
	}
}

// sandboxSolanaAddress asks a sandbox of this test for the demo account's
// SOLANA address: the embedded one in the binary derives the same.
func sandboxSolanaAddress(t *testing.T) string {
	t.Helper()
	srv, err := sandbox.Start("127.0.0.1:0", sandbox.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	c := exchange.New(config.SandboxEnvironment(srv.URL, sandbox.DefaultChainID), exchange.Options{APIKey: sandbox.DemoAPIKey})
	cx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	info, err := c.GenerateAddress(cx, "SOLANA")
	if err != nil || info.DepositAddress == "" {
		t.Fatalf("SOLANA address: %+v, %v", info, err)
	}
	return info.DepositAddress
}
