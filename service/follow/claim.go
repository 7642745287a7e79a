package follow

import (
	"strings"

	"github.com/shopspring/decimal"

	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/journal"
)

// Claim is what a status record named of its payout against the quote
// signed, where the two differ (asSigned): the record's chain (with its
// payout hash, that chain's transaction), payout token and receive
// amount; "" or zero where it agreed or left the field out. It is data,
// kept with the record shown (Kept.Claim), so a restart says it again.
type Claim struct {
	Chain          string          `json:"chain,omitempty"`
	WithdrawTxHash string          `json:"withdraw_tx_hash,omitempty"`
	TokenOut       string          `json:"token_out,omitempty"`
	ReceiveAmount  decimal.Decimal `json:"receive_amount,omitzero"`
}

// claimOf is what of w differs from the signed intent s; nil when nothing
// does.
func claimOf(w exchange.Withdrawal, s journal.Intent) *Claim {
	var c Claim
	if differs(w.Chain, s.Chain) {
		c.Chain, c.WithdrawTxHash = w.Chain, w.WithdrawTxHash
	} else if w.Chain == "" && otherShape(w.WithdrawTxHash, s.Chain) {
		// A record without a chain takes a hash of any chain's shape
		// (exchange): one not of the signed chain's is claimed alone.
		c.WithdrawTxHash = w.WithdrawTxHash
	}
	if differs(w.TokenOut, s.TokenOut) {
		c.TokenOut = w.TokenOut
	}
	if !w.ReceiveAmount.IsZero() && !s.ReceiveAmount.IsZero() && !w.ReceiveAmount.Equal(s.ReceiveAmount) {
		c.ReceiveAmount = w.ReceiveAmount
	}
	if c.Chain == "" && c.WithdrawTxHash == "" && c.TokenOut == "" && c.ReceiveAmount.IsZero() {
		return nil
	}
	return &c
}

// parts are what c names, as said against the chain signed; its receive
// amount with token, the record's payout token.
func (c Claim) parts(signedChain, token string) []string {
	var parts []string
	if c.Chain != "" {
		chain := "the chain " + c.Chain
		if c.WithdrawTxHash != "" {
			chain += " (payout hash " + c.WithdrawTxHash + ", not shown as " + signedChain + "'s)"
		}
		parts = append(parts, chain)
	} else if c.WithdrawTxHash != "" {
		parts = append(parts, "a payout hash of another chain's shape ("+c.WithdrawTxHash+", not shown as "+signedChain+"'s)")
	}
	if c.TokenOut != "" {
		parts = append(parts, "the payout token "+c.TokenOut)
	}
	if !c.ReceiveAmount.IsZero() {
		parts = append(parts, strings.TrimSpace("a receive amount of "+c.ReceiveAmount.String()+" "+token))
	}
	return parts
}

// over is the record as the service gave it: shown, what asSigned made of
// it, with what c names put back; shown itself when c is nil.
func (c *Claim) over(shown exchange.Withdrawal) exchange.Withdrawal {
	if c == nil {
		return shown
	}
	switch {
	case c.Chain != "":
		shown.Chain, shown.WithdrawTxHash = c.Chain, c.WithdrawTxHash
	case c.WithdrawTxHash != "": // given without a chain
		shown.Chain, shown.WithdrawTxHash = "", c.WithdrawTxHash
	}
	if c.TokenOut != "" {
		shown.TokenOut = c.TokenOut
	}
	if !c.ReceiveAmount.IsZero() {
		shown.ReceiveAmount = c.ReceiveAmount
	}
	return shown
}

// keptWith reports whether c, read back from the disk, is what asSigned
// keeps of a record shown as shown: each field it names differs from
// shown's, a payout hash only beside another chain, and shown then
// without one; and the record as given passes an answer's checks, its
// amount within its token's decimals. Anything else is not a claim this
// program wrote.
func (c *Claim) keptWith(shown exchange.Withdrawal) bool {
	given := c.over(shown)
	again := claimOf(given, signedAs(shown))
	places := int32(exchange.TokenDecimalsOf(given.TokenOut))
	return again != nil && again.Chain == c.Chain && again.WithdrawTxHash == c.WithdrawTxHash &&
		again.TokenOut == c.TokenOut && again.ReceiveAmount.Equal(c.ReceiveAmount) &&
		(c.Chain == "" && c.WithdrawTxHash == "" || shown.WithdrawTxHash == "") &&
		given.ReceiveAmount.Equal(given.ReceiveAmount.Truncate(places)) && given.CheckRead() == nil
}

// signedAs is the intent a record shown with a claim was shown as: what
// asSigned put in place, the journal's chain, token and receive amount.
func signedAs(shown exchange.Withdrawal) journal.Intent {
	return journal.Intent{Chain: shown.Chain, TokenOut: shown.TokenOut, ReceiveAmount: shown.ReceiveAmount}
}

// reclaim says again, after a restart, what the kept record claimed: the
// record as given is held against the journal's intent, or, when the
// journal no longer has it, against the record shown, which was it.
func (f *Follow) reclaim(c *Claim) {
	if c == nil || !f.Known {
		return
	}
	s := f.Signed
	if s.Chain == "" {
		s = signedAs(f.Last)
	}
	f.Last = f.asSigned(c.over(f.Last), s)
}
