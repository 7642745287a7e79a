package signer

import (
	"context"

	"github.com/svcwallet/svcwallet/internal/osguard"
)

// SignCommandStarter is how both faces start a signing command: in a
// process group (Windows: a job object) of its own that ends whole with
// its context (osguard.GroupCommandContext), so nothing the command started (the signer a
// wrapper script runs) outlives a cancel, a timeout or the command's own end
// (GroupCmd.EndWhole). With lendTerminal
// (the command line), when svcwallet is its terminal's foreground job, the
// group is the terminal's foreground while the command runs, as a shell
// runs a job: the command may prompt there (cast's keystore passphrase)
// and ctrl+c reaches it; svcwallet takes the terminal back once it has
// ended. The console lends nothing: it reads the terminal itself.
func SignCommandStarter(lendTerminal bool) Starter {
	return func(ctx context.Context, name string, arg ...string) *osguard.GroupCmd {
		c := osguard.GroupCommandContext(ctx, name, arg...)
		c.EndWhole()
		if lendTerminal {
			c.LendForeground()
		}
		return c
	}
}
