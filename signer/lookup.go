package signer

import (
	"context"
	"errors"
	"fmt"

	"github.com/ethereum/go-ethereum/common"
	"github.com/svcwallet/svcwallet/internal/safetext"
)

// KeyPlace is where the key that signs for an account was found
// (Lookup.Find).
type KeyPlace int

// The places a key is looked for, in the order they are tried.
const (
	KeyNowhere KeyPlace = iota
	// KeyOfEnvironment: the environment's own key source, clef or a
	// signing command, for the account.
	KeyOfEnvironment
	// KeyInEnv: the raw key in $SVCWALLET_PRIVATE_KEY is the account's.
	KeyInEnv
	// KeyDemo: the sandbox's published key is the account's.
	KeyDemo
	// KeyInKeystore: a keystore file of the account (the environment's
	// signer's, else the keystore folder's), opened with its passphrase.
	KeyInKeystore
)

// Lookup is where the key that signs for an account is looked for when the
// session holds none (a login by API key), the one order of every face's
// review: the environment's signer (clef, a signing command, or a
// keystore file, as every command signs with it first), the raw key, the
// sandbox's demo key, then the account's keystore file. Opening carries
// the raw key, the keystore directory and how a signing command starts.
type Lookup struct {
	Opening
	// Signer and Account are the environment's signer and account settings.
	Signer, Account string
	// DemoKey is the sandbox's published key; "" for any other service.
	DemoKey string
}

// Found is where Find found the key, and what it needs to sign.
type Found struct {
	Place KeyPlace
	// Key is the key at KeyOfEnvironment, KeyInEnv or KeyDemo; a keystore
	// file's is opened with its passphrase (LoadKeystoreKey on Path).
	Key  Key
	Path string
	// From names the environment's source ("clef at …", "the signing
	// command NAME"); never a secret.
	From string
	// Err says why the environment's source cannot sign for the account
	// (Place is then KeyNowhere): a keystore file it names, the file's
	// fault (missing, not a keystore, another account's).
	Err error
}

// Find looks for want's key in Lookup's order. Opening the environment's
// clef or signing command asks nothing of anyone: they are first asked when
// something is signed. It reads the disk (the keystore directory).
func (l Lookup) Find(ctx context.Context, want common.Address) Found {
	f, passed := l.configured(ctx, want)
	if f.Place != KeyNowhere || f.Err != nil {
		return f
	}
	for _, c := range []struct {
		raw   string
		place KeyPlace
	}{{l.RawKey, KeyInEnv}, {l.DemoKey, KeyDemo}} {
		if c.raw == "" {
			continue
		}
		if k, err := ParsePrivateKeyHex(c.raw); err == nil && k.Address() == want {
			return Found{Place: c.place, Key: k}
		}
	}
	if path, err := FindKeystore(l.KeystoreDir, want); err == nil {
		return Found{Place: KeyInKeystore, Path: path}
	}
	if passed != nil {
		return Found{Err: passedOver{passed}}
	}
	return Found{}
}

// passedOver is the environment's signer's fault that did not end the
// look (a file of another account): the ways past it act with it set.
type passedOver struct{ error }

func (e passedOver) Unwrap() error { return e.error }

// NoKeyError: no key here signs for Account (Lookup.Signing,
// Lookup.NoKey): the session holds none and Find found none. Err says why
// the environment's own signer cannot sign for it, Signer as the config
// names it; nil when none is set. It is the one wording of the fact: each
// face follows it with its own ways of bringing the key, in the one set
// that fits the case (Steps).
type NoKeyError struct {
	Account common.Address
	Err     error
	Signer  string
}

func (e *NoKeyError) Error() string { return e.For("the account") }

// For is every face's words, a zero Account named as unknown ("the main
// account"): each follows them with what cannot be signed and its ways of
// bringing the key (Steps). The signer's error is said in its fewest
// words (Cause): the steps name its fix, once.
func (e *NoKeyError) For(unknown string) string {
	who := unknown
	if e.Account != (common.Address{}) {
		who = e.Account.Hex()
	}
	if e.Err != nil {
		setting := ""
		if e.Signer != "" {
			setting = fmt.Sprintf(", signer = %q in the config", e.Signer)
		}
		who += " (the environment's signer" + setting + ": " + e.Cause() + ")"
	}
	return "no key here signs for " + who
}

func (e *NoKeyError) Unwrap() error { return e.Err }

// Steps is the one set of next steps after For's words, around a face's
// own ways in its words (before: logging in by wallet; after: importing a
// keystore file, as it runs that). Where the environment's signer is set
// and cannot sign, the look stops there (Lookup.configured), so only its
// fix and a login by wallet (whose key is held, not looked for) act now:
// the raw key and the keystore folder only once signer is out of the
// config; a file of another account, passed over (passedOver), stops no
// look, so there every way acts now, its fix first. Setting a signer is a
// way only where none is set.
func (e *NoKeyError) Steps(before, after string) string {
	if e.Err == nil || errors.As(e.Err, new(passedOver)) {
		set := "set $" + KeyEnvVar
		if e.Signer == "" {
			set += " or signer (config)"
		}
		ways := before + ", " + set + ", or " + after
		if e.Err != nil {
			ways = e.fix(after) + ", " + ways
		}
		return ways
	}
	then := "set $" + KeyEnvVar + " or " + after
	if e.imports() {
		then = "set $" + KeyEnvVar
	}
	return e.Now(before, after) + "; with signer out of the config, " + then
}

