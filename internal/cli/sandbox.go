package cli

import (
	"context"
	"fmt"
	"log/slog"
	"net"
	"strconv"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/svcwallet/svcwallet/internal/safetext"
	"github.com/svcwallet/svcwallet/service/config"
	"github.com/svcwallet/svcwallet/service/sandbox"
	"github.com/svcwallet/svcwallet/signer"
)

const sandboxLong = `Serves the sandbox exchange (every endpoint the console uses, with demo
accounts) until interrupted, and prints its URLs and demo credentials.
It listens on loopback only: its demo keys are public, so an address
reachable from the network (0.0.0.0, ::, a LAN IP or name) needs --public.`

// sandboxFlags are the flags of `svcwallet sandbox`.
type sandboxFlags struct {
	listen                       string
	public                       bool
	chainID                      uint64
	domainName, cookieName       string
	accountIDHeader              string
	quoteTTL, settle, sessionTTL time.Duration
	rateLimit                    int
	seeding                      bool
}

// sandboxCommand is `svcwallet sandbox`.
func (a *app) sandboxCommand() *cobra.Command {
	var f sandboxFlags
	c := &cobra.Command{
		Use:     "sandbox",
		Short:   "Serve the sandbox exchange, demo keys",
		Long:    sandboxLong,
		Example: "  svcwallet sandbox --listen 127.0.0.1:8700 --settle 30s",
		Args:    noArgs,
		RunE:    func(c *cobra.Command, _ []string) error { return runSandbox(c.Context(), a.env, f) },
	}
	fl := c.Flags()
	fl.StringVar(&f.listen, "listen", "127.0.0.1:8700", "address, loopback unless --public")
	fl.BoolVar(&f.public, "public", false, "allow a --listen address reachable from the network")
	fl.Uint64Var(&f.chainID, "chain-id", 327, "L2 chain id of the EIP-712 domain")
	fl.StringVar(&f.domainName, "domain-name", signer.DefaultDomainName, "name of the EIP-712 domain")
	fl.StringVar(&f.cookieName, "cookie-name", config.SessionCookie, "name of the session cookie")
	fl.StringVar(&f.accountIDHeader, "account-id-header", config.HeaderAccountID, "name of the account-id header")
	fl.DurationVar(&f.quoteTTL, "quote-ttl", sandbox.DefaultQuoteTTL, "lifetime of a withdrawal quote")
	fl.DurationVar(&f.settle, "settle", sandbox.DefaultSettle, "time from SUBMITTED to a terminal state")
	fl.DurationVar(&f.sessionTTL, "session-ttl", sandbox.DefaultSessionTTL, "lifetime of a session cookie")
	fl.IntVar(&f.rateLimit, "rate-limit", 0, "per account, requests a second before 429 (0: none)")
	fl.BoolVar(&f.seeding, "seeding", false, "serve POST "+sandbox.PathSeed+": pending withdrawals for load tests")
	return c
}

// runSandbox serves the sandbox exchange until ctrl+c or SIGTERM (ctx).
func runSandbox(ctx context.Context, env CLIEnv, f sandboxFlags) error {
	usage := usageError
	switch _, _, err := net.SplitHostPort(f.listen); {
	case !config.IsHTTPToken(f.cookieName) || !config.IsHTTPToken(f.accountIDHeader):
		return usage("--cookie-name and --account-id-header are HTTP tokens: letters, digits and !#$%%&'*+-.^_`|~")
	case !config.ValidDomainName(f.domainName):
		return usage("--domain-name: 1 to 64 characters, without control or invisible characters and without leading or trailing spaces")
	case config.ChainIDAboveExact(f.chainID) != nil:
		return usage("--chain-id %d %v", f.chainID, config.ChainIDAboveExact(f.chainID))
	case err != nil:
		return usage("--listen %.64q is not HOST:PORT (for example 127.0.0.1:8700)", f.listen)
	case f.seeding && f.public:
		return usage("--seeding records withdrawals for anyone who asks: it is not served with --public")
	case f.public:
		fmt.Fprintf(env.Stderr, "svcwallet sandbox: warning: --public: the demo keys and API keys printed below\n"+
			"are published; anyone who reaches %.64q can use them\n", f.listen)
	case !sandbox.IsLoopback(f.listen):
		return usage("%.64q is reachable from the network and the sandbox serves "+
			"public demo keys; listen on 127.0.0.1:PORT, or add --public to serve it anyway", f.listen)
	}
	logger := slog.New(slog.NewTextHandler(env.Stderr, nil))
	srv, err := sandbox.Start(f.listen, sandbox.Options{
		ChainID: f.chainID, DomainName: f.domainName, CookieName: f.cookieName, AccountIDHeader: f.accountIDHeader,
		QuoteTTL: f.quoteTTL, Settle: f.settle, SessionTTL: f.sessionTTL, RateLimit: f.rateLimit, Logger: logger,
		Seeding: f.seeding,
	})
	if err != nil {
		return failure(exitFailed, "cannot listen on %s: %w", f.listen, err)
	}
	defer srv.Close()
	if env.JSON {
		if err := outputError(writeJSONLine(env.Stdout, sandboxBanner(srv.URL, f))); err != nil {
			return err
		}
		return served(ctx)
	}
	fmt.Fprintf(env.Stdout, "svcwallet sandbox exchange, chain id %d\n\n", f.chainID)
	fmt.Fprintf(env.Stdout, "To use it, name it once, in another terminal, and run svcwallet --env local:\n\n  %s\n", safetext.ShellLine(sandboxEnvAdd(srv.URL, f)...))
	fmt.Fprintln(env.Stdout)
	fmt.Fprint(env.Stdout, demoCredentials)
	if f.seeding {
		fmt.Fprintf(env.Stdout, "\nSeeding pending withdrawals (--seeding):\n  curl -s -H 'X-API-Key: %s' -d '{\"count\":100}' %s%s\n", sandbox.DemoAPIKey, srv.URL, sandbox.PathSeed)
	}
	fmt.Fprintln(env.Stdout, "\nPress Ctrl+C to stop.")
	return served(ctx)
}

