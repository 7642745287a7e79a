package withdrawal

import (
	"context"
	"errors"

	"github.com/ethereum/go-ethereum/common"

	"github.com/svcwallet/svcwallet/signer"
)

// NoKeyError is a withdrawal no key here can sign (signer.Lookup.Signing),
// known before its first question. A quote and its review can still be
// shown, and nothing is signed or sent; each face adds its own ways of
// bringing the key (signer.NoKeyError.Ways) and what else it can do.
type NoKeyError struct{ signer.NoKeyError }

func (e *NoKeyError) Error() string {
	return e.For("the funding account") + ", so no withdrawal can be signed here"
}

// SigningKey says, before a withdrawal's first question, whether a key
// here signs for account, the session's funding account: nil, or a
// *NoKeyError, by the one rule every face asks (signer.Lookup.Signing):
// plain mode, and the console's Home and route screen in a Cmd.
// held: the session holds the key (a wallet login). It reads the disk
// (the keystore directory) and may open the environment's signer.
func SigningKey(ctx context.Context, held bool, l signer.Lookup, account common.Address) error {
	_, err := l.Signing(ctx, held, account)
	if nk, ok := errors.AsType[*signer.NoKeyError](err); ok {
		return &NoKeyError{*nk}
	}
	return err
}
