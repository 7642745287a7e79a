package cli

import (
	"bufio"
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/svcwallet/svcwallet/internal/plain"
	"github.com/svcwallet/svcwallet/internal/safetext"
	"github.com/svcwallet/svcwallet/screens/kit"
	"github.com/svcwallet/svcwallet/service/config"
	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/follow"
	"github.com/svcwallet/svcwallet/service/journal"
	"github.com/svcwallet/svcwallet/tui"
)

const historyLong = `Lists the withdrawals journaled on this machine for one environment, the
unfinished ones first (a request without an answer, or a withdrawal not yet
COMPLETED, FAILED or REFUNDED: each row says the command that resumes or
follows it, svcwallet withdraw resume or svcwallet status --watch, with its
--env), then the rest, newest first. Every account's withdrawals are listed,
each naming its account (ACCOUNT, shortened; account_id in --json and --csv).
An empty listing names the other environments the journal holds withdrawals
of, and how to list them.

It reads the journal only and sends nothing, unless --refresh: that first
logs in as svcwallet status does, asks the service the status of each
unfinished withdrawal of that account and journals what it says, then lists.
--csv prints the listing as CSV, with the fields of --json, for a
spreadsheet (a cell that would start with = + - or @ gets a leading ').
-n N lists the first N only, --since TIME those started at TIME or later
(2026-03-02, 2026-03-02T10:00:00Z, or 36h back): either reads only the
withdrawals it lists. Each withdrawal is written as it is read.

Exit status: 0 listed (also when empty), 1 the journal cannot be read, or
with --refresh a withdrawal could not be asked about (said on stderr; the
listing is still printed), 2 usage (with --refresh: neither key set), 5
with --refresh the login failed, as every command says it (nothing listed).`

// historyRecord is a journaled withdrawal as history --json and --csv
// write it: the record every command writes (follow.Record).
func historyRecord(r journal.Record, target config.Environment) follow.Record {
	rec := follow.RecordOf(r)
	rec.ExplorerURL = target.ExplorerTxURL(rec.Chain, rec.WithdrawTxHash)
	return rec
}

// historyCommand is `svcwallet history`.
func (a *app) historyCommand() *cobra.Command {
	var refresh, csv bool
	var limit int
	var since string
	var key signerFlags
	c := &cobra.Command{
		Use:   "history",
		Short: "List the withdrawals journaled here",
		Long:  withSignerHelp(historyLong),
		Example: `  svcwallet history -n 10
  svcwallet history --since 36h --csv > withdrawals.csv
  # The unfinished asked of the service first, as JSON for a script
  svcwallet history --refresh --json`,
		Args: noArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			if !refresh && (key.onCommandLine() || key.account != "" || key.passwordFile != "") {
				return usageError("--signer, --account and --password-file choose how --refresh logs in: give --refresh too")
			}
			opt := journal.ListOptions{Limit: limit}
			if limit < 0 {
				return usageError("-n must be a count of withdrawals, not %d", limit)
			}
			if since != "" {
				var err error
				if opt.Since, err = parseSince(since, time.Now()); err != nil {
					return usageError("--since: %w", err)
				}
			}
			var asked error
			if refresh {
				st := a.status
				st.env, st.app = a.env, a
				if asked = st.refreshHistory(c.Context(), key); asked != nil && asked != errNotAllAsked {
					return asked // not logged in: nothing is listed
				}
			}
			if err := a.listHistory(csv, opt); err != nil {
				return err
			}
			return asked
		},
	}
	c.Flags().BoolVar(&refresh, "refresh", false, "first ask the service about the unfinished withdrawals")
	c.Flags().BoolVar(&csv, "csv", false, "print the listing as CSV")
	c.Flags().IntVarP(&limit, "limit", "n", 0, "list only the first `N` (unfinished first, then newest)")
	c.Flags().StringVar(&since, "since", "", "list only the withdrawals started at `TIME` or later: a date (UTC), an RFC 3339 time, or a duration back from now (36h)")
	addSignerFlags(c, &key, false)
	a.envFlags(c)
	return c
}

