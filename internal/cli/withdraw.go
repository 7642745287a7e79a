package cli

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/svcwallet/svcwallet/internal/plain"
	"github.com/svcwallet/svcwallet/internal/safetext"
	"github.com/svcwallet/svcwallet/service/config"
	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/follow"
	"github.com/svcwallet/svcwallet/service/intent"
	"github.com/svcwallet/svcwallet/service/journal"
	"github.com/svcwallet/svcwallet/service/withdrawal"
)

const withdrawLong = `Withdraws USDT through the bridge, as the console does: it logs in, checks
--to for the chain and --amount, quotes, and prints what will be signed (the
environment, the EIP-712 Transfer, its digest, what you receive and lose,
when the quote expires). A --chain, --to or --amount not given is asked for
on a terminal. There it asks "Sign and withdraw AMOUNT USDT (… received) to
ADDRESS on CHAIN? [y/N]"; --yes does not ask, --dry-run stops at the review.
Otherwise the Transfer is signed, journaled and sent (retried with the same
signature: it cannot pay twice); --wait follows it as status --watch does. A
request left without an answer is finished by withdraw resume QUOTE_ID.

What stops it before signing (--max-fee, --accept-loss, --accept-bridge,
--allow-repeat, a quote that expires): svcwallet help checks. Signing on
another machine (--signer offline --out FILE): svcwallet help offline.

Exit status: 0 accepted, 1 refused or not paid, 2 usage, 3 pending, 5 no
answer or another error, 6 not recorded (svcwallet help exit-status).`

const withdrawResumeLong = `Finishes a withdrawal this machine journaled whose request got no answer,
as the console's resume does: while its quote is valid by the service's
clock, the journaled request is sent again byte for byte (same signature and
nonce: it cannot pay twice); otherwise, or when that is refused, the service
is asked whether it arrived. A request it has not executed is called never
paid only once the service's clock is past the quote's expiry and a margin
of 4 minutes (the clock skew tolerated and a request still on its way);
until then it stays unanswered and an identical withdrawal is refused.
Otherwise the withdrawal is followed to its end as svcwallet status --watch
does. It logs in as svcwallet status does. A withdrawal is taken up only
through the service it was signed for and sent to (the base host and chain
id the journal names): an environment that now reaches another is refused,
naming both, and nothing is sent.

Exit status: as svcwallet status (0 COMPLETED, 1 not paid, including a
request that never arrived, 3 whether it arrived cannot be told yet, 4 no
such withdrawal in this account's journal, 5 any other error, still no
answer, or another service), 2 usage, 6 accepted again but the journal
could not record it (run it again once the disk has room).`

// withdrawCmd is `svcwallet withdraw`, with its clock, nonces, waits,
// retries and terminal injectable so tests run it on the sandbox's clock.
type withdrawCmd struct {
	env    CLIEnv
	app    *app
	now    func() time.Time
	nonce  func() uint32
	sleep  func(ctx context.Context, d time.Duration) error
	jitter func(n int64) int64
	retry  exchange.RetryPolicy // zero: exchange.DefaultRetry
	// terminal reports whether the user can be asked to confirm (stdin
	// and stderr are a terminal).
	terminal func(CLIEnv) bool
}

type withdrawFlags struct {
	chain, to, amount, tokenOut, maxFee string
	key                                 signerFlags
	// acceptBridge is --accept-bridge: a change of the recorded bridge
	// funding address to exactly this one, announced by the exchange.
	acceptBridge string
	// out is --out, the file of --signer offline; signature is submit's
	// --signature.
	out, signature          string
	yes, dryRun, wait, json bool
	// allowRepeat is --allow-repeat: sign even when an identical
	// withdrawal got no answer (withdrawal.Withdrawer.AllowRepeat).
	allowRepeat bool
	// acceptLoss is --accept-loss: the percentage of the amount the user
	// accepts losing to fees (withdrawal.AcceptsLoss).
	acceptLoss string
	// ask: a --chain, --to or --amount is missing and stdin is a
	// terminal: they are asked once the service's routes are known.
	ask bool
}

