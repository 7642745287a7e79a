package withdraw

import (
	"errors"
	"fmt"
	"time"

	"github.com/svcwallet/svcwallet/screens/kit"
	"github.com/svcwallet/svcwallet/screens/kit/layout"
	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/intent"
	"github.com/svcwallet/svcwallet/service/withdrawal"
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
		if r.gate.Key.Waits() {
			// A person approves: the quote may expire meanwhile.
			out += st.Muted.Render(layout.WrapTo(withdrawal.RequoteNote(r.order), max(r.wd, 20))) + "\n"
		}
	}
	return out
}

// view is the Transfer as the review shows it at level: the amount and the
// bridge address drawn apart, and their meanings and the expiry's kept.
func (r *reviewScreen) view(level int) kit.TypedDataView {
	return kit.TypedDataView{
		Review: r.order.Review(r.bridgeNote(), level > 2),
		Danger: map[string]bool{"numTokens": true, "toAccount": true},
		Keep:   map[string]bool{"numTokens": true, "expiration": true, "toAccount": true},
		// The nonce beside the sub-accounts saves the line a converting
		// payout's note takes at 60x20.
		Pairs: map[string][]string{"fromSubAccount": {"toSubAccount", "nonce"}, "tokenCurrency": {"numTokens"}},
		Where: kit.WhereRows(r.app),
	}
}

// bridgeNote says why toAccount is trusted: pinned by the config, recorded at
// first use, or seen since a date.
func (r *reviewScreen) bridgeNote() string {
	switch {
	case r.bridgeErr != nil:
		return "NOT the expected one"
	case r.bridge == nil:
		return "checking…"
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
		msg += ". Read it: " + keysInAMoment
	}
	return exchange.UserError{Text: msg}
}

// keysInAMoment stands where a message would name a key the guard holds.
const keysInAMoment = "keys are enabled in a moment"

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
		return "read it: " + keysInAMoment
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
