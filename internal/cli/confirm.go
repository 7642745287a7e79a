package cli

import (
	"context"
	"fmt"
	"strings"

	"github.com/svcwallet/svcwallet/internal/plain"
)

// The one confirmation rule of the commands that sign and send (withdraw,
// builder authorize): --yes goes on without asking; otherwise, on a
// terminal (stdin and stderr both one), the review is printed where the
// question is (stderr) and the question asked, [y/N], under plain.Gate's
// rule; without a terminal to ask on, the command refuses before anything
// is opened, signed or sent (exit 2). A dry run and preparing for offline
// signing sign and send nothing, and ask nothing.

// cannotConfirm is the refusal of a command that would have to ask and has
// no terminal to ask on; "" when it may go on (--yes, or a terminal).
// what names the thing to confirm: "withdrawal".
func cannotConfirm(what string, yes, terminal bool) string {
	if yes || terminal {
		return ""
	}
	return "standard input or standard error is not a terminal, so the " + what + " cannot be confirmed: review it with --dry-run, then add --yes to sign and send without asking; nothing was sent"
}

// answers is the gate of the commands' questions: answered on stdin,
// asked on stderr.
func answers(env CLIEnv) plain.Gate {
	if env.Terminal != nil {
		return env.Terminal()
	}
	return plain.TerminalGate(env.Stdin, env.Stderr)
}

// confirm asks question on stderr, "[y/N]" after it, and reads the
// answer from stdin, under the gate's rule (what was typed ahead is
// discarded, an answer that comes too soon or as a paste refused): only y or yes (any
// case) confirms; anything else is the refusal "not confirmed", and ctrl+c
// an interruption (exit 130). Either way nothing was signed or sent.
func confirm(ctx context.Context, env CLIEnv, question string) error {
	answer, err := answers(env).Ask(ctx, env.Stderr, func() string { return question + " [y/N] " }, func() (string, error) {
		return untilDone(ctx, func() (string, error) { return plain.ReadLine(env.Stdin) })
	})
	if ctx.Err() != nil {
		fmt.Fprintln(env.Stderr)
		return interrupted(ctx, nothingSent)
	}
	if a := strings.ToLower(strings.TrimSpace(answer)); err != nil || a != "y" && a != "yes" {
		return failure(exitFailed, "not confirmed: nothing was signed or sent")
	}
	return nil
}

// nothingSent is what an interrupted command that signs left as it was.
const nothingSent = ": nothing was signed or sent"
