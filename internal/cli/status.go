package cli

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/svcwallet/svcwallet/internal/plain"
	"github.com/svcwallet/svcwallet/service/config"
	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/follow"
	"github.com/svcwallet/svcwallet/service/intent"
	"github.com/svcwallet/svcwallet/service/journal"
	"github.com/svcwallet/svcwallet/service/sandbox"
	"github.com/svcwallet/svcwallet/service/withdrawal"
	"github.com/svcwallet/svcwallet/signer"
)

const statusLong = `Prints the status of withdrawals, each named by an ID: its quote id, transfer
id or payout hash. Only a quote id is sent to the service: a payout hash
(0x and 64 hex digits; a TRON one written with 0x in front; a SOLANA one as
its explorer shows it; or the explorer's link to one) or a transfer id
(tx-...), which customers quote, is found among the
withdrawals this machine has seen (its journal, the console's board) and
followed as its quote id; a SOLANA one not seen, given alone (not in a
link), is asked as a quote id, which may have its shape. With - it reads
ids from standard input, one a line, as the watch board's field does: blank
lines skipped, a # starts a comment, duplicates merged. All ids share one
budget of 5 requests a second; a 429 pauses it for Retry-After.

Without --watch each id is asked once; with --watch each is asked every
--interval until it ends, each change printed on a line. Then each id's
final record: a table for one id, a line per id for several, the state named
as the console names it (EXPIRED: a quote that expired unexecuted, said only
once the service's clock is 4 minutes past its expiry; CREATED? and NOT
FOUND?: one this machine's journal saw accepted; NOT FOUND YET: one it
holds sent with no answer, while its quote may still execute; REFUSED: one
it saw refused, never executed). --json prints one object
a line, --csv the final records (docs/scripting.md). The states seen of this
machine's own withdrawals are added to its journal.

Exit status: the largest of the ids': 0 COMPLETED, 1 not paid out, 2
usage, 3 still pending, NOT FOUND? or NOT FOUND YET, 4 not found, 5 the
login failed or another error: svcwallet help exit-status.`

// statusCommand is `svcwallet status`.
func (a *app) statusCommand() *cobra.Command {
	var f statusFlags
	c := &cobra.Command{
		Use:   "status ID...",
		Short: "Print or follow withdrawals' statuses",
		Long:  withSignerHelp(statusLong),
		Example: `  svcwallet status q-123
  svcwallet status q-123 q-456 --watch --json
  svcwallet status - < quote-ids.txt`,
		// Quote ids are the journal's (files are never quote ids).
		ValidArgsFunction: func(_ *cobra.Command, args []string, prefix string) ([]string, cobra.ShellCompDirective) {
			return a.quoteIDs(args, prefix), cobra.ShellCompDirectiveNoFileComp | cobra.ShellCompDirectiveKeepOrder
		},
		Annotations: map[string]string{annotationOtherExit: "yes"},
		RunE: func(cmd *cobra.Command, ids []string) error {
			c := a.status
			c.env, c.app = a.env, a
			return c.run(cmd.Context(), f, ids)
		},
	}
	c.Flags().BoolVar(&f.watch, "watch", false, "poll until each is COMPLETED, FAILED or REFUNDED")
	c.Flags().DurationVar(&f.interval, "interval", follow.DefaultPollInterval, "time between polls with --watch (at least 1s)")
	c.Flags().StringVar(&f.notifyCommand, "notify-command", "", "with --watch: run it as each ends, the record on stdin")
	c.Flags().BoolVar(&f.csv, "csv", false, "print the records as CSV")
	addSignerFlags(c, &f.key, false)
	a.envFlags(c)
	return c
}

