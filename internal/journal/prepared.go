package journal

import (
	"encoding/json"

	"github.com/ethereum/go-ethereum/common"
	"github.com/shopspring/decimal"

	"github.com/svcwallet/svcwallet/internal/exchange"
	"github.com/svcwallet/svcwallet/internal/signer"
)

// KindPrepared is a signed intent prepared for offline signing: its typed
// data went to a file for a wallet elsewhere to sign, and the line keeps
// what svcwallet needs to finish when the signature is submitted (the
// signed file holds none of it). Prepared.Kind says what it is; a
// withdrawal's is not a withdrawal until an intent line follows.
const KindPrepared = "prepared"

// What a prepared line prepared (Prepared.Kind).
const (
	// PreparedWithdrawal is a withdrawal's Transfer: the line holds its
	// intent, domain and Transfer, as an intent line does.
	PreparedWithdrawal = "withdrawal"
	// PreparedBuilder is a builder authorization: the line holds its
	// Builder.
	PreparedBuilder = "builder"
)

// kindBuilderPrepared is a builder authorization's prepared line as
// versions before one prepared line for every intent wrote it: read as a
// prepared line of kind PreparedBuilder (upgrade), never written.
const kindBuilderPrepared = "builder_prepared"

// Prepared is what a prepared line holds besides the typed data it
// prepared.
type Prepared struct {
	// Kind is PreparedWithdrawal (also on lines written before builder
	// authorizations had prepared lines, which lack it) or PreparedBuilder.
	Kind string `json:"kind"`
	// Signer is the address expected to sign the file.
	Signer common.Address `json:"signer"`
	// Fee is the fee of the quote a Transfer was made from: with no fee
	// cap, a fresh quote may cost no more than that quote. A withdrawal's
	// only.
	Fee *decimal.Decimal `json:"fee,omitempty"`
	// FeeCap is --max-fee; nil when none was given.
	FeeCap *decimal.Decimal `json:"max_fee,omitempty"`
}

// UnmarshalJSON reads the amounts bounded, as Intent's are.
func (p *Prepared) UnmarshalJSON(b []byte) error {
	var w struct {
		Kind   string               `json:"kind"`
		Signer common.Address       `json:"signer"`
		Fee    *exchange.WireAmount `json:"fee"`
		FeeCap *exchange.WireAmount `json:"max_fee"`
	}
	if err := json.Unmarshal(b, &w); err != nil {
		return err
	}
	*p = Prepared{Kind: w.Kind, Signer: w.Signer}
	if p.Kind == "" {
		p.Kind = PreparedWithdrawal
	}
	for _, a := range []struct {
		field string
		wire  *exchange.WireAmount
		to    **decimal.Decimal
	}{{"prepared fee", w.Fee, &p.Fee}, {"prepared fee cap", w.FeeCap, &p.FeeCap}} {
		if a.wire == nil {
			continue
		}
		v, err := a.wire.Decode(a.field, exchange.TokenDecimals, true)
		if err != nil {
			return err
		}
		*a.to = &v
	}
	return nil
}

// upgrade reads a line an earlier version wrote as this one writes it.
func (e *Entry) upgrade() {
	if e.Kind == kindBuilderPrepared && e.Builder != nil && e.Prepared == nil {
		e.Kind, e.Prepared = KindPrepared, &Prepared{Kind: PreparedBuilder, Signer: e.Builder.Main}
	}
}

// checkPrepared holds a prepared line to its shape: the typed data of its
// kind and what Prepared says, and no request (nothing was signed yet).
func (e *Entry) checkPrepared() error {
	switch {
	case e.Kind != KindPrepared && e.Prepared != nil:
		return exchange.NewShapeError("journal entry", "holds a prepared intent but is not a prepared line")
	case e.Kind != KindPrepared:
		return nil
	case e.Prepared == nil:
		return exchange.NewShapeError("prepared line", "lacks what it prepared")
	case e.Request != nil || e.State != "" || e.TxHash != "" || e.Error != "":
		return exchange.NewShapeError("prepared line", "holds a request or an answer")
	case e.Prepared.Signer == (common.Address{}):
		return exchange.NewShapeError("prepared signer", "is the zero address")
	}
	p := e.Prepared
	switch p.Kind {
	case PreparedWithdrawal:
		if p.Fee == nil || e.Intent == nil || e.Transfer == nil || e.Domain == nil || e.Builder != nil {
			return exchange.NewShapeError("prepared line", "lacks its intent, domain, transfer or fee")
		}
	case PreparedBuilder:
		if e.Builder == nil || p.Signer != e.Builder.Main || p.Fee != nil || p.FeeCap != nil {
			return exchange.NewShapeError("prepared line", "is not a builder authorization to be signed by its main account")
		}
	default:
		return exchange.NewShapeError("prepared kind", "is not withdrawal or builder")
	}
	return nil
}

// Typed is the typed data a line carries, with ok: a withdrawal's domain
// and Transfer (intent and prepared lines), a builder authorization's
// message.
func (e Entry) Typed() (d signer.Domain, m signer.Message, ok bool) {
	switch {
	case e.Builder != nil:
		return e.Builder.Domain, e.Builder.Message(), true
	case e.Domain != nil && e.Transfer != nil:
		return *e.Domain, *e.Transfer, true
	}
	return d, nil, false
}