// parseSince reads --since: a date (2006-01-02, midnight UTC), an RFC 3339
// time, or a duration back from now.
func parseSince(s string, now time.Time) (time.Time, error) {
	if t, err := time.Parse(time.DateOnly, s); err == nil {
		return t, nil
	}
	if t, err := time.Parse(time.RFC3339, s); err == nil {
		return t, nil
	}
	if d, err := time.ParseDuration(s); err == nil && d >= 0 {
		return now.Add(-d), nil
	}
	return time.Time{}, fmt.Errorf("%s is not a date (2026-03-02), an RFC 3339 time (2026-03-02T10:00:00Z) or a duration (36h)", safetext.NameQuoted(s))
}

// errNotAllAsked: --refresh could not ask about every withdrawal (each
// said on stderr); the listing follows, and then exit 1.
var errNotAllAsked error = &cmdError{err: errors.New("not every withdrawal could be asked about"), exit: exitFailed, silent: true}

// refreshHistory is the --refresh of `svcwallet history`: it logs in as
// `status` does and asks the service about each unfinished withdrawal of
// the account through one scheduler, journaling what each answer teaches
// (follow.Scheduler decides, Withdrawer.JournalState writes), so the
// listing that follows shows it. It ends with errNotAllAsked when it could
// not ask about one, and with any other error when nothing is listed.
func (c statusCmd) refreshHistory(ctx context.Context, key signerFlags) error {
	c = c.writers()
	env, err := c.app.environment()
	if err != nil {
		return err
	}
	client, err := c.app.logInWith(ctx, env, key, nil, exchange.Options{Now: c.now})
	switch {
	case errors.As(err, new(keyUsageError)):
		return usageError("%w", err) // it names its flag (--signer) already
	case isUsage(err):
		return usageError("--refresh: %w", err)
	case err != nil:
		return loginFailed(err)
	}
	var others []journal.Record // other accounts' unfinished: not asked
	recs, err := c.journalOf(client, func(j *journal.Journal, o journal.Owner) ([]journal.Record, error) {
		recs, _, err := j.UnfinishedRecords(o)
		if all, aerr := j.UnfinishedIn(env.Name); err == nil && aerr == nil {
			others = slices.DeleteFunc(all, func(r journal.Record) bool { return !r.Made || o.Holds(r) })
		}
		return recs, err
	})
	if err != nil {
		return failure(exitFailed, "the withdrawal journal cannot be read: %w", err)
	}
	c.own = follow.OwnOf(recs)
	s := follow.NewScheduler(env.EffectiveFollowRate())
	s.Jitter = c.jitter
	s.Know(c.own)
	ids := journal.UnfinishedOwn(recs)
	for _, id := range ids {
		s.Add(id, c.now())
	}
	if len(ids) > 0 {
		fmt.Fprintf(c.errOut, "%s: asking the service about %d unfinished %s\n", c.app.name, len(ids), kit.Plural(len(ids), "withdrawal", "withdrawals"))
	}
	c.sayOthersUnasked(env, others)
	var asked error
	loop := c.loop(s, client)
	loop.Once = true
	err = loop.Run(ctx, func(seen follow.Seen) bool {
		switch id := seen.QuoteID; {
		case seen.Vanished || seen.Known && seen.Unlike != "":
			// Said on stderr: the listing shows the journal's quote, not
			// what the service's record claimed against it (follow.Unlike).
			c.sayOutcome(id, &seen.Follow)
		case seen.Done && seen.Err != nil && !errors.Is(seen.Err, exchange.ErrNotFound):
			// Said on stderr, with --json too: the listing follows on stdout.
			fmt.Fprintf(c.errOut, "%s: %s could not be asked about: %v; it is listed as the journal had it, run again later\n", c.app.name, id, exchange.Explain(seen.Err))
			asked = errNotAllAsked
		}
		return true
	})
	if err != nil {
		return interrupted(ctx, "")
	}
	return asked
}

