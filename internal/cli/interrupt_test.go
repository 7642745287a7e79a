package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/svcwallet/svcwallet/service/sandbox"
	"github.com/svcwallet/svcwallet/signer"
)

// interruptingStdin is a terminal's stdin at which the user presses
// ctrl+c: the first read ends the command's context (as the signal does)
// and waits, as a terminal read does, until the test ends.
type interruptingStdin struct {
	cancel context.CancelFunc
	end    chan struct{}
}

func (s interruptingStdin) Read([]byte) (int, error) {
	s.cancel()
	<-s.end
	return 0, io.EOF
}

// TestConfirmationInterrupted: ctrl+c at withdraw's [y/N] ends the
// command there, exit 130, saying nothing was signed or sent (with --json
// as an error object whose code is "interrupted"); its cleanup runs (the
// embedded sandbox's journal directory is removed).
func TestConfirmationInterrupted(t *testing.T) {
	withdrawState(t)
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	for _, asJSON := range []bool{false, true} {
		ctx, cancel := context.WithCancel(context.Background())
		in := interruptingStdin{cancel, make(chan struct{})}
		var out, errOut bytes.Buffer
		a := newApp(CLIEnv{Stdin: in, Stdout: &out, Stderr: &errOut, Getenv: noEnv})
		a.ctx = ctx
		a.withdraw.terminal = func(CLIEnv) bool { return true }
		args := append([]string{"withdraw", "--env", "sandbox"}, withdrawArgs(sandbox.DestCompleted, "25")...)
		if asJSON {
			args = append(args, "--json")
		}
		code := a.execute(args)
		close(in.end)
		switch {
		case code != 130:
			t.Errorf("json %v: exit %d, want 130:\n%s%s", asJSON, code, out.String(), errOut.String())
		case !asJSON && !strings.HasSuffix(errOut.String(), "[y/N] \nsvcwallet withdraw: interrupted: nothing was signed or sent\n"):
			t.Errorf("stderr:\n%s", errOut.String())
		case asJSON:
			lines := strings.Split(strings.TrimSpace(out.String()), "\n")
			var e errorJSON
			if err := json.Unmarshal([]byte(lines[len(lines)-1]), &e); err != nil || e.Error.Code != "interrupted" || e.Error.Exit != 130 ||
				e.Error.Message != "interrupted: nothing was signed or sent" {
				t.Errorf("--json: %s (%v)", out.String(), err)
			}
		}
		if left, _ := filepath.Glob(filepath.Join(tmp, "svcwallet-sandbox-*")); len(left) != 0 {
			t.Errorf("left behind: %v", left)
		}
	}
}

// TestNoEnvironmentWhereNoneIsNeeded: version, help, completion, man and
// key resolve no environment: a config that cannot be read (so that
// reading it would fail the command) is never read, and no embedded
// sandbox is started, which only follows a read.
func TestNoEnvironmentWhereNoneIsNeeded(t *testing.T) {
	bad := filepath.Join(t.TempDir(), "config.toml")
	if err := os.WriteFile(bad, []byte("this is [not toml\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	vars := map[string]string{configPathVar: bad, signer.KeystoreEnvVar: t.TempDir()}
	for _, args := range [][]string{{"version"}, {"help", "status"}, {"status", "--help"}, {"completion", "bash"}, {"man"}, {"key", "list"}} {
		if r := runCLI("", vars, args...); r.code != 0 {
			t.Errorf("%q: exit %d:\n%s", args, r.code, r.stderr)
		}
	}
	// The same config stops a command that needs an environment.
	if code := Run([]string{"history"}, CLIEnv{Stdin: strings.NewReader(""), Stdout: io.Discard, Stderr: io.Discard,
		Getenv: func(k string) string { return vars[k] }}); code == 0 {
		t.Error("history read no config")
	}
}

// TestInterruptedRequest: ctrl+c before a request is answered ends the
// command there with exit 130, not as a login or service that failed.
func TestInterruptedRequest(t *testing.T) {
	withdrawState(t)
	for _, args := range [][]string{
		{"status", "q-1"},
		{"deposit"},
		append([]string{"withdraw", "--yes"}, withdrawArgs(sandbox.DestCompleted, "25")...),
	} {
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		var out, errOut bytes.Buffer
		a := newApp(CLIEnv{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errOut, Getenv: noEnv})
		a.ctx = ctx
		if code := a.execute(append(args, "--env", "sandbox")); code != 130 || !strings.HasSuffix(errOut.String(), ": interrupted\n") {
			t.Errorf("%q: exit %d:\n%s%s", args, code, out.String(), errOut.String())
		}
	}
}
