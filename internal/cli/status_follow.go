package cli

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/svcwallet/svcwallet/internal/safetext"
	"github.com/svcwallet/svcwallet/service/config"
	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/follow"
)

// maxQuoteIDLine bounds one line of `svcwallet status -`: far above any
// quote id with a comment, far below what could exhaust memory.
const maxQuoteIDLine = 4096

// readQuoteIDs reads the quote ids of `svcwallet status -` as the watch
// board's field reads them (follow.ParseQuoteIDs): one a line; blank lines
// are skipped, and a # starts a comment to the end of its line. An id of
// the wrong shape is an error naming its line. The lines are parsed
// together, so a key wrapped over two of them is refused whole. Payout
// hashes and transfer ids are returned apart, to be found here.
func readQuoteIDs(r io.Reader) ([]string, []follow.Lookup, error) {
	if r == nil {
		return nil, nil, errors.New("standard input is not readable")
	}
	sc := bufio.NewScanner(io.LimitReader(r, follow.MaxIDsText+1))
	sc.Buffer(make([]byte, 0, 256), maxQuoteIDLine)
	var text strings.Builder
	for sc.Scan() {
		if text.Len()+len(sc.Bytes()) >= follow.MaxIDsText {
			return nil, nil, fmt.Errorf("standard input holds more than %d MiB, far more ids than a run can ask (5 a second): give the ids to follow, one a line, not a log or a stream", follow.MaxIDsText>>20)
		}
		text.WriteString(sc.Text())
		text.WriteByte('\n')
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return nil, nil, fmt.Errorf("standard input has a line over %d bytes: give one quote id a line", maxQuoteIDLine)
		}
		return nil, nil, fmt.Errorf("reading standard input: %v", err)
	}
	ids, lookups, bad := follow.ParseQuoteIDs(text.String(), false)
	if len(bad) > 0 {
		m := bad[0]
		if said, ok := follow.SecretsSaid(bad); ok {
			return nil, nil, fmt.Errorf("standard input %s", said)
		}
		if said, ok := follow.LineRefusal(m, false); ok { // a row's ids, or hex ids that are a key's shape together: never repeated
			return nil, nil, fmt.Errorf("standard input %s", said)
		}
		if why := follow.CredentialRefusal(m); why != nil {
			return nil, nil, fmt.Errorf("standard input line %d is not a quote id: %v", m.Line, why)
		}
		next := ""
		// As it reads: the ; of an escape sequence lists no ids.
		if strings.ContainsAny(safetext.Text(m.Text), " \t,;") {
			next = "; give one id a line"
		}
		return nil, nil, fmt.Errorf("standard input line %d: %v%s", m.Line, follow.NotQuoteID(m.Text, m.Err), next)
	}
	return ids, lookups, nil
}

// followed is the command's account of one quote id: its last record and,
// once settled, its exit status.
type followed struct {
	f       follow.Followed // the scheduler's, as of the last answer
	printed string
	code    int
	done    bool
	// held is an error about the id not said yet: without --watch it is
	// said in the order the ids were given (report).
	held error
}

