// Package intent is a signed intent: a message the user signs and the
// service executes once (a withdrawal's Transfer, a builder authorization),
// its review's facts and typed data, and its preparation for offline
// signing, found again in the journal and sent once. withdrawal and builder
// build their messages on it.
package intent

import (
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/svcwallet/svcwallet/signer"
)

// Intent is a message to sign, with its domain and the address whose key
// must sign it.
type Intent struct {
	Domain  signer.Domain
	Message signer.Message
	Signer  common.Address
}

// Digest is what the signature signs.
func (in Intent) Digest() common.Hash { return signer.Digest(in.Domain, in.Message) }

// TypedData is the eth_signTypedData_v4 JSON of the message, as a wallet
// takes it.
func (in Intent) TypedData() []byte { return signer.TypedDataJSON(in.Domain, in.Message) }

// Expiration is when a signature of the message stops being valid.
func (in Intent) Expiration() time.Time {
	_, exp := in.Message.NonceExpiration()
	return time.Unix(0, exp)
}

// ReviewDwell is how long a review is on the screen before an answer to it
// counts, whichever face asks: a key held down, typed ahead or carried by
// a paste comes sooner than a person who read it answers.
const ReviewDwell = 500 * time.Millisecond

// ShownDwell is how long a question that signs, pays or trusts holds keys
// from when it shows (first, or again): longer than a terminal's repeat
// delay, the wait before a held key's first repeat (X11 660 ms, KDE 600 ms,
// Windows up to 1 s, GNOME and macOS settable near 2 s), so an enter held
// from the screen before repeats first into the hold, which each repeat
// then holds on (ReviewDwell again). A first repeat 1.5 s on signed.
const ShownDwell = 2 * time.Second

// ShownDwellTold is ShownDwell where the terminal tells a held key's
// repeats from presses (the kitty keyboard protocol's event types): a
// repeat answers nothing whenever it comes, so the hold is the reading's.
const ShownDwellTold = time.Second

// PasteGap is the shortest time between two keys of a typed answer: a key
// (the Enter included) that follows the one before sooner came with it, as
// a paste. A terminal writes a paste at once (microseconds between its
// bytes, most often in one read), and a paste split into packets over ssh
// comes within a few milliseconds; a person's fastest two keys, y then
// Enter with a roll of the hand, are tens of milliseconds apart.
const PasteGap = 25 * time.Millisecond

// Review is what a review shows of an intent before it is signed, on the
// console and the command line alike.
type Review struct {
	Intent
	// Purpose says what signing does, in a few words; "" says nothing
	// beside the message's type.
	Purpose string
	// Meanings says what each field of the message means, by field name.
	Meanings map[string]string
}

// Field is one field of a reviewed message: its name and EIP-712 type, its
// value as signed, and what it means (as --json reviews write it).
type Field struct {
	Name    string `json:"name"`
	Type    string `json:"type"`
	Value   string `json:"value"`
	Meaning string `json:"meaning"`
}

// LabelWidth is the label column of a review, on the console and the
// command line: the longest field name, indented, and at least 16.
func (r Review) LabelWidth() int {
	w := 16
	for _, f := range r.Message.Fields() {
		w = max(w, 2+len(f.Name))
	}
	return w
}

// Fields are the message's fields, in the order they are signed.
func (r Review) Fields() []Field {
	var out []Field
	for _, f := range r.Message.Fields() {
		out = append(out, Field{Name: f.Name, Type: f.Type, Value: f.Display(), Meaning: r.Meanings[f.Name]})
	}
	return out
}

// BlindFacts are what a device that signs EIP-712 blind (a Ledger through
// cast) shows of the message, to compare there: its domain and message
// hashes.
func (r Review) BlindFacts() []Fact {
	return []Fact{{Label: "Domain hash", Value: r.Domain.Separator().Hex(), Note: "a device that signs blind shows these two"},
		{Label: "Message hash", Value: signer.StructHash(r.Message).Hex()}}
}
