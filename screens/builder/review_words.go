package builder

import (
	"errors"
	"strconv"

	"github.com/svcwallet/svcwallet/service/builder"
	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/intent"
	"github.com/svcwallet/svcwallet/signer"
)

// review is the message's review at level: from 2 in the accounts' short
// words (builder.Order.ShortReview); from 7 the expiration's meaning the
// date beside it, as a withdrawal's review says it (the validity's length
// is the form's, and the date says when); at 8 the key's label in the
// signer's note, whose key it names, so its own row goes (labelled).
func (r *builderReviewScreen) review(level int) (review intent.Review, labelled bool) {
	if review = r.order.Review(); level < 2 {
		return review, false
	}
	review = r.order.ShortReview()
	if level >= 7 {
		review.Meanings["expiration"] = r.order.Expiration().UTC().Format("2006-01-02 15:04:05Z")
	}
	if a := r.order.Auth; level >= 8 && a.WithKey && a.Label != "" {
		review.Meanings["signer"] += " " + strconv.Quote(a.Label)
		labelled = true
	}
	return review, labelled
}

// warnings are the review's (builder.Auth.Warnings); from 3 an API key's
// in one line at 60 columns for one name (TightWarnings); from 7 without
// the names, which the permissions field above shows: with two names or
// more it took two lines, or three.
func (r *builderReviewScreen) warnings(level int) []string {
	a := r.order.Auth
	if level < 3 {
		return a.Warnings()
	}
	out, long := a.TightWarnings(), builder.PermsWarning(a)
	if level < 7 || long == "" {
		return out
	}
	brief := "The key gets more than Trade, all a builder needs."
	if !a.Perms.Has(signer.PermTrade) {
		brief = "The key gets other rights, not Trade, all a builder needs."
	}
	for i, w := range a.Warnings() {
		if w == long {
			out[i] = brief
		}
	}
	return out
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

// shownErr is r.err with the console's step after a refusal's fact
// (refusalWords), or o's after no key, said as the screen is drawn: esc
// and o are named only while they act (kit.ReviewGate.Acts, the footer's
// rule), not in the hold that the review showing again starts.
func (r *builderReviewScreen) shownErr() error {
	if errors.As(r.err, new(noKeyError)) && r.gate.Acts(r.preparable()) {
		return exchange.UserError{Text: r.err.Error() + " — or press o to prepare the authorization for offline signing"}
	}
	return refusalWords(r.err, r.gate.Acts(true), r.gate.In())
}

// refusalWords says the console's step after a refusal's fact
// (builder.Next): esc goes back to the form, whose review draws a new
// nonce; while keys are held (acts false) when they act (in).
func refusalWords(err error, acts bool, in string) error {
	var re *builder.RefusedError
	if !errors.As(err, &re) || re.Next == builder.NextNone {
		return err
	}
	if !acts {
		return exchange.UserError{Text: re.Fact + ". Read it: keys are enabled " + in, Cause: err}
	}
	switch re.Next {
	case builder.NextNonce:
		return exchange.UserError{Text: re.Fact + "; otherwise press esc and review it again for a new nonce", Cause: err}
	case builder.NextValidity:
		return exchange.UserError{Text: re.Fact + ": press esc and choose a shorter validity", Cause: err}
	}
	return err
}
