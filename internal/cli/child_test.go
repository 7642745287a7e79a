//go:build unix

package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/svcwallet/svcwallet/internal/osguard"
	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/signer"
)

// TestDoctorTmuxGetsNoSecrets: the tmux doctor asks for set-clipboard (a
// stand-in first on PATH that records its environment) inherits neither
// the key nor the API key set in svcwallet's environment.
func TestDoctorTmuxGetsNoSecrets(t *testing.T) {
	t.Setenv(signer.KeyEnvVar, "0x4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318")
	t.Setenv(exchange.APIKeyEnvVar, "test-api-key")
	t.Setenv("CHILDENV_MARK", "1")
	dir := t.TempDir()
	out := filepath.Join(dir, "env.out")
	if err := os.WriteFile(filepath.Join(dir, "tmux"), []byte("#!/bin/sh\nenv > '"+out+"'\necho on\n"), 0o700); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", dir+string(os.PathListSeparator)+os.Getenv("PATH"))
	cfg, _ := localConfig(t)
	code, rep, report := doctor(t, map[string]string{"TMUX": "/tmp/tmux-0/default,1,0"}, tmuxGlobalOption, "--config", cfg)
	if code != 0 || rep.warning("clipboard") != nil {
		t.Fatalf("exit %d with the stand-in tmux answering on:\n%s", code, report)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatalf("the stand-in tmux did not run: %v", err)
	}
	env := "\n" + string(b)
	if !strings.Contains(env, "\nCHILDENV_MARK=1\n") {
		t.Error("tmux did not get the parent's environment")
	}
	for _, name := range []string{signer.KeyEnvVar, exchange.APIKeyEnvVar} {
		if strings.Contains(env, "\n"+name+"=") {
			t.Errorf("%s reached tmux", name)
		}
	}
}

// TestDoctorTmuxThatNeverAnswers: a tmux server that never answers (a
// stand-in that sleeps) held doctor for ever; it is given up after
// its wait (osguard.QuickWait; here 100ms) and said as a clipboard that
// cannot be told.
func TestDoctorTmuxThatNeverAnswers(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "tmux"), []byte("#!/bin/sh\nexec sleep 60\n"), 0o700); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", dir+string(os.PathListSeparator)+os.Getenv("PATH"))
	cfg, _ := localConfig(t)
	type ran struct {
		rep    doctorReport
		report string
	}
	done := make(chan ran, 1)
	go func() {
		quick := func(name string) (string, error) { return osguard.TmuxGlobalOption(100*time.Millisecond, name) }
		_, rep, report := doctor(t, map[string]string{"TMUX": "/tmp/tmux-0/default,1,0"}, quick, "--config", cfg)
		done <- ran{rep, report}
	}()
	select {
	case r := <-done:
		if w := r.rep.warning("clipboard"); w == nil || !strings.Contains(w.Detail, "tmux did not answer within 100ms") {
			t.Fatalf("want the clipboard said unknown, tmux not answering:\n%s", r.report)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("doctor still waits for a tmux that never answers")
	}
}

// TestStdEnvTakesSecrets: the real process's env holds the key, the API
// key and every other SVCWALLET_* variable in memory and takes them out of
// the process's environment, so no child and nothing reading the
// environment later sees them.
func TestStdEnvTakesSecrets(t *testing.T) {
	want := map[string]string{signer.KeyEnvVar: "0x4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318", exchange.APIKeyEnvVar: "test-api-key"}
	for name, v := range want {
		t.Setenv(name, v)
	}
	t.Setenv("SVCWALLET_ENV", "testnet")
	env := StdEnv()
	for name, v := range want {
		if _, ok := os.LookupEnv(name); ok {
			t.Errorf("%s is still in the process's environment", name)
		}
		if env.Getenv(name) != v {
			t.Errorf("env.Getenv(%s) lost the value", name)
		}
	}
	// Every SVCWALLET_* variable leaves the process's environment, so a
	// child a library starts (a clipboard helper) inherits none; Getenv
	// still answers it.
	if env.Getenv("SVCWALLET_ENV") != "testnet" {
		t.Error("SVCWALLET_ENV was lost")
	}
	for _, kv := range os.Environ() {
		if strings.HasPrefix(strings.ToUpper(kv), osguard.EnvVarPrefix) {
			t.Errorf("%s is still in the process's environment", strings.SplitN(kv, "=", 2)[0])
		}
	}
}