// statusCmd is `svcwallet status`, with its waits and randomness injectable
// so tests run a whole --watch on a fake clock.
type statusCmd struct {
	env    CLIEnv
	app    *app
	sleep  func(ctx context.Context, d time.Duration) error
	jitter func(n int64) int64
	now    func() time.Time
	target config.Environment // the environment asked, once chosen
	// own: the account's withdrawals its journal holds, whose states
	// writer journals as they are learned.
	own    follow.Own
	writer withdrawal.Withdrawer
	// floor is the least exit status: a payout hash or transfer id given
	// was not found (find).
	floor int
	// terminal says whether stderr is a terminal (progress); nil asks it.
	terminal func() bool
	// live, out and errOut: the progress line and the streams for people
	// (writers).
	live        *liveLine
	out, errOut io.Writer
	// notifyWait bounds a --notify-command run, notifyPipesWait the wait for
	// its output once it ended; 0 is notifyTimeout, and notifyPipesWait.
	notifyWait, notifyPipesWait time.Duration
}

type statusFlags struct {
	quoteIDs      []string        // in the order given, without duplicates
	lookups       []follow.Lookup // payout hashes and transfer ids, found here (find); At counts quoteIDs
	key           signerFlags
	watch, json   bool
	csv           bool
	interval      time.Duration
	notifyCommand string // run with each final record on stdin (--watch)
}

func (c statusCmd) run(ctx context.Context, f statusFlags, args []string) error {
	c = c.writers()
	f.json = c.env.JSON
	f, err := c.parse(ctx, f, args)
	if err != nil {
		return err
	}
	env, err := c.app.environment()
	if err != nil {
		return err
	}
	if env.Name == config.SandboxEnv && !f.json {
		// Its not found would say to check the id: the id is right, the
		// exchange that made it ended with its command.
		fmt.Fprintln(c.errOut, "svcwallet status: environment sandbox, the embedded test exchange, started for this command: it knows no withdrawal another run made; follow one with withdraw --wait, or run svcwallet sandbox and name it with env add (docs/sandbox.md)")
	}
	client, err := c.app.logInWith(ctx, env, f.key, nil, exchange.Options{Now: c.now})
	if err != nil {
		return loginFailed(err)
	}
	c.target = env
	if err := follow.RefuseOwnSecret(f.quoteIDs, f.lookups, client.OwnSecret); err != nil {
		return usageError("%v", err) // never repeated
	}
	if f, err = c.find(client, f); err != nil || len(f.quoteIDs) == 0 {
		return cmp.Or(err, exitStatus(c.floor))
	}
	recs, err := c.journalOf(client, func(j *journal.Journal, o journal.Owner) ([]journal.Record, error) {
		return j.RecordsOf(o, f.quoteIDs...)
	})
	if err != nil {
		// Said, as the records then lack what it knows; the statuses are
		// still printed.
		fmt.Fprintf(c.errOut, "svcwallet status: the journal cannot be read (%v): a withdrawal it saw accepted is not told apart from one never executed, and the states seen are not journaled\n", err)
	}
	c.own = follow.OwnOf(recs)
	return c.atLeastFloor(c.follow(ctx, client, env, f))
}

// noCredentialError: there is no key to open a session with. login is the
// auth login of the run's environment and config (invocation), ended the
// end of the session auth login kept, when it ended: the login is asked
// again, not once.
type noCredentialError struct{ login, ended string }

func (e *noCredentialError) Error() string {
	login := "log in once with " + e.login
	if e.ended != "" {
		login = e.ended + ": log in again with " + e.login
	}
	return fmt.Sprintf("%s, or set %s to an API key of the account, or %s to the main signer's hex key, or choose a key source with --signer (keystore:ADDRESS, clef:ENDPOINT, command, ...) to log in by wallet signature: the bridge endpoints need a session",
		login, apiKeyVar, signer.KeyEnvVar)
}

// logIn opens the session of `status`, `deposit`, `history --refresh` and
// `withdraw`: the one svcwallet auth login kept, while it lasts
// (keptClient), else the way the user logs in (loginCredential).
// noCredentialError when there is no credential; isUsage tells the errors the
// user must correct; others are worded for the user.
func (a *app) logIn(ctx context.Context, e config.Environment, f signerFlags) (*exchange.Client, error) {
	return a.logInWith(ctx, e, f, nil, exchange.Options{})
}

