package builder

import (
	"errors"
	"strings"

	"github.com/svcwallet/svcwallet/signer"
)

// FundsPermissions are the API-key permissions that let whoever holds the
// key's signer move or administer the account's funds, which the builder
// does (its signer is the builder's, SPEC.md §4.4): Admin, InternalTransfer,
// ExternalTransfer (the permission a withdrawal's signer needs, §4.11) and
// Withdraw; VaultInvestor too: SPEC.md §2.4 names it without saying what it
// allows, its name is investing the account's funds, and §4.4 says Trade is
// the value to use. Every permission but Trade.
var FundsPermissions = signer.Permissions(0).With(signer.PermAdmin).With(signer.PermInternalTransfer).
	With(signer.PermExternalTransfer).With(signer.PermWithdraw).With(signer.PermVaultInvestor)

// FundsGrant is what of a's API key may move or administer the account's
// funds (FundsPermissions); 0 with Trade alone or without a key.
func (a Auth) FundsGrant() signer.Permissions {
	if !a.WithKey {
		return 0
	}
	return a.Perms & FundsPermissions
}

// NamedGrant is the permissions the user named beforehand as the grant
// they mean (a command line's flag); not Valid when none was named.
type NamedGrant struct {
	Perms signer.Permissions
	Valid bool
}

// ParseNamedGrant reads a grant named beforehand as permissions are read
// (signer.ParsePermissions); "" names none.
func ParseNamedGrant(s string) (NamedGrant, error) {
	if strings.TrimSpace(s) == "" {
		return NamedGrant{}, nil
	}
	p, err := signer.ParsePermissions(s)
	return NamedGrant{Perms: p, Valid: err == nil}, err
}

// ErrGrantUnanswered is an API key that may move or administer the
// account's funds, not confirmed on its own: nothing is signed, and the
// words say how to go on.
var ErrGrantUnanswered = errors.New("the builder's API key may move or administer the account's funds, and that was not confirmed on its own: " +
	"nothing was signed or sent; review the authorization again and answer its second question, or give the API key only Trade")

// GrantUnlike is a grant named beforehand that is not the key's: nothing
// is signed.
type GrantUnlike struct {
	Grant, Named signer.Permissions // Grant 0: no API key
}

func (e *GrantUnlike) Error() string {
	got := "no API key"
	if e.Grant != 0 {
		got = e.Grant.String()
	}
	return "the grant named, " + e.Named.String() + ", is not the API key's permissions (" + got + ")"
}

// AcceptsGrant decides whether a may be signed without asking again, as
// withdrawal.AcceptsLoss does a loss: named is the grant said beforehand.
// Named, it must be the key's permissions exactly (*GrantUnlike); unnamed,
// a key that may move or administer funds (FundsGrant) needs its own yes,
// asked after the first (ErrGrantUnanswered).
func AcceptsGrant(a Auth, named NamedGrant) error {
	var grant signer.Permissions
	if a.WithKey {
		grant = a.Perms
	}
	switch {
	case named.Valid && named.Perms != grant:
		return &GrantUnlike{Grant: grant, Named: named.Perms}
	case !named.Valid && a.FundsGrant() != 0:
		return ErrGrantUnanswered
	}
	return nil
}

// GrantWords says what a key that may move or administer funds lets the
// builder do, as every face's own question begins; "" for none.
func (a Auth) GrantWords() string {
	g := a.FundsGrant()
	if g == 0 {
		return ""
	}
	return "The builder's API key gets " + strings.ReplaceAll(g.String(), "&", ", ") + ": the builder may move or administer your account's funds"
}

// grantAnswered refuses an order whose key needs its own answer
// (ErrGrantUnanswered) that no face recorded as given (Order.Granted).
func (o Order) grantAnswered() error {
	if o.Granted {
		return nil
	}
	return AcceptsGrant(o.Auth, NamedGrant{})
}
