package withdrawal

import (
	"errors"
	"fmt"
	"strings"

	"github.com/shopspring/decimal"

	"github.com/svcwallet/svcwallet/internal/safetext"
	"github.com/svcwallet/svcwallet/service/exchange"
)

// Choice is what the user has chosen for a withdrawal so far;
// each step of the form adds to it. Amount and FeeCap are parsed once, by
// CheckDestination, and travel as decimals from there to the Transfer.
type Choice struct {
	Info      exchange.WithdrawalInfo
	TokenIn   string
	Route     exchange.WithdrawalRoute
	TokenOut  string
	ToAddress string
	Amount    decimal.Decimal
	FeeCap    decimal.NullDecimal // not Valid: no cap
	// AcceptedLoss is the percentage of the amount the user said
	// beforehand they accept losing (AcceptsLoss); not Valid: none said.
	// Chosen with the cap, it goes with every quote of the choice, so a
	// review's RequoteNote and a fresh quote carrying the signature
	// unasked (RequoteRefusal) keep to it.
	AcceptedLoss decimal.NullDecimal
}

// Field names one input of the destination form.
type Field int

// The destination form's inputs, in its order.
const (
	FieldDestination Field = iota
	FieldAmount
	FieldFeeCap
)

// FieldError says which input of the destination form is wrong and why,
// so the form can put the focus there. Its text is the reason alone.
type FieldError struct {
	Field Field
	Err   error
}

func (e *FieldError) Error() string { return e.Err.Error() }

func (e *FieldError) Unwrap() error { return e.Err }

// CheckDestination checks the destination form as typed and returns the
// choice with the destination, the amount and the fee cap filled in. The
// error, written for the user, is a *FieldError naming the first input
// that is wrong.
func (c Choice) CheckDestination(toAddress, amount, feeCap string) (Choice, error) {
	var err error
	if c.ToAddress, err = c.CheckAddress(toAddress); err != nil {
		return c, &FieldError{Field: FieldDestination, Err: err}
	}
	if c.Amount, err = ParseAmount(amount); err != nil {
		return c, &FieldError{Field: FieldAmount, Err: err}
	}
	if c.FeeCap, err = ParseFeeCap(feeCap); err != nil {
		return c, &FieldError{Field: FieldFeeCap, Err: err}
	}
	return c, nil
}

// ethereumScheme starts an EIP-681 payment link, "ethereum:0x…", which
// wallets copy where an address is asked for.
const ethereumScheme = "ethereum:"

// paymentLink splits an EIP-681 payment link into what follows its scheme.
func paymentLink(s string) (string, bool) {
	if len(s) < len(ethereumScheme) || !strings.EqualFold(s[:len(ethereumScheme)], ethereumScheme) {
		return s, false
	}
	return s[len(ethereumScheme):], true
}

// TrimDestination drops what a copied destination brings around the
// address: spaces and, on an EVM route, the "ethereum:" of a payment link
// that holds nothing but the address.
func (c Choice) TrimDestination(s string) string {
	s = strings.TrimSpace(s)
	if rest, ok := paymentLink(s); ok && c.Route.ChainType == exchange.ChainTypeEVM && !strings.ContainsAny(rest, "@/?") {
		return rest
	}
	return s
}

// CheckAddress checks a destination address as typed or pasted for the
// route's chain (TrimDestination first) and returns it. A payment link
// with more than an address (a chain "@", a function "/", parameters "?")
// is refused whole: the address in front of them can be a token contract,
// where funds sent are lost.
func (c Choice) CheckAddress(s string) (string, error) {
	addr := c.TrimDestination(s)
	if addr == "" {
		return "", errors.New("enter the destination address")
	}
	if _, ok := paymentLink(addr); ok && c.Route.ChainType == exchange.ChainTypeEVM {
		return "", errors.New("that is a payment link, not an address: paste the destination address alone")
	}
	if err := exchange.ValidateAddress(c.Route.ChainType, addr); err != nil {
		return "", err
	}
	return addr, nil
}

// ParseAmount reads the amount to withdraw as typed.
func ParseAmount(s string) (decimal.Decimal, error) {
	return exchange.ParseAmount(strings.TrimSpace(s))
}

