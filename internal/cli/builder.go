package cli

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/spf13/cobra"

	"github.com/svcwallet/svcwallet/internal/plain"
	"github.com/svcwallet/svcwallet/service/builder"
	"github.com/svcwallet/svcwallet/service/config"
	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/intent"
	"github.com/svcwallet/svcwallet/service/journal"
	"github.com/svcwallet/svcwallet/service/sandbox"
	"github.com/svcwallet/svcwallet/signer"
)

const builderLong = `Authorizes a builder account to trade for your account, with caps on the fee
rates it may charge: percentages (0.1 means 0.1%), at most 4 decimals. With
--api-key-signer, --permissions and --label (all three, or none) it also creates
an API key for the builder, printed once on stdout. --permissions: any of Admin,
InternalTransfer, ExternalTransfer, Withdraw, VaultInvestor, Trade, joined by &.

It prints what will be signed, the EIP-712 message and its digest, warning of a
--builder that is your own account, a fee cap above 1% or an API key allowed
more than Trade; on a terminal it asks "Sign and authorize builder ADDRESS …?
[y/N]" (svcwallet help checks), which --yes skips, and again for a key beyond
Trade, which may move your funds: --yes and --signer offline then need --grant
naming its --permissions. With a key, a --builder or fee cap not given is asked
on a terminal, as --plain does (else a usage error). --dry-run signs and sends
nothing. --keystore-file FILE is --signer FILE. Offline: svcwallet help offline.

Exit status: 0 authorized or dry run, 1 refused or failed, 2 usage, 5 unknown.`

// builderCmd is `svcwallet builder`, with its clock and nonces injectable so
// tests can fix the typed data.
type builderCmd struct {
	env   CLIEnv
	app   *app
	now   func() time.Time
	nonce func() uint32
	// terminal reports whether the user can be asked to confirm (stdin
	// and stderr are a terminal); nil asks the process's streams.
	terminal func(CLIEnv) bool
}

// canAsk reports whether the user can be asked to confirm.
func (c builderCmd) canAsk() bool {
	if c.terminal == nil {
		return answers(c.env).OnTerminal()
	}
	return c.terminal(c.env)
}

// builderCommand is `svcwallet builder authorize`.
func (a *app) builderCommand() *cobra.Command {
	c := &cobra.Command{
		Use:   "builder",
		Short: "Authorize a builder to trade for the account",
		Long: `A builder authorization lets a builder account (a trading front end, a bot's
operator) trade for your account and charge fees up to the caps you sign,
as an EIP-712 AuthorizeBuilder signed by the main account's key; it may also
create an API key for the builder. Use it when a builder asks to be
authorized: builder authorize reviews and signs one here, builder submit
sends one signed on another machine (--signer offline). The console and
plain mode ask the same questions.`,
		Args: subcommandOnly,
		RunE: giveA("command"),
	}
	var f builderFlags
	auth := &cobra.Command{
		Use:   "authorize",
		Short: "Authorize a builder, with fee caps",
		Long:  withSignerHelp(builderLong),
		Example: `  # On the embedded sandbox, its demo builder and account: nothing real changes.
  svcwallet builder authorize --env sandbox --dry-run --json \
      --max-futures-fee 0.1 --max-spot-fee 0.05 \
      --builder 0x70997970C51812dc3A010C7d01b50e0d17dc79C8 \
      --account 0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266
  svcwallet builder authorize --env sandbox --yes \
      --max-futures-fee 0.1 --max-spot-fee 0.05 \
      --builder 0x70997970C51812dc3A010C7d01b50e0d17dc79C8`,
		Args: noArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			b := a.builder
			b.env, b.app = a.env, a
			return b.run(c.Context(), f)
		},
	}
	fl := auth.Flags()
	fl.StringVar(&f.in.Builder, "builder", "", "builder account address")
	fl.StringVar(&f.in.FuturesFee, "max-futures-fee", "", "maximum futures fee rate, percent")
	fl.StringVar(&f.in.SpotFee, "max-spot-fee", "", "maximum spot fee rate, percent")
	fl.StringVar(&f.in.Expires, "expires", "7d", "validity: 7d, 72h, 90m; at most 30d")
	fl.StringVar(&f.in.KeySigner, "api-key-signer", "", "address of the builder API key's signer")
	fl.StringVar(&f.in.Permissions, "permissions", "", "permissions of the builder API key, such as Admin&Trade")
	fl.StringVar(&f.in.Label, "label", "", "label of the builder API key")
	fl.StringVar(&f.grant, "grant", "", "the key's `PERMS` beyond Trade, named again")
	addSignerFlags(auth, &f.key, true)
	fl.BoolVar(&f.yes, "yes", false, "sign and send without asking")
	fl.BoolVar(&f.dryRun, "dry-run", false, "print the typed data and digest; sign and send nothing")
	fl.StringVar(&f.out, "out", "", "new file for the typed data (--signer offline)")
	a.envFlags(auth)
	c.AddCommand(auth, a.builderSubmitCommand())
	return c
}

