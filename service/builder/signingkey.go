package builder

import (
	"context"
	"fmt"

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

// NoKeyError is a builder authorization that no key here can sign:
// nothing was asked, signed or sent. Each face adds its own ways of
// bringing the key.
type NoKeyError struct {
	// Account is the main account whose key signs; zero when it is the
	// key's, and no key was given to name it.
	Account common.Address
	// Err says why the environment's own signer cannot sign for Account;
	// nil when none is set.
	Err error
}

func (e *NoKeyError) Error() string {
	who := "the main account"
	if e.Account != (common.Address{}) {
		who = e.Account.Hex()
	}
	why := ""
	if e.Err != nil {
		why = " (the environment's signer: " + e.Err.Error() + ")"
	}
	return fmt.Sprintf("no key here signs for %s%s, so no builder authorization can be signed here; nothing was asked, signed or sent: make the account's key available here, then start it again", who, why)
}

func (e *NoKeyError) Unwrap() error { return e.Err }

// SigningKey says whether a key here signs a builder authorization for
// main, the session's account (zero when the key, once opened, names the
// account): where it was found, or a *NoKeyError. Every face asks it
// before its first question, so no form is filled that cannot be signed.
// It reads the disk (the keystore directory): call it outside Update.
func SigningKey(ctx context.Context, k Keys, main common.Address) (signer.Found, error) {
	if k.Held {
		return signer.Found{}, nil
	}
	if main == (common.Address{}) {
		// The account is the key's: any key given names it, and opening
		// it says whether it is one.
		switch {
		case k.Lookup.RawKey != "":
			return signer.Found{Place: signer.KeyInEnv}, nil
		case k.Lookup.DemoKey != "":
			return signer.Found{Place: signer.KeyDemo}, nil
		}
		return signer.Found{}, &NoKeyError{}
	}
	f := k.Lookup.Find(ctx, main)
	if f.Place == signer.KeyNowhere {
		return f, &NoKeyError{Account: main, Err: f.Err}
	}
	return f, nil
}
