package cli

import (
	"errors"
	"fmt"
	"strings"

	"github.com/svcwallet/svcwallet/internal/safetext"
	"github.com/svcwallet/svcwallet/service/config"
	"github.com/svcwallet/svcwallet/service/withdrawal"
)

// checkBridge is withdrawal.CheckBridge for the command line: the bridge
// funding address seen may be signed when it is the pinned or recorded
// one, or a first use; a change stops the withdrawal and says the exact
// step that goes on, since the console's confirmation screen is not here.
// --accept-bridge ADDRESS (accept) is that step for a recorded address:
// ADDRESS must be exactly the address the service gives now, and the
// change is recorded (recordAcceptedBridge) only once the withdrawal is
// confirmed. Given when nothing changed, it must still name the address
// the service gives: it never lets another be signed.
func (c withdrawCmd) checkBridge(e config.Environment, pinsPath, seen, accept string) (withdrawal.BridgeTrust, error) {
	trust, err := withdrawal.CheckBridge(e, pinsPath, seen, c.now())
	var changed *withdrawal.BridgeChangedError
	switch {
	case err == nil && accept != "" && !strings.EqualFold(accept, seen):
		return trust, failure(exitFailed, "--accept-bridge %s is not the bridge funding address the service gives, %s (%s): nothing was signed", accept, seen, trust.Note())
	case err == nil:
		return trust, nil
	case !errors.As(err, &changed):
		return trust, failure(exitFailed, "%w", err)
	case changed.Pinned:
		return trust, failure(exitFailed, "%w%s", err, c.pinnedBridgeStep(e, changed))
	case accept == "":
		return trust, failure(exitFailed, "%w: if it did, run this command again with --accept-bridge %s (that address exactly; the change is recorded in %s once you confirm the withdrawal), or confirm it in the console's withdrawal review (%s)",
			err, safetext.ShellWord(changed.Seen), safetext.Shown(pinsPath), c.app.invocation().command())
	}
	trust, err = changed.Accept(accept)
	if err != nil {
		return trust, failure(exitFailed, "--accept-bridge: %w", err)
	}
	return trust, nil
}

// pinnedBridgeStep is how a change of an address pinned in the config goes
// on: the config's line to change, in the file that holds it.
func (c withdrawCmd) pinnedBridgeStep(e config.Environment, changed *withdrawal.BridgeChangedError) string {
	if e.Name == config.SandboxEnv {
		return "" // the embedded sandbox's pin is its own address: nothing to change
	}
	return fmt.Sprintf(": set bridge_funding_address = %q under [env.%s] in %s (--accept-bridge does not change an address the config pins)",
		changed.Seen, e.Name, safetext.Shown(c.app.invocation().configFile))
}

// recordAcceptedBridge records the bridge address accepted with
// --accept-bridge in place of the one it replaces, once the withdrawal is
// confirmed and before anything is signed (withdrawal.ConfirmBridge: a
// record changed meanwhile is not replaced).
func (c withdrawCmd) recordAcceptedBridge(e config.Environment, pinsPath string, trust withdrawal.BridgeTrust) error {
	if trust.Replaces == "" {
		return nil
	}
	if err := withdrawal.ConfirmBridge(e, pinsPath, trust.Replaces, trust.Address, c.now()); err != nil {
		again := ""
		if errors.As(err, new(*withdrawal.BridgeMovedError)) {
			again = "; run the command again to review it"
		}
		return failure(exitFailed, "the accepted bridge funding address %s cannot be recorded (%w): nothing was signed or sent%s", trust.Address, err, again)
	}
	fmt.Fprintf(c.env.Stderr, "%s: bridge funding address %s recorded for environment %s in place of %s\n", c.app.name, trust.Address, e.Name, trust.Replaces)
	return nil
}