type builderFlags struct {
	in  builder.Input
	key signerFlags // its --account is also a dry run's main account
	out string      // --signer offline: the file for the typed data
	// grant is --grant: the API key's permissions named again,
	// which a key that may move funds needs with --yes (builder.AcceptsGrant).
	grant             string
	dryRun, json, yes bool
}

func (c builderCmd) run(ctx context.Context, f builderFlags) error {
	f.json = c.env.JSON
	// Every flag is checked before a passphrase is asked for; the main
	// account is the signing key's address, known only later. On a
	// terminal, once a key is at hand, the builder and the fee caps not
	// given are asked first, one a line as plain mode asks them.
	probe := func() error { _, err := probed(f); return err }
	if err := c.keyAtHand(ctx, f); err != nil {
		return err
	}
	if asks := plain.BuilderMissing(&f.in, builder.Asked); len(asks) > 0 && c.canAsk() {
		if err := askMissing(ctx, c.env, probe, asks...); err != nil {
			return err
		}
	}
	a, err := probed(f)
	if err != nil {
		return err
	}
	e, offline, chosen, err := c.app.offlinePrepares(f.key, f.out)
	if err == nil {
		// A dry run grants nothing, but its --grant is read as the run's.
		err = grantRefused(a, f.grant, f.dryRun || !f.yes && !offline)
	}
	switch {
	case err != nil:
		return err
	case offline:
		return c.prepare(ctx, f, e)
	}
	// Preparing for offline signing (above) and a dry run sign and send
	// nothing: only here is there something to confirm, asked once the
	// review is printed (the rule of withdraw, cannotConfirm).
	if why := cannotConfirm("builder authorization", f.yes || f.dryRun, c.canAsk()); why != "" {
		return usageError("%s", why)
	}
	account, err := f.key.accountOf(e)
	if err != nil {
		return usageError("%w", err)
	}
	var main common.Address
	var key keyChoice
	if f.dryRun && account != (common.Address{}) && !chosen {
		main = account // nothing is signed: no key is needed
	} else {
		if key, err = c.app.openKey(ctx, f.key, e); err != nil {
			return keyNotOpened(err)
		}
		main = key.Address
	}
	f.in.Main = main.Hex()
	a, err = builder.Check(f.in) // now with its main account
	if err != nil {
		return usageError("%s", flagError(err))
	}
	o := builder.NewOrder(a, e.Domain(), c.nonce(), c.now())
	o.Granted = grantNamed(f)
	if f.dryRun {
		c.printWarnings(c.env.Stderr, o)
		return c.printDryRun(e, o.Review().Intent, f.json)
	}
	// Nothing is signed on a journal that lost lines svcwallet wrote to it
	// (builder.Signable, which Authorize checks again): refused before the
	// review. The embedded sandbox's journal ends with the command.
	var j *journal.Journal
	if e.Name != config.SandboxEnv {
		if j, err = stateJournal(); err != nil {
			return failure(exitFailed, "the journal cannot be opened (%w): nothing was signed or sent", err)
		}
	}
	if err := builder.Signable(j); err != nil {
		return cmp.Or(c.app.rolledBack(err), failure(exitFailed, "%w", err))
	}
	// What will be signed, before it is: where the question is (stderr)
	// when someone is asked, whatever stdout is; else on stdout, or with
	// --json on stderr (stdout keeps the one document).
	switch {
	case !f.yes:
		c.printReview(plain.Fitted(c.env.Stderr), e, o, key)
	case !f.json:
		// --yes signs what stdout shows: not taken, nothing is signed.
		var b bytes.Buffer
		c.printReview(plain.FittedFor(&b, c.env.Stdout), e, o, key)
		if _, err := c.env.Stdout.Write(b.Bytes()); err != nil {
			return reviewUnwritten(err)
		}
	default:
		c.app.sayEmbedded(e, authorizationsEnd)
		c.printWarnings(c.env.Stderr, o)
	}
	if !f.yes {
		if err := confirm(ctx, c.env, a.SignQuestion(e)); err != nil {
			return err
		}
		if err := c.grantAsked(ctx, &o); err != nil {
			return err
		}
	}
	client := exchange.New(e, exchange.Options{Now: c.now, Logger: c.env.Log})
	// No deadline while the signature is awaited (the key source has its
	// own, and ctrl+c ends it); the request has builder.AuthorizeTimeout.
	req, res, err := o.Authorize(ctx, client, j, key.Load)
	return c.authorized(ctx, e, a, o, res, err, req.Signature.R != "", false)
}

