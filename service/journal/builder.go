package journal

import (
	"github.com/ethereum/go-ethereum/common"

	"github.com/svcwallet/svcwallet/internal/safetext"
	"github.com/svcwallet/svcwallet/service/config"
	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/signer"
)

// KindBuilderSent is written (fsynced) before the signature of a builder
// authorization prepared for offline signing is sent: it is sent once.
// Builder authorizations share the journal with withdrawals (the one file
// where this machine keeps what a signed file lacks); neither their
// prepared lines nor their sent lines are withdrawals, so records,
// History and resumption skip them (FoldRecords).
const KindBuilderSent = "builder_sent"

// MaxKeyLabel bounds a builder API key's label, in bytes.
const MaxKeyLabel = 100

// ValidKeyLabel reports whether s can label a builder API key: 1 to
// MaxKeyLabel bytes of clean text on one line (safetext.IsLine). What is
// typed (builder.Check) and what a line keeps hold to it.
func ValidKeyLabel(s string) bool { return safetext.IsLine(s, MaxKeyLabel) }

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

// builderLine reports whether e is a builder authorization's line: a
// prepared one or a sent one.
func (e *Entry) builderLine() bool {
	return e.Kind == KindBuilderSent || e.Kind == KindPrepared && e.Prepared != nil && e.Prepared.Kind == PreparedBuilder
}

// Message is the message the authorization signs: AuthorizeBuilder, or
// AddAccountSignerWithBuilder when it creates an API key.
func (b *BuilderAuth) Message() signer.Message {
	if b.KeySigner != nil {
		return signer.AddAccountSignerWithBuilder{AccountID: b.Main, Signer: *b.KeySigner, Permissions: b.Permissions, BuilderAccountID: b.Builder,
			MaxFutureFeeRate: b.Futures, MaxSpotFeeRate: b.Spot, Nonce: b.Nonce, Expiration: b.Expiration}
	}
	return signer.AuthorizeBuilder{MainAccountID: b.Main, BuilderAccountID: b.Builder,
		MaxFutureFeeRate: b.Futures, MaxSpotFeeRate: b.Spot, Nonce: b.Nonce, Expiration: b.Expiration}
}

// checkBuilder holds a builder line to its shape: a builder authorization
// and nothing of a withdrawal's; and no builder authorization elsewhere.
func (e *Entry) checkBuilder() error {
	switch {
	case !e.builderLine() && e.Builder != nil:
		return exchange.NewShapeError("journal entry", "holds a builder authorization but is not a builder line")
	case !e.builderLine():
		return nil
	case e.Builder == nil:
		return exchange.NewShapeError("builder line", "lacks its builder authorization")
	case e.QuoteID != "" || e.Request != nil || e.Intent != nil || e.Domain != nil || e.Transfer != nil ||
		e.State != "" || e.TxHash != "" || e.Error != "":
		return exchange.NewShapeError("builder line", "holds a withdrawal's fields")
	}
	b := e.Builder
	switch {
	case b.Main == (common.Address{}) || b.Builder == (common.Address{}):
		return exchange.NewShapeError("builder authorization", "names the zero address")
	case b.Expiration <= 0:
		return exchange.NewShapeError("builder expiration", "is not unix nanoseconds")
	case !config.ValidDomainName(b.Domain.Name):
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
	case !ValidKeyLabel(b.Label):
		return exchange.NewShapeError("builder API key label", "is empty, too long or holds control or invisible characters")
	}
	return nil
}