// logInWith is logIn with a client made with opts (its Logger is env's);
// signing is the key a withdrawal signs with, or nil (see loginCredential).
func (a *app) logInWith(ctx context.Context, e config.Environment, f signerFlags, signing *keyChoice, opts exchange.Options) (*exchange.Client, error) {
	client, keep := a.keptClient(e, f, signing, opts, false)
	if client != nil {
		return client, nil
	}
	cred, what, err := a.loginCredential(ctx, e, f, signing)
	if err != nil {
		return nil, err
	}
	opts.Logger, opts.OnLogin = a.env.Log, keep
	client = exchange.New(e, opts)
	// No deadline: a wallet signature may wait for a person to approve it
	// in clef or on a device (ctrl+c ends that wait); each request has its
	// own (exchange.DefaultTimeout).
	if _, err := client.Login(ctx, cred); errors.Is(err, context.Canceled) && !signFailure(err) {
		return nil, interrupted(ctx, "")
	} else if err != nil {
		return nil, loginError(what, e.Name, err)
	}
	return client, nil
}

// loginError words a login with what (the credential, named) on
// environment envName that failed: not signed by the key source, refused
// by the service, or not answered. deposit, whose API key is checked by
// its one request, words its refusal here too.
func loginError(what, envName string, err error) error {
	if se, ok := errors.AsType[exchange.SignError](err); ok {
		return fmt.Errorf("the wallet login was not signed: %w; nothing was sent", se.Cause)
	}
	var ue exchange.UserError
	var ae *exchange.APIError
	if errors.As(err, &ae) && ae.Status == http.StatusUnauthorized {
		// A refused wallet login comes worded by its reason (expired,
		// replayed, unregistered, invalid): that says more than "refused".
		if errors.As(err, &ue) {
			return fmt.Errorf("%s was refused by environment %s: %v", what, envName, ue)
		}
		return fmt.Errorf("%s was refused: check that it is the account's for environment %s", what, envName)
	}
	if shape, ok := errors.AsType[*exchange.APIKeyShapeError](err); ok {
		// Named as auth login names it: which key, the variable's or another.
		err = &exchange.APIKeyShapeError{What: what, Reason: shape.Reason}
	}
	return fmt.Errorf("login to environment %s failed: %w", envName, exchange.Explain(err))
}

// loginCredential picks how to log in, and names it for errors (never
// with the secret). status, deposit and history log in by wallet with the
// key of --signer (or --keystore-file) when the command line names one;
// otherwise, as withdraw always does, with the API key in
// $SVCWALLET_API_KEY when set, else by wallet signature with the key the
// withdrawal signs with (signing), or with the environment's signer or
// $SVCWALLET_PRIVATE_KEY, else on the embedded sandbox with its demo API
// key; noCredentialError when there is none.
func (a *app) loginCredential(ctx context.Context, e config.Environment, f signerFlags, signing *keyChoice) (exchange.Credential, string, error) {
	env := a.env
	if signing == nil && f.onCommandLine() {
		return a.keyLogin(ctx, f, e)
	}
	if apiKey, given := exchange.GivenAPIKey(env.Getenv); given {
		return exchange.APIKey(apiKey), "the API key in $" + apiKeyVar, nil
	}
	if signing != nil {
		return walletLogin(*signing)
	}
	_, chosen, err := f.chosen(e)
	if err != nil {
		return nil, "", err
	}
	if chosen || env.Getenv(signer.KeyEnvVar) != "" {
		return a.keyLogin(ctx, f, e)
	}
	if e.Name == config.SandboxEnv {
		return exchange.APIKey(sandbox.DemoAPIKey), demoKeyName, nil
	}
	return nil, "", a.noCredential(e)
}