// withdrawCommand is `svcwallet withdraw` and `svcwallet withdraw resume`.
func (a *app) withdrawCommand() *cobra.Command {
	var f withdrawFlags
	c := &cobra.Command{
		Use:   "withdraw",
		Short: "Withdraw USDT through the bridge",
		Long:  withSignerHelp(withdrawLong),
		Example: `  # On the embedded sandbox, to its demo payee: nothing real moves.
  svcwallet withdraw --env sandbox --chain ARBITRUM --amount 25 --max-fee 2 \
      --to 0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC
  svcwallet withdraw resume q-123`,
		Args:              noArgs,
		ValidArgsFunction: cobra.NoFileCompletions,
		Annotations:       map[string]string{annotationOtherExit: "yes"},
		RunE: func(c *cobra.Command, _ []string) error {
			return a.withdrawRun().run(c.Context(), f)
		},
	}
	fl := c.Flags()
	fl.StringVar(&f.chain, "chain", "", "destination chain, such as ARBITRUM (any case)")
	_ = c.RegisterFlagCompletionFunc("chain", func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
		return a.chainNames(a.configPath), cobra.ShellCompDirectiveNoFileComp
	})
	fl.StringVar(&f.to, "to", "", "destination, from the account's address book")
	fl.StringVar(&f.amount, "amount", "", "amount to pay in USDT, such as 25 or 25.5")
	fl.StringVar(&f.tokenOut, "token-out", exchange.TokenUSDT, "token received on the chain")
	fl.StringVar(&f.maxFee, "max-fee", "", "refuse a quote whose fee or loss is above this")
	fl.StringVar(&f.acceptBridge, "accept-bridge", "", "accept this announced new bridge funding address")
	addSignerFlags(c, &f.key, true)
	fl.BoolVar(&f.yes, "yes", false, "sign and send without asking")
	fl.BoolVar(&f.dryRun, "dry-run", false, "print the quote and typed data; send nothing")
	fl.BoolVar(&f.wait, "wait", false, "follow the withdrawal until it ends")
	fl.BoolVar(&f.allowRepeat, "allow-repeat", false, "sign though an identical one got no answer")
	fl.StringVar(&f.acceptLoss, "accept-loss", "", "sign though fees take up to `PCT`% of the amount")
	fl.StringVar(&f.out, "out", "", "offline signing: the new file to write")
	a.envFlags(c)

	var rf withdrawFlags
	resume := &cobra.Command{
		Use:     "resume QUOTE_ID",
		Short:   "Finish a withdrawal left without an answer",
		Long:    withSignerHelp(withdrawResumeLong),
		Example: "  svcwallet withdraw resume q-123",
		ValidArgsFunction: func(_ *cobra.Command, args []string, prefix string) ([]string, cobra.ShellCompDirective) {
			if len(args) > 0 {
				return nil, cobra.ShellCompDirectiveNoFileComp
			}
			return a.quoteIDs(nil, prefix), cobra.ShellCompDirectiveNoFileComp | cobra.ShellCompDirectiveKeepOrder
		},
		Annotations: map[string]string{annotationOtherExit: "yes", annotationSaidBy: "svcwallet withdraw"},
		Args: func(_ *cobra.Command, args []string) error {
			if len(args) != 1 {
				return usageError("give the quote id of one withdrawal (got %d arguments)", len(args))
			}
			return nil
		},
		RunE: func(c *cobra.Command, args []string) error {
			return a.withdrawRun().resume(c.Context(), rf, args[0])
		},
	}
	addSignerFlags(resume, &rf.key, false)
	a.envFlags(resume)
	c.AddCommand(resume, a.withdrawSubmitCommand())
	return c
}

// withdrawRun is the withdraw command of this run.
func (a *app) withdrawRun() withdrawCmd {
	w := a.withdraw
	w.env, w.app = a.env, a
	return w
}

// withdrawTarget is where one run of the command journals and records the
// bridge address: the user's state directory, or for the embedded sandbox
// (which forgets everything when the command ends) a directory that ends
// with it, as the console does.
type withdrawTarget struct {
	journalPath, pinsPath string
	embedded              bool
	cleanup               func()
}

