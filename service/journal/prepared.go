package journal

import (
	"encoding/json"

	"github.com/ethereum/go-ethereum/common"
	"github.com/shopspring/decimal"

	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/signer"
)

// KindPrepared is a signed intent prepared for offline signing: its typed
// data went to a file for a wallet elsewhere, and the line keeps all the
// rest. A withdrawal's is not a withdrawal until an intent line follows.
const KindPrepared = "prepared"

// What a prepared line prepared (Prepared.Kind): a withdrawal's Transfer
// (with its intent, domain and Transfer, as an intent line) or a builder
// authorization (Builder).
const (
	PreparedWithdrawal = "withdrawal"
	PreparedBuilder    = "builder"
)

// kindBuilderPrepared is a builder authorization's prepared line as
// earlier versions wrote it; read as a prepared line (upgrade).
const kindBuilderPrepared = "builder_prepared"

// Prepared is what a prepared line holds besides its typed data.
type Prepared struct {
	// Kind is PreparedWithdrawal also on the lines that lack it, written
	// before builder authorizations shared the prepared line.
	Kind string `json:"kind"`
	// Signer is the address expected to sign the file.
	Signer common.Address `json:"signer"`
	// Fee is a withdrawal's quote fee: with no fee cap (--max-fee), a
	// fresh quote may cost no more.
	Fee    *decimal.Decimal `json:"fee,omitempty"`
	FeeCap *decimal.Decimal `json:"max_fee,omitempty"`
	// AcceptedLoss is the percentage of the amount accepted beforehand
	// (--accept-loss), which a fresh quote at submission keeps to.
	AcceptedLoss *decimal.Decimal `json:"accepted_loss,omitempty"`
}

// UnmarshalJSON reads the amounts bounded, as Intent's are.
func (p *Prepared) UnmarshalJSON(b []byte) error {
	var w struct {
		Kind         string               `json:"kind"`
		Signer       common.Address       `json:"signer"`
		Fee          *exchange.WireAmount `json:"fee"`
		FeeCap       *exchange.WireAmount `json:"max_fee"`
		AcceptedLoss *exchange.WireAmount `json:"accepted_loss"`
	}
	if err := json.Unmarshal(b, &w); err != nil {
		return err
	}
	*p = Prepared{Kind: w.Kind, Signer: w.Signer}
	if p.Kind == "" {
		p.Kind = PreparedWithdrawal
	}
	var err error
	p.Fee, err = decodeAmount(w.Fee, "prepared fee")
	if err == nil {
		p.FeeCap, err = decodeAmount(w.FeeCap, "prepared fee cap")
	}
	if err == nil {
		p.AcceptedLoss, err = decodeAmount(w.AcceptedLoss, "prepared accepted loss")
	}
	return err
}

func decodeAmount(a *exchange.WireAmount, field string) (*decimal.Decimal, error) {
	if a == nil {
		return nil, nil
	}
	v, err := a.Decode(field, exchange.TokenDecimals, true)
	return &v, err
}

// upgrade reads a line an earlier version wrote as this one writes it.
func (e *Entry) upgrade() {
	if e.Kind == kindBuilderPrepared && e.Builder != nil && e.Prepared == nil {
		e.Kind, e.Prepared = KindPrepared, &Prepared{Kind: PreparedBuilder, Signer: e.Builder.Main}
	}
}

// checkPrepared holds a prepared line to its kind's shape, with no request
// (nothing was signed yet).
func (e *Entry) checkPrepared() error {
	p := e.Prepared
	switch {
	case e.Kind != KindPrepared && p != nil:
		return exchange.NewShapeError("journal entry", "holds a prepared intent but is not a prepared line")
	case e.Kind != KindPrepared:
		return nil
	case p == nil || e.Request != nil || e.State != "" || e.TxHash != "" || e.Error != "":
		return exchange.NewShapeError("prepared line", "lacks what it prepared, or holds a request or an answer")
	case p.Signer == (common.Address{}):
		return exchange.NewShapeError("prepared signer", "is the zero address")
	case p.Kind == PreparedWithdrawal && (p.Fee == nil || e.Intent == nil || e.Transfer == nil || e.Domain == nil || e.Builder != nil):
		return exchange.NewShapeError("prepared line", "lacks its intent, domain, transfer or fee")
	case p.AcceptedLoss != nil && (!p.AcceptedLoss.IsPositive() || p.AcceptedLoss.GreaterThan(decimal.NewFromInt(100))):
		return exchange.NewShapeError("prepared accepted loss", "is not a percentage above 0 and at most 100")
	case p.Kind == PreparedBuilder && (e.Builder == nil || p.Signer != e.Builder.Main || p.Fee != nil || p.FeeCap != nil || p.AcceptedLoss != nil):
		return exchange.NewShapeError("prepared line", "is not a builder authorization its main account signs")
	case p.Kind != PreparedWithdrawal && p.Kind != PreparedBuilder:
		return exchange.NewShapeError("prepared kind", "is not withdrawal or builder")
	case p.Kind == PreparedWithdrawal:
		return checkPreparedTransfer(*e.Intent, *e.Transfer)
	}
	return nil
}

// checkPreparedTransfer holds a prepared withdrawal's intent to its
// Transfer, the one part a wallet signs: submit takes the amount its
// repeat check and fresh quote ask for from the intent, so the intent must
// pay what the Transfer moves, in USDT (the one currency it can move), to a
// destination, from a funding account to another (the bridge's).
func checkPreparedTransfer(in Intent, tr signer.Transfer) error {
	raw, err := exchange.RawUnits(in.PayAmount)
	switch {
	case err != nil || raw != tr.NumTokens:
		return exchange.NewShapeError("prepared intent", "pays another amount than its transfer's num_tokens")
	case in.TokenIn != exchange.TokenUSDT || tr.TokenCurrency != signer.USDTCurrency:
		return exchange.NewShapeError("prepared intent", "pays another token than USDT, or its transfer another currency")
	case in.ToAddress == "":
		return exchange.NewShapeError("prepared intent", "has no destination")
	case tr.ToAccount == (common.Address{}) || tr.ToAccount == tr.FromAccount:
		return exchange.NewShapeError("prepared transfer", "pays the zero address or its own funding account, not a bridge")
	}
	return nil
}

// Typed is the typed data a line carries, if any: a withdrawal's domain
// and Transfer, or a builder authorization's message.
func (e Entry) Typed() (d signer.Domain, m signer.Message, ok bool) {
	switch {
	case e.Builder != nil:
		return e.Builder.Domain, e.Builder.Message(), true
	case e.Domain != nil && e.Transfer != nil:
		return *e.Domain, *e.Transfer, true
	}
	return d, nil, false
}