// sayOthersUnasked says once that --refresh asked nothing of other
// accounts' unfinished withdrawals, and how to: the service tells a
// withdrawal only to its account, so asked as this one each would be
// "not found".
func (c statusCmd) sayOthersUnasked(env config.Environment, others []journal.Record) {
	if len(others) == 0 {
		return
	}
	var accounts []string
	for _, r := range others {
		if a := cmp.Or(tui.ShortAddress(r.AccountID), "an account not journaled"); !slices.Contains(accounts, a) {
			accounts = append(accounts, a)
		}
	}
	fmt.Fprintf(c.errOut, "%s: %d unfinished %s of %s (%s) %s not asked about: the service tells a withdrawal only to the account that made it; log in as that account (%s), then run %s\n",
		c.app.name, len(others), kit.Plural(len(others), "withdrawal", "withdrawals"), kit.Plural(len(accounts), "another account", "other accounts"),
		strings.Join(accounts, ", "), kit.Plural(len(others), "was", "were"), c.app.loginCommand(env), c.app.invocation().command("history", "--refresh"))
}

// listHistory lists the journal's withdrawals of the environment
// (`svcwallet history`, after --refresh when it is given), writing each
// as it is read (journal.History): unfinished first, then newest first.
func (a *app) listHistory(csv bool, opt journal.ListOptions) error {
	env := a.env
	if csv && env.JSON {
		return usageError("--csv and --json: choose one")
	}
	cfg, name, err := a.chosenEnv()
	if err != nil {
		return err
	}
	target, _ := cfg.Lookup(name) // the sandbox's links nothing
	opt.Env = name
	inv := a.invocation()
	var j *journal.Journal
	// The sandbox's withdrawals are never in the journal; it is read then
	// only when it exists, to name the environments whose are.
	if _, err := os.Lstat(journal.DefaultPath()); name != config.SandboxEnv || err == nil {
		if j, err = openJournal(env, a.name, journal.DefaultPath()); err != nil && name != config.SandboxEnv {
			return failure(exitFailed, "the withdrawal journal cannot be read: %w", err)
		}
	}
	// The listing may lack withdrawals the journal lost: said with it.
	lost := j.CheckWritten(false)
	// A listing stdout did not take is an output error, never the
	// journal's, though the journal's reader returns it as its own.
	stdout := &failedWrite{w: env.Stdout}
	out := bufio.NewWriterSize(stdout, 64<<10)
	var write func(journal.Record) error
	finish := out.Flush
	var unfinishedOf []string // the accounts of the unfinished rows listed
	headed := false
	head := func(l journal.Listing) error {
		headed = true
		if l.Skipped > 0 && name != config.SandboxEnv {
			// Said on stderr, with --json too: the listing may lack withdrawals.
			fmt.Fprintf(plain.Fitted(env.Stderr), "svcwallet history: %d %s of the journal %s could not be read and %s skipped; run %s, and keep the file for support\n",
				l.Skipped, kit.Plural(l.Skipped, "line", "lines"), safetext.Shown(j.Path()), kit.Plural(l.Skipped, "was", "were"), inv.command("doctor"))
		}
		if lost != nil && name != config.SandboxEnv {
			fmt.Fprintf(plain.Fitted(env.Stderr), "svcwallet history: %v; run %s, which says what was lost\n", lost, inv.command("doctor"))
		}
		switch {
		case csv:
			w := safetext.NewCSVWriter(out)
			write = func(r journal.Record) error { return w.Write(historyRecord(r, target).CSVRow()) }
			finish = func() error { return errors.Join(w.Flush(), out.Flush()) }
			return w.Write(follow.CSVHeader)
		case env.JSON:
			arr := &jsonArray{w: out}
			write = func(r journal.Record) error { return arr.add(historyRecord(r, target)) }
			finish = func() error { return errors.Join(arr.end(), out.Flush()) }
		case l.Count == 0:
			sayNoHistory(env.Stderr, name, opt.Since, l.Others, inv)
		default:
			// The quote id is what support copies: it is never cut, piped or
			// not; the columns are as wide as their longest value.
			idW, chainW := max(len("QUOTE"), l.QuoteWidth), max(len("CHAIN"), l.ChainWidth)
			// The journal may hold several accounts' withdrawals of one
			// environment: each row says whose (shortened, as every view
			// shortens addresses).
			fmt.Fprintf(out, "%-16s  %-*s  %-*s  %12s  %-13s  %s\n", "STARTED (UTC)", idW, "QUOTE", chainW, "CHAIN", "RECEIVE", "ACCOUNT", "STATE")
			write = func(r journal.Record) error {
				if !r.Finished() && !slices.ContainsFunc(unfinishedOf, func(a string) bool { return exchange.SameAccountID(a, r.AccountID) }) {
					unfinishedOf = append(unfinishedOf, r.AccountID)
				}
				_, err := fmt.Fprintf(out, "%-16s  %-*s  %-*s  %12s  %-13s  %s\n", r.Started.UTC().Format("2006-01-02 15:04"),
					idW, r.QuoteID, chainW, r.Intent.Chain, r.Intent.ReceiveAmount.String()+" "+r.Intent.TokenOut,
					cmp.Or(tui.ShortAddress(r.AccountID), "—"), historyState(r, inv))
				return err
			}
		}
		return nil
	}
	err = j.History(opt, head, func(r journal.Record) error { return write(r) })
	switch {
	case stdout.err != nil: // the reader returns the listing's error too
		return outputError(stdout.err)
	case err != nil && (name != config.SandboxEnv || headed):
		_ = out.Flush()
		return failure(exitFailed, "the withdrawal journal cannot be read: %w", err)
	case err != nil:
		// The sandbox's listing, from a journal that cannot be read: empty.
		err = head(journal.Listing{})
	}
	err = errors.Join(err, finish())
	switch {
	case stdout.err != nil:
		return outputError(stdout.err)
	case err != nil:
		return failure(exitFailed, "%w", err)
	}
	if len(unfinishedOf) > 1 {
		// Each row's command asks as the account logged in: said once.
		fmt.Fprintf(plain.Fitted(env.Stderr), "%s: unfinished withdrawals of %d accounts are listed: status and withdraw resume ask as the account logged in, and the service tells a withdrawal only to the account that made it; log in as the ACCOUNT a row names (%s) before following or resuming it\n",
			a.name, len(unfinishedOf), inv.command("auth", "login"))
	}
	return nil
}

