package follow

import (
	"cmp"

	"github.com/svcwallet/svcwallet/service/journal"
)

// FromSigned notes a value filled from what was signed (the journal's
// intent) where the service's record left it out.
const FromSigned = "from what was signed"

// NoChain is what every face says of a record's chain that neither the
// record nor the journal gives: a COMPLETED one's payout hash is then on a
// chain nobody named, which a blank line or column would hide. A table's
// column keeps its dash, one word a script splits on.
const NoChain = "not given by the service"

// ChainText is v, a known record's chain (Filled), as a line says it.
func ChainText(v Value) string { return cmp.Or(v.Text, NoChain) }

// Value is one of a record's values as every face says it: Text "" is not
// known (the face's dash), Signed that it is the journal's (FromSigned).
type Value struct {
	Text   string
	Signed bool
}

// Filled is f's chain and receive amount as every face says them, with
// the receive amount's token: the record's; where it left one out, own's
// (the journal's intent of this withdrawal, zero for another's), marked
// Signed; else "". A receive amount left out reads as zero (ReceiveText).
func (f Follow) Filled(own journal.Intent) (chain, receive Value, token string) {
	w := f.Last
	chain, receive = Value{Text: w.Chain}, Value{Text: ReceiveText(w)}
	if chain.Text == "" && own.Chain != "" {
		chain = Value{Text: own.Chain, Signed: true}
	}
	if receive.Text == "" && !own.ReceiveAmount.IsZero() {
		receive = Value{Text: own.ReceiveAmount.String(), Signed: true}
	}
	return chain, receive, cmp.Or(w.TokenOut, own.TokenOut)
}

// Note is FromSigned for a value filled from the journal, else "".
func (v Value) Note() string {
	if v.Signed {
		return FromSigned
	}
	return ""
}
