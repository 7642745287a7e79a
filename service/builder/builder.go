// Package builder is builder authorization (SPEC.md §4.3, §8): the input
// as typed and its checks (Input, Check), the typed message to sign
// (Auth), and the one workflow that signs and sends it (Order.Authorize),
// with the wording of its refusals.
package builder

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/svcwallet/svcwallet/internal/safetext"
	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/journal"
	"github.com/svcwallet/svcwallet/signer"
)

// Builder signature validity (D9, SPEC.md §8): a week unless the user
// chooses, never more than 30 days.
const (
	DefaultValidity    = 7 * 24 * time.Hour
	MaxValidity        = 30 * 24 * time.Hour
	minBuilderValidity = time.Minute
)

// Input is a builder authorization as typed, in the form or on the
// command line. The three API-key fields go together: all or none (D5).
type Input struct {
	Main, Builder       string
	FuturesFee, SpotFee string // percentages, e.g. "0.1" or "0.1%"
	Expires             string // "7d", "72h", or a number of days; "" = 7 days
	Label, KeySigner    string
	Permissions         string // any case and order; sent canonical
}

// Auth is a checked builder authorization: what the review shows and
// the main account's key signs (SPEC.md §4.4).
type Auth struct {
	Main, Builder common.Address
	Futures, Spot uint32 // signed fee-rate integers (D4)
	Validity      time.Duration
	// WithKey: the builder also gets an API key for KeySigner (mode "with
	// API key", message AddAccountSignerWithBuilder).
	WithKey   bool
	Label     string
	KeySigner common.Address
	Perms     signer.Permissions
}

// Field names one input of a builder authorization.
type Field int

// The builder authorization's inputs, in the form's order.
const (
	FieldMain Field = iota
	FieldBuilder
	FieldFuturesFee
	FieldSpotFee
	FieldExpires
	FieldLabel
	FieldKeySigner
	FieldPermissions
)

// FieldError says which input is wrong and why, so the form can put
// the focus there and the command line can name its flag.
type FieldError struct {
	Field Field
	Label string // as the form names the field
	Err   error
}

func (e *FieldError) Error() string { return e.Label + ": " + e.Err.Error() }

func (e *FieldError) Unwrap() error { return e.Err }

// ErrKeyFields is the all-or-none rule of the three API-key fields.
var ErrKeyFields = errors.New("label, signer and permissions of the builder API key go together: give all three, or none for an authorization without an API key")

// Check validates every field and returns the authorization, or the
// first problem.
func Check(in Input) (Auth, error) {
	var a Auth
	bad := func(id Field, err error) (Auth, error) {
		return a, &FieldError{Field: id, Label: id.Label(), Err: err}
	}
	var err error
	if a.Main, err = ParseEVMAddress(in.Main, "the main account"); err != nil {
		return bad(FieldMain, err)
	}
	if a.Builder, err = ParseEVMAddress(in.Builder, "the builder account"); err != nil {
		return bad(FieldBuilder, err)
	}
	if a.Futures, err = ParseFeePercent(in.FuturesFee); err != nil {
		return bad(FieldFuturesFee, err)
	}
	if a.Spot, err = ParseFeePercent(in.SpotFee); err != nil {
		return bad(FieldSpotFee, err)
	}
	if a.Validity, err = ParseValidity(in.Expires); err != nil {
		return bad(FieldExpires, err)
	}
	label, keySigner, perms := strings.TrimSpace(in.Label), strings.TrimSpace(in.KeySigner), strings.TrimSpace(in.Permissions)
	given := 0
	for _, s := range []string{label, keySigner, perms} {
		if s != "" {
			given++
		}
	}
	switch {
	case given == 0:
		return a, nil
	case given < 3:
		return a, ErrKeyFields
	}
	if err := checkLabel(label); err != nil {
		return bad(FieldLabel, err)
	}
	a.WithKey, a.Label = true, label
	if a.KeySigner, err = ParseEVMAddress(keySigner, "the API key's signer"); err != nil {
		return bad(FieldKeySigner, err)
	}
	if a.Perms, err = signer.ParsePermissions(perms); err != nil {
		return bad(FieldPermissions, err)
	}
	return a, nil
}

