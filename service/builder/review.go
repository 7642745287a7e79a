package builder

import (
	"strconv"
	"strings"
	"time"

	"github.com/svcwallet/svcwallet/service/intent"
	"github.com/svcwallet/svcwallet/signer"
)

// HighFeeRate is the fee cap, as signed (the percentage × 10,000), above
// which a review warns: 1%. The published service refuses a cap above its
// builder program's limit (7500) without saying the limit, and the sandbox
// takes anything the signed uint32 holds (429,496.7295%), so neither stops
// a slip such as 10 typed for 0.10. A builder charges the cap on every
// trade it makes for the account, and an exchange's own trading fees are
// hundredths of a percent: a cap above 1% lets the builder take many times
// what the trade itself costs, which no builder needs and a slip or a
// hostile request would ask for.
const HighFeeRate uint32 = 10000

// Warnings are what every review of a warns of: the builder is the main
// account itself (OwnAccountWarning), a fee cap above HighFeeRate, an API
// key allowed more than Trade (PermsWarning).
func (a Auth) Warnings() []string {
	var out []string
	if a.Builder == a.Main {
		out = append(out, OwnAccountWarning)
	}
	if w := PermsWarning(a); w != "" {
		out = append(out, w)
	}
	for _, c := range []struct {
		what string
		rate uint32
	}{{"futures", a.Futures}, {"spot", a.Spot}} {
		if w := FeeWarning(c.what, c.rate); w != "" {
			out = append(out, w)
		}
	}
	return out
}

// FeeWarning words a fee cap of kind what ("futures", "spot") above
// HighFeeRate; "" when it is not.
func FeeWarning(what string, rate uint32) string {
	if rate <= HighFeeRate {
		return ""
	}
	pct := signer.FormatFeeRate(rate) + "%"
	return "The " + what + " fee cap " + pct + " is above " + signer.FormatFeeRate(HighFeeRate) + "%: the builder may charge up to " + pct +
		" of every " + what + " trade it makes for you, many times an exchange's own fee. Check that you meant it."
}

// PermsWarning words an API key that may do more than trade: SPEC.md §4.4
// names Trade as the permission to give a builder's key, and whoever holds
// the key's signer may use every other permission it gets on the account.
// "" without a key, or with Trade alone.
func PermsWarning(a Auth) string {
	extra := a.Perms &^ signer.Permissions(0).With(signer.PermTrade)
	if !a.WithKey || extra == 0 {
		return ""
	}
	// One line at 80 columns for one name: the review of a key must still
	// fit an 80x24 terminal to be signed there.
	names := strings.ReplaceAll(extra.String(), "&", ", ")
	if !a.Perms.Has(signer.PermTrade) {
		return "The builder's API key gets " + names + ", not Trade; a builder needs only Trade."
	}
	return "The builder's API key also gets " + names + "; a builder needs only Trade."
}

// TightWarnings are Warnings for a review short of room (60 columns): an
// API key's in words that keep to one line there for one name.
func (a Auth) TightWarnings() []string {
	out := a.Warnings()
	if w := PermsWarning(a); w != "" {
		for i := range out {
			if out[i] == w {
				out[i] = strings.Replace(w, "The builder's API key", "The key", 1)
			}
		}
	}
	return out
}

// BriefWarnings are TightWarnings for a review with no row to spare: an
// API key's without its permissions' names, which the review's permissions
// field shows (two names or more took two lines, or three, at 60 columns).
func (a Auth) BriefWarnings() []string {
	out := a.Warnings()
	w := PermsWarning(a)
	if w == "" {
		return out
	}
	brief := "The key gets more than Trade, all a builder needs."
	if !a.Perms.Has(signer.PermTrade) {
		brief = "The key gets other rights, not Trade, all a builder needs."
	}
	for i := range out {
		if out[i] == w {
			out[i] = brief
		}
	}
	return out
}

// OwnAccountWarning is the reviews' warning when the builder is the main
// account itself.
const OwnAccountWarning = "The builder is your own account: a builder is normally another account that trades for yours."