// sayNoHistory says that the listing is empty, and names the environments
// the journal holds withdrawals of (newest first) and how to list each.
func sayNoHistory(w io.Writer, name string, since time.Time, others []journal.EnvCount, inv invocation) {
	where := "in the journal " + safetext.Shown(journal.DefaultPath())
	if name == config.SandboxEnv {
		where = "kept: the embedded sandbox's journal ends with its console"
	}
	if !since.IsZero() {
		name += " since " + since.UTC().Format(time.RFC3339)
	}
	// The prose fit on a terminal; the table of environments as it is.
	fmt.Fprintf(plain.Fitted(w), "No withdrawals on %s %s.\n", name, where)
	if len(others) == 0 {
		return
	}
	fmt.Fprintln(plain.Fitted(w), "The journal holds withdrawals of other environments; list them with --env NAME:")
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for _, o := range others {
		other := inv
		other.env = o.Env
		fmt.Fprintf(tw, "  %s\t%d %s\t%s\n", o.Env, o.Withdrawals, kit.Plural(o.Withdrawals, "withdrawal", "withdrawals"), other.command("history"))
	}
	_ = tw.Flush()
}

// historyState names what became of a withdrawal for the text listing,
// as every view does (follow.RecordOutcome), with the service's reason
// for a refusal and, for an unfinished one, the command that resumes or
// follows it on this environment.
func historyState(r journal.Record, inv invocation) string {
	o := follow.RecordOutcome(r)
	switch {
	case r.Unanswered():
		return o.Name + ": resume it with " + inv.resume(r.QuoteID)
	case o.Reason != "":
		return o.Name + ": " + o.Reason
	case !r.Finished():
		return o.Name + ": " + inv.followIt(r.QuoteID)
	}
	return o.Name
}
