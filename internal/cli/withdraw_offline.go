package cli

import (
	"cmp"
	"context"
	"errors"
	"fmt"

	"github.com/shopspring/decimal"
	"github.com/spf13/cobra"

	"github.com/svcwallet/svcwallet/internal/plain"
	"github.com/svcwallet/svcwallet/service/config"
	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/journal"
	"github.com/svcwallet/svcwallet/service/withdrawal"
	"github.com/svcwallet/svcwallet/signer"
)

const withdrawSubmitLong = `Finishes a withdrawal prepared for offline signing (svcwallet withdraw
--signer offline --out FILE): FILE must be the typed data as it was
written, and --signature its signature (0x and 130 hex digits, as cast
wallet sign or a wallet prints it; without --signature, or with
--signature -, it is read from standard input). What is needed besides is
read from this machine's withdrawal journal, never from the file. Before
it reads the signature, it prints where the journal says the withdrawal
pays out (destination, chain, amount, fee cap; with --json on stderr): the
file signs only the amount and the bridge.

The signature must recover to the address the Transfer was prepared for,
the Transfer must still be valid (30 minutes from when it was prepared),
and a fresh quote for exactly the signed amount must keep its fee and loss
within the fee cap given when it was prepared (without one, within the
quote reviewed then), losing no more than the --accept-loss given then
(without one, no more than that quote lost where a second yes took its
loss of most of the amount, and not most of the amount where it was not);
then it is journaled and sent as svcwallet withdraw sends, with --wait and
--json as there. A prepared Transfer is sent once: submitting it again
names the withdrawal it became. As svcwallet withdraw does, it refuses to
send while an identical withdrawal got no answer (resume that one first,
or give --allow-repeat), and refuses it when an identical withdrawal was
made since it was prepared (as a run awaiting its signature is
overtaken); one made before is warned of. It logs in as svcwallet status
does.

Exit status: as svcwallet withdraw (0 accepted, with --wait COMPLETED;
1 refused, nothing paid; 2 usage; 3 still pending; 5 other errors, and a
Transfer whose nonce the service says was used: most likely paid already,
as after the state folder was restored from a backup, so never sign it
again).`

// withdrawSubmitCommand is `svcwallet withdraw submit FILE`.
func (a *app) withdrawSubmitCommand() *cobra.Command {
	var f withdrawFlags
	c := a.submitCommand("Send a withdrawal signed offline", withdrawSubmitLong, `  svcwallet withdraw submit transfer.json --signature "$SIGNATURE"
  cast wallet sign --ledger --data --from-file transfer.json |
      svcwallet withdraw submit transfer.json --wait`, &f.signature, func(ctx context.Context, path string) error {
		return a.withdrawRun().submit(ctx, f, path)
	})
	c.Annotations = map[string]string{annotationOtherExit: "yes", annotationSaidBy: "svcwallet withdraw"}
	c.Flags().BoolVar(&f.wait, "wait", false, "follow the withdrawal until it ends")
	c.Flags().BoolVar(&f.allowRepeat, "allow-repeat", false, "send though an identical one got no answer")
	return c
}

// prepare is `svcwallet withdraw --signer offline --out FILE`: the review,
// then the Transfer (valid PreparedLife) journaled and its typed data
// written to FILE for a wallet elsewhere. Nothing is signed or sent.
func (c withdrawCmd) prepare(ctx context.Context, f withdrawFlags, e config.Environment, accepted decimal.NullDecimal) error {
	signerAddr, err := offlineSigner(f.key, f.out, f.dryRun, e, "the main account's signer that will sign the file", "Transfer")
	switch {
	case err != nil:
		return err
	case f.wait:
		return usageError("--signer offline sends nothing to wait for: give --wait to svcwallet withdraw submit")
	case !apiKeyGiven(c.env.Getenv):
		return usageError("offline signing logs in with the API key in $%s (the key that signs is not here); nothing was prepared", apiKeyVar)
	}
	q, err := c.logInAndQuote(ctx, e, f, signerFlags{}, nil)
	if err != nil {
		return err
	}
	client, target, order, trust := q.client, q.target, q.order, q.trust
	defer target.cleanup()
	// Nothing asks before the file is signed elsewhere and submitted: a
	// loss --accept-loss does not cover is refused here, before the file.
	if err := c.lossRefused(order, order.Loss(), accepted, false, "is not prepared without --accept-loss"); err != nil {
		return err
	}
	j, err := openJournal(c.app.env, c.app.name, target.journalPath)
	if err != nil {
		return failure(exitFailed, "the withdrawal journal cannot be opened (%w): nothing was prepared", err)
	}
	w, err := withdrawal.NewWithdrawer(withdrawal.Setup{Client: client, Journal: j, Now: c.now, BridgePins: target.pinsPath, AllowRepeat: f.allowRepeat})
	if err != nil {
		return failure(exitFailed, "%w", err)
	}
	cx, cancel := context.WithTimeout(ctx, exchange.CallTimeout)
	p, err := w.Prepare(cx, order, signerAddr)
	cancel()
	if ue := withdrawal.AsUnanswered(err); ue != nil {
		return c.repeatRefused(ue)
	}
	if err != nil {
		return cmp.Or(c.app.rolledBack(err), failure(exitFailed, "%w", exchange.Explain(err)))
	}
	// An accepted bridge change is recorded only once the Transfer to it is
	// prepared (journaled): a refusal above records nothing.
	if err := c.recordAcceptedBridge(e, target.pinsPath, trust); err != nil {
		return err
	}
	what := "offline signing: the file " + f.out
	key := &keyChoice{Opened: signer.Opened{Source: signer.Source{Kind: signer.SourceOffline}, Address: signerAddr}, what: what, file: f.out}
	if err := c.printReview(e, p.Order, trust, key, false, f.json, false); err != nil {
		return err
	}
	if rep, err := w.Repeats(order.Choice); err == nil {
		c.warnRepeat(f, rep)
	}
	flags := []string{"--signature", "0x…"}
	if f.allowRepeat {
		flags = append(flags, "--allow-repeat")
	}
	var asJSON func(any) error
	if f.json {
		asJSON = func(v any) error { return outputError(writeJSONLine(c.env.Stdout, v)) }
	} else {
		fmt.Fprintln(c.env.Stdout)
	}
	valid := fmt.Sprintf("  (%s from now)", withdrawal.PreparedLife)
	// The file not written is a refusal (1); the line not written, the output error.
	return failed(writePrepared(c.env.Stdout, e, p.Prepared, f.out, c.app.invocation().commandOn([]string{"withdraw", "submit"}, []string{f.out}, flags...), nil, valid, asJSON))
}

