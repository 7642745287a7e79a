package cli

import (
	"cmp"
	"context"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/svcwallet/svcwallet/internal/safetext"
	"github.com/svcwallet/svcwallet/service/builder"
	"github.com/svcwallet/svcwallet/service/config"
	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/intent"
	"github.com/svcwallet/svcwallet/service/journal"
)

const builderSubmitLong = `Finishes a builder authorization prepared for offline signing (svcwallet
builder authorize --signer offline --account MAIN --out FILE): FILE must be
the typed data as it was written, and --signature its signature (0x and 130
hex digits, as cast wallet sign or a wallet prints it; without --signature,
or with --signature -, it is read from standard input). What is needed
besides (the builder API key's label) is read from this machine's journal,
never from the file.

The signature must recover to the main account the authorization was
prepared for, and the authorization must still be valid (the --expires
chosen when it was prepared, at most 30 days); then it is sent, once:
submitting it again is refused.

Exit status: 0 authorized, 1 refused or failed, 2 usage, 5 unknown (no answer,
or one that does not say whether it was taken), or taken with an answer that
cannot be read (check the exchange's web UI).`

// builderSubmitCommand is `svcwallet builder submit FILE`.
func (a *app) builderSubmitCommand() *cobra.Command {
	var sig string
	c := a.submitCommand("Send a builder authorization signed offline", builderSubmitLong, `  svcwallet builder submit builder.json --signature "$SIGNATURE"
  cast wallet sign --ledger --data --from-file builder.json |
      svcwallet builder submit builder.json`, &sig, func(ctx context.Context, path string) error {
		b := a.builder
		b.env, b.app = a.env, a
		return b.submit(ctx, sig, path)
	})
	c.Annotations = map[string]string{annotationSaidBy: "svcwallet builder authorize"}
	return c
}

// prepare is `svcwallet builder authorize --signer offline --out FILE`:
// the authorization journaled and its typed data written to FILE for a
// wallet elsewhere. Nothing is signed or sent.
func (c builderCmd) prepare(ctx context.Context, f builderFlags, e config.Environment) error {
	main, err := offlineSigner(f.key, f.out, f.dryRun, e, "the main account whose key will sign the file", "authorization")
	if err != nil {
		return err
	}
	f.in.Main = main.Hex()
	a, err := builder.Check(f.in)
	if err != nil {
		return usageError("%s", flagError(err))
	}
	if a.Builder == a.Main {
		if !f.yes {
			return usageError("--builder %s is your own account: a builder is normally another account that trades for yours; check the address, or add --yes to authorize it anyway", a.Builder.Hex())
		}
		fmt.Fprintln(c.env.Stderr, "Warning: the builder is your own account.")
	}
	j, err := stateJournal()
	if err != nil {
		return failure(exitFailed, "the journal cannot be opened (%w): nothing was prepared", err)
	}
	now := c.now()
	o := builder.NewOrder(a, e.Domain(), c.nonce(), now)
	o.Granted = grantNamed(f)
	cx, cancel := context.WithTimeout(ctx, builder.AuthorizeTimeout)
	p, err := builder.Prepare(cx, exchange.New(e, exchange.Options{Now: c.now, Logger: c.env.Log}), j, o, now)
	cancel()
	if err != nil {
		return cmp.Or(c.app.rolledBack(err), failure(exitFailed, "%w", exchange.Explain(err)))
	}
	facts := append([]intent.Fact{{Label: "Message", Value: a.Mode()}}, p.Order.Facts()...)
	var asJSON func(any) error
	if f.json {
		asJSON = func(v any) error { return outputError(writeJSON(c.env.Stdout, v)) }
	}
	submit := c.app.invocation().commandOn([]string{"builder", "submit"}, []string{f.out}, "--signature", "0x…")
	return failed(writePrepared(c.env.Stdout, e, p.Prepared, f.out, submit, facts, "", asJSON))
}

// submit is `svcwallet builder submit FILE`: the authorization the file is
// (offlineSubmit), sent once.
func (c builderCmd) submit(ctx context.Context, sig, path string) error {
	o := offlineSubmit{app: c.app, kind: journal.PreparedBuilder,
		client: func(e config.Environment) (*exchange.Client, error) {
			return exchange.New(e, exchange.Options{Now: c.now, Logger: c.env.Log}), nil
		}}
	return o.run(ctx, path, sig, c.canAsk(), func(s submission) error {
		p, err := builder.PreparedOf(s.prepared)
		if err != nil {
			return failure(exitFailed, "%s: %w", safetext.Shown(path), err)
		}
		res, sending, err := builder.Submit(ctx, s.client, s.journal, p, s.sig, c.now)
		return c.authorized(ctx, s.env, p.Order.Auth, p.Order, res, err, sending, true)
	})
}