// keyAtHand refuses, before anything is asked, an authorization no key
// here signs (builder.SigningKey, every face's check): a key source named
// (--signer, --keystore-file, the environment's signer; offline among
// them) is held, else the embedded sandbox's demo key. A dry run of a
// named account needs no key; a flag refused is said where the run meets
// it. $SVCWALLET_PRIVATE_KEY is opened here, which asks nothing, so one
// that is not a key or not the account's is said before any question.
func (c builderCmd) keyAtHand(ctx context.Context, f builderFlags) error {
	e, _, chosen, err := c.app.offlinePrepares(f.key, f.out)
	if err != nil {
		return nil
	}
	account, err := f.key.accountOf(e)
	if err != nil || f.dryRun && account != (common.Address{}) && !chosen {
		return nil
	}
	if !chosen && c.env.Getenv(signer.KeyEnvVar) != "" {
		if _, err := c.app.openKey(ctx, f.key, e); err != nil {
			return keyNotOpened(err)
		}
		return nil
	}
	keys := builder.Keys{Held: chosen}
	if e.Name == config.SandboxEnv {
		keys.Lookup.DemoKey = sandbox.DemoPrivateKey
	}
	_, err = builder.SigningKey(ctx, keys, account)
	if nk, ok := errors.AsType[*builder.NoKeyError](err); ok {
		return usageError("%v; %s", err, keyWays(c.env, account, &nk.NoKeyError))
	}
	return nil
}

// keyNotOpened is openKey's error as the command's: one the user corrects
// (a flag, the variable) a usage error, else a failure.
func keyNotOpened(err error) error {
	if isUsage(err) {
		return usageError("%w", err)
	}
	return failure(exitFailed, "%w", err)
}

// authorized reports what e said of an authorization, sent from here or
// prepared for offline signing (prepared), err coming after it was signed
// (signed) or before: what became of it (builder.Auth.Failed), in the
// command line's words, or the authorization.
func (c builderCmd) authorized(ctx context.Context, e config.Environment, a builder.Auth, o builder.Order, res exchange.BuilderAuthorizeResult, err error, signed, prepared bool) error {
	var f builder.Failure
	if err != nil && signed {
		f = a.Failed(err, 0)
	}
	switch {
	case errors.Is(err, context.Canceled) && !signFailure(err):
		return interrupted(ctx, "")
	case c.app.rolledBack(err) != nil:
		return c.app.rolledBack(err)
	case f.Fate == builder.FateTaken:
		// Exit 5, an outcome to check: 1 would read as refused.
		return failure(exitError, "%w", f)
	case f.Fate == builder.FateUnknown:
		// Exit 5, as a withdrawal whose outcome is unknown: 1 says refused.
		return failure(exitError, "not authorized so far: %w", f)
	case (f.Fate == builder.FateNotSent || f.Fate == builder.FateLimited) && prepared:
		// Submit records the file as sent before it leaves, and never sends it twice.
		return failure(exitFailed, "not authorized: %w; this file is not submitted twice: prepare it again (%s) and submit the new one", f, c.prepareAgain(e))
	case f.Fate == builder.FateNotSent || f.Fate == builder.FateLimited:
		return failure(exitFailed, "not authorized: %w", f)
	case errors.As(err, new(*exchange.APIError)):
		again := "run the command again"
		if prepared {
			again = "prepare it again (" + c.prepareAgain(e) + ")"
		}
		return failure(exitFailed, "not authorized: %w", refusalWords(builder.Explain(err), again))
	case errors.As(err, new(exchange.SignError)):
		// Under its own head, as withdraw says it: "not signed: …".
		return failure(exitFailed, "%w", labelled("not authorized", err))
	case err != nil:
		return failure(exitFailed, "%w", err)
	}
	nonce, exp := o.Message.NonceExpiration()
	return c.printResult(e, a, nonce, exp, res)
}