// served waits for the end of ctx: ctrl+c and SIGTERM stop the sandbox as
// asked (exit 0); a closed terminal (SIGHUP) ends it as it ends a command.
func served(ctx context.Context) error {
	<-ctx.Done()
	if context.Cause(ctx) == signalCause(syscall.SIGHUP) {
		return interrupted(ctx, "")
	}
	return nil
}

// sandboxEnvAdd is the env add command that names this sandbox local (the
// command README's configuration uses, which writes the config): its URL,
// chain id, and the names it was given where they are not the spec's.
func sandboxEnvAdd(url string, f sandboxFlags) []string {
	words := []string{"svcwallet", "env", "add", "local", "--base-url", url, "--chain-id", strconv.FormatUint(f.chainID, 10)}
	for _, n := range []struct{ flag, v, spec string }{
		{"--domain-name", f.domainName, signer.DefaultDomainName},
		{"--cookie-name", f.cookieName, config.SessionCookie},
		{"--account-id-header", f.accountIDHeader, config.HeaderAccountID},
	} {
		if n.v != n.spec {
			words = append(words, n.flag, n.v)
		}
	}
	return words
}

// demoCredentials is what a newcomer needs to log in to the sandbox. The keys
// are the public Hardhat/Anvil development keys: they guard nothing real.
var demoCredentials = `Demo credentials:
  API key (main account)     ` + sandbox.DemoAPIKey + `
  API key (trading sub-acct) ` + sandbox.TradingAPIKey + `
  API key (no chain account) ` + sandbox.NoChainAPIKey + `
  wallet key (main signer)   ` + sandbox.DemoPrivateKey + `
    funding address          ` + sandbox.DemoAddress + `
  builder account            ` + sandbox.BuilderAddress + `
  no chain account's key     ` + sandbox.NoChainPrivateKey + `
    its balance: ` + sandbox.NoChainBalance + ` USDT, so a withdrawal of more is refused as insufficient balance

Withdrawal address book (USDT, 10,000 balance, 5,000 a day):
  ` + sandbox.DestCompleted + `  completes
  ` + sandbox.DestFailed + `  ends FAILED
  ` + sandbox.DestRefunded + `  ends REFUNDED (funds returned)
  ` + sandbox.DestFlagged + `  refused by screening
  ` + sandbox.DestSolana + `  SOLANA, completes
  ` + sandbox.DestTron + `  TRON, completes
`

// sandboxJSON is `svcwallet sandbox --json`: one line, once it listens.
type sandboxJSON struct {
	ChainID         uint64            `json:"chain_id"`
	DomainName      string            `json:"domain_name"`
	CookieName      string            `json:"cookie_name"`
	AccountIDHeader string            `json:"account_id_header"`
	AuthURL         string            `json:"auth_url"`
	BaseURL         string            `json:"base_url"`
	MarketDataURL   string            `json:"market_data_url"`
	APIKeys         map[string]string `json:"api_keys"`
	DemoKey         string            `json:"demo_private_key"`
	DemoAddress     string            `json:"demo_address"`
	Builder         string            `json:"builder_address"`
	NoChainKey      string            `json:"no_chain_private_key"`
	NoChainBalance  string            `json:"no_chain_balance"`
}

func sandboxBanner(url string, f sandboxFlags) sandboxJSON {
	return sandboxJSON{
		ChainID: f.chainID, DomainName: f.domainName, CookieName: f.cookieName, AccountIDHeader: f.accountIDHeader,
		AuthURL: url, BaseURL: url, MarketDataURL: url,
		APIKeys: map[string]string{"main": sandbox.DemoAPIKey, "trading": sandbox.TradingAPIKey, "no_chain": sandbox.NoChainAPIKey},
		DemoKey: sandbox.DemoPrivateKey, DemoAddress: sandbox.DemoAddress, Builder: sandbox.BuilderAddress,
		NoChainKey: sandbox.NoChainPrivateKey, NoChainBalance: sandbox.NoChainBalance,
	}
}
