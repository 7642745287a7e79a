package cli

import (
	"fmt"

	mango "github.com/muesli/mango-cobra"
	"github.com/muesli/roff"
	"github.com/spf13/cobra"
)

// manExitStatus is README's contract, one paragraph a status.
const manExitStatus = `0: done; for status and withdraw --wait, the withdrawal COMPLETED.
1: refused or failed; for status and withdraw --wait, not paid out (FAILED, REFUNDED, or a quote that expired unexecuted).
2: usage error, before anything is asked (withdraw: also no terminal to confirm on without --yes).
3: status and withdraw --wait only: still pending.
4: status and withdraw resume only: the quote id is not found on this account.
5: status and withdraw only: any other error; for withdraw, no answer to the request (run withdraw resume QUOTE_ID).
With --json an error is {"error":{"code","message","exit"}} on stdout, with the same status.`

// manEnvironment names the variables svcwallet reads.
const manEnvironment = `SVCWALLET_ENV: the environment when --env is not given.
SVCWALLET_CONFIG: the config file when --config is not given.
SVCWALLET_API_KEY: the API key of deposit, status and withdraw; pre-fills the console.
SVCWALLET_PRIVATE_KEY: a raw hex signing key (never on the command line); without
an API key, deposit, status and withdraw log in by wallet signature with it.
SVCWALLET_KEYSTORE: the keystore directory.
SVCWALLET_DEBUG=1: log requests, statuses and timings (as --debug).`

// manCommand prints svcwallet(1), made from the commands' own help, to the
// command's stdout (fang's own writes to the process's, out of tests' reach).
func manCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "man",
		Short: "Print the manual page (| man -l -)",
		Args:  noArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			page, err := mango.NewManPage(1, c.Root())
			if err != nil {
				return failure(c.CommandPath(), "failed", 1, "cannot build the manual page: %v", err)
			}
			page = page.WithSection("Exit status", manExitStatus).WithSection("Environment", manEnvironment)
			_, err = fmt.Fprint(c.OutOrStdout(), page.Build(roff.NewDocument()))
			return writeFailed(c.CommandPath(), err)
		},
	}
}
