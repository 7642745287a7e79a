package cli

import (
	"fmt"

	mango "github.com/muesli/mango-cobra"
	"github.com/muesli/roff"
	"github.com/spf13/cobra"
)

// manCommand prints svcwallet(1), made from the commands' own help, to the
// command's stdout (fang's own writes to the process's, out of tests' reach).
func manCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "man",
		Short: "Print the manual page (svcwallet man | man -l -)",
		Args:  noArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			page, err := mango.NewManPage(1, c.Root())
			if err != nil {
				return failure(c.CommandPath(), "failed", 1, "cannot build the manual page: %v", err)
			}
			_, err = fmt.Fprint(c.OutOrStdout(), page.Build(roff.NewDocument()))
			return writeFailed(c.CommandPath(), err)
		},
	}
}
