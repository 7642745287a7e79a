package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/spf13/cobra"

	"github.com/svcwallet/svcwallet/internal/config"
	"github.com/svcwallet/svcwallet/internal/exchange"
	"github.com/svcwallet/svcwallet/internal/journal"
	"github.com/svcwallet/svcwallet/internal/osguard"
	"github.com/svcwallet/svcwallet/internal/safetext"
	"github.com/svcwallet/svcwallet/internal/signer"
	"github.com/svcwallet/svcwallet/internal/withdrawal"
)

const withdrawSubmitLong = `Finishes a withdrawal prepared for offline signing (svcwallet withdraw
--signer offline --out FILE): FILE must be the typed data as it was
written, and --signature its signature (0x and 130 hex digits, as cast
wallet sign or a wallet prints it; without --signature, or with
--signature -, it is read from standard input). What is needed besides is
read from this machine's withdrawal journal, never from the file.

The signature must recover to the address the Transfer was prepared for,
the Transfer must still be valid (30 minutes from when it was prepared),
and a fresh quote for exactly the signed amount must keep its fee and loss
within the fee cap given when it was prepared (without one, within the
quote reviewed then); then it is journaled and sent as svcwallet withdraw
sends, with --wait and --json as there. A prepared Transfer is sent once:
submitting it again names the withdrawal it became. As svcwallet withdraw
does, it refuses to send while an identical withdrawal got no answer
(resume that one first, or give --allow-repeat). It logs in as
svcwallet status does.

Exit status: as svcwallet withdraw (0 accepted, with --wait COMPLETED;
1 refused, nothing paid; 2 usage; 3 still pending; 5 other errors).`

// withdrawSubmitCommand is `svcwallet withdraw submit FILE`.
func (a *app) withdrawSubmitCommand() *cobra.Command {
	var f withdrawFlags
	c := &cobra.Command{
		Use:   "submit FILE",
		Short: "Send a withdrawal signed offline",
		Long:  withdrawSubmitLong,
		Example: `  svcwallet withdraw submit transfer.json --signature "$SIGNATURE"
  cast wallet sign --ledger --data --from-file transfer.json |
      svcwallet withdraw submit transfer.json --wait`,
		RunE: func(c *cobra.Command, args []string) error {
			if len(args) != 1 {
				return usageError(c.CommandPath(), "give the file written by --signer offline --out (got %d arguments)", len(args))
			}
			w := a.withdraw
			w.env = a.env
			return exit(w.submit(f, args[0]))
		},
	}
	fl := c.Flags()
	fl.StringVar(&f.signature, "signature", "", "the file's signature, 0x… (none or -: standard input)")
	fl.BoolVar(&f.wait, "wait", false, "follow the withdrawal until it ends")
	fl.BoolVar(&f.allowRepeat, "allow-repeat", false, "send though an identical one got no answer")
	a.envFlags(c, &f.envName, &f.config)
	return c
}

// maxPreparedFile bounds the file read back: the typed data of a Transfer
// is under a kilobyte.
const maxPreparedFile = 16 << 10

