package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"math/rand/v2"
	"net/http"
	"strings"
	"time"
	"unicode"

	"svcwallet/screens"
	"svcwallet/service"
	"svcwallet/service/sandbox"
)

// statusKeyVar holds the API key `svcwallet status` logs in with.
const statusKeyVar = "SVCWALLET_API_KEY"

// Exit statuses of `svcwallet status`, for scripts (listed in statusUsage).
const (
	exitCompleted = 0
	exitFailed    = 1 // FAILED or REFUNDED
	exitUsage     = 2
	exitPending   = 3
	exitNotFound  = 4
	exitError     = 5
)

// maxWatchFailures ends --watch after this many failed polls in a row (about
// two minutes with the backoff): a script should learn the service is gone.
const maxWatchFailures = 5

const statusUsage = `Usage:
  svcwallet status QUOTE_ID [--watch] [--interval 3s] [--json]
                            [--env NAME] [--config PATH]

Prints the status of one withdrawal. It logs in with the API key in
$SVCWALLET_API_KEY (the bridge endpoints need a session). The environment is
--env, else $SVCWALLET_ENV, else the config's default_env, else the embedded
sandbox, started with its demo key: it knows no withdrawal made in another
process.

With --watch it polls every --interval until the withdrawal is COMPLETED,
FAILED or REFUNDED (or the quote expired unexecuted), printing each change on
a line, then the final record. --json prints the status record as JSON (one
object per line).

Exit status:
  0  COMPLETED: paid out
  1  not paid out: FAILED, REFUNDED, or a quote that expired unexecuted
  2  usage error (flags, quote id, $SVCWALLET_API_KEY unset, unknown --env)
  3  still pending: CREATED, SUBMITTED or SENDING (without --watch)
  4  not found: no withdrawal with this quote id on this account (an unknown
     id, or another account's: the service does not say which)
  5  any other error: network, login, configuration
`

// statusCmd is `svcwallet status`, with its waits and randomness injectable
// so tests run a whole --watch on a fake clock.
type statusCmd struct {
	env    CLIEnv
	sleep  func(ctx context.Context, d time.Duration) error
	jitter func(n int64) int64
	now    func() time.Time
}

// runStatus runs `svcwallet status ...` and returns its exit status.
func runStatus(args []string, env CLIEnv) int {
	return statusCmd{env: env, sleep: service.Sleep, jitter: rand.Int64N, now: time.Now}.run(args)
}

type statusFlags struct {
	quoteID, envName, config string
	watch, json              bool
	interval                 time.Duration
}

func (c statusCmd) run(args []string) int {
	f, code, ok := c.parse(args)
	if !ok {
		return code
	}
	env, closeEnv, err := commandEnv(f.config, f.envName, c.env.Getenv)
	if err != nil {
		var ue envUsageError
		if errors.As(err, &ue) {
			return c.usage("%s", ue.msg)
		}
		return c.fail(exitError, "%v", err)
	}
	defer closeEnv()
	apiKey := c.env.Getenv(statusKeyVar)
	if apiKey == "" && env.Name == service.SandboxEnv {
		apiKey = sandbox.DemoAPIKey
	}
	if apiKey == "" {
		return c.usage("set %s to an API key of the account: the bridge endpoints need a session, which svcwallet opens with it", statusKeyVar)
	}
	client := service.New(env, service.Options{Logger: c.env.Log})
	cx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	_, err = client.Login(cx, service.APIKey(apiKey))
	cancel()
	if err != nil {
		var ae *service.APIError
		if errors.As(err, &ae) && ae.Status == http.StatusUnauthorized {
			return c.fail(exitError, "the API key in %s was refused: check that it is the account's key for environment %s", statusKeyVar, env.Name)
		}
		return c.fail(exitError, "login failed: %v", screens.Explain(err))
	}
	if !f.watch {
		w, err := fetchStatus(client, f.quoteID)
		if err != nil {
			return c.statusError(err, f.quoteID)
		}
		c.print(env, w, f.json)
		return withdrawalExit(w, c.now())
	}
	return c.watch(client, env, f)
}

// parse reads flags placed before or after the quote id.
func (c statusCmd) parse(args []string) (statusFlags, int, bool) {
	var f statusFlags
	fs := flag.NewFlagSet("svcwallet status", flag.ContinueOnError)
	fs.SetOutput(c.env.Stderr)
	fs.Usage = func() {} // printed below: to stdout when asked for, else to stderr
	fs.BoolVar(&f.watch, "watch", false, "poll until the withdrawal is terminal")
	fs.BoolVar(&f.json, "json", false, "print JSON")
	fs.DurationVar(&f.interval, "interval", screens.DefaultPollInterval, "time between polls with --watch")
	fs.StringVar(&f.envName, "env", "", "environment (from the config file, or \"sandbox\")")
	fs.StringVar(&f.config, "config", "", "config file (default "+service.DefaultConfigPath()+")")
	var ids []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				fmt.Fprint(c.env.Stdout, statusUsage)
				return f, 0, false
			}
			fmt.Fprint(c.env.Stderr, "\n"+statusUsage)
			return f, exitUsage, false
		}
		if fs.NArg() == 0 {
			break
		}
		ids, args = append(ids, fs.Arg(0)), fs.Args()[1:]
	}
	switch {
	case len(ids) != 1:
		return f, c.usage("give exactly one quote id, got %d", len(ids)), false
	case ids[0] == "":
		return f, c.usage("empty quote id: give the quote id of the withdrawal"), false
	case len(ids[0]) > 128 || strings.IndexFunc(ids[0], func(r rune) bool { return unicode.IsSpace(r) || !unicode.IsPrint(r) }) >= 0:
		return f, c.usage("%.40q is not a quote id: quote ids have no spaces and are at most 128 characters", ids[0]), false
	case f.interval < time.Second:
		return f, c.usage("--interval must be at least 1s, not %s: the service advises polling every few seconds", f.interval), false
	}
	f.quoteID = ids[0]
	return f, 0, true
}

