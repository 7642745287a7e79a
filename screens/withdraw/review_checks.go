package withdraw

import (
	tea "charm.land/bubbletea/v2"

	"github.com/svcwallet/svcwallet/screens/kit"
	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/withdrawal"
	"github.com/svcwallet/svcwallet/tui"
)

// bridgeCheckedMsg answers the checks before signing: the bridge funding
// address (withdrawal.CheckBridge) and the journal's identical withdrawals
// (withdrawal.FindRepeat).
type bridgeCheckedMsg struct {
	tag   tui.Tag // the visit that asked: another review's answer is not this one's
	trust withdrawal.BridgeTrust
	err   error
	// repeat is what the journal holds of identical withdrawals; repeatErr
	// why it could not be read.
	repeat    withdrawal.Repeat
	repeatErr error
}

// checkBridge checks, before anything may be signed, whether toAccount
// may be signed and whether the journal holds an identical withdrawal
// (one that got no answer stops the review: it may have been paid).
func (r *reviewScreen) checkBridge() tea.Cmd {
	if r.setupErr != nil {
		return nil
	}
	env, path, seen, now := r.app.Target.Env, r.app.Target.BridgePins(), r.order.Transfer.ToAccount.Hex(), r.app.Common.Now()
	owner, choice, doctor, j, tag := r.app.Target.Owner(), r.order.Choice, r.app.Command("doctor"), r.app.Journal(), r.tag
	return func() tea.Msg {
		trust, err := withdrawal.CheckBridge(env, path, seen, now)
		msg := bridgeCheckedMsg{tag: tag, trust: trust, err: err}
		recs, _, rerr := withdrawal.RepeatRecords(j, owner, now)
		if lost := j.CheckWritten(false); lost != nil {
			msg.repeatErr = kit.JournalLost(lost, doctor)
			return msg
		}
		if rerr != nil {
			msg.repeatErr = exchange.UserError{Text: "The withdrawal journal cannot be read (" + rerr.Error() +
				"), so whether an identical withdrawal got no answer cannot be told: nothing can be signed; run " + doctor, Cause: rerr}
		}
		msg.repeat = withdrawal.FindRepeat(recs, choice, now)
		return msg
	}
}