// ParseFeePercent reads a fee-rate percentage as typed: "0.05" or "0.05%".
func ParseFeePercent(s string) (uint32, error) {
	s = strings.TrimSpace(s)
	if t, ok := strings.CutSuffix(s, "%"); ok {
		s = strings.TrimSpace(t)
	}
	return signer.ParseFeeRate(s)
}

// ParseEVMAddress checks an EVM address as D12 does (mixed case must be a valid
// EIP-55 checksum).
func ParseEVMAddress(s, what string) (common.Address, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return common.Address{}, fmt.Errorf("enter %s's address (0x followed by 40 hex digits)", what)
	}
	if err := exchange.ValidateAddress(exchange.ChainTypeEVM, s); err != nil {
		return common.Address{}, err
	}
	return common.HexToAddress(s), nil
}

// builderClockMargin keeps a 30-day signature inside the service's cap even
// when this machine's clock runs ahead of the service's by as much as
// signing tolerates (MaxClockSkew), whichever clock the expiry was read on.
const builderClockMargin = exchange.MaxClockSkew + time.Minute

// Expiration is the signature deadline in unix nanoseconds: now plus the
// chosen validity, at most MaxValidity less builderClockMargin.
func (a Auth) Expiration(now time.Time) int64 {
	return now.Add(min(a.Validity, MaxValidity-builderClockMargin)).UnixNano()
}

// ParseValidity reads how long the signature stays valid: "7d",
// "72h", "90m", "1h30m", or a bare number of days. Empty means 7 days.
func ParseValidity(s string) (time.Duration, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return DefaultValidity, nil
	}
	var d time.Duration
	days := strings.TrimSuffix(s, "d")
	if n, err := strconv.Atoi(days); err == nil {
		if n < 1 || n > 30 {
			return 0, fmt.Errorf("%d days is out of range: choose 1 to 30 days", n)
		}
		d = time.Duration(n) * 24 * time.Hour
	} else {
		var perr error
		d, perr = time.ParseDuration(s)
		if perr != nil {
			return 0, fmt.Errorf("%s is not a duration: write it like 7d, 72h or 90m", safetext.NameQuoted(s))
		}
	}
	switch {
	case d > MaxValidity:
		return 0, fmt.Errorf("%s is longer than 30 days, the most the service accepts", HumanDuration(d))
	case d < minBuilderValidity:
		return 0, errors.New("at least one minute: the signature must still be valid when it arrives")
	}
	return d, nil
}

// HumanDuration words a validity in one format: "7 days", "1 day 12 h",
// "1 h 30 min", "45 min", "1 min 30 s".
func HumanDuration(d time.Duration) string {
	var parts []string
	if n := int(d / (24 * time.Hour)); n > 0 {
		parts = append(parts, plural(n, "day"))
	}
	for _, u := range []struct {
		n    time.Duration
		name string
	}{{d % (24 * time.Hour) / time.Hour, "h"}, {d % time.Hour / time.Minute, "min"}, {d % time.Minute / time.Second, "s"}} {
		if u.n > 0 {
			parts = append(parts, strconv.Itoa(int(u.n))+" "+u.name)
		}
	}
	if len(parts) == 0 {
		return d.String()
	}
	return strings.Join(parts, " ")
}

func plural(n int, unit string) string {
	if n == 1 {
		return "1 " + unit
	}
	return strconv.Itoa(n) + " " + unit + "s"
}

// Mode names the message the authorization is signed as.
func (a Auth) Mode() string {
	if a.WithKey {
		return signer.AddAccountSignerWithBuilder{}.PrimaryType()
	}
	return signer.AuthorizeBuilder{}.PrimaryType()
}

// Message is the typed data the main account signs, with this nonce and
// expiration (unix nanoseconds).
func (a Auth) Message(nonce uint32, expiration int64) signer.Message {
	return a.line(signer.Domain{}, nonce, expiration).Message()
}

