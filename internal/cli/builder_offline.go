package cli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/spf13/cobra"

	"github.com/svcwallet/svcwallet/internal/builder"
	"github.com/svcwallet/svcwallet/internal/config"
	"github.com/svcwallet/svcwallet/internal/exchange"
	"github.com/svcwallet/svcwallet/internal/journal"
	"github.com/svcwallet/svcwallet/internal/signer"
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
	c := &cobra.Command{
		Use:   "submit FILE",
		Short: "Send a builder authorization signed offline",
		Long:  builderSubmitLong,
		Example: `  svcwallet builder submit builder.json --signature "$SIGNATURE"
  cast wallet sign --ledger --data --from-file builder.json |
      svcwallet builder submit builder.json`,
		RunE: func(c *cobra.Command, args []string) error {
			if len(args) != 1 {
				return usageError(c.CommandPath(), "give the file written by --signer offline --out (got %d arguments)", len(args))
			}
			b := a.builder
			b.env = a.env
			return exit(b.submit(f, sig, args[0]))
		},
	}
	c.Flags().StringVar(&sig, "signature", "", "the file's signature, 0x… (none or -: standard input)")
	a.envFlags(c, &f.envName, &f.config)
	return c
}

// builderJournal opens the journal that keeps prepared builder
// authorizations (the withdrawal journal).
func builderJournal() (*journal.Journal, error) {
	p := journal.DefaultPath()
	if p == "" {
		return nil, errors.New("no state directory for the journal: set $HOME or $XDG_STATE_HOME")
	}
	return journal.Open(p)
}

// prepare is `svcwallet builder authorize --signer offline --out FILE`:
// the authorization journaled and its typed data written to FILE for a
// wallet elsewhere. Nothing is signed or sent.
func (c builderCmd) prepare(f builderFlags, e config.Environment) int {
	main, err := f.key.accountOf(e)
	switch {
	case err != nil:
		return c.usage("%v", err)
	case f.out == "":
		return c.usage("give --out FILE, the new file to write the typed data to sign in")
	case f.dryRun:
		return c.usage("--signer offline signs and sends nothing already: drop --dry-run")
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
	if _, err := os.Lstat(f.out); err == nil {
		return c.usage("%s exists: give --out a new file (it is never overwritten)", f.out)
	}
	j, err := builderJournal()
	if err != nil {
		return c.fail("the journal cannot be opened (%v): nothing was prepared", err)
	}
	now := c.now()
	o := builder.NewOrder(a, e.Domain(), c.nonce(), now)
	client := exchange.New(e, exchange.Options{Now: c.now, Logger: c.env.Log})
	cx, cancel := context.WithTimeout(context.Background(), builder.AuthorizeTimeout)
	p, err := builder.Prepare(cx, client, j, o, now)
	cancel()
	if err != nil {
		return c.fail("%v", exchange.Explain(err))
	}
	if err := writeNewPrivate(f.out, p.TypedData()); err != nil {
		return c.fail("the typed data cannot be written to %s (%v): nothing was signed or sent", f.out, err)
	}
	return c.printPrepared(p, f, e)
}

// printPrepared says where the typed data is, what it authorizes, who must
// sign it, until when, and how to submit the signature.
func (c builderCmd) printPrepared(p builder.Prepared, f builderFlags, e config.Environment) int {
	a, exp := p.Order.Auth, p.Order.Expiration().UTC()
	submit := newInvocation(e.Name, f.config, c.env.Getenv).command("builder", "submit", f.out, "--signature", "0x…")
	if f.json {
		return c.printJSON(preparedJSON{Prepared: true, File: f.out, Signer: a.Main.Hex(), ExpiresAt: exp.Format(time.RFC3339),
			Digest: signer.Digest(p.Order.Domain, p.Order.Message).Hex(), Submit: submit})
	}
	w := c.env.Stdout
	fmt.Fprintf(w, "Prepared for offline signing; nothing was signed or sent.\n")
	fmt.Fprintf(w, "  %-16s %s  eth_signTypedData_v4 JSON, readable by you only\n", "File", f.out)
	fmt.Fprintf(w, "  %-16s %s\n  %-16s %s\n", "Message", a.Mode(), "Builder", a.Builder.Hex())
	fmt.Fprintf(w, "  %-16s %s\n  %-16s %s\n", "Max futures fee", builder.FeeText(a.Futures), "Max spot fee", builder.FeeText(a.Spot))
	if a.WithKey {
		fmt.Fprintf(w, "  %-16s %s\n  %-16s %s\n  %-16s %s\n", "Key label", a.Label, "Key signer", a.KeySigner.Hex(), "Permissions", a.Perms.String())
	}
	fmt.Fprintf(w, "  %-16s %s\n", "Signer", a.Main.Hex())
	fmt.Fprintf(w, "  %-16s %s\n", "Valid until", exp.Format("2006-01-02 15:04:05 UTC"))
	printHowToFinish(w, a.Main, f.out, submit)
	return 0
}

// submit is `svcwallet builder submit FILE`.
func (c builderCmd) submit(f builderFlags, raw, path string) int {
	f.json = c.env.JSON
	file, err := readPrepared(path)
	if err != nil {
		return c.usage("%v", err)
	}
	e, closeEnv, err := commandEnv(f.config, f.envName, c.env.Getenv)
	if err != nil {
		if errors.As(err, new(envUsageError)) {
			return c.usage("%v", err)
		}
		return c.fail("%v", err)
	}
	defer closeEnv()
	if e.Name == config.SandboxEnv {
		return c.fail("the embedded sandbox keeps nothing between commands, so nothing prepared on it can be submitted: run svcwallet sandbox and use its environment")
	}
	if raw == "" || raw == "-" {
		if raw, err = readLine(c.env.Stdin); err != nil && raw == "" {
			return c.usage("give the signature with --signature 0x…, or on standard input")
		}
	}
	sig, err := signer.ParseSignature(raw)
	if err != nil {
		return c.usage("--signature: %v", err)
	}
	j, err := builderJournal()
	if err != nil {
		return c.fail("the journal cannot be opened (%v): nothing was sent", err)
	}
	// From "not sent yet" to the sent line on disk, no other svcwallet may
	// decide the same about this file: it would send it too.
	unlock, err := j.Exclusive()
	if err != nil {
		return c.fail("%v: nothing was sent", err)
	}
	defer unlock()
	entries, err := j.Entries()
	if err != nil {
		return c.fail("the journal cannot be read (%v): nothing was sent", err)
	}
	p, err := builder.FindPrepared(entries, e.Name, file)
	if err != nil {
		return c.fail("%s: %v", path, err)
	}
	client := exchange.New(e, exchange.Options{Now: c.now, Logger: c.env.Log})
	res, err := builder.Submit(context.Background(), client, j, p, sig, c.now)
	var api *exchange.APIError
	switch {
	case errors.As(err, &api):
		return c.fail("not authorized: %v", builder.Explain(err))
	case err != nil:
		return c.fail("%v", err)
	}
	nonce, exp := p.Order.Message.NonceExpiration()
	return c.printResult(p.Order.Auth, nonce, exp, res, f.json, false)
}
