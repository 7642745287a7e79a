package builder

import (
	"context"
	"errors"

	"github.com/ethereum/go-ethereum/common"

	"github.com/svcwallet/svcwallet/signer"
)

// Keys is what a face knows, before it asks anything, of the key that
// would sign a builder authorization.
type Keys struct {
	// Held: the session holds the key (a wallet login), or the person
	// named the source that signs, which is opened when it signs.
	Held bool
	// Lookup is where the key is looked for otherwise, in signer.Lookup's
	// order.
	Lookup signer.Lookup
}

// NoKeyError is a builder authorization that no key here can sign
// (signer.Lookup.Signing): nothing was asked, signed or sent. Each face
// adds its own ways of bringing the key.
type NoKeyError struct{ signer.NoKeyError }

func (e *NoKeyError) Error() string {
	return e.For("the main account") + ", so no builder authorization can be signed here; nothing was asked, signed or sent: make the account's key available here, then start it again"
}

// SigningKey says whether a key here signs a builder authorization for
// main, the session's account (zero when the key, once opened, names the
// account): where it was found, or a *NoKeyError, by the one rule every
// face and screen asks (signer.Lookup.Signing). Every face asks it before
// its first question, so no form is filled that cannot be signed. It
// reads the disk (the keystore directory): call it outside Update.
func SigningKey(ctx context.Context, k Keys, main common.Address) (signer.Found, error) {
	f, err := k.Lookup.Signing(ctx, k.Held, main)
	if nk, ok := errors.AsType[*signer.NoKeyError](err); ok {
		return f, &NoKeyError{*nk}
	}
	return f, err
}