// prepareAgain is the command that prepares a builder authorization for
// offline signing again, on e and the config this run named.
func (c builderCmd) prepareAgain(e config.Environment) string {
	return newInvocation(e.Name, c.app.configPath, c.app.env.Getenv).command("builder", "authorize", "--signer", "offline")
}

// refusalWords says the command line's step after a refusal's fact
// (builder.Next): again, a new run, draws a new nonce (the authorization
// signed offline: a new preparation).
func refusalWords(err error, again string) error {
	var re *builder.RefusedError
	if !errors.As(err, &re) {
		return err
	}
	switch re.Next {
	case builder.NextNonce:
		return fmt.Errorf("%s; otherwise %s for a new nonce", re.Fact, again)
	case builder.NextValidity:
		return fmt.Errorf("%s: %s with a shorter --expires", re.Fact, again)
	}
	return err
}

// fieldFlags name each input of a builder authorization as its flag.
var fieldFlags = map[builder.Field]string{
	builder.FieldMain: "--keystore-file / $" + signer.KeyEnvVar, builder.FieldBuilder: "--builder",
	builder.FieldFuturesFee: "--max-futures-fee", builder.FieldSpotFee: "--max-spot-fee", builder.FieldExpires: "--expires",
	builder.FieldLabel: "--label", builder.FieldKeySigner: "--api-key-signer", builder.FieldPermissions: "--permissions",
}

// flagError names the flag a field error is about.
func flagError(err error) string {
	var fe *builder.FieldError
	if errors.As(err, &fe) {
		return fieldFlags[fe.Field] + ": " + fe.Err.Error()
	}
	if errors.Is(err, builder.ErrKeyFields) {
		return "--label, --api-key-signer and --permissions go together: give all three, or none for an authorization without an API key"
	}
	return err.Error()
}

// authorizationsEnd is what ends with the command on the embedded sandbox.
const authorizationsEnd = "its authorizations and API keys"

// printReview prints what the main account's key will sign in e: the
// environment, the authorization, then the EIP-712 message
// (printTypedData), then the warnings.
func (c builderCmd) printReview(w io.Writer, e config.Environment, o builder.Order, key keyChoice) {
	r := o.Review()
	printWhere(w, e, authorizationsEnd)
	fmt.Fprintf(w, "Builder authorization (%s)\n", r.Purpose)
	printFacts(w, r.LabelWidth(), o.Facts())
	fmt.Fprintln(w)
	printTypedData(w, r, &key)
	c.printWarnings(w, o)
	fmt.Fprintln(w)
}

// printWarnings writes the review's warnings (builder.Auth.Warnings), one
// line each.
func (c builderCmd) printWarnings(w io.Writer, o builder.Order) {
	for _, s := range o.Auth.Warnings() {
		fmt.Fprintln(w, "Warning: "+s)
	}
}

// printDryRun prints where, the typed data and its digest, signing and
// sending nothing.
func (c builderCmd) printDryRun(e config.Environment, in intent.Intent, asJSON bool) error {
	if asJSON {
		c.app.sayEmbedded(e, authorizationsEnd)
		return outputError(writeJSON(c.env.Stdout, struct {
			whereJSON
			DryRun    bool            `json:"dry_run"`
			TypedData json.RawMessage `json:"typed_data"`
			Digest    string          `json:"digest"`
		}{whereOf(e), true, in.TypedData(), in.Digest().Hex()}))
	}
	printWhere(c.env.Stdout, e, authorizationsEnd)
	printDryRun(c.env.Stdout, in)
	fmt.Fprintf(c.env.Stdout, "\nDigest: %s\n", in.Digest().Hex())
	return nil
}

