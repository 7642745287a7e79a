package service

import (
	"errors"
	"fmt"
	"regexp"
	"strings"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/mr-tron/base58"
	"github.com/shopspring/decimal"
)

// Every answer the client decodes is cleaned and shape-checked here, once,
// before anything else sees it (the "clean boundary"): free text is Cleaned
// and bounded; identifiers, states, hashes, addresses, amounts and times are
// checked for their shape and the answer is refused when one does not fit.

// maxIDLen bounds quote and transfer ids; maxTextLen bounds free text.
const (
	maxIDLen   = 128
	maxTextLen = 200
	maxNameLen = 64
)

// maxQuoteAhead is how far past the server's clock a quote may claim to
// expire: quotes live about a minute (SPEC.md §3), so a later expiry is a
// broken or hostile server.
const maxQuoteAhead = 10 * time.Minute

// answer is a decoded response body that can clean and check itself; now is
// the server's clock at the answer (its Date header) or, without one, ours.
type answer interface {
	cleanAnswer(now time.Time) error
}

// ShapeError is an answer refused because a field does not have its shape.
type ShapeError struct {
	Field  string
	Reason string
}

func (e *ShapeError) Error() string {
	return fmt.Sprintf("the service sent a %s that %s; nothing was used from that answer: try again, and tell support if it persists", e.Field, e.Reason)
}

func shapeErr(field, format string, a ...any) error {
	return &ShapeError{Field: field, Reason: fmt.Sprintf(format, a...)}
}

// cleanText cleans free text to one line (line breaks and tabs become
// spaces) and bounds its length, never splitting a character.
func cleanText(s string, limit int) string {
	s = strings.TrimSpace(Clean(strings.NewReplacer("\r\n", " ", "\n", " ", "\r", " ", "\t", " ").Replace(s)))
	if len(s) <= limit {
		return s
	}
	cut := limit
	for cut > 0 && s[cut]&0xc0 == 0x80 {
		cut--
	}
	return s[:cut] + "…"
}

// checkID checks a quote or transfer id: 1 to 128 printable ASCII characters.
func checkID(field, id string, required bool) error {
	switch {
	case id == "" && required:
		return shapeErr(field, "is empty")
	case len(id) > maxIDLen:
		return shapeErr(field, "is %d characters long (at most %d)", len(id), maxIDLen)
	}
	for i := 0; i < len(id); i++ {
		if id[i] <= 0x20 || id[i] >= 0x7f {
			return shapeErr(field, "holds a character that is not printable ASCII")
		}
	}
	return nil
}

// CheckQuoteID checks a quote id a user gave (an argument, a pasted or
// piped list) by the rule every answer's quote id is held to, so an id that
// could never be answered is refused before any request.
func CheckQuoteID(id string) error {
	if HoldsKeyShape(id) {
		// Never sent, and not repeated: it may be a private key pasted in
		// the wrong place.
		return errors.New("it holds 64 hex digits in a row, the shape of a private key: it is not sent and not shown")
	}
	err := checkID("quote id", id, true)
	var se *ShapeError
	if !errors.As(err, &se) {
		return err
	}
	reason := se.Reason
	if strings.ContainsAny(id, " \t") {
		reason = "holds a space" // printable, but never in an id
	}
	return fmt.Errorf("it %s: quote ids are 1 to %d printable ASCII characters, without spaces", reason, maxIDLen)
}

// HoldsKeyShape reports whether s holds 64 hex digits in a row anywhere:
// the shape of a secp256k1 private key. No id or argument svcwallet takes
// has one, so such a string is refused without being echoed or sent.
func HoldsKeyShape(s string) bool {
	run := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' {
			if run++; run >= 64 {
				return true
			}
			continue
		}
		run = 0
	}
	return false
}

// checkName checks a chain or token name: short, printable, no spaces.
func checkName(field, name string) error {
	if len(name) > maxNameLen {
		return shapeErr(field, "is %d characters long (at most %d)", len(name), maxNameLen)
	}
	return checkID(field, name, false)
}

// ValidState reports whether s is one of the six states of SPEC.md §2.10.
func ValidState(s string) bool {
	switch s {
	case StateCreated, StateSubmitted, StateSending, StateCompleted, StateFailed, StateRefunded:
		return true
	}
	return false
}

