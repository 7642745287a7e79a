package withdraw

import (
	"path/filepath"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"svcwallet/screens/kit"
	"svcwallet/screens/kit/layout"
	"svcwallet/service"
	"svcwallet/service/config"
	"svcwallet/service/withdrawal"
)

// preparedMsg answers writing the Transfer for offline signing: what the
// journal keeps and the file's path, or why not.
type preparedMsg struct {
	p    withdrawal.Prepared
	path string
	err  error
}

var offlineKey = key.NewBinding(key.WithKeys("o"), key.WithHelp("o", "prepare for offline signing"))

// canPrepare: the Transfer may be written for a wallet elsewhere, as
// `svcwallet withdraw --signer offline` does: the review is sound (bridge
// checked, quote valid, nothing out, not refused), the journal keeps what
// submission needs, and the environment outlives the console (the embedded
// sandbox and its journal end with it). Once prepared, nothing else is
// signed here: the file is that withdrawal.
func (r *reviewScreen) canPrepare() bool {
	return r.setupErr == nil && r.bridge != nil && r.bridgeErr == nil && !r.gate.Sending && !r.expired() &&
		!r.refused && r.prepared == nil && r.app.Journal() != nil && r.app.Target.Demo == nil && !r.gate.Key.Typing()
}

// prepare journals the Transfer for the funding account's key to sign
// offline (withdrawal.Withdrawer.Prepare) and then writes its typed data,
// in a Cmd, to a new 0600 file beside the journal.
func (r *reviewScreen) prepare() tea.Cmd {
	w, o, parent := r.app.Withdrawer(), r.order, r.app.Root()
	dir := filepath.Dir(r.app.Journal().Path())
	return func() tea.Msg {
		cx, cancel := kit.Call(parent)
		defer cancel()
		p, err := w.Prepare(cx, o, o.Transfer.FromAccount)
		if err != nil {
			return preparedMsg{err: service.Explain(err)}
		}
		path := filepath.Join(dir, "transfer-"+o.Quote.QuoteID+".json")
		if err := config.CreateStateFile(path, p.TypedData()); err != nil {
			return preparedMsg{err: service.UserError{Text: "The Transfer is journaled but its file could not be written (" + err.Error() + "): run `svcwallet withdraw --signer offline` instead", Cause: err}}
		}
		return preparedMsg{p: p, path: path}
	}
}

// preparedView says where the file is and how to finish: sign it with the
// funding account's key in any wallet, then submit it before it expires.
func (r *reviewScreen) preparedView() string {
	c := r.app.Common
	st := c.Styles
	p := r.prepared
	expires := time.Unix(0, p.p.Order.Transfer.Expiration).UTC().Format("2006-01-02 15:04:05 UTC")
	lines := []string{
		st.Value.Render("Prepared for offline signing; nothing was signed or sent."),
		layout.WrapField(c, "File", 16, st.Value.Render(p.path), "", r.wd),
		layout.WrapField(c, "Sign with", 16, st.Value.Render(p.p.Signer.Hex()), "e.g. cast wallet sign --data --from-file FILE", r.wd),
		layout.WrapField(c, "Then run", 16, st.Value.Render("svcwallet withdraw submit FILE --signature 0x… --env "+r.app.Target.Env.Name), "", r.wd),
		layout.WrapField(c, "Before", 16, st.Value.Render(expires), "", r.wd),
	}
	out := ""
	for _, l := range lines {
		out += l
		if len(l) == 0 || l[len(l)-1] != '\n' {
			out += "\n"
		}
	}
	return out
}
