package main

import (
	"strings"
	"testing"
)

// TestSandboxHelp: help goes to stdout with exit 0; a bad flag or argument
// is a usage error on stderr (the server is never started in either case).
func TestSandboxHelp(t *testing.T) {
	for _, args := range [][]string{{"--help"}, {"-h"}, {"help"}} {
		r := depositCmd(t, nil, append([]string{"sandbox"}, args...)...)
		r.want(t, 0, []string{"svcwallet sandbox [--listen ADDR]", "-quote-ttl"}, nil)
		if r.stderr != "" {
			t.Errorf("%q: stderr %q", args, r.stderr)
		}
	}
	for _, args := range [][]string{{"--bogus"}, {"extra"}} {
		r := depositCmd(t, nil, append([]string{"sandbox"}, args...)...)
		r.want(t, 2, nil, []string{"svcwallet sandbox [--listen ADDR]"})
		if r.stdout != "" {
			t.Errorf("%q: stdout %q", args, r.stdout)
		}
	}
}

// TestUsageFitsEighty: the usage texts read in an 80-column terminal.
func TestUsageFitsEighty(t *testing.T) {
	for name, text := range map[string]string{"status": statusUsage, "sandbox": sandboxUsage, "key": keyUsage} {
		for _, l := range strings.Split(text, "\n") {
			if len([]rune(l)) > 80 {
				t.Errorf("%s usage line of %d columns: %q", name, len([]rune(l)), l)
			}
		}
	}
}
