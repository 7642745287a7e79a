package withdraw

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"charm.land/lipgloss/v2"

	"github.com/svcwallet/svcwallet/internal/safetext"
	"github.com/svcwallet/svcwallet/screens/kit"
	"github.com/svcwallet/svcwallet/screens/kit/layout"
	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/intent"
	"github.com/svcwallet/svcwallet/service/withdrawal"
	"github.com/svcwallet/svcwallet/tui"
)

// typedDataView shows the withdrawal's facts (withdrawal.Order.Facts)
// before the Transfer (kit.TypedDataView). Every level to 4 keeps what the
// user confirms; 4 leaves out the details, and 5, for a review that cannot
// be signed anyway, all but where the money goes, so why it cannot stays
// on screen.
func (r *reviewScreen) typedDataView(level int) string {
	c := r.app.Common
	st := c.Styles
	v := r.view(level)
	for _, f := range r.order.Facts() {
		switch {
		case f.Mark == intent.Payee && level <= 2:
			f.Value = layout.GroupChars(f.Value, 4)
		case f.Mark == intent.Detail && level >= 4, f.Mark != intent.Payee && level == 5:
			continue
		}
		v.Facts = append(v.Facts, f)
	}
	out := v.Render(c, r.wd, level)
	if level == 0 {
		out += st.Muted.Render(withdrawal.ReviewSentence) + "\n"
	}
	// A person approves: the quote may expire meanwhile. The smallest
	// level says it in the prompt's place (render).
	switch {
	case !r.gate.Key.Waits() || level >= 4:
	case level == 0:
		out += st.Muted.Render(layout.WrapTo(withdrawal.RequoteNote(r.order), max(r.wd, 20))) + "\n"
	default:
		out += st.Muted.Render(layout.WrapTo(withdrawal.RequoteNoteShort(r.order), max(r.wd, 20))) + "\n"
	}
	return out
}

// view is the Transfer as the review shows it at level: the amount and the
// bridge address drawn apart, and their meanings and the expiry's kept.
func (r *reviewScreen) view(level int) kit.TypedDataView {
	return kit.TypedDataView{
		Review: r.order.Review(r.bridgeNote(level > 2), level > 2),
		Danger: map[string]bool{"numTokens": true, "toAccount": true},
		Keep:   map[string]bool{"numTokens": true, "expiration": true, "toAccount": true},
		// The nonce beside the sub-accounts saves the line a converting
		// payout's note takes at 60x20.
		Pairs: map[string][]string{"fromSubAccount": {"toSubAccount", "nonce"}, "tokenCurrency": {"numTokens"}},
		Where: kit.WhereRows(r.app),
	}
}

// bridgeNote says why toAccount is trusted: pinned by the config, recorded at
// first use, or seen since a date. Short, the address a change replaces is
// shortened (it is not signed, and the confirm screen showed it whole): at
// 60 columns it would not fit the note's indent and broke in two.
func (r *reviewScreen) bridgeNote(short bool) string {
	switch {
	case r.bridgeErr != nil:
		return "NOT the expected one"
	case r.bridge == nil:
		return "checking…"
	case short && r.bridge.Replaces != "":
		t := *r.bridge
		t.Replaces = tui.ShortAddress(t.Replaces)
		return t.Note()
	}
	return r.bridge.Note()
}

// bridgeStop explains why the withdrawal stopped before signing, naming both
// addresses, and what the user can do.
func (r *reviewScreen) bridgeStop() error {
	msg := r.bridgeErr.Error()
	switch {
	case r.gate.Acts(r.canConfirmBridge()):
		msg += ". Press c to review the change on its own screen, or " + r.requoteKey().Help().Key + " for a new quote"
	case r.canConfirmBridge():
		// c and r do nothing while the check's guard holds keys.
		msg += ". Read it: " + r.keysIn()
	}
	return exchange.UserError{Text: msg}
}

// awaitedCells is what the smallest review gives the name of a key source
// a cancelled wait names: "the signing command " and 16 cells of its
// program's name.
const awaitedCells = 36

// keysIn stands where a message would name a key the guard holds, and
// says when they act.
func (r *reviewScreen) keysIn() string { return r.gate.KeysEnabled(r.app.Common.Now()) }

