package journal

import (
	"github.com/ethereum/go-ethereum/common"

	"github.com/svcwallet/svcwallet/internal/exchange"
	"github.com/svcwallet/svcwallet/internal/safetext"
	"github.com/svcwallet/svcwallet/internal/signer"
)

// Builder authorizations prepared for offline signing share the journal
// with withdrawals (the one file this machine keeps what a signed file
// lacks), under their own kinds: neither is a withdrawal, so records,
// History and resumption skip them (FoldRecords).
const (
	// KindBuilderPrepared is a builder authorization whose typed data went
	// to a file for a wallet elsewhere to sign.
	KindBuilderPrepared = "builder_prepared"
	// KindBuilderSent is written (fsynced) before a signature of a prepared
	// builder authorization is sent: it is sent once.
	KindBuilderSent = "builder_sent"
)

// maxBuilderLabel bounds a journaled builder API key label.
const maxBuilderLabel = 100

// BuilderAuth is a builder authorization as a builder line keeps it: the
// message's fields (AuthorizeBuilder, or AddAccountSignerWithBuilder when
// KeySigner is set) and its domain, the key label the signed message lacks,
// and the address expected to sign (the main account).
type BuilderAuth struct {
	Domain      signer.Domain   `json:"domain"`
	Main        common.Address  `json:"main_account_id"`
	Builder     common.Address  `json:"builder_account_id"`
	Futures     uint32          `json:"max_futures_fee_rate"`
	Spot        uint32          `json:"max_spot_fee_rate"`
	Nonce       uint32          `json:"nonce"`
	Expiration  int64           `json:"expiration"`
	Label       string          `json:"label,omitempty"`
	KeySigner   *common.Address `json:"key_signer,omitempty"`
	Permissions string          `json:"permissions,omitempty"`
}

// builderKind reports whether kind is one of the builder lines.
func builderKind(kind string) bool {
	return kind == KindBuilderPrepared || kind == KindBuilderSent
}

// checkBuilder holds a builder line to its shape: a builder authorization
// and nothing of a withdrawal's; and no builder authorization elsewhere.
func (e *Entry) checkBuilder() error {
	switch {
	case !builderKind(e.Kind) && e.Builder != nil:
		return exchange.NewShapeError("journal entry", "holds a builder authorization but is not a builder line")
	case !builderKind(e.Kind):
		return nil
	case e.Builder == nil:
		return exchange.NewShapeError("builder line", "lacks its builder authorization")
	case e.QuoteID != "" || e.Request != nil || e.Intent != nil || e.Domain != nil || e.Transfer != nil || e.Prepared != nil ||
		e.State != "" || e.TxHash != "" || e.Error != "":
		return exchange.NewShapeError("builder line", "holds a withdrawal's fields")
	}
	b := e.Builder
	switch {
	case b.Main == (common.Address{}) || b.Builder == (common.Address{}):
		return exchange.NewShapeError("builder authorization", "names the zero address")
	case b.Expiration <= 0:
		return exchange.NewShapeError("builder expiration", "is not unix nanoseconds")
	case b.Domain.Name == "" || b.Domain.Name != safetext.Line(b.Domain.Name, safetext.MaxNameLen):
		return exchange.NewShapeError("builder domain name", "is empty, too long or holds control or invisible characters")
	}
	if _, err := signer.ParseFeeRate(signer.FormatFeeRate(b.Futures)); err != nil {
		return exchange.NewShapeError("builder futures fee rate", "is out of range")
	}
	if _, err := signer.ParseFeeRate(signer.FormatFeeRate(b.Spot)); err != nil {
		return exchange.NewShapeError("builder spot fee rate", "is out of range")
	}
	if b.KeySigner == nil {
		if b.Label != "" || b.Permissions != "" {
			return exchange.NewShapeError("builder API key", "has a label or permissions but no signer")
		}
		return nil
	}
	p, err := signer.ParsePermissions(b.Permissions)
	switch {
	case *b.KeySigner == (common.Address{}):
		return exchange.NewShapeError("builder API key signer", "is the zero address")
	case err != nil || p.String() != b.Permissions:
		return exchange.NewShapeError("builder API key permissions", "are not canonical permissions")
	case b.Label == "" || b.Label != safetext.Line(b.Label, maxBuilderLabel):
		return exchange.NewShapeError("builder API key label", "is empty, too long or holds control or invisible characters")
	}
	return nil
}
