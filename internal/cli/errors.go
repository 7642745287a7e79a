package cli

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/svcwallet/svcwallet/internal/plain"
	"github.com/svcwallet/svcwallet/internal/runnext"
	"github.com/svcwallet/svcwallet/internal/safetext"
	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/follow"
	"github.com/svcwallet/svcwallet/signer"
)

// Exit statuses (README, "Exit status"; statusLong and withdrawLong say
// which command gives which).
const (
	exitCompleted = 0
	exitFailed    = 1 // refused or failed; for status, not paid out
	exitUsage     = 2
	exitPending   = 3
	exitNotFound  = 4
	exitError     = 5 // the login failed; for status and withdraw, any other error
	// exitUnrecorded: the service accepted a withdrawal, but its answer (or
	// the bridge address) could not be written down; the message names
	// the withdraw resume that reconciles the journal.
	exitUnrecorded = 6
)

// cmdError ends a command: what the user reads, the exit status, a code
// for scripts and, in the status stream, the quote id it is about.
// Commands return it; report is the one place that says it.
type cmdError struct {
	err     error
	exit    int    // 0: the command's status for other errors (otherError)
	code    string // "": the exit status's (exitCodes)
	quoteID string
	// txID or payoutHash: the transfer id (as given) or payout hash
	// (shortened: one not found may be a key) an error is about instead.
	txID, payoutHash string
	silent           bool // the command's output said it: only the status is left
}

// exitCodes are the --json codes of exit statuses; any other is "error".
var exitCodes = map[int]string{exitFailed: "failed", exitUsage: "usage", exitNotFound: "not_found", exitUnrecorded: "unrecorded"}

func (e *cmdError) Error() string { return e.err.Error() }

func (e *cmdError) Unwrap() error { return e.err }

// about names the withdrawal an error is about (its quote_id in --json).
func (e *cmdError) about(id string) *cmdError {
	e.quoteID = id
	return e
}

// usageError is a command line the user must correct: exit status 2.
func usageError(format string, a ...any) *cmdError {
	return &cmdError{err: fmt.Errorf(format, a...), exit: exitUsage}
}

// failure is a command that could not do its work, with its exit status.
func failure(exit int, format string, a ...any) *cmdError {
	return &cmdError{err: fmt.Errorf(format, a...), exit: exit}
}

// labelled is err under label, or under its own head for a signature not
// given (exchange.Labelled): "not signed: …", never "not withdrawn: Not
// signed: …".
func labelled(label string, err error) error {
	head, err := exchange.Labelled(label, err)
	return fmt.Errorf("%s: %w", lowerFirst(head), err)
}

// failed is failure(exitFailed, …) of err, unless err already says how
// the command ended (an interruption, an output error), which it keeps.
func failed(err error) error {
	if _, own := errors.AsType[*cmdError](err); own || err == nil {
		return err
	}
	return failure(exitFailed, "%w", err)
}

// otherError is neither a refusal nor the user's to correct (the config
// unreadable, the embedded sandbox not started): exit 5 for the commands
// whose 1 says nothing was paid (annotationOtherExit), else 1.
func otherError(err error) *cmdError { return &cmdError{err: err} }

// outputError is a failed write of a command's document, whichever line
// of it: code "output", with the command's status for other errors
// (otherError): 5 where 1 is an outcome (status: not paid out; withdraw:
// refused), else 1. Never the outcome's status: a script would read a
// document it never got.
func outputError(err error) error {
	if err == nil {
		return nil
	}
	return &cmdError{err: fmt.Errorf("cannot write the output: %w", err), code: codeOutput}
}

// codeOutput is the --json error code of a document stdout did not take.
const codeOutput = "output"

// failedWrite is stdout, keeping its first failed write: a command whose
// lines say no error of their own (status's records) ends on it.
type failedWrite struct {
	w   io.Writer
	err error
}

func (f *failedWrite) Write(p []byte) (int, error) {
	n, err := f.w.Write(p)
	if f.err == nil {
		f.err = err
	}
	return n, err
}

// refusedWrite is the first write w refused, when w keeps it (failedWrite).
func refusedWrite(w io.Writer) error {
	if f, ok := w.(*failedWrite); ok {
		return f.err
	}
	return nil
}

// unwritten is how a command that ended on err ends once stdout failed a
// write: an error of its own stands, and so does a status its output said
// (exitStatus) only when that output was written; else the output error,
// also for the failed write itself returned (cobra's --version), which is
// no usage error.
func (f *failedWrite) unwritten(err error) error {
	return f.unwrittenAs(err, outputError)
}