func newWithdrawTarget(e config.Environment) (withdrawTarget, error) {
	if e.Name != config.SandboxEnv {
		p := journal.DefaultPath()
		if p == "" {
			return withdrawTarget{}, errors.New("no state directory for the withdrawal journal: set $HOME or $XDG_STATE_HOME")
		}
		return withdrawTarget{journalPath: p, pinsPath: withdrawal.BridgePinsPath(filepath.Dir(p)), cleanup: func() {}}, nil
	}
	dir, err := os.MkdirTemp("", "svcwallet-sandbox-")
	if err != nil {
		return withdrawTarget{}, fmt.Errorf("cannot make the sandbox journal directory: %w", err)
	}
	return withdrawTarget{journalPath: filepath.Join(dir, "journal.jsonl"), pinsPath: withdrawal.BridgePinsPath(dir),
		embedded: true, cleanup: func() { os.RemoveAll(dir) }}, nil
}

// checkAmounts checks --amount (when given: on a terminal a missing one is
// asked) and --max-fee as the quote step will.
func checkAmounts(f withdrawFlags) error {
	if f.amount != "" {
		if _, err := withdrawal.ParseAmount(f.amount); err != nil {
			return err
		}
	}
	_, err := withdrawal.ParseFeeCap(f.maxFee)
	return err
}

func (c withdrawCmd) run(ctx context.Context, f withdrawFlags) error {
	f.json = c.env.JSON
	// On a terminal what is missing is asked once the routes are known
	// (choose); otherwise it is a usage error before anything is sent.
	f.ask = f.missing() != nil && c.terminal(c.env)
	switch err := f.missing(); {
	case err != nil && !f.ask:
		return err
	case f.chain != "" && exchange.CheckChainName(strings.TrimSpace(f.chain)) != nil:
		return usageError("--chain %s: %w", safetext.NameQuoted(f.chain), exchange.CheckChainName(strings.TrimSpace(f.chain)))
	case f.acceptBridge != "" && exchange.ValidateAddress(exchange.ChainTypeEVM, f.acceptBridge) != nil:
		return usageError("--accept-bridge: %w", exchange.ValidateAddress(exchange.ChainTypeEVM, f.acceptBridge))
	}
	// The amounts need no route: a wrong one is said before the key is
	// looked for, not after (the address waits for the route's chain).
	if err := checkAmounts(f); err != nil {
		return usageError("%w", err)
	}
	accepted, err := f.acceptedLoss()
	if err != nil {
		return err
	}
	e, offline, chosen, err := c.app.offlinePrepares(f.key, f.out)
	switch {
	case err != nil:
		return err
	case offline:
		return c.prepare(ctx, f, e, accepted)
	}
	// Preparing for offline signing (above, whether the command line or the
	// config chose it) signs and sends nothing, so only here is there
	// something to confirm.
	if why := cannotConfirm("withdrawal", f.yes || f.dryRun, c.terminal(c.env)); why != "" {
		return usageError("%s", why)
	}
	// The key is opened first, so a wrong choice costs no request; a dry
	// run signs nothing and needs one only to log in with it.
	var key *keyChoice
	if !f.dryRun || chosen {
		k, err := c.app.openKey(ctx, f.key, e)
		switch {
		case isUsage(err):
			return usageError("%w", err)
		case err != nil:
			return failure(exitFailed, "%w; nothing was sent", err)
		}
		key = &k
	}
	q, err := c.logInAndQuote(ctx, e, f, f.key, key)
	if err != nil {
		return err
	}
	client, target := q.client, q.target
	defer target.cleanup()
	// A dry run reads the journal if there is one, and creates none; a
	// withdrawal that signs is not made without one (NewWithdrawer).
	var j *journal.Journal
	var openErr error
	if _, err := os.Lstat(target.journalPath); !f.dryRun || err == nil {
		j, openErr = openJournal(c.app.env, c.app.name, target.journalPath)
	}
	w, err := withdrawal.NewWithdrawer(withdrawal.Setup{Client: client, Journal: j, Now: c.now, BridgePins: target.pinsPath, AllowRepeat: f.allowRepeat, DryRun: f.dryRun})
	if err != nil {
		return failure(exitFailed, "the withdrawal journal cannot be opened (%w): nothing was signed or sent", cmp.Or(openErr, err))
	}
	// An identical withdrawal that got no answer may have been paid: this
	// one is refused before it is reviewed (Execute would refuse it too).
	rep, err := w.Repeats(q.order.Choice)
	switch {
	case c.app.rolledBack(err) != nil && !f.dryRun:
		return c.app.rolledBack(err)
	case err != nil && !f.dryRun:
		return failure(exitFailed, "%w", err)
	case rep.Unanswered != nil && !f.allowRepeat && !f.dryRun:
		return c.repeatRefused(&withdrawal.UnansweredError{Earlier: *rep.Unanswered})
	}
	if done, err := c.confirmed(ctx, e, &q, key, f, rep, accepted); done || err != nil {
		return err
	}
	order, trust := q.order, q.trust
	if err := c.recordAcceptedBridge(e, target.pinsPath, trust); err != nil {
		return err
	}
	// No deadline while the signature is awaited (its key source has its
	// own, and ctrl+c ends it); the send has WithdrawTimeout.
	sent := w.Execute(ctx, order, key.Load)
	if sent.Order.Quote.QuoteID != "" && sent.Requoted {
		c.sayRequoted(order, sent.Order)
	}
	return c.finish(ctx, client, e, target, j, order, sent, f)
}