// follow asks every quote id through the one follow loop (follow.Loop),
// so all of them share its request budget: once each without --watch,
// else until each is final. It prints each change (--watch), then every
// record, and ends with the largest exit status of the ids.
func (c statusCmd) follow(ctx context.Context, client *exchange.Client, env config.Environment, f statusFlags) error {
	c = c.writers()
	s := follow.NewScheduler(env.EffectiveFollowRate())
	s.Interval, s.Jitter = f.interval, c.jitter
	s.Know(c.own)
	ids := map[string]*followed{}
	for _, id := range f.quoteIDs {
		s.Add(id, c.now())
		ids[id] = &followed{}
	}
	c.sayLongRun(f, len(ids), env.EffectiveFollowRate())
	start, paused := c.now(), time.Time{}
	loop := c.loop(s, client)
	loop.Once = !f.watch
	n := c.newNotifier(f.notifyCommand)
	done := 0
	// A line stdout refused ends the watch, as SIGPIPE ended it at a pipe
	// whose reader had gone: asked on, the answers go unread.
	ctx, unread := context.WithCancelCause(ctx)
	defer unread(nil)
	err := loop.Run(ctx, func(seen follow.Seen) bool {
		// What an answer says starts at the left edge, the progress line
		// cleared: after it a change line began mid-row, split mid-word.
		c.progress(f, 0, 0)
		settled := c.record(ctx, seen, ids[seen.QuoteID], f, n)
		if settled {
			done++
		}
		if werr := refusedWrite(c.env.Stdout); werr != nil {
			unread(werr)
		}
		// A pause the service's rate limit asks for is said once, as the
		// pause it is: the asks go on after it.
		if now := c.now(); s.PausedFor(now) > 0 && now.Add(s.PausedFor(now)).After(paused) {
			paused = now.Add(s.PausedFor(now))
			fmt.Fprintf(c.errOut, "%s: rate limited by the service: resuming in %s\n", c.app.name, s.PausedFor(now).Round(time.Second))
		}
		c.progress(f, done, len(ids))
		return !settled
	})
	c.progress(f, 0, 0)
	if werr := refusedWrite(c.env.Stdout); err != nil && werr != nil && errors.Is(context.Cause(ctx), werr) {
		return werr
	}
	if err != nil {
		// What was answered before the stop is printed as a run's end
		// prints it: a stop an hour into thousands of ids lost every answer.
		// As records asked, not final ones: a watch's did not end.
		answered := f
		answered.watch = false
		answered.quoteIDs = slices.DeleteFunc(slices.Clone(f.quoteIDs), func(id string) bool { return !ids[id].f.Known && ids[id].held == nil })
		if len(answered.quoteIDs) > 0 {
			_ = c.report(env, answered, ids)
		}
		return interrupted(ctx, "")
	}
	code := c.report(env, f, ids)
	if len(f.quoteIDs) > 1 && (f.watch || c.onTerminal()) {
		fmt.Fprintln(c.errOut, c.summary(f.quoteIDs, ids, c.now().Sub(start)))
	}
	return code
}

// loop is the follow loop of s on client, on the command's clock, that
// journals what it learns of the account's own withdrawals; a failed
// write is said on stderr and changes no exit status (the status itself
// was read).
func (c statusCmd) loop(s *follow.Scheduler, client *exchange.Client) follow.Loop {
	return follow.Loop{Scheduler: s, Now: c.now, Wait: c.sleep, MaxFailures: follow.GiveUpAfter,
		Ask: func(ctx context.Context, id string) (exchange.Withdrawal, error) { return fetchStatus(ctx, client, id) },
		Reread: func(ctx context.Context, w exchange.Withdrawal) exchange.Withdrawal {
			cx, cancel := context.WithTimeout(ctx, 30*time.Second)
			defer cancel()
			return client.ServiceTimeAfter(cx, w)
		},
		Journal: func(id string, w exchange.Withdrawal) error {
			err := c.writer.JournalState(id, w)
			if err != nil {
				fmt.Fprintf(c.errOut, "%s: the journal could not record %s of %s (%v): %s may show it unfinished; check the disk\n", c.app.name, w.State, id, err, c.app.invocation().command("history"))
			}
			return err
		}}
}

// summary is the one line `status --watch` of several ids ends with:
// how many came to each outcome, and the time it took.
func (c statusCmd) summary(order []string, ids map[string]*followed, took time.Duration) string {
	fs := make([]follow.Follow, len(order))
	for i, id := range order {
		fs[i] = ids[id].f.Follow
	}
	return fmt.Sprintf("%s: %d withdrawals in %s: %s", c.app.name, len(order), took.Round(time.Second), follow.Tally(fs))
}

