//go:build unix

package cli

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestBrokenPipeIsAnOutputError: a command whose stdout is a pipe with no
// reader (svcwallet builder authorize --json --yes | true) ends as for any
// stdout that refuses its document, saying so on stderr with its exit
// status: Go ended it by SIGPIPE at the write (exit 141, nothing said),
// after the builder was authorized and its API key made, or a withdrawal
// accepted. What only prints (version, help), the sandbox's log and plain
// mode's conversation still end by SIGPIPE there: caught, the sandbox
// served on and the conversation went on blind. The child is this test
// binary running Main with such a stdout.
func TestBrokenPipeIsAnOutputError(t *testing.T) {
	if args := os.Getenv("CLI_TEST_BROKEN_PIPE_ARGS"); args != "" {
		code := Main(strings.Split(args, "\n"), Stamp{})
		fmt.Fprintf(os.Stderr, "Main returned %d\n", code)
		return
	}
	for _, tc := range []struct {
		args []string
		says string // "": ended by SIGPIPE
	}{
		{[]string{"key", "list", "--keystore", t.TempDir(), "--json"}, "svcwallet key list: cannot write the output: write /dev/stdout: broken pipe\nMain returned 1\n"},
		{[]string{"version"}, ""},
		{[]string{"help", "status"}, ""},
		{[]string{"status", "--help"}, ""},
		{[]string{"sandbox", "--listen", "127.0.0.1:0"}, ""},
		{[]string{"--plain", "--env", "sandbox"}, ""},
	} {
		r, w, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		r.Close()
		// A bound, not an order: caught, the sandbox would serve on.
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		cmd := exec.CommandContext(ctx, os.Args[0], "-test.run=^TestBrokenPipeIsAnOutputError$")
		home := t.TempDir()
		cmd.Env = append(os.Environ(), "CLI_TEST_BROKEN_PIPE_ARGS="+strings.Join(tc.args, "\n"), "HOME="+home, "XDG_CONFIG_HOME="+home, "XDG_STATE_HOME="+home)
		var errOut bytes.Buffer
		cmd.Stdout, cmd.Stderr = w, &errOut
		// The child's own end (testing's PASS on that stdout) is not what
		// is tested: Main's status and words, or SIGPIPE's end, are.
		_ = cmd.Run()
		cancel()
		w.Close()
		said := errOut.String()
		if tc.says == "" {
			// Main itself ended by it, not the child's PASS after it.
			if ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); !ok || !ws.Signaled() || ws.Signal() != syscall.SIGPIPE || strings.Contains(said, "Main returned") {
				t.Errorf("%q into a pipe with no reader: %s, stderr %q; want it ended by SIGPIPE", tc.args, cmd.ProcessState, said)
			}
			continue
		}
		if !strings.Contains(said, tc.says) {
			t.Errorf("%q into a pipe with no reader: %s, stderr %q; want %q", tc.args, cmd.ProcessState, said, tc.says)
		}
	}
}
