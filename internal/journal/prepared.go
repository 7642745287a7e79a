package journal

import (
	"encoding/json"

	"github.com/ethereum/go-ethereum/common"
	"github.com/shopspring/decimal"

	"github.com/svcwallet/svcwallet/internal/exchange"
)

// KindPrepared is a Transfer prepared for offline signing: its typed data
// went to a file for a wallet elsewhere to sign, and the line keeps what
// svcwallet needs to finish when the signature is submitted (the signed
// file holds none of it). It is not a withdrawal until an intent follows.
const KindPrepared = "prepared"

// Prepared is what a prepared line holds besides its intent (the choice
// and the quote it was made from) and its domain and Transfer.
type Prepared struct {
	// Signer is the address expected to sign the file.
	Signer common.Address `json:"signer"`
	// Fee is the fee of the quote the Transfer was made from: with no fee
	// cap, a fresh quote may cost no more than that quote.
	Fee decimal.Decimal `json:"fee"`
	// FeeCap is --max-fee; nil when none was given.
	FeeCap *decimal.Decimal `json:"max_fee,omitempty"`
}

// UnmarshalJSON reads the amounts bounded, as Intent's are.
func (p *Prepared) UnmarshalJSON(b []byte) error {
	var w struct {
		Signer common.Address       `json:"signer"`
		Fee    exchange.WireAmount  `json:"fee"`
		FeeCap *exchange.WireAmount `json:"max_fee"`
	}
	if err := json.Unmarshal(b, &w); err != nil {
		return err
	}
	fee, err := w.Fee.Decode("prepared fee", exchange.TokenDecimals, true)
	if err != nil {
		return err
	}
	*p = Prepared{Signer: w.Signer, Fee: fee}
	if w.FeeCap != nil {
		c, err := w.FeeCap.Decode("prepared fee cap", exchange.TokenDecimals, true)
		if err != nil {
			return err
		}
		p.FeeCap = &c
	}
	return nil
}

// checkPrepared holds a prepared line to its shape: an intent, a domain
// and a Transfer and what Prepared says, and no request (nothing was
// signed yet).
func (e *Entry) checkPrepared() error {
	switch {
	case e.Kind != KindPrepared && e.Prepared != nil:
		return exchange.NewShapeError("journal entry", "holds a prepared transfer but is not a prepared line")
	case e.Kind != KindPrepared:
		return nil
	case e.Prepared == nil || e.Intent == nil || e.Transfer == nil || e.Domain == nil:
		return exchange.NewShapeError("prepared line", "lacks its intent, domain, transfer or signer")
	case e.Request != nil || e.State != "" || e.TxHash != "" || e.Error != "":
		return exchange.NewShapeError("prepared line", "holds a request or an answer")
	case e.Prepared.Signer == (common.Address{}):
		return exchange.NewShapeError("prepared signer", "is the zero address")
	}
	return nil
}
