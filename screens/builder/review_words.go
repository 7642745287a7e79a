package builder

import (
	"context"
	"errors"
	"fmt"

	"github.com/svcwallet/svcwallet/screens/kit"
	"github.com/svcwallet/svcwallet/service/builder"
	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/intent"
)

// review is the message's review at level: from 2 in the accounts' short
// words (builder.Order.ShortReview); from 7 in the fewest
// (builder.Order.TightReview), and at 8 with the key's label in the
// signer's note, so its own row goes (labelled).
func (r *builderReviewScreen) review(level int) (review intent.Review, labelled bool) {
	switch {
	case level < 2:
		return r.order.Review(), false
	case level < 7:
		return r.order.ShortReview(), false
	}
	return r.order.TightReview(level >= 8)
}

// warnings are the review's (builder.Auth.Warnings); from 3 an API key's
// in one line at 60 columns for one name (TightWarnings); from 7 without
// the names, which the permissions field above shows (BriefWarnings).
func (r *builderReviewScreen) warnings(level int) []string {
	switch a := r.order.Auth; {
	case level < 3:
		return a.Warnings()
	case level < 7:
		return a.TightWarnings()
	default:
		return a.BriefWarnings()
	}
}

// againWords say enter's step after a fate whose signed body may be sent
// again.
func againWords(f builder.Fate) string {
	switch f {
	case builder.FateNotSent:
		return "Enter sends the same signed authorization, which was not sent; esc goes back to the form."
	case builder.FateLimited:
		return "Enter sends the same signed authorization once the wait is over; esc goes back to the form."
	case builder.FateUnknown:
		return "Enter sends the same signed authorization again (nothing is signed anew); esc goes back to the form, whose review signs anew."
	}
	return ""
}

// noKeyError: enter found no key here for the main account; where o acts
// the review says it prepares the authorization for signing elsewhere.
type noKeyError struct{ error }

// noKey: the search found no key that signs here. Enter, which could only
// say so, does not act; the ready line says it at once (noKeyWords).
func (r *builderReviewScreen) noKey() bool { return r.gate.Key.Found && !r.gate.Key.Usable() }

// noKeyWords are err, no key here, and where o acts that it prepares the
// authorization for signing elsewhere.
func (r *builderReviewScreen) noKeyWords(err error) error {
	return r.gate.NoKeyWords(err, r.preparable(), "the authorization")
}

// shownErr is r.err with the console's step after a refusal's fact
// (refusalWords), or o's after no key, said as the screen is drawn: esc
// and o are named only while they act (kit.ReviewGate.Acts, the footer's
// rule), not in the hold that the review showing again starts.
func (r *builderReviewScreen) shownErr() error {
	if errors.As(r.err, new(noKeyError)) {
		return r.noKeyWords(r.err)
	}
	return refusalWords(r.err, r.gate.Acts(true), r.gate.KeysEnabled(r.app.Common.Now()))
}

// refusalWords says the console's step after a refusal's fact
// (builder.Next): esc goes back to the form, whose review draws a new
// nonce; while keys are held (acts false) when they act (enabled,
// kit.KeysEnabledIn's words).
func refusalWords(err error, acts bool, enabled string) error {
	var re *builder.RefusedError
	if !errors.As(err, &re) || re.Next == builder.NextNone {
		return err
	}
	if !acts {
		return exchange.UserError{Text: re.Fact + ". Read it: " + enabled, Cause: err}
	}
	switch re.Next {
	case builder.NextNonce:
		return exchange.UserError{Text: re.Fact + "; otherwise press esc and review it again for a new nonce", Cause: err}
	case builder.NextValidity:
		return exchange.UserError{Text: re.Fact + ": press esc and choose a shorter validity", Cause: err}
	}
	return err
}

// endWords say the send of o when the console ends with it out
// (kit.Sends): where to check it, as the interface cannot be asked. Its
// request ends with root, the console's, so one cut by the end is said too.
func endWords(o builder.Order, root context.Context) *kit.Sending {
	return &kit.Sending{What: "the authorization of builder " + o.Auth.Builder.Hex(), Check: o.Auth.Unchecked(), Cut: root}
}

// tooSmall asks for a terminal taller than r.h for a review of need
// lines. Without a key here no size signs: a taller one shows the ways to
// bring it, and o where it prepares the authorization for elsewhere.
func (r *builderReviewScreen) tooSmall(need int) string {
	said := fmt.Sprintf("The message to sign needs %d lines and this terminal shows %d. ", need, r.h)
	switch {
	case r.noKey() && r.preparable():
		return said + "No key here signs for this account: enlarge the terminal to review it and prepare it for offline signing, or to see how to bring the key."
	case r.noKey():
		return said + "No key here signs for this account: enlarge the terminal to see how to bring the key."
	}
	return said + "Enlarge the terminal to review it; signing waits until it can be read whole."
}