// builderResultJSON is what --json prints after an authorization.
type builderResultJSON struct {
	whereJSON
	Authorized        bool   `json:"authorized"`
	Message           string `json:"message"`
	MainAccountID     string `json:"main_account_id"`
	BuilderAccountID  string `json:"builder_account_id"`
	MaxFuturesFeeRate string `json:"max_futures_fee_rate"`
	MaxFuturesSigned  uint32 `json:"max_futures_fee_rate_signed"`
	MaxSpotFeeRate    string `json:"max_spot_fee_rate"`
	MaxSpotSigned     uint32 `json:"max_spot_fee_rate_signed"`
	Nonce             uint32 `json:"nonce"`
	Expiration        string `json:"expiration"`
	ExpiresAt         string `json:"expires_at"`
	Label             string `json:"builder_api_key_label,omitempty"`
	KeySigner         string `json:"builder_api_key_signer,omitempty"`
	Permissions       string `json:"builder_api_key_permissions,omitempty"`
	APIKey            string `json:"api_key,omitempty"`
	APIKeyNote        string `json:"api_key_note,omitempty"`
}

// resultUnwritten is an authorization taken that stdout did not take
// (err): exit 5, code output, as an acceptance whose answer cannot be
// read; 1 would read as refused, and its API key shown once was lost.
func resultUnwritten(a builder.Auth, err error) error {
	return &cmdError{err: a.Unwritten(err), exit: exitError, code: codeOutput}
}

// printResult prints the authorization by e. On the embedded sandbox,
// which lived inside this command, an API key it made stops working when
// the command ends.
func (c builderCmd) printResult(e config.Environment, a builder.Auth, nonce uint32, exp int64, res exchange.BuilderAuthorizeResult) error {
	expiresAt := time.Unix(0, exp).UTC()
	embedded := e.Embedded()
	if c.env.JSON {
		out := builderResultJSON{
			whereJSON: whereOf(e), Authorized: true, Message: a.Mode(), MainAccountID: a.Main.Hex(), BuilderAccountID: a.Builder.Hex(),
			MaxFuturesFeeRate: signer.FormatFeeRate(a.Futures), MaxFuturesSigned: a.Futures,
			MaxSpotFeeRate: signer.FormatFeeRate(a.Spot), MaxSpotSigned: a.Spot,
			Nonce: nonce, Expiration: strconv.FormatInt(exp, 10), ExpiresAt: expiresAt.Format(time.RFC3339),
			APIKey: res.APIKey,
		}
		if embedded && res.APIKey != "" {
			out.APIKeyNote = "dies with this command: the embedded sandbox stopped"
		}
		if a.WithKey {
			out.Label, out.KeySigner, out.Permissions = a.Label, a.KeySigner.Hex(), a.Perms.String()
		}
		if err := writeJSON(c.env.Stdout, out); err != nil {
			return resultUnwritten(a, err)
		}
	} else {
		var b bytes.Buffer
		w := plain.FittedFor(&b, c.env.Stdout)
		fmt.Fprintf(w, "Builder authorized (%s, nonce %d)\n", a.Mode(), nonce)
		printFacts(w, 16, append(a.Granted(expiresAt), a.KeyFacts("")...))
		if res.APIKey != "" {
			note := ""
			if embedded {
				note = "(dies with this command: the embedded sandbox stopped)"
			}
			reviewRow(w, 16, "API key", res.APIKey, note)
		}
		if _, err := c.env.Stdout.Write(b.Bytes()); err != nil {
			return resultUnwritten(a, err)
		}
	}
	stderr := plain.Fitted(c.env.Stderr)
	switch {
	case res.APIKey != "" && embedded:
		fmt.Fprintf(stderr, "The API key was made by the embedded sandbox, which stopped with this command: it no longer works. For one that lasts, run `%s` and point an environment of the config at it.\n", invocation{}.command("sandbox"))
	case res.APIKey != "":
		fmt.Fprintln(stderr, "The API key is shown this once and cannot be retrieved again: store it now.")
	case a.WithKey:
		fmt.Fprintln(stderr, "The service returned no API key for this authorization.")
	}
	return nil
}