// Review is what a review shows of o's message (the console's and the
// command line's): each field beside what it is, and what signing does.
func (o Order) Review() intent.Review {
	a := o.Auth
	purpose := "authorize only, no API key"
	if a.WithKey {
		purpose = "authorize and create an API key"
	}
	return intent.Review{Intent: intent.Intent{Domain: o.Domain, Message: o.Message, Signer: a.Main}, Purpose: purpose,
		Meanings: map[string]string{
			"mainAccountID": "your funding account", "accountID": "your funding account",
			"builderAccountID": "the builder", "signer": "the builder's API-key signer",
			"maxFutureFeeRate": "= " + signer.FormatFeeRate(a.Futures) + "% futures cap",
			"maxSpotFeeRate":   "= " + signer.FormatFeeRate(a.Spot) + "% spot cap",
			"expiration":       Until(o.Expiration()) + ", " + HumanDuration(a.Validity),
		}}
}

// ShortReview is Review for a face short of room: whose each account is,
// in words that stay beside its address at 80 columns, so the API key's
// signer is never read as the user's own key.
func (o Order) ShortReview() intent.Review {
	r := o.Review()
	r.Meanings["mainAccountID"], r.Meanings["accountID"], r.Meanings["signer"] = "your account", "your account", "builder's API key"
	return r
}

// TightReview is ShortReview for a review with no row to spare: the
// expiration's meaning its date alone, as a withdrawal's short review says
// it (the validity's length is the form's); with label, an API key's label
// in the signer's note, whose key it names, so its own row may go
// (labelled: there is one).
func (o Order) TightReview(label bool) (r intent.Review, labelled bool) {
	r = o.ShortReview()
	r.Meanings["expiration"] = o.Expiration().UTC().Format("2006-01-02 15:04:05Z")
	if a := o.Auth; label && a.WithKey && a.Label != "" {
		r.Meanings["signer"] += " " + strconv.Quote(a.Label)
		labelled = true
	}
	return r, labelled
}

// Facts are the authorization as every review lists it, before its typed
// data: the builder, the account, the caps, the signature's life and the
// API key it creates. All but the key's label are fields of the message
// (details, for a review that shows the message with each field's meaning).
func (o Order) Facts() []intent.Fact {
	a := o.Auth
	return append([]intent.Fact{
		{Label: "Builder", Value: a.Builder.Hex(), Note: "may trade for your account", Mark: intent.Detail},
		{Label: "For account", Value: a.Main.Hex(), Note: "your main account", Mark: intent.Detail},
		{Label: "Max futures fee", Value: FeeText(a.Futures), Mark: intent.Detail}, {Label: "Max spot fee", Value: FeeText(a.Spot), Mark: intent.Detail},
		{Label: "Signature until", Value: Until(o.Expiration()), Note: "valid for " + HumanDuration(a.Validity), Mark: intent.Detail},
	}, a.KeyFacts("sent beside the signature")...)
}

// Granted is what an authorization the service accepted grants, until
// expires, as every face says it.
func (a Auth) Granted(expires time.Time) []intent.Fact {
	return []intent.Fact{{Label: "Builder", Value: a.Builder.Hex()}, {Label: "May trade for", Value: a.Main.Hex()},
		{Label: "Max futures fee", Value: FeeText(a.Futures)}, {Label: "Max spot fee", Value: FeeText(a.Spot)},
		{Label: "Signature until", Value: Until(expires)}}
}

// KeyFacts are the API key a creates (none without one), its label noted
// with labelNote.
func (a Auth) KeyFacts(labelNote string) []intent.Fact {
	if !a.WithKey {
		return nil
	}
	return []intent.Fact{{Label: "Key label", Value: a.Label, Note: labelNote}, {Label: "Key signer", Value: a.KeySigner.Hex(), Mark: intent.Detail},
		{Label: "Permissions", Value: a.Perms.String(), Mark: intent.Detail}}
}

// Until is when a signature stops being valid, as every face says it.
func Until(t time.Time) string { return t.UTC().Format("2006-01-02 15:04:05 UTC") }
