//go:build e2e && unix

package quitcatch

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestBuiltBinaryQuitAtOnceNeverDumps runs the built binary's sandbox and
// sends ctrl+\ (SIGQUIT) the moment the catch is armed, which the runtime's
// init trace says on stderr: long before main and the command's handler.
// It ends as ctrl+\ ends the sandbox, with no goroutine dump. (A quit
// before os/signal is initialised is caught by no Go program.)
func TestBuiltBinaryQuitAtOnceNeverDumps(t *testing.T) {
	dir := t.TempDir()
	bin := filepath.Join(dir, "svcwallet")
	if out, err := exec.Command("go", "build", "-o", bin, "../..").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "GOTRACEBACK=") && !strings.HasPrefix(kv, "GODEBUG=") && !strings.HasPrefix(kv, "SVCWALLET_") {
			env = append(env, kv)
		}
	}
	env = append(env, "GODEBUG=inittrace=1", "HOME="+dir, "XDG_CONFIG_HOME="+dir, "XDG_STATE_HOME="+dir)
	armed := "init github.com/svcwallet/svcwallet/internal/quitcatch "
	for run := range 10 {
		// A bound, not an order: a sandbox whose trace never says the catch
		// is armed, or that a quit never stops, is killed, ending its stderr.
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		cmd := exec.CommandContext(ctx, bin, "sandbox", "--listen", "127.0.0.1:0")
		cmd.Env = env
		var stdout bytes.Buffer
		cmd.Stdout = &stdout
		stderr, err := cmd.StderrPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		lines, said := bufio.NewReader(stderr), &strings.Builder{}
		for {
			line, err := lines.ReadString('\n')
			said.WriteString(line)
			if strings.HasPrefix(line, armed) {
				_ = cmd.Process.Signal(syscall.SIGQUIT)
				break
			}
			if err != nil {
				_ = cmd.Process.Kill()
				_ = cmd.Wait()
				t.Fatalf("run %d: the catch's init never showed in the trace: %v\n%s", run, err, said)
			}
		}
		rest, _ := io.ReadAll(lines)
		said.Write(rest)
		err = cmd.Wait()
		out := stdout.String() + said.String()
		if err != nil || strings.Contains(out, "goroutine ") || strings.Contains(out, "SIGQUIT: quit") {
			t.Fatalf("run %d, ctrl+\\ as the catch was armed: %v; want the sandbox stopped (exit 0) with no dump:\n%.2000s", run, err, out)
		}
	}
}