func checkState(field, s string) error {
	if !ValidState(s) {
		return shapeErr(field, "is not one of CREATED, SUBMITTED, SENDING, COMPLETED, FAILED, REFUNDED")
	}
	return nil
}

func checkAmount(field string, d decimal.Decimal) error {
	if d.IsNegative() {
		return shapeErr(field, "is negative")
	}
	return nil
}

// ChainTypeOfChain tells a chain's type from its service name (SPEC.md §2.7:
// the Solana and Tron chains carry their name, the rest are EVM), for the
// answers that name a chain without its type.
func ChainTypeOfChain(chain string) string {
	switch c := strings.ToUpper(chain); {
	case strings.HasPrefix(c, "SOLANA"):
		return ChainTypeSolana
	case strings.HasPrefix(c, "TRON"):
		return ChainTypeTron
	}
	return ChainTypeEVM
}

// chainTypeOfChainID tells a chain's type from its native chain id (SPEC.md
// §2.5: numeric for EVM chains, a name such as solana or tron otherwise); ""
// when it names no type svcwallet can check.
func chainTypeOfChainID(id string) string {
	switch l := strings.ToLower(id); {
	case id != "" && strings.Trim(id, "0123456789") == "":
		return ChainTypeEVM
	case strings.HasPrefix(l, "solana"):
		return ChainTypeSolana
	case strings.HasPrefix(l, "tron"):
		return ChainTypeTron
	}
	return ""
}

var hex64 = regexp.MustCompile(`^[0-9a-fA-F]{64}$`)

// ValidTxHash checks a payout transaction hash against its chain type:
// 0x + 64 hex (EVM), 64 hex (Tron), base58 of a 64-byte signature (Solana).
func ValidTxHash(chainType, h string) error {
	switch chainType {
	case ChainTypeEVM:
		if strings.HasPrefix(h, "0x") && hex64.MatchString(h[2:]) {
			return nil
		}
		return errors.New("is not 0x and 64 hex digits")
	case ChainTypeTron:
		if hex64.MatchString(h) {
			return nil
		}
		return errors.New("is not 64 hex digits")
	case ChainTypeSolana:
		if len(h) <= 90 {
			if b, err := base58.Decode(h); err == nil && len(b) == 64 {
				return nil
			}
		}
		return errors.New("is not the base58 of a 64-byte signature")
	}
	return fmt.Errorf("belongs to an unknown chain type %q", chainType)
}

func (r *LoginResult) cleanAnswer(time.Time) error {
	r.Status, r.Location = cleanText(r.Status, maxTextLen), cleanText(r.Location, maxTextLen)
	if !common.IsHexAddress(r.FundingAccountAddress) || !strings.HasPrefix(r.FundingAccountAddress, "0x") {
		return shapeErr("funding account address", "is not an EVM address")
	}
	return checkID("sub-account id", r.SubAccountID, false)
}

func (r *BuilderAuthorizeResult) cleanAnswer(time.Time) error {
	if len(r.APIKey) > 256 {
		return shapeErr("builder API key", "is %d characters long (at most 256)", len(r.APIKey))
	}
	for i := 0; i < len(r.APIKey); i++ {
		if r.APIKey[i] <= 0x20 || r.APIKey[i] >= 0x7f {
			return shapeErr("builder API key", "holds a character that is not printable ASCII")
		}
	}
	return nil
}

// cleanAnswer checks a chain's fields; an address that fails its chain's
// check is not refused with the whole list but moved aside (see
// ChainInfo.AddressProblem), so the other chains stay usable.
func (c *ChainInfo) cleanAnswer(time.Time) error {
	if err := checkName("chain name", c.Chain); err != nil {
		return err
	}
	if err := checkName("chain id", c.ChainID); err != nil {
		return err
	}
	chainType := chainTypeOfChainID(c.ChainID)
	if c.DepositAddress != "" {
		switch {
		case chainType == "":
			c.AddressProblem = "svcwallet cannot check addresses of chain id " + c.ChainID
		case ValidateAddress(chainType, c.DepositAddress) != nil:
			c.AddressProblem = "not a valid " + ChainTypeLabel(chainType) + " address: " + ValidateAddress(chainType, c.DepositAddress).Error()
		}
		if c.AddressProblem != "" {
			c.RefusedAddress, c.DepositAddress = cleanText(c.DepositAddress, maxTextLen), ""
		}
	}
	for i := range c.SupportedTokens {
		t := &c.SupportedTokens[i]
		if err := checkName("token name", t.Name); err != nil {
			return err
		}
		// A contract that fails its chain's check is shown as unknown.
		if t.ContractAddress != "" && (chainType == "" || ValidateAddress(chainType, t.ContractAddress) != nil) {
			t.ContractAddress = ""
		}
	}
	return nil
}

