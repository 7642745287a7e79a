//go:build e2e && unix

package cli

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestSandboxPublicWarns runs the built binary with --public (on loopback:
// tests never bind a network address): it serves, warns on stderr that the
// demo keys are public, and stops on SIGTERM with exit 0. With --json its
// banner is one JSON line naming the URL it serves.
func TestSandboxPublicWarns(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "svcwallet")
	if out, err := exec.Command("go", "build", "-o", bin, "../..").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	for _, extra := range []string{"--public", "", "--json"} {
		args := []string{"--listen", "127.0.0.1:0"}
		if extra != "" {
			args = append(args, extra)
		}
		// A bound, not an order: a sandbox that never serves, or never
		// stops, is killed, which ends its output.
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		cmd := exec.CommandContext(ctx, bin, append([]string{"sandbox"}, args...)...)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		stdout, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		// Serving: the banner ends with the line that says how to stop.
		sc := bufio.NewScanner(stdout)
		if extra == "--json" {
			var banner sandboxJSON
			if !sc.Scan() || json.Unmarshal(sc.Bytes(), &banner) != nil || !strings.HasPrefix(banner.BaseURL, "http://127.0.0.1:") {
				t.Errorf("--json banner %q", sc.Text())
			}
		}
		for extra != "--json" && sc.Scan() && sc.Text() != "Press Ctrl+C to stop." {
		}
		if ctx.Err() != nil {
			_ = cmd.Wait()
			t.Fatalf("%q: not serving after 30 s; stderr: %s", args, stderr.String())
		}
		if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
			t.Fatal(err)
		}
		_, _ = io.Copy(io.Discard, stdout)
		if err := cmd.Wait(); err != nil {
			t.Errorf("%q: %v\nstderr: %s", args, err, stderr.String())
		}
		warned := strings.Contains(stderr.String(), "warning: --public: the demo keys and API keys printed below\nare published")
		if public := extra == "--public"; warned != public {
			t.Errorf("%q: warning on stderr %v, want %v:\n%s", args, warned, public, stderr.String())
		}
	}
}
