// Command svcwallet is a full-screen terminal console for an exchange funding
// account: log in, deposit addresses, bridge withdrawals, builder
// authorization and withdrawal status lookup. With no configuration it runs
// against an embedded sandbox exchange.
package main

import (
	"fmt"
	"io"
	"os"
	"runtime/debug"

	"svcwallet/signer"
)

const usage = `svcwallet: a terminal console for an exchange funding account.

Usage:
  svcwallet [--env NAME] [--config PATH] [--theme light|dark]   open the console
  svcwallet sandbox [flags]          serve the sandbox exchange (see --help)
  svcwallet key new|import|list      manage signing keys in the keystore
  svcwallet deposit [generate CHAIN] [--json] [--env NAME]
                                     list deposit addresses, or provision one
                                     (key from $SVCWALLET_API_KEY; exit 1 refused
                                     or unreachable, 2 usage; see --help)
  svcwallet builder authorize --builder ADDR --max-futures-fee P --max-spot-fee P
      [--api-key-signer ADDR --permissions LIST --label TEXT] [--expires 7d]
      [--dry-run] [--json] [--env NAME]
                                     authorize a builder to trade for the account
                                     (key from $SVCWALLET_PRIVATE_KEY or --keystore-file;
                                     exit 1 refused, 2 usage; see --help)
  svcwallet status QUOTE_ID... [--watch] [--json]
                                     print withdrawals' statuses (- reads quote
                                     ids from stdin; exit the largest of: 0
                                     completed, 1 not paid out, 3 pending,
                                     4 not found, 5 error; 2 usage;
                                     see svcwallet status --help)
  svcwallet history [--json] [--env NAME]
                                     withdrawals journaled here, unfinished first
  svcwallet doctor [--json]          check config, keys, journal, hosts, clock
                                     and clipboard, with the fix for each problem
  svcwallet version, --version       print the version, revision and Go version

--debug (or SVCWALLET_DEBUG=1) logs requests, answers' statuses and timings:
commands to stderr, the console to debug.log in the state directory.

With no configured environment the console starts the embedded sandbox
exchange on a loopback port; its login screen offers the demo credentials.
`

func main() {
	// Once, before any command reads a key: the console, key, builder and
	// status commands may all hold one, and the rule is simplest kept whole.
	if err := signer.ProtectProcess(); err != nil {
		fmt.Fprintln(os.Stderr, "svcwallet: warning:", err)
	}
	os.Exit(run(os.Args[1:], stdCLIEnv()))
}

// run dispatches a command line and returns the exit status.
func run(args []string, env CLIEnv) int {
	if args, env.Debug = takeDebug(args, env.Getenv); env.Debug {
		env.Log = debugLogger(env.Stderr)
	}
	if len(args) > 0 {
		switch args[0] {
		case "sandbox":
			return runSandbox(args[1:], env)
		case "key":
			return runKey(args[1:], env)
		case "status":
			return runStatus(args[1:], env)
		case "builder":
			return runBuilder(args[1:], env)
		case "deposit":
			return runDeposit(args[1:], env)
		case "history":
			return runHistory(args[1:], env)
		case "doctor":
			return runDoctor(args[1:], env)
		case "version", "--version", "-version", "-v":
			fmt.Fprintln(env.Stdout, versionText(debug.ReadBuildInfo()))
			return 0
		case "help", "-h", "-help", "--help":
			fmt.Fprint(env.Stdout, usage)
			return 0
		}
	}
	return runConsole(args, env)
}

// versionText names the build: the module version stamped by the Go
// toolchain ("devel" for a source build), then the VCS revision and its time
// when the build recorded them, "+changes" when the tree was modified.
func versionText(bi *debug.BuildInfo, ok bool) string {
	if !ok {
		return "svcwallet devel"
	}
	v := bi.Main.Version
	if v == "" || v == "(devel)" {
		v = "devel"
	}
	var rev, at, dirty string
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.time":
			at = s.Value
		case "vcs.modified":
			if s.Value == "true" {
				dirty = "+changes"
			}
		}
	}
	out := "svcwallet " + v
	if rev != "" {
		out += fmt.Sprintf(" (revision %.12s%s", rev, dirty)
		if at != "" {
			out += ", " + at
		}
		out += ")"
	}
	return out + ", " + bi.GoVersion
}

// usageError prints a one-line complaint and the usage, for exit status 2.
func usageError(w io.Writer, format string, a ...any) int {
	fmt.Fprintf(w, "svcwallet: "+format+"\n\n", a...)
	fmt.Fprint(w, usage)
	return 2
}