// lateQuoteError: the service found the quote expired when the signed
// withdrawal came; the step after it is said when shown (shownErr).
type lateQuoteError struct{}

func (lateQuoteError) Error() string { return "Quote expired before it was executed" }

// shownErr is r.err with the step it needs said as the screen is drawn: a
// key named only while it acts (requoteStep).
func (r *reviewScreen) shownErr() error {
	if errors.As(r.err, new(lateQuoteError)) {
		return exchange.UserError{Text: r.err.Error() + ": " + r.requoteStep("to get a new one and sign again")}
	}
	return r.err
}

// requoteStep names the key for a new quote, and what it does, only while
// it acts (ReviewGate.Acts, the footer's rule): a key hint is a promise.
func (r *reviewScreen) requoteStep(does string) string {
	if !r.gate.Acts(r.requotes()) {
		return "read it: " + r.keysIn()
	}
	return "press " + r.requoteKey().Help().Key + " " + does
}

// countdownShort is the countdown said beside the passphrase.
func (r *reviewScreen) countdownShort() string {
	return r.app.Common.Styles.Label.Render("expires in") + " " + r.secondsLeft()
}

// countdownView is the quote's time left on its own line, with a note
// while nothing went wrong.
func (r *reviewScreen) countdownView(level int) string {
	// After a refusal the error says what to do; the note would say sign.
	note := "sign before it runs out"
	if level > 1 || r.err != nil {
		note = ""
	}
	return layout.WrapField(r.app.Common, "Quote expires in", 16, r.secondsLeft(), note, r.wd)
}

// secondsLeft is the quote's time left by the service's clock, rounded up
// to whole seconds like the quote screen's, in the warning colour for the
// last ten.
func (r *reviewScreen) secondsLeft() string {
	st := r.app.Common.Styles
	left := r.remaining()
	v := fmt.Sprintf("%ds", int((left+time.Second-1)/time.Second))
	if left <= 10*time.Second {
		return st.Warning.Render(v)
	}
	return st.Value.Render(v)
}

// View is the fullest review that fits; short of room, what must be read
// first: a stop, the outcome of a send (a refusal, an acceptance), and
// "Too small to review" only while there is something to sign.
func (r *reviewScreen) View() string {
	out, ok := r.fitted()
	switch alone := r.alone(); {
	case ok:
		return out
	case alone != "":
		return alone
	case !r.signable() && !r.preparable():
		// Where the money goes beside why it cannot be signed, when that fits.
		if least := r.render(5, 2, kit.NoKeyNow); lipgloss.Height(least) <= r.h || r.outcome() == "" {
			return least
		}
		return r.outcomeAlone(lipgloss.Height(out))
	case r.outcome() != "":
		// Refused, yet this quote may be signed again: what happened first.
		return r.outcomeAlone(lipgloss.Height(out))
	default:
		// r is named only while it acts: held keys (the guard) do nothing.
		requote := ""
		if r.gate.Acts(r.requotes()) {
			requote = ", or " + r.requoteKey().Help().Key + " for a new quote"
		}
		// Without a key here no window signs: a taller one shows why, and
		// o, which prepares the Transfer for signing elsewhere.
		next := "Make the window taller (or, if the help is open, close it with ?) to sign"
		if r.gate.Key.Found && !r.gate.Key.Usable() {
			next = "No key here signs for this account: make the window taller (or, if the help is open, close it with ?) to prepare it for offline signing"
		}
		return layout.Clip(layout.ErrorBlock(r.app.Common, "Too small to review", exchange.UserError{Text: fmt.Sprintf("the review needs %d rows to show everything you sign; this terminal gives it %d. %s%s",
			lipgloss.Height(out), r.h, next, requote)}, r.wd), r.wd)
	}
}

// outcome is what the last send, or the enter that tried it, ended in
// (accepted, or why not withdrawn), as the review says it below the
// message; "" when the review says something else there (render's order).
func (r *reviewScreen) outcome() string {
	switch {
	case r.accepted:
		return r.app.Common.Styles.Value.Render("Withdrawal accepted: opening its status…") + "\n"
	case r.gate.Sending, r.bridgeErr != nil, r.repeatStop() != nil, r.bridge == nil,
		r.gate.Offline.Done(), r.gate.Offline.Preparing, r.expired(), r.err == nil:
		return ""
	}
	return r.errBlock(false)
}

