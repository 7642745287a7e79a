package cli

import (
	"context"
	"errors"
	"fmt"

	"github.com/svcwallet/svcwallet/internal/plain"
	"github.com/svcwallet/svcwallet/service/exchange"
)

// askMissing asks, on a terminal, for the --chain, --to and --amount the
// command line lacks, on stderr one a line as plain mode asks them
// (plain.AskMissing), once the service's routes (info) are known, so an
// unknown chain is refused as typed. The input's end leaves them missing,
// for the usage error without a terminal; ctrl+c ends the command as
// interrupted, with nothing signed or sent.
func (c withdrawCmd) askMissing(ctx context.Context, info exchange.WithdrawalInfo, f *withdrawFlags) error {
	err := plain.AskMissing(ctx, c.env.Stdin, c.env.Stderr, info, &f.chain, &f.to, &f.amount)
	switch {
	case errors.Is(err, plain.ErrInterrupted):
		fmt.Fprintln(c.env.Stderr)
		return interrupted(ctx, nothingSent)
	case errors.Is(err, plain.ErrEnd):
		return f.missing()
	case err != nil:
		return failure(exitFailed, "%w", err)
	}
	return nil
}

// missing is the usage error of the first of --chain, --to and --amount
// not given; nil when each is.
func (f withdrawFlags) missing() error {
	switch {
	case f.chain == "":
		return usageError("give --chain, the destination chain")
	case f.to == "":
		return usageError("give --to, the destination address")
	case f.amount == "":
		return usageError("give --amount, the USDT to pay")
	}
	return nil
}