// journalOf opens the journal for the followers of client's account: it
// returns the records read finds of the account on its service
// (journal.Owner; the ids followed, not the whole journal) and sets
// c.writer, which journals
// the states learned of the own ones. No journal, no records: nothing
// here is own, and no state directory is created.
func (c *statusCmd) journalOf(client *exchange.Client, read func(j *journal.Journal, o journal.Owner) ([]journal.Record, error)) ([]journal.Record, error) {
	path := journal.DefaultPath()
	if _, err := os.Lstat(path); errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	j, err := openJournal(c.app.env, c.app.name, path)
	if err != nil {
		return nil, err
	}
	// It follows: it signs nothing.
	if c.writer, err = withdrawal.NewWithdrawer(withdrawal.Setup{Client: client, Journal: j, Now: c.now, DryRun: true}); err != nil {
		return nil, err
	}
	return read(j, journal.SessionOwner(client))
}

// parse checks the flags and reads the quote ids (from stdin for -).
func (c statusCmd) parse(ctx context.Context, f statusFlags, ids []string) (statusFlags, error) {
	if f.csv && f.json {
		return f, usageError("--csv and --json: choose one")
	}
	if f.interval < time.Second {
		return f, usageError("--interval must be at least 1s, not %s: the service advises polling every few seconds", f.interval)
	}
	if f.notifyCommand != "" && (!f.watch || len(strings.Fields(f.notifyCommand)) == 0) {
		return f, usageError("--notify-command needs --watch and a command: it runs when a watched withdrawal ends")
	}
	seen := map[string]bool{}
	fromStdin := false
	for _, id := range ids {
		if id == "-" {
			if fromStdin {
				return f, usageError("- is given twice: standard input is read once")
			}
			fromStdin = true
			read, err := untilDone(ctx, func() (readIDs, error) {
				ids, lookups, err := readQuoteIDs(c.env.Stdin)
				return readIDs{ids, lookups}, err
			})
			if ctx.Err() != nil {
				return f, interrupted(ctx, "")
			}
			if err != nil {
				return f, usageError("%w", err)
			}
			// Each lookup keeps its place among the ids read (At).
			lookups := read.lookups
			for j, id := range append(read.ids, "") {
				for ; len(lookups) > 0 && lookups[0].At == j; lookups = lookups[1:] {
					f.lookups = append(f.lookups, follow.Lookup{Text: lookups[0].Text, Kind: lookups[0].Kind, At: len(f.quoteIDs), Linked: lookups[0].Linked})
				}
				if id != "" {
					f.quoteIDs = appendNew(f.quoteIDs, seen, id)
				}
			}
			continue
		}
		if id == "" {
			return f, usageError("empty quote id: give the quote id of the withdrawal")
		}
		id, linked := follow.ReadID(id) // as status - reads it: "X." as X, whatever X is
		if kind := follow.KindOf(id); kind != follow.QuoteID {
			f.lookups = append(f.lookups, follow.Lookup{Text: id, Kind: kind, At: len(f.quoteIDs), Linked: linked})
			continue
		}
		if err := follow.CheckGivenQuoteID(id); err != nil {
			return f, usageError("%w", err)
		}
		f.quoteIDs = appendNew(f.quoteIDs, seen, id)
	}
	if len(f.quoteIDs) == 0 && len(f.lookups) == 0 {
		if fromStdin {
			return f, usageError("no quote id on standard input: give one a line")
		}
		return f, usageError("give one or more quote ids, or - to read them from standard input")
	}
	if err := follow.TooManyForARun(len(f.quoteIDs) + len(f.lookups)); err != nil {
		return f, usageError("%v", err)
	}
	return f, nil
}

func appendNew(ids []string, seen map[string]bool, id string) []string {
	if seen[id] {
		return ids
	}
	seen[id] = true
	return append(ids, id)
}

func fetchStatus(ctx context.Context, client *exchange.Client, quoteID string) (exchange.Withdrawal, error) {
	cx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	return client.WithdrawalStatus(cx, quoteID)
}

// notFound is the error of an id the service does not know.
func notFound(quoteID string) error {
	return failure(exitNotFound, "%s", follow.NotFoundSentence(quoteID)).about(quoteID)
}

