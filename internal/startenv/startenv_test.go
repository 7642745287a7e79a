package startenv

import (
	"os"
	"os/exec"
	"slices"
	"testing"
)

// startedVar runs the test again as a process started with the secret
// variables and TMUX set, which is the only way to see init at work.
const startedVar = "STARTENV_TEST_STARTED"

// TestInitTakesSecretsAndHidesTmux: a process started with the secrets
// and TMUX has neither in its environment once initialised; the secrets
// are handed over once each, and TMUX comes back when given back.
func TestInitTakesSecretsAndHidesTmux(t *testing.T) {
	if os.Getenv(startedVar) != "" {
		started(t)
		return
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestInitTakesSecretsAndHidesTmux$", "-test.count=1")
	cmd.Env = append(os.Environ(), startedVar+"=1", PrivateKeyVar+"=test-private-key", APIKeyVar+"=test-api-key", "TMUX=/tmp/tmux-0/default,1,0")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("the started process: %v\n%s", err, out)
	}
}

func started(t *testing.T) {
	for _, name := range []string{PrivateKeyVar, APIKeyVar, "TMUX"} {
		if _, ok := os.LookupEnv(name); ok {
			t.Errorf("%s is in the environment the dependencies initialised with", name)
		}
	}
	held := Held()
	slices.Sort(held)
	if !slices.Equal(held, []string{APIKeyVar, PrivateKeyVar}) {
		t.Errorf("held %v, want both secrets", held)
	}
	if v, ok := Take(PrivateKeyVar); !ok || v != "test-private-key" {
		t.Errorf("Take(%s) lost the value", PrivateKeyVar)
	}
	if _, ok := Take(PrivateKeyVar); ok {
		t.Errorf("%s was handed over twice", PrivateKeyVar)
	}
	if held := Held(); !slices.Equal(held, []string{APIKeyVar}) {
		t.Errorf("held %v after the key was taken, want the API key alone", held)
	}
	GiveBackTMUX()
	if os.Getenv("TMUX") != "/tmp/tmux-0/default,1,0" {
		t.Error("TMUX was not given back")
	}
}