// finish reports what Execute or Submit sent: the acceptance, or why
// nothing was paid, or a lost answer to resume; --wait then follows it.
func (c withdrawCmd) finish(ctx context.Context, client *exchange.Client, e config.Environment, target withdrawTarget, j *journal.Journal, order withdrawal.Order, sent withdrawal.Sent, f withdrawFlags) error {
	if sent.Order.Quote.QuoteID != "" {
		order = sent.Order
	}
	id := order.Quote.QuoteID
	var unanswered *withdrawal.UnansweredError
	var submitted *intent.SubmittedError
	switch {
	case errors.Is(sent.Err, withdrawal.ErrStoppedOnceSigned):
		// The service's words: a prepared Transfer may be submitted again,
		// and a first request refused as expired did leave.
		said := exchange.Explain(sent.Err).Error()
		return interrupted(ctx, ": "+strings.ToLower(said[:1])+said[1:])
	case errors.Is(sent.Err, context.Canceled) && !signFailure(sent.Err):
		// Only what comes before the send heeds ctrl+c: the send has a
		// context of its own.
		return interrupted(ctx, nothingSent)
	case errors.As(sent.Err, &unanswered):
		return c.repeatRefused(unanswered)
	case errors.As(sent.Err, &submitted):
		return failure(exitFailed, "%w; %s", submitted, c.app.invocation().followIt(submitted.QuoteID)).about(submitted.QuoteID)
	case errors.Is(sent.Err, exchange.ErrQuoteExpired) && sent.Lost == nil:
		// Explain's words say to get a new quote; here that is a new run.
		return failure(exitFailed, "not withdrawn: the service refused quote %s as expired before executing it, so nothing was paid; run the command again for a new quote", id).about(id)
	case sent.Lost != nil && target.embedded:
		return failure(exitError, "no answer from the embedded sandbox to withdrawal %s (%w): it may or may not have been executed, and the sandbox ended with this command", id, exchange.Explain(sent.Err)).about(id)
	case sent.Answered():
		// Answered, so never "no answer"; resumed all the same. The error
		// is the whole fact, the quote id in it.
		return failure(exitError, "%w; it is journaled: run %s, which asks the service what became of it",
			sent.Err, c.app.invocation().resume(id)).about(id)
	case sent.Lost != nil:
		return failure(exitError, "no answer from the service to withdrawal %s after every retry (%w): it may or may not have arrived; it is journaled: run %s (it sends the identical request, which cannot pay twice)", id, exchange.Explain(sent.Err), c.app.invocation().resume(id)).about(id)
	case withdrawal.NonceUsed(sent.Err):
		// Most likely paid: never 1, which says nothing was.
		unrecorded := ""
		if u := sent.Unrecorded; u != nil && u.Journal != nil {
			unrecorded = fmt.Sprintf("; the journal could not record the refusal (%v): it shows withdrawal %s unanswered, and refuses an identical one, until %s settles it",
				u.Journal, id, c.app.invocation().resume(id))
		}
		return failure(exitError, "%w; %s lists this machine's withdrawals, and %s follows one whose quote id you have (printed when it was sent)%s",
			labelled("not withdrawn", exchange.Explain(sent.Err)), c.app.invocation().command("history"), c.app.invocation().follow("QUOTE_ID"), unrecorded).about(id)
	case sent.Err != nil && sent.Unrecorded != nil:
		return failure(exitFailed, "not withdrawn: %w; the journal could not record the refusal (%v): it shows the withdrawal unanswered, and refuses an identical one, until %s settles it",
			exchange.Explain(sent.Err), sent.Unrecorded.Journal, c.app.invocation().resume(id)).about(id)
	case c.app.rolledBack(sent.Err) != nil:
		return c.app.rolledBack(sent.Err)
	case sent.Err != nil:
		return failure(exitFailed, "%w", labelled("not withdrawn", exchange.Explain(sent.Err))).about(id)
	}
	// Unrecorded (exit 6) says the acceptance and the resume it needs.
	printed := c.printAccepted(e, sent.Accepted, order, f.json, !f.wait && !target.embedded && sent.Unrecorded == nil)
	if sent.Unrecorded != nil {
		return c.unrecorded(sent.Unrecorded)
	}
	next := c.afterAccepted(id, target.embedded)
	if printed != nil {
		return c.acceptedUnwritten(id, "its acceptance", printed, next)
	}
	if !f.wait {
		return nil
	}
	return c.follow(ctx, client, e, j, id, f.json, next)
}