func (d *DepositAddresses) cleanAnswer(now time.Time) error {
	for i := range d.Chains {
		if err := d.Chains[i].cleanAnswer(now); err != nil {
			return err
		}
	}
	return nil
}

func (w *WithdrawalInfo) cleanAnswer(time.Time) error {
	w.Provider = cleanText(w.Provider, maxNameLen)
	if err := ValidateAddress(ChainTypeEVM, w.FundingAddress); err != nil {
		return shapeErr("bridge funding address", "is not an EVM address (%v)", err)
	}
	for token, routes := range w.Route {
		if err := checkName("source token", token); err != nil {
			return err
		}
		for i := range routes {
			r := &routes[i]
			if err := checkName("route chain", r.Chain); err != nil {
				return err
			}
			if err := checkName("route chain id", r.ChainID); err != nil {
				return err
			}
			switch r.ChainType {
			case ChainTypeEVM, ChainTypeSolana, ChainTypeTron:
			default:
				return shapeErr("route chain type", "is not evm, solana or tron")
			}
			for _, t := range r.TokensOut {
				if err := checkName("payout token", t); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

func (q *Quote) cleanAnswer(now time.Time) error {
	if err := checkID("quote id", q.QuoteID, true); err != nil {
		return err
	}
	for _, a := range []struct {
		field string
		d     decimal.Decimal
	}{{"pay amount", q.PayAmount}, {"receive amount", q.ReceiveAmount}, {"fee", q.Fee}, {"fee in USD", q.FeeUSD}} {
		if err := checkAmount(a.field, a.d); err != nil {
			return err
		}
	}
	switch q.Speed {
	case SpeedFast, SpeedSlow:
	default:
		return shapeErr("quote speed", "is not fast or slow")
	}
	if q.ExpiresAt.IsZero() {
		return shapeErr("quote expiry", "is missing")
	}
	if q.ExpiresAt.After(now.Add(maxQuoteAhead)) {
		return shapeErr("quote expiry", "is more than %s ahead of the service's clock (quotes live about a minute)", maxQuoteAhead)
	}
	return nil
}

func (a *WithdrawAccepted) cleanAnswer(time.Time) error {
	if err := checkID("quote id", a.QuoteID, true); err != nil {
		return err
	}
	if err := checkID("transfer id", a.TxID, false); err != nil {
		return err
	}
	if err := checkState("state", a.State); err != nil {
		return err
	}
	for _, d := range []decimal.Decimal{a.ReceiveAmount, a.Fee, a.FeeUSD} {
		if err := checkAmount("locked amount", d); err != nil {
			return err
		}
	}
	return nil
}

func (w *Withdrawal) cleanAnswer(time.Time) error {
	if err := checkID("quote id", w.QuoteID, true); err != nil {
		return err
	}
	if err := checkID("transfer id", w.TxID, false); err != nil {
		return err
	}
	if err := checkState("withdrawal state", w.State); err != nil {
		return err
	}
	if err := checkName("chain", w.Chain); err != nil {
		return err
	}
	if err := checkName("payout token", w.TokenOut); err != nil {
		return err
	}
	if err := checkAmount("receive amount", w.ReceiveAmount); err != nil {
		return err
	}
	if w.WithdrawTxHash != "" {
		if err := ValidTxHash(ChainTypeOfChain(w.Chain), w.WithdrawTxHash); err != nil {
			return shapeErr("payout hash", "%v for %s", err, ChainTypeLabel(ChainTypeOfChain(w.Chain)))
		}
	}
	return nil
}
