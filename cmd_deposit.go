package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"svcwallet/service"
	"svcwallet/service/sandbox"
)

// apiKeyVar holds the API key of the non-interactive commands.
const apiKeyVar = service.APIKeyEnvVar

const depositUsage = `Usage:
  svcwallet deposit [--json] [--env NAME] [--config PATH]
      List the chains the account can deposit on: chain id, deposit address
      ("not provisioned" for an on-demand chain without one yet), and each
      token's contract ("native", or "unknown: provider unreachable").
  svcwallet deposit generate CHAIN [--json] [--env NAME] [--config PATH]
      Provision the deposit address of an on-demand chain such as SOLANA and
      print the chain; for a chain that already has one, print it unchanged.

The API key is read from $SVCWALLET_API_KEY and sent as X-API-Key. The
environment is --env NAME, else $SVCWALLET_ENV, else the config's default_env,
else the embedded sandbox, which runs inside this one command (fresh each time,
so an address generated there is not listed by the next run) and uses its demo
key when $SVCWALLET_API_KEY is unset; on the sandbox a warning on stderr says
that its addresses receive nothing real. --json prints the service's JSON.

Exit status: 0 done, 1 the service refused or could not be reached, 2 usage.
`

// depositTimeout bounds one deposit command's request.
const depositTimeout = 30 * time.Second

// runDeposit runs `svcwallet deposit ...` and returns the exit status.
func runDeposit(args []string, env CLIEnv) int {
	fs := flag.NewFlagSet("svcwallet deposit", flag.ContinueOnError)
	fs.SetOutput(io.Discard) // errors are worded below, on one line
	asJSON := fs.Bool("json", false, "print JSON")
	envName := fs.String("env", "", "environment (from the config file, or \"sandbox\")")
	configPath := fs.String("config", "", "config file")
	words, err := parseInterleaved(fs, args)
	if errors.Is(err, flag.ErrHelp) {
		fmt.Fprint(env.Stdout, depositUsage)
		return 0
	}
	fail := func(code int, format string, a ...any) int {
		fmt.Fprintf(env.Stderr, "svcwallet deposit: "+format+"\n", a...)
		if code == 2 {
			fmt.Fprintln(env.Stderr, "run svcwallet deposit --help for usage")
		}
		return code
	}
	var chain string
	switch {
	case err != nil:
		return fail(2, "%v", err)
	case len(words) == 0:
	case words[0] != "generate":
		return fail(2, "unknown subcommand %q: the only one is generate", words[0])
	case len(words) != 2 || strings.TrimSpace(words[1]) == "":
		return fail(2, "generate takes one chain name, such as SOLANA")
	default:
		chain = strings.TrimSpace(words[1])
	}

	e, closeEnv, err := commandEnv(*configPath, *envName, env.Getenv)
	if err != nil {
		var ue envUsageError
		if errors.As(err, &ue) {
			return fail(2, "%v", err)
		}
		return fail(1, "%v", err)
	}
	defer closeEnv()
	apiKey := env.Getenv(apiKeyVar)
	if e.Name == service.SandboxEnv {
		// The sandbox is also the fallback environment: a script must not
		// take its addresses for real ones.
		fmt.Fprintln(env.Stderr, "svcwallet deposit: environment sandbox, the embedded test exchange: its addresses receive nothing real; choose one with --env or $SVCWALLET_ENV")
		if apiKey == "" {
			apiKey = sandbox.DemoAPIKey
		}
	}
	if apiKey == "" {
		return fail(2, "set %s to an API key of the account (it is sent as X-API-Key)", apiKeyVar)
	}
	client := service.New(e, service.Options{APIKey: apiKey, Logger: env.Log})
	cx, cancel := context.WithTimeout(context.Background(), depositTimeout)
	defer cancel()

	var out any
	var chains []service.ChainInfo
	if chain == "" {
		chains, err = client.DepositAddresses(cx)
		out = service.DepositAddresses{Chains: chains}
	} else {
		var info service.ChainInfo
		info, err = client.GenerateAddress(cx, chain)
		chains, out = []service.ChainInfo{info}, info
	}
	if err != nil {
		return fail(1, "%v", depositCLIError(err, e.Name))
	}
	if *asJSON {
		if err := writeJSON(env.Stdout, out); err != nil {
			return fail(1, "%v", err)
		}
		return 0
	}
	printChains(env.Stdout, chains)
	return 0
}

// depositCLIError words a failure for a script's log: the console's
// explanations, except that the key here is the variable, not a session.
func depositCLIError(err error, envName string) error {
	if errors.Is(err, service.ErrUnauthenticated) {
		return fmt.Errorf("the API key in %s was not accepted by environment %s: check the key", apiKeyVar, envName)
	}
	return service.Explain(err)
}

// printChains writes the table: one line per token, the chain's columns on
// its first line only.
func printChains(w io.Writer, chains []service.ChainInfo) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "CHAIN\tCHAIN ID\tDEPOSIT ADDRESS\tTOKEN\tCONTRACT")
	for _, ch := range chains {
		addr := ch.DepositAddress
		switch {
		case ch.AddressProblem != "":
			addr = "REFUSED, do not deposit: " + ch.AddressProblem
		case addr == "":
			addr = "not provisioned"
		}
		cols := []string{ch.Chain, ch.ChainID, addr}
		if len(ch.SupportedTokens) == 0 {
			fmt.Fprintln(tw, strings.Join(append(cols, "-", ""), "\t"))
		}
		for i, t := range ch.SupportedTokens {
			if i > 0 {
				cols = []string{"", "", ""}
			}
			fmt.Fprintln(tw, strings.Join(append(cols, t.Name, t.ContractText()), "\t"))
		}
	}
	tw.Flush()
}

// parseInterleaved parses flags placed before, between or after the
// positional words, which it returns in order.
func parseInterleaved(fs *flag.FlagSet, args []string) ([]string, error) {
	var words []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		if fs.NArg() == 0 {
			return words, nil
		}
		words, args = append(words, fs.Arg(0)), fs.Args()[1:]
	}
}
