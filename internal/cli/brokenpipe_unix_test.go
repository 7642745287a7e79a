//go:build unix

package cli

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// TestBrokenPipeIsAnOutputError: a command whose stdout is a pipe with no
// reader (svcwallet builder authorize --json --yes | true) ends as for any
// stdout that refuses its document, saying so on stderr with its exit
// status: Go ended it by SIGPIPE at the write (exit 141, nothing said),
// after the builder was authorized and its API key made, or a withdrawal
// accepted. The child is this test binary running Main with such a stdout.
func TestBrokenPipeIsAnOutputError(t *testing.T) {
	if dir := os.Getenv("CLI_TEST_BROKEN_PIPE_KEYSTORE"); dir != "" {
		code := Main([]string{"key", "list", "--keystore", dir, "--json"}, Stamp{})
		fmt.Fprintf(os.Stderr, "Main returned %d\n", code)
		return
	}
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	r.Close()
	defer w.Close()
	cmd := exec.Command(os.Args[0], "-test.run=^TestBrokenPipeIsAnOutputError$")
	cmd.Env = append(os.Environ(), "CLI_TEST_BROKEN_PIPE_KEYSTORE="+t.TempDir())
	var errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = w, &errOut
	// The child's own end (testing's PASS on that stdout) is not what is
	// tested: Main's status and words are.
	_ = cmd.Run()
	said := errOut.String()
	if !strings.Contains(said, "svcwallet key list: cannot write the output: write /dev/stdout: broken pipe\n") || !strings.Contains(said, "Main returned 1\n") {
		t.Errorf("key list --json into a pipe with no reader: %s, stderr %q; want Main to return 1 saying the output was not written", cmd.ProcessState, said)
	}
}
