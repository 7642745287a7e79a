package cli

import (
	"context"
	"errors"
	"fmt"

	"github.com/ethereum/go-ethereum/common"
	"github.com/spf13/cobra"

	"github.com/svcwallet/svcwallet/internal/builder"
	"github.com/svcwallet/svcwallet/internal/config"
	"github.com/svcwallet/svcwallet/internal/exchange"
	"github.com/svcwallet/svcwallet/internal/journal"
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

Exit status: 0 authorized, 1 refused or failed, 2 usage.`

// builderSubmitCommand is `svcwallet builder submit FILE`.
func (a *app) builderSubmitCommand() *cobra.Command {
	var f builderFlags
	var sig string
	return a.submitCommand("Send a builder authorization signed offline", builderSubmitLong, `  svcwallet builder submit builder.json --signature "$SIGNATURE"
  cast wallet sign --ledger --data --from-file builder.json |
      svcwallet builder submit builder.json`, &sig, &f.envName, &f.config, func(path string) int {
		b := a.builder
		b.env = a.env
		return b.submit(f, sig, path)
	})
}

// prepare is `svcwallet builder authorize --signer offline --out FILE`:
// the authorization journaled and its typed data written to FILE for a
// wallet elsewhere. Nothing is signed or sent.
func (c builderCmd) prepare(f builderFlags, e config.Environment) int {
	main, err := f.key.accountOf(e)
	switch {
	case err != nil:
		return c.usage("%v", err)
	case offlineOut(f.out, f.dryRun) != "":
		return c.usage("%s", offlineOut(f.out, f.dryRun))
	case main == (common.Address{}):
		return c.usage("give --account ADDRESS, the main account whose key will sign the file")
	case e.Name == config.SandboxEnv:
		return c.fail("the embedded sandbox ends with this command, and the prepared authorization with it: run svcwallet sandbox and use its environment; nothing was prepared")
	}
	f.in.Main = main.Hex()
	a, err := builder.Check(f.in)
	if err != nil {
		return c.usage("%s", flagError(err))
	}
	if a.Builder == a.Main {
		if !f.yes {
			return c.usage("--builder %s is your own account: a builder is normally another account that trades for yours; check the address, or add --yes to authorize it anyway", a.Builder.Hex())
		}
		fmt.Fprintln(c.env.Stderr, "Warning: the builder is your own account.")
	}
	j, err := stateJournal()
	if err != nil {
		return c.fail("the journal cannot be opened (%v): nothing was prepared", err)
	}
	now := c.now()
	o := builder.NewOrder(a, e.Domain(), c.nonce(), now)
	cx, cancel := context.WithTimeout(context.Background(), builder.AuthorizeTimeout)
	p, err := builder.Prepare(cx, exchange.New(e, exchange.Options{Now: c.now, Logger: c.env.Log}), j, o, now)
	cancel()
	if err != nil {
		return c.fail("%v", exchange.Explain(err))
	}
	facts := []string{"Message", a.Mode(), "Builder", a.Builder.Hex(), "Max futures fee", builder.FeeText(a.Futures), "Max spot fee", builder.FeeText(a.Spot)}
	if a.WithKey {
		facts = append(facts, "Key label", a.Label, "Key signer", a.KeySigner.Hex(), "Permissions", a.Perms.String())
	}
	var asJSON func(any) error
	if f.json {
		asJSON = func(v any) error { return writeJSON(c.env.Stdout, v) }
	}
	submit := newInvocation(e.Name, f.config, c.env.Getenv).command("builder", "submit", f.out, "--signature", "0x…")
	if err := writePrepared(c.env.Stdout, p.Prepared, f.out, submit, facts, "", asJSON); err != nil {
		return c.fail("%v", err)
	}
	return 0
}

// submit is `svcwallet builder submit FILE`: the authorization the file is
// (offlineSubmit), sent once.
func (c builderCmd) submit(f builderFlags, sig, path string) int {
	f.json = c.env.JSON
	o := offlineSubmit{env: c.env, kind: journal.PreparedBuilder, usage: c.usage,
		fail: func(_ string, _ int, format string, a ...any) int { return c.fail(format, a...) },
		client: func(e config.Environment) (*exchange.Client, int) {
			return exchange.New(e, exchange.Options{Now: c.now, Logger: c.env.Log}), 0
		}}
	return o.run(path, sig, f.config, f.envName, c.canAsk(), func(s submission) int {
		p, err := builder.PreparedOf(s.prepared)
		if err != nil {
			return c.fail("%s: %v", path, err)
		}
		res, err := builder.Submit(context.Background(), s.client, s.journal, p, s.sig, c.now)
		switch {
		case errors.As(err, new(*exchange.APIError)):
			return c.fail("not authorized: %v", refusalWords(builder.Explain(err), true))
		case err != nil:
			return c.fail("%v", err)
		}
		nonce, exp := p.Order.Message.NonceExpiration()
		return c.printResult(p.Order.Auth, nonce, exp, res, f.json, false)
	})
}
