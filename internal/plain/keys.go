package plain

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/ethereum/go-ethereum/common"

	"github.com/svcwallet/svcwallet/internal/safetext"
	"github.com/svcwallet/svcwallet/service/withdrawal"
	"github.com/svcwallet/svcwallet/signer"
)

// reviewKey is the key a review signs with: who it is, for the review,
// and how it is loaded once the user confirmed.
type reviewKey struct {
	who   string
	waits bool // it waits for a person (clef, a signing command)
	load  func() (signer.Key, error)
	// err says why there is no key to sign with.
	err error
}

// keyFor finds the key that signs for want, as the console's reviews do:
// the wallet logged in with, else where signer.Lookup finds it.
func (s *session) keyFor(want common.Address) reviewKey {
	if k := s.wallet; k != nil {
		return reviewKey{who: signer.WalletWho(k, s.walletFrom), waits: signer.Awaiting(k) != "", load: func() (signer.Key, error) { return s.watched(k), nil }}
	}
	f := s.lookup().Find(s.ctx, want)
	loaded := func() (signer.Key, error) { return s.watched(f.Key), nil }
	switch f.Place {
	case signer.KeyOfEnvironment:
		return reviewKey{who: f.Who(), waits: signer.Awaiting(f.Key) != "", load: loaded}
	case signer.KeyInEnv, signer.KeyDemo:
		return reviewKey{who: f.Who(), load: loaded}
	case signer.KeyInKeystore:
		return reviewKey{who: f.Who(), load: func() (signer.Key, error) { return s.unlockUntil(f.Path, 0) }}
	}
	nk := s.lookup().NoKey(want, f)
	return reviewKey{err: fmt.Errorf("%w. %s", nk, s.keyWays(nk))}
}

// keyWays are plain mode's ways of bringing the key, the sentence after
// the words no key signs, in the one rule's order (signer.NoKeyError.Ways).
func (s *session) keyWays(nk *signer.NoKeyError) string {
	return nk.Ways("log in with the account's wallet", "import its keystore file ("+s.command("key", "import")+")")
}

// sayNoKey says, before a withdrawal's first question, that no key here
// signs for the funding account (withdrawal.SigningKey, the rule the
// console's route screen shows), with plain mode's ways and what it can
// still do: quote and review, signing nothing; it prepares nothing for
// another device, which the command line does where the environment
// outlives it (not the embedded sandbox). It reports whether it said so.
func (s *session) sayNoKey() bool {
	sess, _ := s.client().Session()
	if !common.IsHexAddress(sess.FundingAccountAddress) {
		return false
	}
	err := withdrawal.SigningKey(s.ctx, s.wallet != nil, s.lookup(), common.HexToAddress(sess.FundingAccountAddress))
	nk, ok := errors.AsType[*withdrawal.NoKeyError](err)
	if !ok {
		return false
	}
	s.p.Say("%s. %s.", safetext.Capitalized(nk.Error()), s.keyWays(&nk.NoKeyError))
	can := "Plain mode can still get a quote and show what would be signed; it signs and sends nothing."
	if s.target.Demo == nil {
		can += " To sign on another device, the command line prepares a withdrawal for it: " + s.command("help", "offline") + "."
	}
	s.p.Say("%s", can)
	return true
}

// lookup is where a key is looked for when the session holds none.
func (s *session) lookup() signer.Lookup {
	env := s.target.Env
	l := signer.Lookup{Opening: s.opening(s.target), Signer: env.Signer, Account: env.Account}
	if s.target.Demo != nil {
		l.DemoKey = s.target.Demo.PrivateKey
	}
	return l
}

// unlockUntil asks a keystore file's passphrase until it opens the key, at
// most tries times (0: no limit); a file that cannot open whatever the
// passphrase (missing, not a keystore), the input's end or ctrl+c stop it.
func (s *session) unlockUntil(path string, tries int) (signer.Key, error) {
	for n := 1; ; n++ {
		k, err := s.unlock(path)
		if !errors.Is(err, signer.ErrWrongPassphrase) {
			return k, err
		}
		if n == tries {
			return nil, fmt.Errorf("%w, %d times: choose the key again, or another way to log in", err, n)
		}
		s.p.Say("%s; type the passphrase again.", strings.TrimSuffix(safetext.Capitalized(err.Error()), "."))
	}
}

// watched is k saying each wait for a person before it starts: what is
// awaited, and that ctrl+c cancels it with nothing sent.
func (s *session) watched(k signer.Key) signer.Key {
	s.warnArgumentSecret(k)
	return signer.Watch(k, func(ctx context.Context, awaiting string) (context.Context, func()) {
		s.p.Say("Waiting for %s (ctrl+c cancels; nothing is sent until it signs)…", awaiting)
		return ctx, func() {}
	})
}

// warnArgumentSecret says, once a session, before k signs, that k's
// signing command gives its program a key or a password as an argument
// (signer.ArgumentWarning).
func (s *session) warnArgumentSecret(k signer.Key) {
	if words := s.argumentWarning.Due(k); words != "" {
		s.p.Say("Warning: %s: %s.", words, signer.ArgumentSecretFix)
	}
}
