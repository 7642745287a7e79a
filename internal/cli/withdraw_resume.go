package cli

import (
	"context"
	"errors"
	"fmt"
	"os"

	"github.com/svcwallet/svcwallet/internal/config"
	"github.com/svcwallet/svcwallet/internal/exchange"
	"github.com/svcwallet/svcwallet/internal/follow"
	"github.com/svcwallet/svcwallet/internal/journal"
	"github.com/svcwallet/svcwallet/internal/safetext"
	"github.com/svcwallet/svcwallet/internal/withdrawal"
)

// resume is `svcwallet withdraw resume QUOTE_ID`: withdrawal.PlanResume on the
// journal's record decides, and an unanswered request is settled by
// withdrawal.Withdrawer.Settle, as the console's resume does.
func (c withdrawCmd) resume(f withdrawFlags, id string) int {
	f.json = c.env.JSON
	if err := exchange.CheckQuoteID(id); err != nil {
		return c.usage("%.40q is not a quote id: %v", safetext.Quoted(id), err)
	}
	e, closeEnv, err := commandEnv(f.config, f.envName, c.env.Getenv)
	if err != nil {
		if errors.As(err, new(envUsageError)) {
			return c.usage("%v", err)
		}
		return c.fail(exitError, "%v", err)
	}
	defer closeEnv()
	c.inv = newInvocation(e.Name, f.config, c.env.Getenv)
	if e.Name == config.SandboxEnv {
		return c.failAbout(id, exitNotFound, "the embedded sandbox's withdrawals end with the command that made them: there is nothing to resume on %s", e.Name)
	}
	client, err := logInWith(c.env, e, withdrawName+" resume", f.key, nil, exchange.Options{Now: c.now, Retry: c.retry})
	if err != nil {
		return c.env.report(loginFailed(withdrawName, err))
	}
	path := journal.DefaultPath()
	if _, err := os.Lstat(path); errors.Is(err, os.ErrNotExist) {
		return c.failAbout(id, exitNotFound, "no withdrawal journal at %s: nothing to resume", path)
	}
	j, err := journal.Open(path)
	if err != nil {
		return c.fail(exitError, "the withdrawal journal cannot be opened: %v", err)
	}
	s, _ := client.Session()
	recs, err := j.RecordsOf(e.Name, s.AccountID, id)
	if err != nil {
		return c.fail(exitError, "the withdrawal journal cannot be read: %v", err)
	}
	var rec *journal.Record
	for i := range recs {
		if recs[i].QuoteID == id && recs[i].Made {
			rec = &recs[i]
		}
	}
	if rec == nil {
		return c.failAbout(id, exitNotFound, "no withdrawal %s of this account on %s in the journal %s: only one made on this machine can be resumed (%s asks the service)", id, e.Name, path, c.inv.command("status", id))
	}
	switch withdrawal.PlanResume(*rec) {
	case withdrawal.ResumeNeverHappened:
		o := follow.RecordOutcome(*rec)
		return c.failAbout(id, exitFailed, "withdrawal %s %s: %s", id, o.Name, o.Sentence())
	case withdrawal.ResumeFollow:
		return c.follow(client, e, j, id, f.json)
	}
	w := withdrawal.Withdrawer{Client: client, Journal: j, Now: c.now}
	cx, cancel := context.WithTimeout(context.Background(), exchange.WithdrawTimeout)
	settled := w.Settle(cx, *rec)
	cancel()
	again := c.inv.command("withdraw", "resume", id)
	switch settled.Outcome {
	case withdrawal.SettledLost:
		return c.failAbout(id, exitError, "still no answer from the service to withdrawal %s (%v): it may or may not have arrived; run %s again later (it cannot pay twice)", id, exchange.Explain(settled.Err), again)
	case withdrawal.SettledUndecided:
		if settled.Err != nil {
			return c.failAbout(id, exitError, "withdrawal %s: %s; run %s again", id, settled.Fact(), again)
		}
		return c.failAbout(id, exitPending, "withdrawal %s: %s, and an identical withdrawal is refused: run %s again after that (it cannot pay twice)", id, settled.Fact(), again)
	case withdrawal.SettledNeverHappened:
		if settled.JournalErr != nil {
			fmt.Fprintf(c.env.Stderr, "%s: the journal could not record it (%v)\n", withdrawName, settled.JournalErr)
		}
		o := follow.NeverHappened(settled.Why)
		return c.failAbout(id, exitFailed, "withdrawal %s %s: %s", id, o.Name, o.Sentence())
	case withdrawal.SettledAccepted:
		o := withdrawal.Order{Quote: exchange.Quote{QuoteID: id}, Choice: withdrawal.Choice{TokenIn: rec.Intent.TokenIn,
			TokenOut: rec.Intent.TokenOut, ToAddress: rec.Intent.ToAddress, Route: exchange.WithdrawalRoute{Chain: rec.Intent.Chain}}}
		if code := c.printAccepted(settled.Accepted, o, f.json, false); code != 0 {
			return code
		}
	}
	return c.follow(client, e, j, id, f.json)
}