// errBlock is r.err said with its step; cut shortens the name of a key
// source a cancelled wait names, for the smallest review.
func (r *reviewScreen) errBlock(cut bool) string {
	head, err := exchange.Labelled("Not withdrawn", r.shownErr())
	if cut {
		err = kit.CutAwaited(err, awaitedCells)
	}
	return layout.ErrorBlock(r.app.Common, head, err, r.wd)
}

// outcomeAlone is the outcome without the review, for a screen too short
// for both: the person reads what happened and what to do next, and is
// told what signing again needs (a review of need rows) while that fits.
func (r *reviewScreen) outcomeAlone(need int) string {
	said := r.outcome()
	var next []string
	if r.signable() || r.preparable() {
		next = append(next, fmt.Sprintf("To sign it again, make the window taller: the review needs %d rows, this terminal gives it %d.", need, r.h))
	}
	if !r.accepted && !errors.As(r.err, new(lateQuoteError)) { // that one says its step
		next = append(next, safetext.Capitalized(r.requoteStep("for a new quote"))+".")
	}
	lines := strings.Split(layout.WrapTo(strings.Join(next, " "), r.wd), "\n")
	if next != nil && strings.Count(said, "\n")+len(lines) <= r.h {
		for _, l := range lines {
			said += layout.InksFor(r.app.Common).Muted.On(l) + "\n"
		}
	}
	return layout.Clip(strings.TrimSuffix(said, "\n"), r.wd)
}

// fitted is the fullest rendering that fits the screen's height, and
// whether one does: the shortest keeps everything the user confirms, so a
// screen too small for it shows no review and enter signs nothing
// (canSign). Without a fit it is the shortest rendering, for its height.
// Level 4 is tried three times: with the wallet logged in with whole,
// then on one line without where it was opened (signingKey.TightView),
// then with a key found whole on one line in fewer words, the countdown
// beside it (signer.Found.Brief): the line a note or the loss question
// needs at 60x20. Without a key here what fits chooses its words
// (kit.ReviewGate.FittedNoKey), not the level.
func (r *reviewScreen) fitted() (string, bool) {
	at := func(i int, w kit.NoKeyWording) string { return r.render(min(i, 4), max(i-4, 0), w) }
	if r.gate.Key.Found && !r.gate.Key.Usable() {
		return r.gate.FittedNoKey(7, r.h, at)
	}
	return r.gate.Fitted(7, r.h, func(i int) string { return at(i, kit.NoKeyFull) })
}