// unwrittenAs is unwritten, its output error said by as.
func (f *failedWrite) unwrittenAs(err error, as func(error) error) error {
	if f.err == nil {
		return err
	}
	e, own := errors.AsType[*cmdError](err)
	if own && !e.silent || !own && err != nil && !errors.Is(err, f.err) {
		return err
	}
	return as(f.err)
}

// exitStatus ends a command whose output said its outcome with that
// outcome's status (status: the largest of the ids'); nil for 0.
func exitStatus(n int) error {
	if n == exitCompleted {
		return nil
	}
	return &cmdError{err: errors.New("exit status " + strconv.Itoa(n)), exit: n, silent: true}
}

// codeLogin is the --json error code of a login that failed.
const codeLogin = "login"

// loginFailed is every command's failed login (err from logIn): a usage
// error when the credential is the user's to choose, else exit 5, code
// "login" — not 1, which says a withdrawal was refused or not paid.
func loginFailed(err error) *cmdError {
	if isUsage(err) {
		return usageError("%w", err)
	}
	return &cmdError{err: err, exit: exitError, code: codeLogin}
}

// interruptError is a command that ctrl+c (or SIGTERM, SIGHUP) stopped at
// a prompt or between requests, found wherever it is wrapped: exit 128 +
// the signal, as a shell says of a command the signal ended.
type interruptError struct{ cmdError }

// interrupted is the end of ctx, saying what was left untouched (":
// nothing was signed or sent"), or nothing.
func interrupted(ctx context.Context, untouched string) error {
	return &interruptError{cmdError{err: errors.New("interrupted" + untouched), exit: interruptExit(ctx), code: "interrupted"}}
}

// Annotations of a command: its other errors are exit 5 (otherError); its
// messages are said by another name than its path (withdraw submit's by
// svcwallet withdraw).
const (
	annotationOtherExit = "svcwallet.other-exit-5"
	annotationSaidBy    = "svcwallet.said-by"
)

// errorJSON is the --json form of an error (docs/scripting.md, "JSON output").
type errorJSON struct {
	Error struct {
		Code    string `json:"code"`
		Message string `json:"message"`
		Exit    int    `json:"exit"`
	} `json:"error"`
	QuoteID        string `json:"quote_id,omitempty"`
	TxID           string `json:"tx_id,omitempty"`
	WithdrawTxHash string `json:"withdraw_tx_hash,omitempty"`
}

// report says how cmd ended, err (nil: done), in the one style every
// command uses, and returns the exit status: one line on stderr
// ("svcwallet CMD: message", and for a usage error a line naming --help),
// or with --json one object on stdout, and that line when stdout refuses it. An error that is no cmdError is
// cobra's (a flag, an argument, an unknown command): a usage error.
func (a *app) report(cmd *cobra.Command, err error) int {
	if err == nil {
		return exitCompleted
	}
	a.env.JSON = a.env.JSON || a.json
	var e *cmdError
	if ie, ok := errors.AsType[*interruptError](err); ok {
		e = &ie.cmdError
	} else if !errors.As(err, &e) {
		e = usageError("%s", oneLine(err.Error()))
	}
	if e.silent {
		return e.exit
	}
	if se, ok := errors.AsType[*exchange.SessionEndedError](err); ok && se.Kept {
		// The one next step: a login that keeps a new session. The
		// subject names no command: on a terminal the fit keeps one whole.
		why := "was refused by the service (it ended or was revoked), and is no longer used"
		if other, ok := errors.AsType[*exchange.OtherAccountError](err); ok {
			why = "is no longer used: " + other.Error() + ", so svcwallet logged out and sent nothing more as either"
		}
		e = &cmdError{err: fmt.Errorf("the session kept for %s %s: log in again with %s", se.Env, why, newInvocation(se.Env, a.configPath, a.env.Getenv).command("auth", "login")),
			exit: e.exit, code: e.code, quoteID: e.quoteID, txID: e.txID, payoutHash: e.payoutHash}
	}
	exit := e.exit
	if exit == 0 && cmd.Annotations[annotationOtherExit] != "" {
		exit = exitError
	} else if exit == 0 {
		exit = exitFailed
	}
	code := cmp.Or(e.code, exitCodes[exit], "error")
	// One line, whatever it names, in text and --json: a path the user gave
	// (--config, --password-file, --out, $SVCWALLET_CONFIG, in the system's
	// own words too) with a line break, a bidi override or an escape in it
	// would split the message, reorder it or draw on the screen.
	said := safetext.Line(e.Error()+a.thenMend(err), 0)
	name := a.name // "" before the command runs: cobra's usage errors
	if name == "" {
		name = cmd.CommandPath()
	}
	if a.env.JSON {
		var out errorJSON
		out.Error.Code, out.Error.Message, out.Error.Exit = code, said, exit
		out.QuoteID, out.TxID, out.WithdrawTxHash = e.quoteID, e.txID, e.payoutHash
		werr := writeJSONLine(a.env.Stdout, out)
		if werr == nil {
			return exit
		}
		// Stdout took no line (a full disk, a reader gone): said on stderr,
		// or an authorization or a payment it names would go unsaid.
		if code != codeOutput { // an output error already says stdout failed
			said += " (its --json was not written either: " + safetext.Line(werr.Error(), 0) + ")"
		}
	}
	// Wrapped on a terminal (a command it names whole), else as it is.
	stderr := plain.Fitted(a.env.Stderr)
	fmt.Fprintf(stderr, "%s: %s\n", name, said)
	if code == "usage" {
		fmt.Fprintf(stderr, "run '%s --help' for usage\n", name)
	}
	return exit
}

