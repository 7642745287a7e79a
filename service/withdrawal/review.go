package withdrawal

import (
	"time"

	"svcwallet/service"
)

// FieldMeanings says what each field of the order's Transfer means to the
// user, by field name: the notes beside the signed values on every review
// (the console's and `svcwallet withdraw`'s). bridgeNote says why the
// bridge address is trusted (BridgeTrust.Note, or why it is not).
func (o Order) FieldMeanings(bridgeNote string) map[string]string {
	in := o.Choice.TokenIn
	return map[string]string{
		"fromAccount":    "your funding account",
		"toAccount":      "bridge funding address (" + o.Choice.Info.Provider + ") · " + bridgeNote,
		"tokenCurrency":  in,
		"numTokens":      "= " + service.FromRawUnits(o.Transfer.NumTokens).String() + " " + in + " (the quote's pay amount)",
		"fromSubAccount": "main account",
		"toSubAccount":   "main account",
		"expiration":     time.Unix(0, o.Transfer.Expiration).UTC().Format("2006-01-02 15:04:05 UTC"),
	}
}

// Note says why a bridge address may be signed: pinned by the config,
// trusted at first use, or seen since a date.
func (t BridgeTrust) Note() string {
	switch {
	case t.Pinned:
		return "pinned in config"
	case t.FirstUse:
		return "first use"
	}
	return "seen since " + t.SeenSince.UTC().Format("2006-01-02")
}

// ReviewSentence closes every review: what the signature does and what the
// quote does.
const ReviewSentence = "The signature pays the bridge; the quote sends it on to this destination."
