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
  svcwallet status QUOTE_ID [--watch] [--json]   print a withdrawal's status
                                     (exit 0 completed, 1 not paid out,
                                     2 usage, 3 pending, 4 not found, 5 error;
                                     see svcwallet status --help)
  svcwallet version                  print the version

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
		case "version":
			fmt.Fprintln(env.Stdout, "svcwallet", version())
			return 0
		case "help", "-h", "-help", "--help":
			fmt.Fprint(env.Stdout, usage)
			return 0
		}
	}
	return runConsole(args, env)
}

// version is the module version stamped by the Go toolchain, or "devel".
func version() string {
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		return bi.Main.Version
	}
	return "devel"
}

// usageError prints a one-line complaint and the usage, for exit status 2.
func usageError(w io.Writer, format string, a ...any) int {
	fmt.Fprintf(w, "svcwallet: "+format+"\n\n", a...)
	fmt.Fprint(w, usage)
	return 2
}