// watch polls until a terminal state, printing each change; errors back off
// like the console's status screen and end it after maxWatchFailures.
func (c statusCmd) watch(client *service.Client, env service.Environment, f statusFlags) int {
	var last service.Withdrawal
	failures := 0
	for {
		w, err := fetchStatus(client, f.quoteID)
		wait := f.interval
		switch {
		case err != nil && statusNotFound(err):
			return c.statusError(err, f.quoteID)
		case err != nil:
			failures++
			if failures >= maxWatchFailures {
				return c.fail(exitError, "%v (gave up after %d failed tries in a row)", screens.Explain(err), failures)
			}
			wait = service.PollDelay(f.interval, failures, c.jitter)
			fmt.Fprintf(c.env.Stderr, "svcwallet status: %v; trying again in %s\n", screens.Explain(err), wait.Round(time.Second))
		default:
			failures = 0
			if w.State != last.State {
				c.change(w, f.json)
				last = w
			}
			if service.Final(w, c.now()) {
				if !f.json {
					fmt.Fprintln(c.env.Stdout)
					c.print(env, w, false)
				}
				return withdrawalExit(w, c.now())
			}
		}
		if err := c.sleep(context.Background(), wait); err != nil {
			return c.fail(exitError, "%v", err)
		}
	}
}

func fetchStatus(client *service.Client, quoteID string) (service.Withdrawal, error) {
	cx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	return client.WithdrawalStatus(cx, quoteID)
}

// notFound is the service's 404 for a quote this account cannot see; a 404
// without the code would be a wrong URL path, still answered as not found
// only when the body carried no code at all.
func statusNotFound(err error) bool {
	var ae *service.APIError
	return errors.As(err, &ae) && (ae.Code == service.CodeNotFound || ae.Code == 0 && ae.Status == http.StatusNotFound)
}

func (c statusCmd) statusError(err error, quoteID string) int {
	if statusNotFound(err) {
		return c.fail(exitNotFound, "no withdrawal with quote id %s on this account: it is unknown, or it belongs to another account (the service does not say which)", quoteID)
	}
	return c.fail(exitError, "%v", screens.Explain(err))
}

func withdrawalExit(w service.Withdrawal, now time.Time) int {
	switch {
	case w.State == service.StateCompleted:
		return exitCompleted
	case w.State == service.StateFailed, w.State == service.StateRefunded, service.ExpiredUnexecuted(w, now):
		return exitFailed
	}
	return exitPending
}

// change prints one observed state: a line for people, an object for jq.
func (c statusCmd) change(w service.Withdrawal, asJSON bool) {
	if asJSON {
		_ = json.NewEncoder(c.env.Stdout).Encode(w)
		return
	}
	line := fmt.Sprintf("%s  %-9s  %s", w.UpdatedAt.UTC().Format(time.RFC3339), w.State, w.QuoteID)
	if w.WithdrawTxHash != "" {
		line += "  " + w.WithdrawTxHash
	}
	fmt.Fprintln(c.env.Stdout, line)
}

// print shows the status record as a table, or as one JSON object.
func (c statusCmd) print(env service.Environment, w service.Withdrawal, asJSON bool) {
	if asJSON {
		_ = json.NewEncoder(c.env.Stdout).Encode(w)
		return
	}
	rows := [][2]string{
		{"Quote id", w.QuoteID}, {"Transfer id", w.TxID}, {"State", w.State},
		{"Chain", w.Chain}, {"Receive", w.ReceiveAmount.String() + " " + w.TokenOut},
		{"Payout hash", w.WithdrawTxHash}, {"Explorer", env.ExplorerTxURL(w.Chain, w.WithdrawTxHash)},
		{"Updated at", w.UpdatedAt.UTC().Format(time.RFC3339)}, {"Meaning", screens.StateMeaning(w, c.now())},
	}
	for _, r := range rows {
		if r[1] != "" {
			fmt.Fprintf(c.env.Stdout, "%-12s %s\n", r[0], r[1])
		}
	}
}

func (c statusCmd) usage(format string, a ...any) int {
	fmt.Fprintf(c.env.Stderr, "svcwallet status: "+format+"\n\n", a...)
	fmt.Fprint(c.env.Stderr, statusUsage)
	return exitUsage
}

func (c statusCmd) fail(code int, format string, a ...any) int {
	fmt.Fprintf(c.env.Stderr, "svcwallet status: "+format+"\n", a...)
	return code
}
