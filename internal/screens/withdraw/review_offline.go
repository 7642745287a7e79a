package withdraw

import (
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/svcwallet/svcwallet/internal/exchange"
	"github.com/svcwallet/svcwallet/internal/screens/kit"
	"github.com/svcwallet/svcwallet/internal/withdrawal"
)

// preparedMsg answers writing the Transfer for offline signing: what the
// journal keeps and the file's path, or why not.
type preparedMsg struct {
	p    withdrawal.Prepared
	path string
	err  error
}

// canPrepare: the Transfer may be written for a wallet elsewhere, as
// `svcwallet withdraw --signer offline` does: the review is sound (bridge
// checked, quote valid, nothing out, not refused), the journal keeps what
// submission needs, and the environment outlives the console (the embedded
// sandbox and its journal end with it: kit.App.OfflineReady), and no
// identical withdrawal got no answer (repeatStop). Once
// prepared, nothing else is signed here: the file is that withdrawal.
func (r *reviewScreen) canPrepare() bool {
	return r.setupErr == nil && r.bridge != nil && r.bridgeErr == nil && r.repeatStop() == nil && !r.gate.Sending && !r.expired() &&
		!r.refused && r.prepared == nil && !r.preparing && r.app.OfflineReady() && !r.gate.Key.Typing()
}

// prepare journals the Transfer for the funding account's key to sign
// offline (withdrawal.Withdrawer.Prepare) and then writes its typed data,
// in a Cmd, to a new 0600 file beside the journal (kit.App.OfflineWriter).
func (r *reviewScreen) prepare() tea.Cmd {
	r.preparing, r.err = true, nil
	w, o, parent, write := r.app.Withdrawer(), r.order, r.app.Root(), r.app.OfflineWriter()
	instead := r.app.Command("withdraw", "--signer", "offline")
	return func() tea.Msg {
		cx, cancel := kit.Call(parent)
		defer cancel()
		p, err := w.Prepare(cx, o, o.Transfer.FromAccount)
		if err != nil {
			return preparedMsg{err: exchange.Explain(err)}
		}
		path, err := write("transfer-"+o.Quote.QuoteID+".json", p.TypedData())
		if err != nil {
			return preparedMsg{err: exchange.UserError{Text: "The Transfer is journaled but its file could not be written (" + err.Error() + "): run `" + instead + "` instead", Cause: err}}
		}
		return preparedMsg{p: p, path: path}
	}
}

// offline is the prepared file and how to finish: sign it with the
// funding account's key in any wallet, then submit it before it expires.
func (r *reviewScreen) offline() kit.Offline {
	p := r.prepared
	return kit.Offline{
		Path: p.path, Signer: p.p.Signer, Before: time.Unix(0, p.p.Order.Transfer.Expiration),
		Submit: r.app.Command("withdraw", "submit", p.path, "--signature", "0x…"),
	}
}
