package withdraw

import (
	"context"

	tea "charm.land/bubbletea/v2"

	"github.com/svcwallet/svcwallet/internal/runnext"
	"github.com/svcwallet/svcwallet/service/intent"
)

// canPrepare: the Transfer may be written for a wallet elsewhere, as
// `withdraw --signer offline` does, once the review is sound (as for
// signing) and the gate allows it (kit.ReviewGate.CanPrepare); what is
// prepared is what is reviewed: on screen, whole (as fitted says).
func (r *reviewScreen) canPrepare(whole bool) bool {
	return r.preparable() && whole
}

// preparable: nothing but the screen's size could keep o from preparing.
func (r *reviewScreen) preparable() bool {
	return r.sound() && r.gate.CanPrepare(r.app)
}

// prepare prepares the Transfer for the funding account's key to sign
// offline (withdrawal.Withdrawer.Prepare, through kit.Offline).
func (r *reviewScreen) prepare() tea.Cmd {
	r.err = nil
	w, o := r.app.Withdrawer(), r.order
	name := "transfer-" + o.Quote.QuoteID + ".json"
	return r.gate.Offline.Prepare(r.app, runnext.Withdraw(o.Choice), o.Transfer.FromAccount, name, "Transfer",
		func(cx context.Context) (intent.Prepared, error) {
			p, err := w.Prepare(cx, o, o.Transfer.FromAccount)
			return p.Prepared, err
		})
}