// submit is `svcwallet withdraw submit FILE`: the Transfer the file is
// (offlineSubmit), sent with a fresh quote as svcwallet withdraw sends.
func (c withdrawCmd) submit(ctx context.Context, f withdrawFlags, path string) error {
	f.json = c.env.JSON
	o := offlineSubmit{app: c.app, kind: journal.PreparedWithdrawal,
		client: func(e config.Environment) (*exchange.Client, error) {
			client, err := c.app.logInWith(ctx, e, signerFlags{}, nil, exchange.Options{Now: c.now, Retry: c.retry})
			if err != nil {
				return nil, loginFailed(err)
			}
			return client, nil
		},
		show: func(s submission) { c.printSubmitting(s.env, withdrawal.PreparedOf(s.prepared).Order, f.json) }}
	return o.run(ctx, path, f.signature, c.terminal(c.env), func(s submission) error {
		target, err := newWithdrawTarget(s.env)
		if err != nil {
			return failure(exitError, "%w", err)
		}
		p := withdrawal.PreparedOf(s.prepared)
		w, err := withdrawal.NewWithdrawer(withdrawal.Setup{Client: s.client, Journal: s.journal, Now: c.now, BridgePins: target.pinsPath, AllowRepeat: f.allowRepeat})
		if err != nil {
			return failure(exitFailed, "%w", err)
		}
		// Read before it is made, as withdraw reads it before its review.
		rep, repErr := w.Repeats(p.Order.Choice)
		sent := w.Submit(ctx, p, s.sig)
		if q := sent.Order.Quote; q.QuoteID != "" {
			in := p.Order.Choice.TokenIn
			fmt.Fprintf(c.env.Stderr, "%s: the fresh quote %s pays exactly the signed %s %s (you receive %s %s, fee %s %s)\n",
				c.app.name, q.QuoteID, q.PayAmount, in, q.ReceiveAmount, p.Order.Choice.TokenOut, q.Fee, in)
		}
		// Warned of as withdraw warns: an identical one made before this was
		// prepared. One made since refused it, and is said so alone; one
		// unanswered is said by the refusal, unless --allow-repeat sent it.
		if _, overtaken := errors.AsType[*withdrawal.OvertakenError](sent.Err); repErr == nil && !overtaken && (rep.Unanswered == nil || f.allowRepeat) {
			c.warnRepeat(f, rep)
		}
		return c.finish(ctx, s.client, s.env, target, s.journal, p.Order, sent, f)
	})
}

// printSubmitting says, before the signature is read, what the journal says
// the prepared Transfer pays for: the file signs only the amount and the
// bridge, and the fresh quote pays out where the journaled intent says.
// With --json it is one line on stderr.
func (c withdrawCmd) printSubmitting(e config.Environment, o withdrawal.Order, asJSON bool) {
	in, ch := o.Choice.TokenIn, o.Choice
	pay := exchange.FromRawUnits(o.Transfer.NumTokens).String() + " " + in
	capNote := "the fee cap given when it was prepared"
	if !ch.FeeCap.Valid {
		capNote = "the quote reviewed when it was prepared (no fee cap was given)"
	}
	limit := withdrawal.RequoteCap(o).String() + " " + in
	if asJSON {
		fmt.Fprintf(c.env.Stderr, "%s: submitting the prepared withdrawal of %s to %s on %s (paid out in %s); a fresh quote's fee and loss stay within %s, %s\n",
			c.app.name, pay, ch.ToAddress, ch.Route.Chain, ch.TokenOut, limit, capNote)
		return
	}
	w := plain.Fitted(c.env.Stdout)
	fmt.Fprintf(w, "Environment %s\n", e.Where())
	fmt.Fprintln(w, "Prepared withdrawal, as this machine's journal keeps it (the file signs only the amount and the bridge)")
	row := func(label, value, note string) { reviewRow(w, 16, label, value, note) }
	row("Pays out to", ch.ToAddress, "")
	row("Route", in+" → "+ch.TokenOut+" on "+ch.Route.Chain+" ("+ch.Route.ChainType+")", "")
	row("You pay", pay, "exactly the signed numTokens")
	row("Fee cap", limit, "for the fresh quote's fee and loss: "+capNote)
}
