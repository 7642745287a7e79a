package cli

import (
	"os"
	"os/exec"
	"testing"

	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/signer"
)

// startedVar runs the test again as a process started with the secrets.
const startedVar = "CLI_TEST_STARTED_WITH_SECRETS"

// TestStdEnvHoldsWhatStartTook: the secrets internal/startenv took before
// the dependencies initialised reach the commands through StdEnv (taken
// once, by signer.TakeEnv from startenv's memory), not only those still in
// the environment when StdEnv is made.
func TestStdEnvHoldsWhatStartTook(t *testing.T) {
	if os.Getenv(startedVar) != "" {
		env := StdEnv()
		for name, want := range map[string]string{signer.KeyEnvVar: "test-private-key", exchange.APIKeyEnvVar: "test-api-key"} {
			if env.Getenv(name) != want {
				t.Errorf("env.Getenv(%s) lost the value the process started with", name)
			}
			if _, ok := signer.TakeEnv(name); ok {
				t.Errorf("%s was handed over a second time", name)
			}
		}
		return
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestStdEnvHoldsWhatStartTook$", "-test.count=1")
	cmd.Env = append(os.Environ(), startedVar+"=1", signer.KeyEnvVar+"=test-private-key", exchange.APIKeyEnvVar+"=test-api-key")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("the started process: %v\n%s", err, out)
	}
}

// mainedVar runs the test again as a process started inside tmux.
const mainedVar = "CLI_TEST_STARTED_IN_TMUX"

// TestMainGivesTmuxBack: TMUX, hidden from the dependencies' init, is in
// the environment again once Main runs, where svcwallet's own code reads it
// (the copy through tmux, doctor's checks, the console's colour question).
func TestMainGivesTmuxBack(t *testing.T) {
	const tmux = "/tmp/tmux-0/default,1,0"
	if os.Getenv(mainedVar) != "" {
		if _, ok := os.LookupEnv("TMUX"); ok {
			t.Fatal("TMUX was not hidden as the process initialised")
		}
		if code := Main([]string{"version"}, Stamp{}); code != 0 {
			t.Fatalf("version: exit %d", code)
		}
		if got := os.Getenv("TMUX"); got != tmux {
			t.Errorf("TMUX after Main is %q, want %q", got, tmux)
		}
		return
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestMainGivesTmuxBack$", "-test.count=1")
	cmd.Env = append(os.Environ(), mainedVar+"=1", "TMUX="+tmux)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("the started process: %v\n%s", err, out)
	}
}