// prepare is `svcwallet withdraw --signer offline --out FILE`: the review,
// then the Transfer (valid PreparedLife) journaled and its typed data
// written to FILE for a wallet elsewhere. Nothing is signed or sent.
func (c withdrawCmd) prepare(f withdrawFlags, e config.Environment) int {
	signerAddr, err := f.key.accountOf(e)
	switch {
	case err != nil:
		return c.usage("%v", err)
	case f.out == "":
		return c.usage("give --out FILE, the new file to write the typed data to sign in")
	case f.dryRun:
		return c.usage("--signer offline signs and sends nothing already: drop --dry-run")
	case f.wait:
		return c.usage("--signer offline sends nothing to wait for: give --wait to svcwallet withdraw submit")
	case signerAddr == (common.Address{}):
		return c.usage("give --account ADDRESS, the main account's signer that will sign the file")
	case e.Name == config.SandboxEnv:
		return c.fail(exitFailed, "the embedded sandbox ends with this command, and the prepared Transfer with it: run svcwallet sandbox and use its environment; nothing was prepared")
	case c.env.Getenv(statusKeyVar) == "":
		return c.usage("offline signing logs in with the API key in $%s (the key that signs is not here); nothing was prepared", statusKeyVar)
	}
	if _, err := os.Lstat(f.out); err == nil {
		return c.usage("%s exists: give --out a new file (it is never overwritten)", f.out)
	}
	q, code, ok := c.logInAndQuote(e, f, signerFlags{}, nil)
	if !ok {
		return code
	}
	client, target, order, trust := q.client, q.target, q.order, q.trust
	defer target.cleanup()
	j, err := journal.Open(target.journalPath)
	if err != nil {
		return c.fail(exitFailed, "the withdrawal journal cannot be opened (%v): nothing was prepared", err)
	}
	w := withdrawal.Withdrawer{Client: client, Journal: j, Now: c.now, BridgePins: target.pinsPath, AllowRepeat: f.allowRepeat}
	cx, cancel := c.call()
	p, err := w.Prepare(cx, order, signerAddr)
	cancel()
	if ue := withdrawal.AsUnanswered(err); ue != nil {
		return c.repeatRefused(e, f, ue.Earlier)
	}
	if err != nil {
		return c.fail(exitFailed, "%v", exchange.Explain(err))
	}
	// An accepted bridge change is recorded only once the Transfer to it is
	// prepared (journaled): a refusal above records nothing.
	if code, ok := c.recordAcceptedBridge(e, target.pinsPath, trust); !ok {
		return code
	}
	what := "offline signing: the file " + f.out
	key := &keyChoice{Opened: signer.Opened{Source: signer.Source{Kind: signer.SourceOffline}, Address: signerAddr}, what: what}
	if code := c.printReview(p.Order, trust, key, false, f.json); code != 0 {
		return code
	}
	if rep, err := w.Repeats(order.Choice); err == nil {
		c.warnRepeat(e, f, rep)
	}
	if err := writeNewPrivate(f.out, p.TypedData()); err != nil {
		return c.fail(exitFailed, "the typed data cannot be written to %s (%v): nothing was signed or sent", f.out, err)
	}
	return c.printPrepared(p, f, e)
}

// writeNewPrivate writes b to a new file only its owner can read, never
// over an existing file or through a link, and syncs it.
func writeNewPrivate(path string, b []byte) error {
	fh, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	if _, err := fh.Write(b); err != nil {
		fh.Close()
		os.Remove(path)
		return err
	}
	if err := fh.Sync(); err != nil {
		fh.Close()
		return err
	}
	return fh.Close()
}

// preparedJSON is the --json line of a prepared Transfer.
type preparedJSON struct {
	Prepared  bool   `json:"prepared"`
	File      string `json:"file"`
	Signer    string `json:"signer"`
	ExpiresAt string `json:"expires_at"`
	Digest    string `json:"digest"`
	Submit    string `json:"submit"`
}

// printPrepared says where the typed data is, who must sign it, until when,
// and how to submit the signature.
func (c withdrawCmd) printPrepared(p withdrawal.Prepared, f withdrawFlags, e config.Environment) int {
	exp := time.Unix(0, p.Order.Transfer.Expiration).UTC()
	words := []string{"withdraw", "submit", f.out, "--signature", "0x…"}
	if f.allowRepeat {
		words = append(words, "--allow-repeat")
	}
	submit := c.inv.command(words...)
	if f.json {
		r := preparedJSON{Prepared: true, File: f.out, Signer: p.Signer.Hex(), ExpiresAt: exp.Format(time.RFC3339),
			Digest: signer.Digest(p.Order.Domain, p.Order.Transfer).Hex(), Submit: submit}
		if err := writeJSONLine(c.env.Stdout, r); err != nil {
			return c.fail(exitError, "%v", err)
		}
		return 0
	}
	w := c.env.Stdout
	fmt.Fprintf(w, "\nPrepared for offline signing; nothing was signed or sent.\n")
	fmt.Fprintf(w, "  %-16s %s  eth_signTypedData_v4 JSON, readable by you only\n", "File", f.out)
	fmt.Fprintf(w, "  %-16s %s\n", "Signer", p.Signer.Hex())
	fmt.Fprintf(w, "  %-16s %s  (%s from now)\n", "Valid until", exp.Format("2006-01-02 15:04:05 UTC"), withdrawal.PreparedLife)
	printHowToFinish(w, p.Signer, f.out, submit)
	return 0
}