// Now is Steps in the fewest words: the ways that act while the signer
// set cannot sign, its fix first (a face with no room for its error still
// says what to fix); Steps where none is set, or where its file was passed
// over, every way acting now.
func (e *NoKeyError) Now(before, after string) string {
	if e.Err == nil || errors.As(e.Err, new(passedOver)) {
		return e.Steps(before, after)
	}
	return e.fix(after) + " or " + before
}

// Ways is the sentence of next steps after For's words: Steps.
func (e *NoKeyError) Ways(before, after string) string {
	return "Ways: " + e.Steps(before, after)
}

// Cause is the signer's error in the fewest words, for words followed by
// Steps, which name its fix: without the fix it says itself
// (ErrNoSignCommand's), so that is not said twice; "" without an error.
func (e *NoKeyError) Cause() string {
	switch {
	case e.Err == nil:
		return ""
	case errors.Is(e.Err, ErrNoSignCommand):
		return noSignCommand
	}
	return e.Err.Error()
}

// fix is the step that makes the signer set sign, its config key named:
// sign_command where the command's own words cannot sign, setting it where
// none is; importing the key (after) where the signer names the keystore
// folder's file of the account and there is none.
func (e *NoKeyError) fix(after string) string {
	switch {
	case errors.Is(e.Err, ErrNoSignCommand):
		return "set sign_command"
	case e.imports():
		return after
	}
	if src, err := ParseSource(e.Signer); err == nil && src.Kind == SourceCommand {
		return "fix sign_command"
	}
	return "fix signer"
}

// imports: the signer's fault is that the keystore folder holds no file
// of the account, which importing its key mends.
func (e *NoKeyError) imports() bool {
	var none *noFolderFile
	return errors.As(e.Err, &none)
}

// Signing says whether a key here signs for want, the one rule of every
// face and screen that asks before its first question: held, the session
// holds it (a wallet login) or the person named the source that signs,
// opened when it signs, and nothing is looked for; else where Find finds
// it, or a *NoKeyError. A zero want is the key's own account: any key
// given names it (the raw key, then the demo key), and opening it says
// whether it is one. It reads the disk (the keystore directory).
func (l Lookup) Signing(ctx context.Context, held bool, want common.Address) (Found, error) {
	switch {
	case held:
		return Found{}, nil
	case want != (common.Address{}):
		f := l.Find(ctx, want)
		if f.Place == KeyNowhere {
			return f, l.NoKey(want, f)
		}
		return f, nil
	case l.RawKey != "":
		return Found{Place: KeyInEnv}, nil
	case l.DemoKey != "":
		return Found{Place: KeyDemo}, nil
	}
	return Found{}, &NoKeyError{}
}

// NoKey is why f, where Find looked for want's key and found none, signs
// nothing: the one NoKeyError of Signing and of a review that looked.
func (l Lookup) NoKey(want common.Address, f Found) *NoKeyError {
	return &NoKeyError{Account: want, Err: f.Err, Signer: l.Signer}
}

// configured is where the environment's own source, clef, a signing
// command or a keystore file, holds want's key: KeyNowhere when it names
// none, or names another account. f.Err says why the source named cannot
// sign, and ends the look (every command signs with that source first);
// passed, why a keystore file was passed over (another account's, or one
// that does not say whose), said only when nothing else signs.
func (l Lookup) configured(ctx context.Context, want common.Address) (f Found, passed error) {
	if l.Signer == "" || (l.Account != "" && common.HexToAddress(l.Account) != want) {
		return Found{}, nil
	}
	src, err := ParseSource(l.Signer)
	switch {
	case err != nil:
		return Found{}, nil // the config's check says it
	case src.Kind == SourceKeystore:
		path, passed, err := l.keystoreFile(src, want)
		if err != nil || passed != nil {
			return Found{Err: err}, passed
		}
		return Found{Place: KeyInKeystore, Path: path}, nil
	case src.Kind != SourceClef && src.Kind != SourceCommand:
		return Found{}, nil // env and offline: the raw key is looked for next
	}
	o := l.Opening
	o.Account = want
	op, err := o.Open(ctx, src)
	if err != nil {
		return Found{Err: err}, nil
	}
	k, err := op.Load()
	if err != nil {
		return Found{Err: err}, nil
	}
	if src.Kind == SourceCommand {
		return Found{Place: KeyOfEnvironment, Key: k, From: Awaiting(k)}, nil // "the signing command NAME": never its arguments
	}
	return Found{Place: KeyOfEnvironment, Key: k, From: src.Describe()}, nil
}

// Who names the key found, for the line of a review that says which key
// signs: every face's words. "" at KeyNowhere.
func (f Found) Who() string {
	switch f.Place {
	case KeyOfEnvironment:
		return f.From + ", the environment's signer"
	case KeyInEnv:
		return "the raw key in $" + KeyEnvVar
	case KeyDemo:
		return "the sandbox demo key (public development key)"
	case KeyInKeystore:
		return "keystore " + safetext.Shown(f.Path) // its folder is the environment's: XDG_CONFIG_HOME, a config's
	}
	return ""
}

// Brief is Who in fewer words, for a review's line that keeps room for
// the quote's countdown beside it; Who where that is already short.
func (f Found) Brief() string {
	if f.Place == KeyDemo {
		return "sandbox demo key (public)"
	}
	return f.Who()
}

// WalletWho names the wallet logged in with (from: where it was opened,
// "" unsaid), as Who names a key found.
func WalletWho(k Key, from string) string {
	who := "the wallet you logged in with, " + k.Address().Hex()
	if from != "" {
		who += ", from " + from
	}
	return who
}
