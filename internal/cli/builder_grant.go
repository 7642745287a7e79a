package cli

import (
	"context"
	"errors"

	"github.com/ethereum/go-ethereum/common"

	"github.com/svcwallet/svcwallet/internal/safetext"
	"github.com/svcwallet/svcwallet/service/builder"
)

// An API key that may move or administer the account's funds
// (builder.AcceptsGrant) is granted, as a loss of most of a withdrawal is
// signed, only on its own answer: a second question after the first on a
// terminal, or --grant naming the key's permissions exactly
// beside --yes, or when preparing for offline signing.

// probed is the authorization the flags give, checked before any key is
// opened (its main account, the key's address, is not known yet).
func probed(f builderFlags) (builder.Auth, error) {
	p := f.in
	p.Main = common.Address{}.Hex()
	a, err := builder.Check(p)
	if err != nil {
		return a, usageError("%s", flagError(err))
	}
	return a, nil
}

// grantRefused refuses, before any key is opened, a grant of a (probed)
// the flags do not let through: --grant unlike --permissions, or a key that
// may move funds with no one to ask (ask false: --yes, or offline) and
// --grant not given.
func grantRefused(a builder.Auth, grant string, ask bool) error {
	named, err := builder.ParseNamedGrant(grant)
	if err != nil {
		return usageError("--grant %.20q: %w", safetext.Quoted(grant), err)
	}
	var unlike *builder.GrantUnlike
	switch err := builder.AcceptsGrant(a, named); {
	case errors.As(err, &unlike):
		return usageError("--grant: %s; name exactly what --permissions grants; nothing was signed or sent", err)
	case err != nil && !ask:
		return usageError("%s; --yes alone does not grant it: add --grant %s to grant it all the same, or give the key --permissions Trade; nothing was signed or sent",
			a.GrantWords(), safetext.ShellWord(a.Perms.String()))
	}
	return nil
}

// grantNamed: --grant named the key's permissions, which grantRefused
// has held to be exactly the key's (builder.Order.Granted).
func grantNamed(f builderFlags) bool {
	named, err := builder.ParseNamedGrant(f.grant)
	return err == nil && named.Valid
}

// grantAsked asks, after the question that signs, the second
// question a key that may move funds needs when --grant did
// not name it; its y is o's grant.
func (c builderCmd) grantAsked(ctx context.Context, o *builder.Order) error {
	if o.Granted || !errors.Is(builder.AcceptsGrant(o.Auth, builder.NamedGrant{}), builder.ErrGrantUnanswered) {
		return nil
	}
	if err := confirm(ctx, c.env, o.Auth.GrantQuestion()); err != nil {
		return err
	}
	o.Granted = true
	return nil
}