// printHowToFinish ends what an offline preparation prints: sign the file
// at out with signer's key in any wallet, then run submit; the cast
// command names the file as --out gave it, so it runs where the command
// ran.
func printHowToFinish(w io.Writer, signer common.Address, out, submit string) {
	fmt.Fprintf(w, "Sign the file as it is with the key of %s, in any wallet that signs\neth_signTypedData_v4; with Foundry: %s\n",
		signer.Hex(), safetext.ShellLine("cast", "wallet", "sign", "--data", "--from-file", out))
	fmt.Fprintf(w, "Then, before it expires:\n  %s\n", submit)
}

// submit is `svcwallet withdraw submit FILE`.
func (c withdrawCmd) submit(f withdrawFlags, path string) int {
	f.json = c.env.JSON
	name := withdrawName + " submit"
	file, err := readPrepared(path)
	if err != nil {
		return c.usage("%v", err)
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
		return c.fail(exitFailed, "the embedded sandbox keeps nothing between commands, so nothing prepared on it can be submitted: run svcwallet sandbox and use its environment")
	}
	raw := f.signature
	if raw == "" || raw == "-" {
		if c.terminal(c.env) {
			fmt.Fprint(c.env.Stderr, "Signature (0x and 130 hex digits): ")
		}
		if raw, err = readLine(c.env.Stdin); err != nil && raw == "" {
			return c.usage("give the signature with --signature 0x…, or on standard input")
		}
	}
	sig, err := signer.ParseSignature(raw)
	if err != nil {
		return c.usage("--signature: %v", err)
	}
	client, err := logInWith(c.env, e, name, signerFlags{}, nil, exchange.Options{Now: c.now, Retry: c.retry})
	if err != nil {
		return c.env.report(loginFailed(withdrawName, err))
	}
	target, err := newWithdrawTarget(e)
	if err != nil {
		return c.fail(exitError, "%v", err)
	}
	defer target.cleanup()
	j, err := journal.Open(target.journalPath)
	if err != nil {
		return c.fail(exitFailed, "the withdrawal journal cannot be opened (%v): nothing was sent", err)
	}
	// Read here to refuse early what is not sendable; Submit decides "not
	// sent yet" again under the journal's lock with the intent's line.
	entries, err := j.Entries()
	if err != nil {
		return c.fail(exitFailed, "the withdrawal journal cannot be read (%v): nothing was sent", err)
	}
	s, _ := client.Session()
	p, err := withdrawal.FindPrepared(entries, e.Name, s.AccountID, file)
	var done *withdrawal.SubmittedError
	switch {
	case errors.As(err, &done):
		return c.failAbout(done.QuoteID, exitFailed, "%v; follow it with %s", err, c.inv.command("status", done.QuoteID, "--watch"))
	case err != nil:
		return c.fail(exitFailed, "%s: %v", path, err)
	}
	w := withdrawal.Withdrawer{Client: client, Journal: j, Now: c.now, BridgePins: target.pinsPath, AllowRepeat: f.allowRepeat}
	sent := w.Submit(context.Background(), p, sig)
	if q := sent.Order.Quote; q.QuoteID != "" {
		in := p.Order.Choice.TokenIn
		fmt.Fprintf(c.env.Stderr, "%s: the fresh quote %s pays exactly the signed %s %s (you receive %s %s, fee %s %s)\n",
			name, q.QuoteID, q.PayAmount, in, q.ReceiveAmount, p.Order.Choice.TokenOut, q.Fee, in)
	}
	return c.finish(client, e, target, j, p.Order, sent, f)
}

// readPrepared reads the file --signer offline wrote, bounded; a pipe or a
// device is refused, never waited on (osguard.OpenUserFile).
func readPrepared(path string) ([]byte, error) {
	fh, err := osguard.OpenUserFile(path)
	if pe, ok := errors.AsType[*os.PathError](err); ok {
		return nil, fmt.Errorf("cannot read %s: %v", safetext.Line(path, 200), pe.Err)
	}
	if err != nil {
		return nil, errors.New(safetext.Line(err.Error(), 400)) // not a regular file, and says what it is
	}
	defer fh.Close()
	b, err := io.ReadAll(io.LimitReader(fh, maxPreparedFile+1))
	switch {
	case err != nil:
		return nil, fmt.Errorf("cannot read %s: %v", safetext.Line(path, 200), err)
	case len(b) > maxPreparedFile:
		return nil, fmt.Errorf("%s is larger than a prepared Transfer's typed data", safetext.Line(path, 200))
	}
	return b, nil
}
