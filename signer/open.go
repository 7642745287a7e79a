package signer

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/ethereum/go-ethereum/common"
)

// Opening is what opening a key source takes from its caller (the command
// line today, the console's login later): the choice of account and the
// means to reach each kind of key. Only what the source needs is used.
type Opening struct {
	// Account is --account: the address to sign with; zero lets a source
	// that can tell (a keystore file, env, clef with one account) say.
	Account common.Address
	// KeystoreDir is where keystore:ADDRESS looks.
	KeystoreDir string
	// Passphrase asks for a keystore file's passphrase (prompt names the
	// file or address); it runs only when the key is loaded.
	Passphrase func(prompt string) (string, error)
	// RawKey is $SVCWALLET_PRIVATE_KEY as the process took it at start.
	RawKey string
	// SignCommand is the environment's sign_command, else
	// $SVCWALLET_SIGN_COMMAND.
	SignCommand string
	// Start makes a signing command's process (signer.SignCommandStarter).
	Start Starter
	// Wait bounds a signature from clef or a signing command; 0: DefaultWait.
	Wait time.Duration
	// Running, if set, counts the signatures a signing command is making,
	// until its process has ended and its typed data file is removed: the
	// console waits on it when it quits, so neither outlives svcwallet.
	Running *Running
}

// Opened is a key source ready to sign: its address is known, the key is
// loaded by Load, which may ask for a passphrase (once: later calls return
// the same key), so a dry run never needs it.
type Opened struct {
	Source  Source
	Address common.Address
	Load    func() (Key, error)
}

// The facts of a source that cannot be opened; each face says how to
// choose otherwise (a flag, the config).
var (
	// ErrNeedAccount: the source cannot tell which address signs
	// (AccountNeededError says why).
	ErrNeedAccount = errors.New("name the account to sign with")
	// ErrOffline: offline signing has no key to open.
	ErrOffline = errors.New("offline signing has no key here: the typed data is written to a file to sign elsewhere, and the signature submitted")
	// ErrNoEnvKey: the env source without a key in the environment.
	ErrNoEnvKey = errors.New("$" + KeyEnvVar + " is not set")
	// ErrNoSignCommand: the command source without a signing command.
	ErrNoSignCommand = errors.New(noSignCommand + ": set sign_command in the environment's config, or $" + SignCommandEnvVar)
)

// noSignCommand is ErrNoSignCommand's fact without its fix
// (NoKeyError.Cause).
const noSignCommand = "no signing command"

// AccountNeededError is a source that cannot tell which address signs,
// and why; it is ErrNeedAccount.
type AccountNeededError struct{ Why string }

func (e *AccountNeededError) Error() string { return e.Why + ": " + ErrNeedAccount.Error() }

func (e *AccountNeededError) Is(target error) bool { return target == ErrNeedAccount }

// OtherAccountError is a source that holds, or names, the key of another
// account (Holds) than the account named (Named).
type OtherAccountError struct {
	Source       Source
	Holds, Named common.Address
}

func (e *OtherAccountError) Error() string {
	return fmt.Sprintf("%s holds the key of %s, not of the account named, %s", e.Source.Describe(), e.Holds.Hex(), e.Named.Hex())
}

// Open resolves s to its address and a loader of its key. A keystore file
// that names no address (Foundry's) is decrypted here, since the address
// is needed before anything is signed; clef is asked its accounts
// (account_list) when no account is given. Errors are worded for the user
// and repeat no secret.
func (o Opening) Open(ctx context.Context, s Source) (Opened, error) {
	op, err := o.open(ctx, s)
	if err != nil {
		return Opened{}, err
	}
	if o.Account != (common.Address{}) && op.Address != o.Account {
		return Opened{}, &OtherAccountError{Source: s, Holds: op.Address, Named: o.Account}
	}
	op.Source, op.Load = s, once(op.Load)
	return op, nil
}