// thenMend is the step after osguard.RenameFirst, when err's fix is that:
// the doctor run that names the command that mends the file, on this
// command's environment and config.
func (a *app) thenMend(err error) string {
	v := a.invocation()
	return runnext.ThenMend(v.config, v.env, err)
}

// oneLine puts a message from cobra on one line: its suggestions ("Did you
// mean this?" and a name a line) become "; did you mean status?".
func oneLine(s string) string {
	line, rest, _ := strings.Cut(s, "\n")
	var names []string
	for _, l := range strings.Split(rest, "\n") {
		if strings.HasPrefix(l, "\t") {
			names = append(names, strings.TrimSpace(l))
		}
	}
	if len(names) > 0 {
		line += "; did you mean " + strings.Join(names, " or ") + "?"
	}
	return line
}

// jsonRequested reports whether the line asks for --json, for errors met
// before the flags are parsed.
func jsonRequested(args []string) bool {
	for _, a := range args {
		switch a {
		case "--":
			return false
		case "--json":
			return true
		}
		if v, ok := strings.CutPrefix(a, "--json="); ok {
			on, err := strconv.ParseBool(v)
			return err == nil && on
		}
	}
	return false
}

// keyArgument is the credential whose shape the arguments hold, checked
// once, nil for none: exchange.ErrSecretShape for a recovery phrase or a
// key's byte list, exchange.ErrKeyShape for a private key anywhere (in
// -xKEY, --flag=a,KEY, " KEY" alike), in one or split over arguments as
// the shell splits a wrapped key (safetext.SecretIn of the line). A signature, 0x and exactly 130 hex
// digits (withdraw submit's --signature), is public and not a key's shape;
// with hashes (status), neither is a payout hash as one token (quoted, in
// brackets, before punctuation) or ending an explorer's link, which is
// looked up here and never sent (follow.TokenHash): the rest is still checked.
func keyArgument(args []string, hashes bool) error {
	line := make([]string, len(args))
	for i, a := range args {
		line[i] = a
		if _, err := signer.ParseSignature(strings.TrimPrefix(a, "--signature=")); err == nil && !strings.ContainsAny(a, " \t\n") {
			line[i] = "|" // parts no key with what is around it
		}
		if h, at, _ := follow.TokenHash(a); hashes && follow.IsPayoutHash(h) {
			line[i] = a[:at] + "|" + a[at+len(h):] // a payout hash to find here, as one token or in a link, never sent
		}
	}
	return exchange.SecretShapeError(safetext.SecretIn(strings.Join(line, " ")))
}

// refuseKeyArgument words the refusal of held (keyArgument) on the
// command line, with the way the command takes a key instead (status: how
// to give a payout hash, follow.HashAdvice). It never repeats the argument.
func refuseKeyArgument(args []string, status bool, held error) error {
	how := "svcwallet reads keys from $" + signer.KeyEnvVar + ", a keystore file or a hidden prompt"
	if status {
		how = follow.HashAdvice(args...)
	}
	if errors.Is(held, exchange.ErrSecretShape) {
		return usageError("refusing a wallet secret on the command line: %v; other users can read it in the process list and your shell history keeps it", exchange.ErrSecretShape)
	}
	if len(args) > 0 {
		switch args[0] {
		case "key":
			how = "pipe it to `" + invocation{}.command("key", "import") + "` on stdin or type it at the prompt"
		case "builder":
			how = "export it in $" + signer.KeyEnvVar + " or use --keystore-file FILE"
		}
	}
	return usageError("refusing a private key on the command line: other users can read it in the process list and your shell history keeps it; %s", how)
}
