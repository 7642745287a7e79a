package cli

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/svcwallet/svcwallet/internal/plain"
	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/intent"
	"github.com/svcwallet/svcwallet/service/sandbox"
	"github.com/svcwallet/svcwallet/service/withdrawal"
)

// askMissing asks on the terminal, on stderr one a line as plain mode asks
// them (plain.AskMissing, the journey's own questions), for the flags the
// command was not given; usage is the usage error of what is still missing
// when the input ends, as without a terminal. ctrl+c ends the command as
// interrupted, with nothing signed or sent.
func askMissing(ctx context.Context, env CLIEnv, usage func() error, asks ...plain.Missing) error {
	err := plain.AskMissing(ctx, env.Stdin, env.Stderr, asks...)
	switch {
	case errors.Is(err, plain.ErrInterrupted):
		fmt.Fprintln(env.Stderr)
		return interrupted(ctx, nothingSent)
	case errors.Is(err, plain.ErrEnd):
		return usage()
	case err != nil:
		return failure(exitFailed, "%w", err)
	}
	return nil
}

// askMissing asks for the --chain, --to and --amount withdraw lacks, once
// the service's routes (info) are known, so an unknown chain is refused
// as typed, naming those it has. On the embedded sandbox the destination's
// question names the book's paying address of the chain (sandboxPayee).
func (c withdrawCmd) askMissing(ctx context.Context, info exchange.WithdrawalInfo, f *withdrawFlags, embedded bool) error {
	return askMissing(ctx, c.env, func() error { return f.missing() },
		plain.Missing{To: &f.chain, Q: func() intent.Question { return withdrawal.ChainQuestion(info, exchange.TokenUSDT) }},
		plain.Missing{To: &f.to, Q: func() intent.Question {
			rt, _ := withdrawal.RouteTo(info, exchange.TokenUSDT, f.chain)
			q := withdrawal.Choice{Route: rt}.DestinationQuestion()
			if pays := sandboxPayee(rt.ChainType); embedded && pays != "" {
				q.How += "; on the sandbox " + pays + " pays out, and `" + invocation{}.command("sandbox") + "` prints the others"
			}
			return q
		}},
		plain.Missing{To: &f.amount, Q: func() intent.Question { return withdrawal.AmountQuestion(exchange.TokenUSDT) }})
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

// sandboxPayee is the embedded sandbox's address book entry of chainType
// that pays out (COMPLETED); "" when it has none.
func sandboxPayee(chainType string) string {
	for _, p := range sandbox.DemoAddressBook {
		if strings.EqualFold(p.ChainType, chainType) && slices.Contains([]string{sandbox.DestCompleted, sandbox.DestSolana, sandbox.DestTron}, p.Address) {
			return p.Address
		}
	}
	return ""
}
