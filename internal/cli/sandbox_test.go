package cli

import (
	"os"
	"strings"
	"testing"

	"github.com/svcwallet/svcwallet/service/config"
	"github.com/svcwallet/svcwallet/service/sandbox"

	"github.com/charmbracelet/x/ansi"

	"github.com/spf13/cobra"
)

// TestSandboxHelp: help goes to stdout with exit 0; a bad flag or argument
// is a usage error on stderr (the server is never started in either case).
func TestSandboxHelp(t *testing.T) {
	for _, args := range [][]string{{"sandbox", "--help"}, {"sandbox", "-h"}, {"help", "sandbox"}} {
		r := depositCmd(t, nil, args...)
		r.want(t, 0, []string{"svcwallet sandbox [flags]", "--quote-ttl"}, nil)
		if r.stderr != "" {
			t.Errorf("%q: stderr %q", args, r.stderr)
		}
	}
	for _, args := range [][]string{{"--bogus"}, {"extra"}} {
		r := depositCmd(t, nil, append([]string{"sandbox"}, args...)...)
		r.want(t, 2, nil, []string{"svcwallet sandbox: ", "run 'svcwallet sandbox --help' for usage"})
		if r.stdout != "" {
			t.Errorf("%q: stdout %q", args, r.stdout)
		}
	}
}

// TestUsageFitsEighty: every command's help has no line wider than 80
// columns, whatever the terminal.
func TestUsageFitsEighty(t *testing.T) {
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		args := append(strings.Fields(strings.TrimPrefix(c.CommandPath(), "svcwallet")), "--help")
		r := depositCmd(t, nil, args...)
		for _, l := range strings.Split(r.stdout, "\n") {
			if l = strings.TrimRight(l, " "); ansi.StringWidth(l) > 80 {
				t.Errorf("%s: help line of %d columns: %q", c.CommandPath(), ansi.StringWidth(l), ansi.Strip(l))
			}
		}
		for _, s := range c.Commands() {
			if s.IsAvailableCommand() {
				walk(s)
			}
		}
	}
	walk(newApp(CLIEnv{}).rootCommand())
}

// TestSandboxRefusesNetworkListen: an address reachable from the network is
// a usage error (exit 2, nothing served) unless --public is given; so is an
// address that is not HOST:PORT. The addresses are ones this machine cannot
// bind (documentation ranges, an .invalid name), so a broken check fails
// with exit 1 instead of serving; TestIsLoopback covers 0.0.0.0, :: and ":PORT".
func TestSandboxRefusesNetworkListen(t *testing.T) {
	for _, addr := range []string{"192.0.2.1:0", "[2001:db8::1]:0", "lan-host.invalid:0"} {
		r := depositCmd(t, nil, "sandbox", "--listen", addr)
		r.want(t, 2, nil, []string{"is reachable from the network", "add --public"})
		if r.stdout != "" {
			t.Errorf("%s: stdout %q (nothing is served)", addr, r.stdout)
		}
	}
	r := depositCmd(t, nil, "sandbox", "--listen", "8700")
	r.want(t, 2, nil, []string{`--listen "8700" is not HOST:PORT`})
}

// TestSandboxRefusesBadNames: cookie and header names that are not HTTP
// tokens, and a domain name with control characters, are usage errors;
// nothing is served. The loopback port cannot be bound, so a broken check
// fails with exit 1 instead of serving.
func TestSandboxRefusesBadNames(t *testing.T) {
	for _, args := range [][]string{
		{"--cookie-name", "a b"},
		{"--account-id-header", "X-Acct\r\nSet-Cookie: x"},
		{"--domain-name", "Acme\x1b[2J Exchange"},
	} {
		r := depositCmd(t, nil, append([]string{"sandbox", "--listen", "127.0.0.1:99999"}, args...)...)
		if r.code != 2 || r.stdout != "" {
			t.Errorf("%q: exit %d, stdout %q", args, r.code, r.stdout)
		}
	}
	// The config refuses a chain id a JSON reader rounds: the block the
	// sandbox printed for one did not load, and its typed data was rounded.
	r := depositCmd(t, nil, "sandbox", "--listen", "127.0.0.1:99999", "--chain-id", "9007199254740993")
	r.want(t, 2, nil, []string{"--chain-id 9007199254740993 is above 9007199254740991"})
}

// TestSandboxEnvAdd (issue 21 item 16): the env add command the sandbox
// prints, run as it is, names an environment that points at it with the
// names it was started with; it printed TOML to paste, where README names
// environments with env add.
func TestSandboxEnvAdd(t *testing.T) {
	w, srv := newAuthWorld(t, sandbox.Options{})
	if err := os.WriteFile(w.config, nil, 0o600); err != nil { // no environment yet
		t.Fatal(err)
	}
	f := sandboxFlags{chainID: 326, domainName: "Other Exchange", cookieName: "sid", accountIDHeader: config.HeaderAccountID}
	words := sandboxEnvAdd(srv.URL, f)
	if words[0] != "svcwallet" {
		t.Fatalf("printed %q", words)
	}
	if r := w.run("", nil, words[1:]...); r.code != 0 {
		t.Fatalf("%q: exit %d\n%s%s", words, r.code, r.stdout, r.stderr)
	}
	cfg, err := config.LoadConfig(w.config, true)
	if err != nil {
		t.Fatalf("the config env add wrote does not load: %v", err)
	}
	e, err := cfg.Lookup("local")
	if err != nil || e.AuthURL != srv.URL || e.BaseURL != e.AuthURL || e.MarketDataURL != e.AuthURL || e.ChainID != 326 ||
		e.DomainName != "Other Exchange" || e.Cookie() != "sid" || e.AccountHeader() != config.HeaderAccountID || e.AccountIDHeader != "" {
		t.Fatalf("loaded %+v (%v)", e, err)
	}
}
