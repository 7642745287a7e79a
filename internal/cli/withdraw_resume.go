package cli

import (
	"context"
	"errors"
	"fmt"
	"os"

	"github.com/svcwallet/svcwallet/internal/safetext"
	"github.com/svcwallet/svcwallet/service/config"
	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/follow"
	"github.com/svcwallet/svcwallet/service/journal"
	"github.com/svcwallet/svcwallet/service/withdrawal"
)

// resume is `svcwallet withdraw resume QUOTE_ID`: withdrawal.PlanResume on the
// journal's record decides, and an unanswered request is settled by
// withdrawal.Withdrawer.Settle, as the console's resume does.
func (c withdrawCmd) resume(ctx context.Context, f withdrawFlags, id string) error {
	f.json = c.env.JSON
	if err := follow.CheckGivenQuoteID(id); err != nil {
		return usageError("%w", err)
	}
	e, err := c.app.environment()
	if err != nil {
		return err
	}
	if e.Name == config.SandboxEnv {
		return failure(exitNotFound, "the embedded sandbox's withdrawals end with the command that made them: there is nothing to resume on %s", e.Name).about(id)
	}
	client, err := c.app.logInWith(ctx, e, f.key, nil, exchange.Options{Now: c.now, Retry: c.retry})
	if err != nil {
		return loginFailed(err)
	}
	if client.OwnSecret(id) {
		return usageError("%v", follow.ErrOwnSecretGiven) // never repeated, nor offered to status
	}
	path := journal.DefaultPath()
	if _, err := os.Lstat(path); errors.Is(err, os.ErrNotExist) {
		return failure(exitNotFound, "no withdrawal journal at %s: nothing to resume", safetext.Shown(path)).about(id)
	}
	j, err := openJournal(c.app.env, c.app.name, path)
	if err != nil {
		return failure(exitError, "the withdrawal journal cannot be opened: %w", err)
	}
	recs, err := j.RecordsOf(journal.SessionOwner(client), id)
	if err != nil {
		return failure(exitError, "the withdrawal journal cannot be read: %w", err)
	}
	var rec *journal.Record
	for i := range recs {
		if recs[i].QuoteID == id && recs[i].Made {
			rec = &recs[i]
		}
	}
	if rec == nil {
		return failure(exitNotFound, "no withdrawal %s of this account on %s in the journal %s: only one made on this machine can be resumed (%s asks the service)", id, e.Name, safetext.Shown(path), c.app.invocation().commandOn([]string{"status"}, []string{id})).about(id)
	}
	switch withdrawal.PlanResume(*rec) {
	case withdrawal.ResumeNeverHappened:
		o := follow.RecordOutcome(*rec)
		return failure(exitFailed, "withdrawal %s %s: %s", id, o.Name, o.Sentence()).about(id)
	case withdrawal.ResumeFollow:
		return c.follow(ctx, client, e, j, id, f.json, c.app.invocation().followIt(id))
	}
	w, err := withdrawal.NewWithdrawer(withdrawal.Setup{Client: client, Journal: j, Now: c.now})
	if err != nil {
		return failure(exitError, "%w", err)
	}
	cx, cancel := context.WithTimeout(ctx, exchange.WithdrawTimeout)
	settled := w.Settle(cx, *rec)
	cancel()
	again := c.app.invocation().resume(id)
	switch settled.Outcome {
	case withdrawal.SettledOtherAccount, withdrawal.SettledLoggedOut:
		return failure(exitError, "%w with %s", settled.Err, again).about(id)
	case withdrawal.SettledElsewhere:
		return failure(exitError, "%w; run it with the --env that reaches that service (%s lists them)", settled.Err, c.app.invocation().command("doctor")).about(id)
	case withdrawal.SettledLost:
		return failure(exitError, "still no answer from the service to withdrawal %s (%w): it may or may not have arrived; run %s again later (it cannot pay twice)", id, exchange.Explain(settled.Err), again).about(id)
	case withdrawal.SettledUndecided:
		if settled.Err != nil {
			return failure(exitError, "withdrawal %s: %s; run %s again", id, settled.Fact(), again).about(id)
		}
		return failure(exitPending, "withdrawal %s: %s, and an identical withdrawal is refused: run %s again after that (it cannot pay twice)", id, settled.Fact(), again).about(id)
	case withdrawal.SettledNeverHappened:
		if settled.JournalErr != nil {
			fmt.Fprintf(c.env.Stderr, "%s: the journal could not record it (%v)\n", c.app.name, settled.JournalErr)
		}
		o := follow.NeverHappened(settled.Why)
		return failure(exitFailed, "withdrawal %s %s: %s", id, o.Name, o.Sentence()).about(id)
	case withdrawal.SettledAccepted:
		printed := c.printAccepted(e, settled.Accepted, withdrawal.Resumed(*rec), f.json, false)
		if settled.JournalErr != nil {
			return c.unrecorded(&withdrawal.UnrecordedError{QuoteID: id, Journal: settled.JournalErr})
		}
		if printed != nil {
			return c.acceptedUnwritten(id, "its acceptance", printed, c.app.invocation().followIt(id))
		}
	}
	return c.follow(ctx, client, e, j, id, f.json, c.app.invocation().followIt(id))
}
