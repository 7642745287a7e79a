package cli

import (
	"bytes"
	"os"
	"strings"
	"testing"
)

// TestJSONErrorStdoutRefusedSaysOnStderr: with --json, an error goes to
// stdout as one object; when stdout refuses that too (a full disk, a
// reader gone), the error is said on stderr in one line of plain words and
// the exit status is kept: only the status reached the caller.
func TestJSONErrorStdoutRefusedSaysOnStderr(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	t.Setenv("HOME", t.TempDir())
	full, err := os.OpenFile("/dev/full", os.O_WRONLY, 0)
	if err != nil {
		t.Skip("no /dev/full here:", err)
	}
	defer full.Close()
	r, closedPipe, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	r.Close() // its reader gone: every write is EPIPE
	defer closedPipe.Close()
	for name, stdout := range map[string]*os.File{"/dev/full": full, "a closed pipe": closedPipe} {
		for _, c := range []struct {
			args []string
			exit int
			says string
		}{
			// The document refused, then its error.
			{[]string{"deposit", "--env", "sandbox", "--json"}, exitFailed, "svcwallet deposit: cannot write the output: "},
			// An error of the command's own.
			{[]string{"status", "--env", "nowhere", "q-1", "--json"}, exitUsage, "svcwallet status: "},
			// Cobra's, before the command runs.
			{[]string{"withdraw", "--nosuch", "--json"}, exitUsage, "svcwallet withdraw: unknown flag: --nosuch"},
		} {
			var errOut bytes.Buffer
			code := Run(c.args, CLIEnv{Stdin: strings.NewReader(""), Stdout: stdout, Stderr: &errOut, Getenv: func(string) string { return "" }})
			// The last line but a usage error's "run --help": a sandbox's
			// note may come before it.
			lines := strings.Split(strings.TrimSuffix(errOut.String(), "\n"), "\n")
			said := lines[len(lines)-1]
			if strings.HasPrefix(said, "run '") && len(lines) > 1 {
				said = lines[len(lines)-2]
			}
			if code != c.exit {
				t.Errorf("%s, %v: exit %d, want %d", name, c.args, code, c.exit)
			}
			if !strings.HasSuffix(errOut.String(), "\n") || !strings.HasPrefix(said, c.says) || strings.Contains(said, "{") {
				t.Errorf("%s, %v: stderr says %q, want its last line, plain, to start %q", name, c.args, said, c.says)
			}
		}
	}
}