// record words one answer the loop took about o's id, and reports whether
// the id is settled (its exit status known).
func (c statusCmd) record(ctx context.Context, seen follow.Seen, o *followed, f statusFlags, n *notifier) bool {
	id, err := seen.QuoteID, seen.Err
	settle := func(code int) bool {
		o.code, o.done = code, true
		return true
	}
	// An error about one id is said when it settles, in the stream with
	// --watch; else in its place among the records (report).
	settleErr := func(err error) bool {
		if !f.watch {
			o.held, o.done = err, true
			return true
		}
		return settle(c.app.say(err))
	}
	o.f = seen.Followed
	switch {
	case errors.Is(err, exchange.ErrNotFound) && seen.Vanished:
		// Unknown to the service, yet the journal saw it accepted, or sent
		// it unanswered while its quote may still execute: said as
		// follow.Outcome words it, never "not found", asked again with
		// --watch. --json gives its record, as --csv its row: a state, no error.
		switch {
		case f.json && !f.watch:
			return settle(exitPending)
		case !f.watch:
			return settleErr(failure(exitPending, "%s: %s %s To keep asking, run %s", id, o.f.Outcome().Name, o.f.Outcome().Sentence(), c.app.invocation().follow(id)).about(id))
		}
		if seen.Step.Changed && !f.csv {
			c.change(&o.f, f.json)
			o.printed = follow.LabelVanished
		}
		return false
	case errors.Is(err, exchange.ErrNotFound) && seen.NeverExecuted():
		// Sent unanswered, unknown past its quote's margin by the
		// service's clock: never paid, as resume settles it; a record in
		// --json, as in --csv.
		if f.json {
			return settle(exitFailed)
		}
		return settleErr(failure(exitFailed, "%s: %s %s", id, o.f.Outcome().Name, o.f.Outcome().Sentence()).about(id))
	case errors.Is(err, exchange.ErrNotFound):
		return settleErr(notFound(id))
	case err != nil && errors.As(err, new(*exchange.UnreadableAnswerError)):
		// An answer that is not a status record (an unknown state, a
		// malformed hash, another quote's record) will not mend by asking
		// again: it is an error for this id.
		return settleErr(c.idError(id, f, err, ""))
	case seen.GaveUp:
		return settleErr(c.idError(id, f, err, fmt.Sprintf(" (gave up after %d failed tries in a row)", seen.Failures)))
	case err != nil && seen.Done:
		return settleErr(c.idError(id, f, err, ""))
	case err != nil:
		if !seen.Step.RateLimited {
			c.retryNote(id, f, err, seen.Due.Sub(c.now()).Round(time.Second))
		}
		return false
	}
	if f.watch && o.f.Last.State != o.printed && !f.csv {
		c.change(&o.f, f.json)
		o.printed = o.f.Last.State
	}
	if !seen.Done {
		return false
	}
	n.ended(ctx, &o.f)
	return settle(payoutExit[o.f.Payout()])
}

// payoutExit is the exit status of each payout (see statusLong).
var payoutExit = map[follow.Payout]int{
	follow.PayoutPaid: exitCompleted, follow.PayoutNotPaid: exitFailed, follow.PayoutPending: exitPending,
}