// ParseFeeCap reads the optional fee cap as typed: empty (or none) is no
// cap.
func ParseFeeCap(s string) (decimal.NullDecimal, error) {
	s = strings.TrimSpace(s)
	if s == "" || strings.EqualFold(s, "none") {
		return decimal.NullDecimal{}, nil
	}
	// Read as an amount is: an exponent took 1e9999 (a cap of 10,000 digits
	// in the review), and more than 18 digits the journal cannot hold.
	fc, err := exchange.ParseCap("fee cap", s)
	switch {
	case err == nil:
		return decimal.NewNullDecimal(fc), nil
	case strings.Trim(s, "0123456789.") != "":
		return decimal.NullDecimal{}, errors.New("fee cap must be a plain decimal such as 2.5, or empty for none")
	}
	return decimal.NullDecimal{}, err
}

// highFeeCapShare is the share of the amount above which a fee cap is
// worth a second look (issue 21): it lets a quote take that much of the
// withdrawal.
var highFeeCapShare = decimal.RequireFromString("0.05")

// FeeCapShare is the fee cap as a share of a positive amount (0.04 for
// 4%), and whether it is over 5%, high enough to warn.
func FeeCapShare(amount, feeCap decimal.Decimal) (share decimal.Decimal, high bool) {
	if !amount.IsPositive() {
		return decimal.Zero, false
	}
	share = feeCap.Div(amount)
	return share, share.GreaterThan(highFeeCapShare)
}

// QuoteRequest is the quote to ask for this choice.
func (c Choice) QuoteRequest() exchange.QuoteRequest {
	return exchange.QuoteRequest{ToAddress: c.ToAddress, Chain: c.Route.Chain, TokenIn: c.TokenIn, TokenOut: c.TokenOut, Amount: c.Amount.String()}
}

// QuoteRefusal says why quote q cannot be signed for this choice, or "":
// it must pay exactly the amount asked for (what is signed is the pay
// amount), and both its declared fee and what the user loses (Order.Loss)
// must be within the cap: a quote can declare no fee and pay out almost
// nothing.
func (c Choice) QuoteRefusal(q exchange.Quote) string {
	l := Order{Choice: c, Quote: q}.Loss()
	switch {
	case !q.PayAmount.Equal(c.Amount):
		return fmt.Sprintf("the quote asks for %s %s, not the %s you entered", q.PayAmount, c.TokenIn, c.Amount)
	case c.FeeCap.Valid && q.Fee.GreaterThan(c.FeeCap.Decimal):
		return fmt.Sprintf("the fee %s %s is above your cap of %s %s", q.Fee, c.TokenIn, c.FeeCap.Decimal, c.TokenIn)
	case c.FeeCap.Valid && l.Lost.GreaterThan(c.FeeCap.Decimal):
		return fmt.Sprintf("you would lose %s, above your fee cap of %s %s", l.Reckoned(), c.FeeCap.Decimal, c.TokenIn)
	}
	return ""
}

// UnknownChainError: the service gives no route of Token to the chain
// named; Chains are those it does give (none: no route of Token now).
type UnknownChainError struct {
	Token, Chain string
	Chains       []string
}

func (e *UnknownChainError) Error() string {
	if len(e.Chains) == 0 {
		return "the service offers no " + e.Token + " withdrawal route now"
	}
	return fmt.Sprintf("%s is not a %s withdrawal chain; the chains are: %s", safetext.NameQuoted(e.Chain), e.Token, strings.Join(e.Chains, ", "))
}

// RouteTo is the route of token to chain (any case, spaces around it
// ignored) among those info gives, or an *UnknownChainError naming them.
func RouteTo(info exchange.WithdrawalInfo, token, chain string) (exchange.WithdrawalRoute, error) {
	var names []string
	for _, rt := range info.Route[token] {
		if strings.EqualFold(rt.Chain, strings.TrimSpace(chain)) {
			return rt, nil
		}
		names = append(names, rt.Chain)
	}
	return exchange.WithdrawalRoute{}, &UnknownChainError{Token: token, Chain: chain, Chains: names}
}
