package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/svcwallet/svcwallet/internal/safetext"
	"github.com/svcwallet/svcwallet/service/config"
	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/sandbox"
	"github.com/svcwallet/svcwallet/signer"
)

// apiKeyVar holds the API key of the non-interactive commands, read by
// exchange.GivenAPIKey.
const apiKeyVar = exchange.APIKeyEnvVar

// apiKeyGiven: $SVCWALLET_API_KEY is set, blank too (exchange.GivenAPIKey).
func apiKeyGiven(getenv func(string) string) bool {
	_, given := exchange.GivenAPIKey(getenv)
	return given
}

const depositLong = `Lists the chains the account can deposit on: chain id, deposit address
("` + exchange.NotProvisioned + `" for an on-demand chain without one yet, and on stderr the
deposit generate that provisions it), and each token's contract ("native",
or "unknown: provider unreachable"). An address that fails its chain's
check (one no one holds the key of, or a listed token's own contract,
too), or any address of a chain whose name and chain id disagree on its
type (SOLANA* and TRON* chains are Solana and Tron, a numeric chain id is
EVM) or network (BSC is chain id 56), or that lists a token with two
contracts, is not given: "` + exchange.RefusedDeposit + `: REASON"
stands in its place (in --json, address_problem).

It uses the session svcwallet auth login kept; without one it logs in
with the API key in $SVCWALLET_API_KEY (sent as X-API-Key), or by wallet
signature with --signer or without an API key. On the embedded
sandbox, which runs inside this one command (fresh each time, so an address
generated there is not listed by the next run), a warning on stderr says
that its addresses receive nothing real. --json prints the service's JSON.

` + depositExit

// depositExit is the exit statuses of deposit and deposit generate.
const depositExit = `Exit status: 0 done, 1 the service refused (or, for generate, its address
was refused by svcwallet's checks), 2 usage, 5 the login failed
(the API key or the wallet login refused, or no answer to it: as every
command says it) or the service could not be reached.`

// depositFlags are the flags of deposit and deposit generate.
type depositFlags struct{ key signerFlags }

// depositCommand is `svcwallet deposit` and `svcwallet deposit generate CHAIN`.
func (a *app) depositCommand() *cobra.Command {
	var f depositFlags
	c := &cobra.Command{
		Use:     "deposit",
		Short:   "List or provision deposit addresses",
		Long:    withSignerHelp(depositLong),
		Example: "  svcwallet deposit --env sandbox --json\n  svcwallet deposit generate SOLANA",
		Args:    subcommandOnly,
		RunE:    func(c *cobra.Command, _ []string) error { return a.deposit(c.Context(), f, "") },
	}
	addSignerFlags(c, &f.key, false)
	a.envFlags(c)
	var g depositFlags
	gen := &cobra.Command{
		Use:   "generate CHAIN",
		Short: "Provision an on-demand chain's address",
		Long: withSignerHelp(`Provisions the deposit address of an on-demand chain such as SOLANA and
prints the chain; for a chain that already has one, prints it unchanged.
It logs in as svcwallet deposit does. The chains are the ones the
environment's deposit listing names (the service's list can change): any
other name is a usage error (exit 2) naming them, as withdraw --chain's
is, and nothing is provisioned. On a chain the listing refuses nothing
is provisioned either, and an answer giving another address than the
listing's, another chain id, or the contract of a token the listing
gives the chain, is refused: both exit 1.

` + depositExit),
		Args: func(c *cobra.Command, args []string) error {
			if len(args) != 1 || strings.TrimSpace(args[0]) == "" {
				return usageError("generate takes one chain name, such as SOLANA")
			}
			if err := exchange.CheckChainName(strings.TrimSpace(args[0])); err != nil {
				return usageError("%s: %w", safetext.NameQuoted(args[0]), err)
			}
			return nil
		},
		ValidArgsFunction: func(c *cobra.Command, args []string, _ string) ([]string, cobra.ShellCompDirective) {
			if len(args) > 0 {
				return nil, cobra.ShellCompDirectiveNoFileComp
			}
			return a.chainNames(a.configPath), cobra.ShellCompDirectiveNoFileComp
		},
		RunE: func(c *cobra.Command, args []string) error {
			return a.deposit(c.Context(), g, strings.TrimSpace(args[0]))
		},
	}
	addSignerFlags(gen, &g.key, false)
	a.envFlags(gen)
	c.AddCommand(gen)
	return c
}