// unrecorded ends a withdrawal the service accepted whose answer could
// not be written down (withdrawal.UnrecordedError): exit 6, naming the
// quote id and the withdraw resume that reconciles the journal.
func (c withdrawCmd) unrecorded(u *withdrawal.UnrecordedError) error {
	var says []string
	if u.Journal != nil {
		says = append(says, fmt.Sprintf("withdrawal %s was accepted, but the journal could not record it (%v): it shows the withdrawal unanswered, and refuses an identical one, until %s reconciles it (it sends the identical request, which cannot pay twice); free disk space first",
			u.QuoteID, u.Journal, c.app.invocation().resume(u.QuoteID)))
	}
	if u.Bridge != nil {
		says = append(says, fmt.Sprintf("withdrawal %s was accepted, but %s", u.QuoteID, u.BridgeUnrecorded()))
	}
	return failure(exitUnrecorded, "%s", strings.Join(says, "; ")).about(u.QuoteID)
}

// sayRequoted says on stderr that the quote expired while the signature
// was awaited and a fresh one carried it.
func (c withdrawCmd) sayRequoted(was, now withdrawal.Order) {
	q := now.Quote
	fmt.Fprintf(plain.Fitted(c.env.Stderr), "%s: quote %s expired while the signature was awaited; the fresh quote %s pays exactly %s %s (you receive %s %s, fee %s) and carries the same signature, which was never sent\n",
		c.app.name, was.Quote.QuoteID, q.QuoteID, q.PayAmount, now.Choice.TokenIn, q.ReceiveAmount, now.Choice.TokenOut, q.Fee)
}

// follow follows id to its end through the scheduler and Follow of
// svcwallet status --watch, journaling the states it learns, with that
// command's output and exit statuses. A line of it stdout refuses ends it
// as an acceptance not written (acceptedUnwritten, with next): the bare
// output error read as nothing paid.
func (c withdrawCmd) follow(ctx context.Context, client *exchange.Client, e config.Environment, j *journal.Journal, id string, asJSON bool, next string) error {
	recs, err := j.RecordsOf(journal.SessionOwner(client), id)
	if err != nil {
		fmt.Fprintf(c.env.Stderr, "%s: the journal cannot be read (%v): the states seen are not journaled\n", c.app.name, err)
	}
	stdout := &failedWrite{w: c.env.Stdout}
	env := c.env
	env.Stdout = stdout
	// The stream's error about id is the app's (say), on its stdout.
	defer func(was io.Writer) { c.app.env.Stdout = was }(c.app.env.Stdout)
	c.app.env.Stdout = stdout
	if !asJSON {
		fmt.Fprintln(stdout)
	}
	// It follows: it signs nothing.
	w, err := withdrawal.NewWithdrawer(withdrawal.Setup{Client: client, Journal: j, Now: c.now, DryRun: true})
	if err != nil {
		return failure(exitError, "%w", err)
	}
	st := statusCmd{env: env, app: c.app, sleep: c.sleep, jitter: c.jitter, now: c.now, target: e, own: follow.OwnOf(recs), writer: w}
	err = st.follow(ctx, client, e, statusFlags{quoteIDs: []string{id}, watch: true, json: asJSON, interval: follow.DefaultPollInterval})
	return stdout.unwrittenAs(err, func(err error) error { return c.acceptedUnwritten(id, "its status", err, next) })
}