// report prints every id's last record, in the order given, and ends with
// the largest exit status. One id keeps the record's table (after the
// change lines with --watch); several print one record a line; with
// --json each id ends with its record, of kind final after --watch; --csv
// prints a header and a row for each id with a record or not found
// (follow.CSVHeader), and no change lines.
func (c statusCmd) report(env config.Environment, f statusFlags, ids map[string]*followed) error {
	code := exitCompleted
	for _, o := range ids {
		code = max(code, o.code)
	}
	// say says an id's held error in its place, and counts its status.
	say := func(o *followed) {
		if o.held != nil {
			code, o.held = max(code, c.app.say(o.held)), nil
		}
	}
	if f.csv {
		for _, id := range f.quoteIDs {
			say(ids[id])
		}
		rows := [][]string{follow.CSVHeader}
		for _, id := range f.quoteIDs {
			// The service's not found is a row too (its outcome NOT FOUND,
			// NOT FOUND?, NOT FOUND YET or EXPIRED), as the board exports
			// it, so every id given has its row; one not answered has none.
			if o := ids[id]; o.f.Known || o.f.NotFound || o.f.Vanished {
				rows = append(rows, c.outputRecord(&o.f).CSVRow())
			}
		}
		if err := safetext.WriteCSV(c.env.Stdout, rows); err != nil {
			return outputError(err)
		}
		return exitStatus(code)
	}
	if len(f.quoteIDs) == 1 {
		o := ids[f.quoteIDs[0]]
		say(o)
		switch {
		case f.json && recorded(&o.f):
			c.writeRecord(&o.f, endKind(f))
		case !o.f.Known:
		case f.watch:
			fmt.Fprintln(c.env.Stdout)
			c.print(env, &o.f.Follow)
		default:
			c.print(env, &o.f.Follow)
		}
		return exitStatus(code)
	}
	if f.watch && !f.json {
		fmt.Fprintln(c.env.Stdout)
	}
	tw := tabwriter.NewWriter(c.env.Stdout, 0, 0, 2, ' ', 0)
	if !f.json && slices.ContainsFunc(f.quoteIDs, func(id string) bool { return ids[id].f.Known }) {
		// A header names the columns, as the console's board does; over
		// no row (every id unknown) it would head nothing.
		fmt.Fprintln(tw, "QUOTE ID\tSTATE\tRECEIVE\tCHAIN\tPAYOUT HASH")
	}
	signed := false // a value the journal filled in is in the table
	for _, id := range f.quoteIDs {
		o := ids[id]
		w := o.f.Last
		if f.json {
			say(o)
		}
		switch {
		case f.json && recorded(&o.f):
			c.writeRecord(&o.f, endKind(f))
		case !o.f.Known, f.json:
		default:
			// "-" for what the record leaves out: a column is never empty;
			// "*" for what the journal filled in (follow.Filled).
			chain, receive, token := o.f.Filled(c.own[id].Intent)
			signed = signed || chain.Signed || receive.Signed
			fmt.Fprintf(tw, "%s\t%s\t%s %s\t%s\t%s\n", w.QuoteID, o.f.Outcome().Name, starred(receive), orDash(token),
				starred(chain), orDash(w.WithdrawTxHash))
		}
	}
	_ = tw.Flush()
	if signed {
		// On stderr, as the notes below: stdout stays the table's rows, so
		// a script reading them never takes the legend for a quote id.
		fmt.Fprintln(c.errOut, "* "+follow.FromSigned+": the service's record leaves it out")
	}
	if !f.json {
		// Text: the table whole, then what went wrong, in the order given;
		// the table shows what was signed, so what a record claimed
		// against it is said here (follow.Unlike).
		for _, id := range f.quoteIDs {
			say(ids[id])
			if o := ids[id]; o.f.Known && o.f.Unlike != "" {
				c.sayOutcome(id, &o.f.Follow)
			}
		}
	}
	return exitStatus(code)
}

// recorded reports that --json gives f's record, not an error: one the
// service answered, or a not found that is no error of the id's but a
// state of a withdrawal this journal holds (NOT FOUND YET, NOT FOUND?, or
// EXPIRED past its quote's margin), as --csv gives each its row.
func recorded(f *follow.Followed) bool {
	return f.Known || f.Vanished || f.NeverExecuted()
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// starred is v as the status table writes it: "-" when not known, with a
// "*" when the journal filled it in (the line under the table says so).
func starred(v follow.Value) string {
	if v.Signed {
		return v.Text + "*"
	}
	return orDash(v.Text)
}