// render draws the review at level; tight is how tightly level 4 draws
// the signing key, words how fully no key here is said (fitted).
func (r *reviewScreen) render(level int, tight int, words kit.NoKeyWording) string {
	compact := level > 0
	c := r.app.Common
	var b strings.Builder
	if r.setupErr != nil {
		b.WriteString(layout.ErrorBlock(c, "Error", r.setupErr, r.wd))
		return layout.Clip(b.String(), r.wd)
	}
	b.WriteString(r.typedDataView(level))
	if !compact {
		b.WriteString("\n")
	}
	// After a final refusal or an acceptance nothing of this quote can be
	// signed: its countdown would urge what cannot help.
	counts := !r.gate.Sending && !r.accepted && !r.expired() && r.bridgeErr == nil && !r.refused && level < 5
	key, beside := r.gate.Key.View(16), false
	if level >= 4 && (tight > 0 || !r.gate.Key.Wallet()) {
		// The smallest levels put a keystore key on one line, and the
		// countdown beside its passphrase.
		tail := ""
		if counts {
			tail = r.countdownShort()
		}
		key, beside = r.gate.Key.TightView(16, tail, tight > 1)
	}
	b.WriteString(key + "\n")
	if counts && !beside {
		b.WriteString(r.countdownView(level) + "\n")
	}
	if !compact {
		b.WriteString("\n")
	}
	switch {
	case r.accepted:
		b.WriteString(r.outcome())
	case r.gate.Sending:
		b.WriteString(r.gate.Prompt("Signing and sending the withdrawal… (retries reuse the same signature)", "") + "\n")
	case r.bridgeErr != nil:
		b.WriteString(layout.ErrorBlock(c, "Stopped: bridge address", r.bridgeStop(), r.wd) + r.stopNote())
	case r.repeatErr != nil:
		b.WriteString(layout.ErrorBlock(c, "Stopped: journal", r.repeatErr, r.wd) + r.stopNote())
	case r.repeat.Unanswered != nil:
		b.WriteString(layout.ErrorBlock(c, "Stopped: possible repeat", r.repeatStop(), r.wd) + r.stopNote())
	case r.bridge == nil:
		b.WriteString(r.gate.Prompt("", "Checking the bridge funding address…") + "\n")
	case r.gate.Offline.Done():
		b.WriteString(r.gate.Offline.View(r.app.Common, r.wd))
	case r.gate.Offline.Preparing:
		b.WriteString(r.gate.Prompt("", "Preparing the Transfer for offline signing…") + "\n")
	case r.expired():
		b.WriteString(layout.ErrorBlock(c, "Quote expired", exchange.UserError{Text: r.requoteStep("to get a new one")}, r.wd))
	case r.err != nil:
		b.WriteString(r.errBlock(level >= 4))
	default:
		rk := r.requoteKey().Help().Key
		ready := "Press enter to sign and withdraw; " + rk + " for a new quote; esc to go back."
		switch {
		case level >= 4 && r.gate.Key.Waits():
			// No row for the requote note: it follows the question, which
			// stays first so enter's act is never in doubt.
			ask := "Press enter to sign; "
			ready = ask + withdrawal.RequoteNoteTight(r.order, r.wd-len(ask))
		case level > 2:
			ready = "Press enter to sign and withdraw; " + rk + " for a new quote."
		}
		switch {
		case !r.gate.Key.Found:
			ready = "Looking for the signing key…; esc to go back."
		case !r.gate.Key.Usable() && (words > kit.NoKeyFull || level >= 4):
			// Fewer words where the full ones do not fit (fitted): the
			// briefest fit the rows left at 60x20. The smallest levels end
			// in fewer words.
			ready = r.gate.NoKeyWords(r.gate.Key.NoKeyWords(words), r.preparable(), "it").Error() + "."
		case !r.gate.Key.Usable():
			ready = r.gate.NoKeyWords(r.gate.Key.Ready(), r.preparable(), "the Transfer").Error() + "; esc to go back."
		}
		if r.askedLoss() {
			ready = r.lossQuestion(level)
			if level <= 2 {
				b.WriteString(c.Styles.Warning.Render(layout.WrapTo(lossWords(r.order), r.wd)) + "\n")
			}
		}
		if words := r.repeatNote(level); words != "" {
			b.WriteString(c.Styles.Warning.Render(layout.WrapTo(words, r.wd)) + "\n")
		}
		b.WriteString(r.gate.Prompt("", ready) + "\n")
	}
	return layout.Clip(strings.TrimSuffix(b.String(), "\n"), r.wd)
}

// repeatNote warns of identical withdrawals that do not stop this one (not
// a stop: paying the same twice can be meant): one made a moment ago and
// not finished, one that ended FAILED and stays debited. Above level 2 the
// figures above say its money and where it goes, and the brief words of
// one alone fit, the FAILED one's first: its funds are held.
func (r *reviewScreen) repeatNote(level int) string {
	now, rep := r.app.Common.Now(), r.repeat
	var notes []string
	switch {
	case level > 2 && rep.Failed != nil:
		notes = append(notes, rep.FailedBrief(now))
	case level > 2 && rep.Recent != nil:
		notes = append(notes, rep.RecentBrief(now))
	default:
		if rep.Recent != nil {
			notes = append(notes, rep.RecentWords(now))
		}
		if rep.Failed != nil {
			notes = append(notes, rep.FailedWords(now))
		}
	}
	if len(notes) == 0 {
		return ""
	}
	return "Note: " + strings.Join(notes, ". ") + "."
}
