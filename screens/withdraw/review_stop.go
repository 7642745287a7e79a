package withdraw

import (
	"errors"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/svcwallet/svcwallet/screens/kit"
	"github.com/svcwallet/svcwallet/screens/kit/layout"
	"github.com/svcwallet/svcwallet/service/withdrawal"
	"github.com/svcwallet/svcwallet/tui"
)

// endWords say the send of order when the console ends with it out
// (kit.Sends): the quote id to check, and the history for a fresh quote a
// signature awaited may have been carried on (withdrawal.Requote).
func endWords(app *kit.App, order withdrawal.Order, waits bool) *kit.Sending {
	check := "check it with " + app.Command("status", order.Quote.QuoteID)
	if waits {
		check += ", or " + app.Command("history") + " if its quote expired while it was signed (a fresh one carries it)"
	}
	return &kit.Sending{What: "the withdrawal of quote " + order.Quote.QuoteID, Check: check + "; the console checks it at its next start"}
}

// A stop (a changed bridge address, an unanswered repeat: stopped) that
// lands while the passphrase field has focus hides the field, and the
// letters typed on, or the first one of a passphrase begun just then,
// would be the stop's keys (c, h, r). So the passphrase typed is cleared,
// the stop says so, and its keys are held as a review's question is
// (kit.KeyHold) from when it shows, again from each key typed while held:
// they act once the person stopped typing and had the stop in front of
// them. The footer offers them only then.

// Update is update, watching for a stop landing mid-passphrase.
func (r *reviewScreen) Update(msg tea.Msg) (tui.Screen, tea.Cmd) {
	now := r.app.Common.Now()
	if next, ok := r.stopHold.Ticked(msg, now, r.app.Timer); ok {
		return r, next // the stop's hold ticks to its end: its keys are drawn then
	}
	if _, ok := msg.(tea.KeyPressMsg); ok && r.stopHeld() {
		return r, r.stopHold.Again(now, r.app.Timer) // still typing: the stop is not read yet
	}
	focused := r.gate.Inputting()
	typing := focused && (r.typed || r.gate.Key.Pass.Value() != "")
	_, cmd := r.update(msg)
	switch {
	case focused && r.stopped():
		r.gate.Key.Pass.SetValue("")
		r.typed, r.cleared = false, typing
		r.stopHold.Tell(r.app.Common.RepeatsTold)
		cmd = tea.Batch(cmd, r.stopHold.StartOn(now, r.app.Timer))
	case !r.stopped():
		r.cleared = false
	}
	// Typed in since the last send (whose Loader empties the field).
	r.typed = !r.gate.Sending && (r.typed || r.gate.Inputting() && r.gate.Key.Pass.Value() != "")
	return r, r.gate.Settled(cmd)
}

// stopHeld: the stop's keys are held (Update).
func (r *reviewScreen) stopHeld() bool {
	return r.stopped() && r.stopHold.Holds(r.app.Common.Now())
}

// stopNote says, under a stop that cleared the passphrase typed, that it
// did, and while its keys are held that they act once typing stops; "" when
// neither.
func (r *reviewScreen) stopNote() string {
	var said []string
	if r.cleared {
		said = append(said, "This stop came while the passphrase was being typed: what was typed is cleared.")
	}
	if r.stopHeld() {
		said = append(said, "Read the stop; its keys act once you stop typing.")
	}
	if said == nil {
		return ""
	}
	return r.app.Common.Styles.Muted.Render(layout.WrapTo(strings.Join(said, " "), r.wd)) + "\n"
}

// alone is what a review too short for itself shows instead: a journal
// stop, or once prepared for offline signing where the file is and how to
// finish (nothing is signed here any more), as the builder review does.
func (r *reviewScreen) alone() string {
	if r.gate.Offline.Done() {
		return layout.Clip(r.gate.Offline.View(r.app.Common, r.wd), r.wd)
	}
	if errors.As(r.err, new(*kit.OfflineFolderError)) {
		// Nothing was prepared, and a taller window would not mend why.
		return layout.Clip(layout.ErrorBlock(r.app.Common, "Not withdrawn", r.err, r.wd), r.wd)
	}
	return r.journalStop()
}

// journalStop is the stop on a journal not as svcwallet wrote it, alone,
// for a screen too short for it below the message: nothing can be signed
// until the journal is mended, so the stop and its step (the doctor)
// matter, not the message. "" when the review shows no such stop.
func (r *reviewScreen) journalStop() string {
	if r.gate.Sending || r.bridgeErr != nil || r.repeatErr == nil {
		return ""
	}
	return layout.Clip(layout.ErrorBlock(r.app.Common, "Stopped: journal", r.repeatErr, r.wd)+r.stopNote(), r.wd)
}
