package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/spf13/cobra"

	"github.com/svcwallet/svcwallet/internal/osguard"
	"github.com/svcwallet/svcwallet/internal/plain"
	"github.com/svcwallet/svcwallet/internal/safetext"
	"github.com/svcwallet/svcwallet/service/config"
	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/intent"
	"github.com/svcwallet/svcwallet/service/journal"
	"github.com/svcwallet/svcwallet/signer"
)

// Offline signing on the command line, the one implementation behind
// every signed intent: --signer offline writes a prepared intent's file
// (writePrepared) and `withdraw submit` and `builder submit` find it in
// the journal (offlineSubmit) before each sends it its own way.

// maxPreparedFile bounds the file read back: the typed data of an intent
// is under a kilobyte.
const maxPreparedFile = 16 << 10

// offlineOut is what --out and --dry-run must be with --signer offline:
// a new file, and no dry run; "" when they are.
func offlineOut(out string, dryRun bool) string {
	switch {
	case out == "":
		return "give --out FILE, the new file to write the typed data to sign in"
	case dryRun:
		return "--signer offline signs and sends nothing already: drop --dry-run"
	case !safetext.Printable(out):
		// Said back in every line that names the file, and run by a shell.
		return "--out " + safetext.Shown(safetext.Quoted(out)) + " holds a character a terminal acts on or hides (a bidi override, an escape, a line break, a no-break space), which makes it read otherwise: give --out a file named without one"
	}
	if _, err := os.Lstat(out); err == nil {
		return out + " exists: give --out a new file (it is never overwritten)"
	}
	return ""
}

// offlinePrepares is the environment of a signing command and whether the
// command prepares for offline signing there: --signer offline, or the
// environment's signer, chose it. --out, where the prepared file goes, is
// refused without it. chosen is whether a key source was named at all
// (signerFlags.chosen), said once, here.
func (a *app) offlinePrepares(key signerFlags, out string) (e config.Environment, offline, chosen bool, err error) {
	if e, err = a.environment(); err != nil {
		return e, false, false, err
	}
	src, chosen, err := key.chosen(e)
	switch {
	case err != nil:
		return e, false, false, usageError("%w", err)
	case chosen && src.Kind == signer.SourceOffline:
		return e, true, true, nil
	case out != "":
		return e, false, chosen, usageError("--out is where --signer offline writes the typed data to sign elsewhere: give --signer offline too")
	}
	return e, false, chosen, nil
}

// offlineSigner is the signer's address (--account or the environment's
// account) of a --signer offline preparation, once what it needs before
// anything is asked holds: a new --out file, no --dry-run, an account
// (whose names it: "the main account whose key will sign the file"), and
// an environment that outlives the command, for the journal keeps what
// the file lacks (prepared names that: "Transfer").
func offlineSigner(key signerFlags, out string, dryRun bool, e config.Environment, whose, prepared string) (common.Address, error) {
	addr, err := key.accountOf(e)
	switch {
	case err != nil:
		return addr, usageError("%w", err)
	case offlineOut(out, dryRun) != "":
		return addr, usageError("%s", offlineOut(out, dryRun))
	case addr == (common.Address{}):
		return addr, usageError("give --account ADDRESS, %s", whose)
	case e.Name == config.SandboxEnv:
		return addr, failure(exitFailed, "the embedded sandbox ends with this command, and the prepared %s with it: run %s and use its environment; nothing was prepared", prepared, invocation{}.command("sandbox"))
	}
	return addr, nil
}

// writePrepared writes p's file to the new file out and says where it is,
// for which environment e, what it prepared (its journey's facts),
// who must sign it, until when, and how to finish; asJSON writes it in the
// command's JSON style.
func writePrepared(w io.Writer, e config.Environment, p intent.Prepared, out, submit string, facts []intent.Fact, valid string, asJSON func(any) error) error {
	if err := osguard.CreateFile(out, p.File()); err != nil {
		return fmt.Errorf("the typed data cannot be written to %s (%v): nothing was signed or sent", out, err)
	}
	exp := p.Expiration().UTC()
	if asJSON != nil {
		return asJSON(preparedJSON{Kind: kindPrepared, whereJSON: whereOf(e), Prepared: true, File: out, Signer: p.Signer.Hex(), ExpiresAt: exp.Format(time.RFC3339), Digest: p.Digest().Hex(), Submit: submit})
	}
	w = plain.Fitted(w) // its commands whole
	fmt.Fprintf(w, "Prepared for offline signing; nothing was signed or sent.\n")
	reviewRow(w, 16, "Environment", e.Where(), "")
	reviewPathRow(w, 16, "File", out, "eth_signTypedData_v4 JSON, readable by you only", out)
	printFacts(w, 16, append(slices.Clip(facts), intent.Fact{Label: "Signer", Value: p.Signer.Hex()}, intent.Fact{Label: "Valid until", Value: exp.Format("2006-01-02 15:04:05 UTC") + valid}))
	fmt.Fprintf(w, "Sign the file as it is with the key of %s, in any wallet that signs\neth_signTypedData_v4; with Foundry: %s\n",
		p.Signer.Hex(), safetext.ShellLine("cast", "wallet", "sign", "--data", "--from-file", safetext.OperandPath(out)))
	fmt.Fprintf(w, "Then, before it expires:\n  %s\n", submit)
	return nil
}