// line is the authorization as the journal keeps it, which also builds its
// message (journal.BuilderAuth.Message).
func (a Auth) line(d signer.Domain, nonce uint32, expiration int64) *journal.BuilderAuth {
	b := &journal.BuilderAuth{Domain: d, Main: a.Main, Builder: a.Builder, Futures: a.Futures, Spot: a.Spot, Nonce: nonce, Expiration: expiration}
	if a.WithKey {
		ks := a.KeySigner
		b.Label, b.KeySigner, b.Permissions = a.Label, &ks, a.Perms.String()
	}
	return b
}

// Request is the body of POST /auth/builder/authorize for a signature of
// Message. Fee rates are sent as the canonical strings of the signed integers.
func (a Auth) Request(sig signer.Signature) exchange.BuilderAuthorizeRequest {
	req := exchange.BuilderAuthorizeRequest{
		MainAccountID: a.Main.Hex(), BuilderAccountID: a.Builder.Hex(),
		MaxFuturesFeeRate: signer.FormatFeeRate(a.Futures), MaxSpotFeeRate: signer.FormatFeeRate(a.Spot),
		Signature: exchange.NewSignature(sig),
	}
	if a.WithKey {
		req.BuilderAPIKeyLabel, req.BuilderAPIKeySigner, req.BuilderAPIKeyPermissions = a.Label, a.KeySigner.Hex(), a.Perms.String()
	}
	return req
}

// FeeText shows a signed fee-rate integer as its percentage and the integer:
// "0.1% (signed 1000)".
func FeeText(v uint32) string {
	return signer.FormatFeeRate(v) + "% (signed " + strconv.FormatUint(uint64(v), 10) + ")"
}

// Next is what a refused authorization needs before it is sent again;
// each face says how (a key in the console, a flag on the command line).
type Next int

const (
	NextNone     Next = iota // the fact says what to do
	NextNonce                // reviewed again, for a new nonce
	NextValidity             // a shorter validity
)

// RefusedError is the service's refusal of an authorization as a fact
// true on every face, and the step that goes on from it.
type RefusedError struct {
	Fact string
	Next Next
	Err  error
}

func (e *RefusedError) Error() string { return e.Fact }

func (e *RefusedError) Unwrap() error { return e.Err }

// Explain words a refusal of a builder authorization for the user: a
// *RefusedError whose Next the face words, or the service's explanation.
func Explain(err error) error {
	switch {
	case errors.Is(err, exchange.CodeUnauthorizedSigner):
		return exchange.Worded(err, "The service refused the signer: a builder authorization must be signed by the main account's own key (the funding address's wallet)")
	case errors.Is(err, exchange.CodeDuplicateSignature):
		return &RefusedError{Fact: "This authorization's nonce was already used: an earlier send most likely went through, even one unanswered or no longer journaled", Next: NextNonce, Err: err}
	case errors.Is(err, exchange.CodeExpirationTooFar):
		return &RefusedError{Fact: "The expiration is more than 30 days ahead for the service (is this computer's clock ahead?)", Next: NextValidity, Err: err}
	case exchange.UnnamedRefusal(err):
		// Explain's words for a bare status would tell it as a refusal.
		ae, _ := errors.AsType[*exchange.APIError](err)
		return exchange.Worded(err, "The service answered the authorization with "+ae.StatusWords()+", a status that does not say whether it was taken")
	}
	return exchange.Explain(err)
}

// checkLabel holds an API key's label, trimmed, to what the journal reads
// back (journal.ValidKeyLabel) and to no private key's shape: it is signed,
// journaled and sent, and a key typed in its place (plain mode's question
// has no field to clear it) goes no further.
func checkLabel(label string) error {
	switch {
	case len(label) > journal.MaxKeyLabel:
		return fmt.Errorf("is %d bytes long: use at most %d (a letter outside ASCII takes 2 to 4)", len(label), journal.MaxKeyLabel)
	case !journal.ValidKeyLabel(label):
		return errors.New("holds a line break, a tab, or a control or invisible character: type it on one line in plain text")
	case safetext.HoldsKeyShape(label):
		return errors.New("holds " + safetext.KeyShape + ": a label names the API key, never holds a private key")
	}
	return nil
}