// deposit lists the deposit addresses, or with a chain provisions its
// address.
func (a *app) deposit(ctx context.Context, f depositFlags, chain string) error {
	env := a.env
	e, err := a.environment()
	if err != nil {
		return err
	}
	apiKey, given := exchange.GivenAPIKey(env.Getenv)
	if e.Name == config.SandboxEnv {
		// The sandbox is also the fallback environment: a script must not
		// take its addresses for real ones.
		fmt.Fprintln(env.Stderr, "svcwallet deposit: environment sandbox, the embedded test exchange: its addresses receive nothing real; choose one with --env or $SVCWALLET_ENV")
		if !given {
			apiKey = sandbox.DemoAPIKey
		}
	}
	_, chosen, err := f.key.chosen(e)
	if err != nil {
		return usageError("%w", err)
	}
	client, _ := a.keptClient(e, f.key, nil, exchange.Options{}, false)
	byAPIKey := false // no session: the API key rides on the request (X-API-Key)
	switch {
	case client != nil:
		// The session svcwallet auth login kept serves the deposit
		// endpoints (SPEC.md §5).
	case f.key.onCommandLine() || !given && (chosen || env.Getenv(signer.KeyEnvVar) != ""):
		// The user logs in by wallet signature: a session serves the
		// deposit endpoints as well as X-API-Key does (SPEC.md §5).
		if client, err = a.logIn(ctx, e, f.key); err != nil {
			return loginFailed(err)
		}
	case !given && apiKey == "":
		login := "log in once with " + a.loginCommand(e)
		if ended := a.keptEnded(e); ended != "" {
			login = ended + ": log in again with " + a.loginCommand(e)
		}
		return usageError("%s, or set %s to an API key of the account (it is sent as X-API-Key), or log in by wallet signature with --signer SOURCE or %s holding the main signer's hex key", login, apiKeyVar, signer.KeyEnvVar)
	default:
		client, byAPIKey = exchange.New(e, exchange.Options{APIKey: apiKey, Logger: env.Log}), true
	}
	cx, cancel := context.WithTimeout(ctx, exchange.CallTimeout)
	defer cancel()

	var out any
	var chains []exchange.ChainInfo
	if chain == "" {
		chains, err = client.DepositAddresses(cx)
		out = struct {
			whereJSON
			exchange.DepositAddresses
		}{whereOf(e), exchange.DepositAddresses{Chains: chains}}
	} else {
		// The listing says which chains exist (SPEC.md §2.7): an unknown
		// one is refused before anything is provisioned.
		var info exchange.ChainInfo
		if chains, err = client.DepositAddresses(cx); err == nil {
			known, ok := exchange.ChainNamed(chains, chain)
			if !ok {
				return unknownChain(chain, e, chains)
			}
			info, err = client.GenerateFor(cx, known)
		}
		chains, out = []exchange.ChainInfo{info}, struct {
			whereJSON
			exchange.ChainInfo
		}{whereOf(e), info}
	}
	switch {
	case ctx.Err() != nil:
		return interrupted(ctx, "")
	case err != nil && byAPIKey && (errors.Is(err, exchange.ErrUnauthenticated) || errors.As(err, new(*exchange.TransportError)) ||
		errors.Is(err, exchange.ErrAPIKeyKeyShape) || errors.As(err, new(*exchange.APIKeyShapeError))):
		// Without a session the API key rides on this one request: its
		// refusal, sent or not, or no answer to it, is the failed login of
		// every command.
		what := "the API key in $" + apiKeyVar
		if !given {
			what = demoKeyName
		}
		return loginFailed(loginError(what, e.Name, err))
	case errors.As(err, new(*exchange.TransportError)):
		return failure(exitError, "%w", exchange.Explain(err))
	case err != nil:
		return failure(exitFailed, "%w", exchange.Explain(err))
	case chain != "" && chains[0].Verdict() == exchange.DepositRefused:
		// The one address asked for is unusable: a script must not go on.
		return failure(exitFailed, "%s", chains[0].Refusal())
	}
	if env.JSON {
		return outputError(writeJSON(env.Stdout, out))
	}
	if chain != "" {
		if _, err := fmt.Fprintf(env.Stdout, "Environment %s\n\n", e.Where()); err != nil {
			return outputError(err)
		}
	}
	if err := outputError(printChains(env.Stdout, chains)); err != nil {
		return err
	}
	// The next step for a chain not provisioned, on stderr: stdout stays the table.
	for _, ch := range chains {
		if ch.Verdict() == exchange.DepositGenerate {
			fmt.Fprintf(env.Stderr, "%s has no deposit address yet: %s provisions one.\n", ch.Chain, a.invocation().command("deposit", "generate", ch.Chain))
		}
	}
	return nil
}

// unknownChain refuses a deposit chain the environment does not list,
// naming those it does: the answer withdraw --chain gives.
func unknownChain(name string, e config.Environment, chains []exchange.ChainInfo) error {
	names := make([]string, len(chains))
	for i, c := range chains {
		names[i] = c.Chain
	}
	return usageError("%.40q is not a deposit chain of %s; its chains are: %s", safetext.Quoted(name), e.Name, strings.Join(names, ", "))
}

// printChains writes the table: one line per token, the chain's columns on
// its first line only. It returns the error of writing it (a full disk).
func printChains(w io.Writer, chains []exchange.ChainInfo) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "CHAIN\tCHAIN ID\tDEPOSIT ADDRESS\tTOKEN\tCONTRACT")
	for _, ch := range chains {
		cols := []string{ch.Chain, ch.ChainID, ch.Listed()}
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
	return tw.Flush()
}
