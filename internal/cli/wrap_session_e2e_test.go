//go:build e2e && unix

package cli

import (
	"io"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/svcwallet/svcwallet/service/sandbox"
)

// TestSessionRefusedFitsSixtyColumns: on a terminal 60 columns wide, the
// error of a kept session the service refused wraps at spaces. It named
// "svcwallet auth login" as the session's keeper, which the fit took for
// a command to keep whole up to its ")": 87 cells, split mid-word.
func TestSessionRefusedFitsSixtyColumns(t *testing.T) {
	w, srv := newAuthWorld(t, sandbox.Options{})
	revoked := w.revokingFront(srv, nil)
	w.logIn(sandbox.DemoAPIKey, nil, "--with-api-key", "--insecure-storage")
	revoked.Store(true)
	shown := newSixtyColumns(t).run(wrapScene{"deposit", func(stdout, stderr io.Writer) int {
		return Run([]string{"deposit", "--config", w.config}, CLIEnv{Stdin: strings.NewReader(""), Stdout: stdout, Stderr: stderr, Getenv: func(string) string { return "" }})
	}})
	t.Logf("at 60 columns:\n%s", shown)
	if !strings.Contains(shown, "log in again") {
		t.Fatalf("not the refused session's error:\n%s", shown)
	}
	for _, l := range strings.Split(shown, "\n") {
		// Wider alone: the login to run, whole (its --config path).
		if ansi.StringWidth(l) > 60 && !strings.HasPrefix(l, "svcwallet auth login --env local --config ") {
			t.Errorf("a line of %d cells: %q", ansi.StringWidth(l), l)
		}
	}
}
