package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"os/signal"
	"syscall"

	"svcwallet/service/sandbox"
)

const sandboxUsage = `Usage:
  svcwallet sandbox [--listen ADDR] [--public] [--chain-id N]
                    [--quote-ttl D] [--settle D] [--session-ttl D]
                    [--rate-limit N]

Serves the sandbox exchange (every endpoint the console uses, with demo
accounts) until interrupted, and prints its URLs and demo credentials.
It listens on loopback only: its demo keys are public, so an address
reachable from the network (0.0.0.0, ::, a LAN IP or name) needs --public.

Flags:
`

// runSandbox serves the sandbox exchange until interrupted.
func runSandbox(args []string, env CLIEnv) int {
	fs := flag.NewFlagSet("svcwallet sandbox", flag.ContinueOnError)
	fs.SetOutput(env.Stderr)
	listen := fs.String("listen", "127.0.0.1:8700", "address to listen on (loopback unless --public)")
	public := fs.Bool("public", false, "allow a --listen address reachable from the network")
	chainID := fs.Uint64("chain-id", 327, "L2 chain id of the EIP-712 domain")
	quoteTTL := fs.Duration("quote-ttl", sandbox.DefaultQuoteTTL, "lifetime of a withdrawal quote")
	settle := fs.Duration("settle", sandbox.DefaultSettle, "time from SUBMITTED to a terminal state")
	sessionTTL := fs.Duration("session-ttl", sandbox.DefaultSessionTTL, "lifetime of a session cookie")
	rateLimit := fs.Int("rate-limit", 0, "requests a second per account; beyond it 429 code 1006 with Retry-After (0 = no limit)")
	fs.Usage = func() {} // printed below, to the stream that fits
	printUsage := func(w io.Writer) {
		fmt.Fprint(w, sandboxUsage)
		fs.SetOutput(w)
		fs.PrintDefaults()
		fs.SetOutput(env.Stderr)
	}
	switch err := fs.Parse(args); {
	case errors.Is(err, flag.ErrHelp):
		printUsage(env.Stdout)
		return 0
	case err != nil:
		fmt.Fprintln(env.Stderr)
		printUsage(env.Stderr)
		return 2
	case fs.NArg() == 1 && fs.Arg(0) == "help":
		printUsage(env.Stdout)
		return 0
	case fs.NArg() > 0:
		fmt.Fprintf(env.Stderr, "svcwallet sandbox: unexpected argument %.32q\n\n", fs.Arg(0))
		printUsage(env.Stderr)
		return 2
	}
	switch _, _, err := net.SplitHostPort(*listen); {
	case err != nil:
		fmt.Fprintf(env.Stderr, "svcwallet sandbox: --listen %.64q is not HOST:PORT (for example 127.0.0.1:8700)\n", *listen)
		return 2
	case *public:
		fmt.Fprintf(env.Stderr, "svcwallet sandbox: warning: --public: the demo keys and API keys printed below\n"+
			"are published; anyone who reaches %.64q can use them\n", *listen)
	case !sandbox.IsLoopback(*listen):
		fmt.Fprintf(env.Stderr, "svcwallet sandbox: %.64q is reachable from the network and the sandbox serves\n"+
			"public demo keys; listen on 127.0.0.1:PORT, or add --public to serve it anyway\n", *listen)
		return 2
	}
	// Stopping is wired before the banner, so a signal sent once it shows is
	// always a clean stop.
	stop := make(chan os.Signal, 1)
	signal.Notify(stop, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(stop)
	logger := slog.New(slog.NewTextHandler(env.Stderr, nil))
	srv, err := sandbox.Start(*listen, sandbox.Options{
		ChainID: *chainID, QuoteTTL: *quoteTTL, Settle: *settle, SessionTTL: *sessionTTL, RateLimit: *rateLimit, Logger: logger,
	})
	if err != nil {
		fmt.Fprintf(env.Stderr, "svcwallet sandbox: cannot listen on %s: %v\n", *listen, err)
		return 1
	}
	defer srv.Close()
	fmt.Fprintf(env.Stdout, "svcwallet sandbox exchange, chain id %d\n\n", *chainID)
	fmt.Fprintf(env.Stdout, "  auth_url         %s\n  base_url         %s\n  market_data_url  %s\n\n", srv.URL, srv.URL, srv.URL)
	fmt.Fprint(env.Stdout, demoCredentials)
	fmt.Fprintln(env.Stdout, "\nPress Ctrl+C to stop.")
	<-stop
	return 0
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

Withdrawal address book (USDT, 10,000 balance, 5,000 a day):
  ` + sandbox.DestCompleted + `  completes
  ` + sandbox.DestFailed + `  ends FAILED
  ` + sandbox.DestRefunded + `  ends REFUNDED (funds returned)
  ` + sandbox.DestFlagged + `  refused by screening
  ` + sandbox.DestSolana + `  SOLANA, completes
  ` + sandbox.DestTron + `  TRON, completes
`
