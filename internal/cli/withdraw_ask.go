package cli

import (
	"context"
	"errors"
	"fmt"

	"github.com/svcwallet/svcwallet/internal/plain"
)

// askMissing asks, on a terminal, for the --chain, --to and --amount the
// command line lacks, on stderr one a line as plain mode asks them
// (plain.AskMissing). The input's end leaves them missing, for the usage
// error without a terminal; ctrl+c ends the command as interrupted, with
// nothing signed or sent.
func (c withdrawCmd) askMissing(ctx context.Context, f *withdrawFlags) error {
	err := plain.AskMissing(ctx, c.env.Stdin, c.env.Stderr, &f.chain, &f.to, &f.amount)
	switch {
	case errors.Is(err, plain.ErrInterrupted):
		fmt.Fprintln(c.env.Stderr)
		return interrupted(ctx, nothingSent)
	case errors.Is(err, plain.ErrEnd):
		return nil
	case err != nil:
		return failure(exitFailed, "%w", err)
	}
	return nil
}