func (o Opening) open(ctx context.Context, s Source) (Opened, error) {
	switch s.Kind {
	case SourceEnv:
		if strings.TrimSpace(o.RawKey) == "" {
			return Opened{}, ErrNoEnvKey
		}
		k, err := ParsePrivateKeyHex(o.RawKey)
		if err != nil {
			return Opened{}, fmt.Errorf("$%s: %v", KeyEnvVar, err)
		}
		return Opened{Address: k.Address(), Load: func() (Key, error) { return k, nil }}, nil
	case SourceKeystore:
		return o.openKeystore(s)
	case SourceClef:
		c := NewClef(s.Endpoint, o.Wait)
		addr := o.Account
		if addr == (common.Address{}) {
			addrs, err := c.Accounts(ctx)
			if err != nil {
				return Opened{}, err
			}
			switch len(addrs) {
			case 0:
				return Opened{}, fmt.Errorf("%s holds no account", s.Describe())
			case 1:
				addr = addrs[0]
			default:
				return Opened{}, &AccountNeededError{fmt.Sprintf("%s holds %d accounts (%s)", s.Describe(), len(addrs), joinAddresses(addrs))}
			}
		}
		k := c.Key(addr)
		return Opened{Address: addr, Load: func() (Key, error) { return k, nil }}, nil
	case SourceCommand:
		if strings.TrimSpace(o.SignCommand) == "" {
			return Opened{}, ErrNoSignCommand
		}
		if err := CheckSignCommand(o.SignCommand); err != nil {
			return Opened{}, fmt.Errorf("the signing command: %v", err)
		}
		words, _ := SplitCommand(o.SignCommand)
		if o.Account == (common.Address{}) {
			return Opened{}, &AccountNeededError{"a signing command cannot say whose key it holds"}
		}
		if o.Start == nil {
			return Opened{}, errors.New("signing commands cannot be run here")
		}
		k := NewCommandKey(o.Account, words, o.Start, o.Wait)
		k.running = o.Running
		return Opened{Address: o.Account, Load: func() (Key, error) { return k, nil }}, nil
	case SourceOffline:
		return Opened{}, ErrOffline
	}
	return Opened{}, errors.New("no key source")
}

// Known is the address s signs with when it is known without asking
// anyone or anything for it: the key of env, keystore:ADDRESS, a keystore
// file naming its address, else the account named. The key's own address
// comes first: an account named beside another key is refused once opened
// (OtherAccountError), so it is not the key's. Nothing is decrypted,
// listed or run; false when only opening s would tell.
func (o Opening) Known(s Source) (common.Address, bool) {
	switch s.Kind {
	case SourceEnv:
		k, err := ParsePrivateKeyHex(o.RawKey)
		if err != nil {
			return common.Address{}, false
		}
		return k.Address(), true
	case SourceKeystore:
		if s.Address != (common.Address{}) {
			return s.Address, true
		}
		if s.Path != "" {
			addr, known, err := KeystoreFileAddress(s.Path)
			if err != nil {
				return common.Address{}, false
			}
			if known {
				return addr, true
			}
		}
	}
	return o.Account, o.Account != (common.Address{})
}

// openKeystore finds the file of keystore:ADDRESS (or of --account in the
// keystore directory), or takes the file given by its path.
func (o Opening) openKeystore(s Source) (Opened, error) {
	path := s.Path
	if path == "" {
		addr := s.Address
		if addr == (common.Address{}) {
			addr = o.Account
		}
		if addr == (common.Address{}) {
			return Opened{}, &AccountNeededError{"the keystore source names no key"}
		}
		if o.Account != (common.Address{}) && addr != o.Account {
			return Opened{}, &OtherAccountError{Source: s, Holds: addr, Named: o.Account}
		}
		var err error
		if path, err = FindKeystore(o.KeystoreDir, addr); err != nil {
			return Opened{}, err
		}
	}
	addr, known, err := KeystoreFileAddress(path)
	if err != nil {
		return Opened{}, err
	}
	load := func(prompt string) (Key, error) {
		if o.Passphrase == nil {
			return nil, errors.New("no way to ask for the keystore passphrase here")
		}
		pass, err := o.Passphrase(prompt)
		if err != nil {
			return nil, err
		}
		return LoadKeystoreKey(path, pass)
	}
	if !known {
		// A file without a clear-text address (Foundry's) must be
		// decrypted before the message, which names the address, is built.
		k, err := load("Passphrase for " + filepath.Base(path) + ": ")
		if err != nil {
			return Opened{}, err
		}
		return Opened{Address: k.Address(), Load: func() (Key, error) { return k, nil }}, nil
	}
	return Opened{Address: addr, Load: func() (Key, error) { return load("Passphrase for " + addr.Hex() + ": ") }}, nil
}

// once makes load run until it succeeds once, then return that key: a
// command that logs in and signs with one keystore key asks its passphrase once.
func once(load func() (Key, error)) func() (Key, error) {
	var mu sync.Mutex
	var k Key
	return func() (Key, error) {
		mu.Lock()
		defer mu.Unlock()
		if k != nil {
			return k, nil
		}
		got, err := load()
		if err == nil {
			k = got
		}
		return got, err
	}
}

// maxListed is the most addresses an error lists: a clef holding thousands
// would make one of megabytes.
const maxListed = 5

// joinAddresses lists the first maxListed of addrs, and how many more.
func joinAddresses(addrs []common.Address) string {
	s := make([]string, min(len(addrs), maxListed))
	for i := range s {
		s[i] = addrs[i].Hex()
	}
	if more := len(addrs) - len(s); more > 0 {
		s = append(s, fmt.Sprintf("and %d more", more))
	}
	return strings.Join(s, ", ")
}