// preparedJSON is the --json line of a prepared intent.
type preparedJSON struct {
	Kind string `json:"kind"`
	whereJSON
	Prepared  bool   `json:"prepared"`
	File      string `json:"file"`
	Signer    string `json:"signer"`
	ExpiresAt string `json:"expires_at"`
	Digest    string `json:"digest"`
	Submit    string `json:"submit"`
}

// submitCommand is `submit FILE` of a kind of signed intent, with the flags
// every kind takes; run submits the file.
func (a *app) submitCommand(short, long, example string, sig *string, run func(ctx context.Context, path string) error) *cobra.Command {
	c := &cobra.Command{Use: "submit FILE", Short: short, Long: long, Example: example,
		Args: func(_ *cobra.Command, args []string) error {
			if len(args) != 1 {
				return usageError("give the file written by --signer offline --out (got %d arguments)", len(args))
			}
			return nil
		},
		RunE: func(c *cobra.Command, args []string) error { return run(c.Context(), args[0]) }}
	c.Flags().StringVar(sig, "signature", "", "the file's signature, 0x… (none or -: standard input)")
	a.envFlags(c)
	return c
}

// offlineSubmit is `withdraw submit` and `builder submit` up to the send,
// with each command's client: a withdrawal's logs in, for the prepared
// lines of its account; a builder authorization's belongs to none.
type offlineSubmit struct {
	app    *app
	kind   string
	client func(e config.Environment) (*exchange.Client, error)
	// show, when set, says what the intent found is for, before the
	// signature is read from standard input.
	show func(s submission)
}

// submission is the prepared intent a file is, found in the journal, with
// its signature and the environment it is sent to.
type submission struct {
	env      config.Environment
	client   *exchange.Client
	journal  *journal.Journal
	prepared intent.Prepared
	sig      [65]byte
}

// run reads the file (bounded, never waiting on a pipe), the environment
// (never the embedded sandbox: it kept nothing) and the signature sig,
// finds the intent in the journal unless it was sent already, shows it,
// then reads the signature from standard input when sig gives none (asked
// for when ask), and hands it to send.
func (o offlineSubmit) run(ctx context.Context, path, sig string, ask bool, send func(s submission) error) error {
	env := o.app.env
	file, err := readPrepared(path)
	if err != nil {
		return usageError("%w", err)
	}
	var s submission
	if s.env, err = o.app.environment(); err != nil {
		return err
	}
	if s.env.Name == config.SandboxEnv {
		return failure(exitFailed, "the embedded sandbox keeps nothing between commands, so nothing prepared on it can be submitted: run %s and use its environment", invocation{}.command("sandbox"))
	}
	fromStdin := sig == "" || sig == "-"
	if !fromStdin {
		if s.sig, err = signer.ParseSignature(sig); err != nil {
			return usageError("--signature: %w", err)
		}
	}
	if s.client, err = o.client(s.env); err != nil {
		return err
	}
	if s.journal, err = stateJournal(); err != nil {
		return failure(exitFailed, "the journal cannot be opened (%w): nothing was sent", err)
	}
	// Read here to refuse early what is not sendable; the send decides
	// "not sent yet" again under the journal's lock (intent.Prepared.Unsent).
	entries, err := s.journal.Entries()
	if err != nil {
		return failure(exitFailed, "the journal cannot be read (%w): nothing was sent", err)
	}
	session, _ := s.client.Session()
	s.prepared, err = intent.Find(entries, o.kind, s.env.Name, session.AccountID, file)
	if done, ok := errors.AsType[*intent.SubmittedError](err); ok && done.QuoteID != "" {
		return failure(exitFailed, "%w; %s", err, o.app.invocation().followIt(done.QuoteID)).about(done.QuoteID)
	} else if err != nil {
		return failure(exitFailed, "%s: %w", safetext.Shown(path), err)
	}
	// What is signed for is said before a signature is pasted for it.
	if o.show != nil {
		o.show(s)
	}
	if fromStdin {
		if ask {
			answers(env).Discard(env.Stderr)
			fmt.Fprint(env.Stderr, plain.Fit(env.Stderr, "Signature (0x and 130 hex digits): "))
		}
		sig, err = untilDone(ctx, func() (string, error) { return plain.ReadLine(env.Stdin) })
		switch {
		case ctx.Err() != nil:
			return interrupted(ctx, nothingSent)
		case err != nil && sig == "":
			return usageError("give the signature with --signature 0x…, or on standard input")
		}
		if s.sig, err = signer.ParseSignature(sig); err != nil {
			return usageError("--signature: %w", err)
		}
	}
	return send(s)
}

// stateJournal opens the journal in the user's state directory, which
// keeps what was prepared for offline signing.
func stateJournal() (*journal.Journal, error) {
	p := journal.DefaultPath()
	if p == "" {
		return nil, errors.New("no state directory for the journal: set $HOME or $XDG_STATE_HOME")
	}
	return journal.Open(p)
}

// readPrepared reads the file --signer offline wrote, bounded; a pipe or a
// device is refused, never waited on (osguard.OpenUserFile).
func readPrepared(path string) ([]byte, error) {
	b, err := osguard.ReadUserFile(path, maxPreparedFile)
	if pe, ok := errors.AsType[*os.PathError](err); ok {
		return nil, fmt.Errorf("cannot read %s: %v", safetext.Shown(path), pe.Err)
	}
	switch {
	case errors.As(err, new(*osguard.TooLargeError)):
		return nil, fmt.Errorf("%s is larger than a prepared Transfer's typed data", safetext.Shown(path))
	case err != nil:
		return nil, errors.New(safetext.Line(err.Error(), 400)) // not a regular file, and says what it is
	}
	return b, nil
}