// idError is one error about id (naming it when several are followed)
// in the words the console uses: exit 5.
func (c statusCmd) idError(id string, f statusFlags, err error, suffix string) error {
	about := ""
	if len(f.quoteIDs) > 1 {
		about = id + ": "
	}
	return failure(exitError, "%s%w%s", about, exchange.Explain(err), suffix).about(id)
}

// retryNote says on stderr, also with --json (it ends nothing), that an
// ask about id failed and when it is tried again.
func (c statusCmd) retryNote(id string, f statusFlags, err error, wait time.Duration) {
	about := ""
	if len(f.quoteIDs) > 1 {
		about = id + ": "
	}
	fmt.Fprintf(c.errOut, "%s: %s%v; trying again in %s\n", c.app.name, about, exchange.Explain(err), wait)
}

// statusJSON is one line of `status --json`: what the line is (kind:
// change, final or status), then the withdrawal's record in the shape
// every command's JSON has (follow.Record; docs/scripting.md).
type statusJSON struct {
	Kind string `json:"kind"`
	follow.Record
}

// outputRecord is what the command knows of f, as every output gives a
// withdrawal (follow.Record), with the explorer's link to its payout.
func (c statusCmd) outputRecord(f *follow.Followed) follow.Record {
	r := f.Record(c.target.Name, c.own[f.QuoteID])
	r.ExplorerURL = c.target.ExplorerTxURL(r.Chain, r.WithdrawTxHash)
	return r
}

// recordJSON is a follow's last record for --json and --notify-command,
// as a line of kind.
func (c statusCmd) recordJSON(f *follow.Followed, kind string) statusJSON {
	return statusJSON{kind, c.outputRecord(f)}
}

// writeRecord writes a follow's last record as a line of JSON of kind.
func (c statusCmd) writeRecord(f *follow.Followed, kind string) {
	_ = writeJSONLine(c.env.Stdout, c.recordJSON(f, kind))
}

// endKind is the kind of the line each id ends a run with: its last
// record once watched, else the record asked for.
func endKind(f statusFlags) string {
	if f.watch {
		return kindFinal
	}
	return kindStatus
}

// change prints one observed state: a line for people, an object for jq.
func (c statusCmd) change(f *follow.Followed, asJSON bool) {
	if asJSON {
		c.writeRecord(f, kindChange)
		return
	}
	w := f.Last
	at, line := w.UpdatedAt, fmt.Sprintf("%-9s  %s", w.State, w.QuoteID)
	if f.Vanished || f.Known && f.Unlike != "" {
		o := f.Outcome()
		at, line = c.now(), fmt.Sprintf("%-9s  %s  %s", o.Name, f.QuoteID, o.Words)
	}
	if w.WithdrawTxHash != "" {
		line += "  " + w.WithdrawTxHash
	}
	// On a terminal what wraps continues after the time, each change's own.
	plain.Row(c.out, at.UTC().Format(time.RFC3339)+"  ", line)
}

// sayOutcome says on stderr what f's last answer means, for a line or a
// table that shows only its state: a record that contradicts the journal.
func (c statusCmd) sayOutcome(id string, f *follow.Follow) {
	o := f.Outcome()
	fmt.Fprintf(c.errOut, "%s: %s %s: %s\n", c.app.name, id, o.Name, o.Sentence())
}

// print shows a follow's last record as a table.
func (c statusCmd) print(env config.Environment, f *follow.Follow) {
	o := f.Outcome()
	rows := append(append([]intent.Fact{{Label: "State", Value: o.Name}}, f.Particulars(env, c.own[f.QuoteID].Intent)...), intent.Fact{Label: "Meaning", Value: o.Sentence()})
	for _, r := range rows { // a value that wraps continues under its column
		switch {
		case r.Note == follow.FromSigned:
			plain.Row(c.out, fmt.Sprintf("%-12s ", r.Label), r.Value+"  ("+r.Note+")")
		case r.Value != "":
			plain.Row(c.out, fmt.Sprintf("%-12s ", r.Label), r.Value)
		}
	}
}
