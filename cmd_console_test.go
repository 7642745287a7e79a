package main

import (
	"strings"
	"testing"
)

// An --env name that exists nowhere is refused, config file or not, and the
// refusal lists the names that do exist in words, not as a Go slice.
func TestConsoleUnknownEnvRefused(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir()) // no config file at the default path
	t.Setenv("HOME", t.TempDir())
	cfg, _ := localConfig(t)
	for _, tc := range []struct {
		name, config string
		want         []string
	}{
		{"no config file", "", []string{`no environment "nope"`, "there is no config file", "the only one is sandbox"}},
		{"config file", cfg, []string{`no environment "nope"`, "known: local or sandbox"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			targets, closeAll, err := consoleTargets(tc.config, "nope")
			if err == nil {
				closeAll()
				t.Fatalf("--env nope opened %d environments (first %q)", len(targets), targets[0].Env.Name)
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error lacks %q: %v", w, err)
				}
			}
			if strings.ContainsAny(err.Error(), "[]") {
				t.Errorf("error formats a Go list: %v", err)
			}
			args := []string{"--env", "nope"}
			if tc.config != "" {
				args = append(args, "--config", tc.config)
			}
			r := depositCmd(t, nil, args...)
			r.want(t, 2, nil, []string{`no environment "nope"`})
		})
	}
}

// The non-interactive commands word the refusal the same way.
func TestCommandEnvUnknownListsNames(t *testing.T) {
	cfg, _ := localConfig(t)
	_, _, err := commandEnv(cfg, "nope", false)
	if err == nil || !strings.Contains(err.Error(), "known: local or sandbox") || strings.Contains(err.Error(), "[") {
		t.Fatalf("commandEnv(nope): %v", err)
	}
}

// TestConsoleAlwaysOffersSandbox (issue 12 friction): with default_env set
// the environment picker starts on it and still offers the embedded
// sandbox, last.
func TestConsoleAlwaysOffersSandbox(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	t.Setenv("HOME", t.TempDir())
	cfg, _ := localConfig(t)
	for _, tc := range []struct{ env, want string }{{"", "local sandbox"}, {"sandbox", "sandbox local"}} {
		targets, closeAll, err := consoleTargets(cfg, tc.env)
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, tg := range targets {
			names = append(names, tg.Env.Name)
		}
		closeAll()
		if got := strings.Join(names, " "); got != tc.want {
			t.Errorf("--env %q: the picker offers %s, want %s", tc.env, got, tc.want)
		}
	}
}
