package plain

import (
	"cmp"
	"errors"
	"fmt"
	"path/filepath"
	"slices"

	"github.com/ethereum/go-ethereum/common"

	"github.com/svcwallet/svcwallet/internal/safetext"
	"github.com/svcwallet/svcwallet/service/config"
	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/target"
	"github.com/svcwallet/svcwallet/signer"
)

// Logging in: the environment, the method, the credential, as the
// console's login screen offers them.

// walletSource is one wallet key source the login offers.
type walletSource struct {
	name string
	// open asks what the source needs (a keystore's passphrase) and
	// returns its key, and where it is (for the reviews).
	open func() (signer.Key, string, error)
}

// logIn asks until a login succeeds.
func (s *session) logIn() error {
	for {
		t, err := s.chooseTarget()
		if err != nil {
			return err
		}
		s.p.BeforeSecret() // typed ahead, the secret is never echoed (quiet.go)
		method, err := s.p.Choose("How do you log in?", Options("API key", "Wallet signature"))
		if err != nil {
			return err
		}
		var cred exchange.Credential
		var key signer.Key
		from := ""
		if method == 0 {
			apiKey, err := s.apiKey()
			if err != nil {
				return err
			}
			cred = exchange.APIKey(apiKey)
		} else {
			if key, from, err = s.walletKey(t); err != nil {
				if errors.Is(err, ErrEnd) || errors.Is(err, ErrInterrupted) {
					return err
				}
				s.p.Say("Login failed: %v.", trimStop(err))
				s.p.Blank()
				continue
			}
			cred = exchange.Wallet(key)
			s.warnArgumentSecret(key)
			if what := signer.Awaiting(key); what != "" {
				s.p.Say("Waiting for %s to sign the login (ctrl+c cancels)…", what)
			}
		}
		s.p.Say("Logging in to %s…", t.Env.Name)
		cx, cancel := s.call()
		if key != nil && signer.Awaiting(key) != "" {
			cancel()
			cx, cancel = s.waitFor() // the key's own wait bounds it
		}
		sess, err := t.Client.Login(cx, cred)
		cancel()
		if err != nil {
			if err := s.interrupted(err); errors.Is(err, ErrInterrupted) {
				return err
			}
			s.p.Say("Login failed: %v.", trimStop(loginError(err, method == 0)))
			s.p.Blank()
			continue
		}
		s.target, s.wallet, s.walletFrom, s.walletSent = t, key, from, s.walletSent || key != nil
		s.p.Say("Logged in to %s by %s: funding account %s, account id %s.", t.Env.Name, sess.Method, sess.FundingAccountAddress, cmp.Or(sess.AccountID, "none"))
		if sess.SubAccountID != "" {
			s.p.Say("This is a trading key of sub-account %s: withdrawals need a main-account key.", sess.SubAccountID)
		}
		return nil
	}
}

// chooseTarget picks the environment (the one given, else asked when
// there are several) and says where it is.
func (s *session) chooseTarget() (target.Target, error) {
	i := slices.IndexFunc(s.Targets, func(t target.Target) bool { return t.Env.Name == s.Given })
	if i < 0 {
		i = 0
	}
	if s.Given == "" && len(s.Targets) > 1 {
		names := make([]string, len(s.Targets))
		for j, t := range s.Targets {
			names[j] = t.Env.Name
		}
		var err error
		if def := slices.Index(names, s.Default); def >= 0 {
			i, err = s.p.ChooseOr("Which environment?", Options(names...), def)
		} else {
			i, err = s.p.Choose("Which environment?", Options(names...))
		}
		if err != nil {
			return target.Target{}, err
		}
	}
	t := s.Targets[i]
	s.p.Say("Environment %s: %s, chain id %d.", t.Env.Name, t.Env.AuthURL, t.Env.ChainID)
	if d := t.Demo; d != nil {
		s.p.Say("Sandbox demo credentials: the API key %s, or a wallet signature with the key source \"sandbox demo key\".", d.APIKey)
	}
	return t, nil
}

// apiKey is the API key exported in $SVCWALLET_API_KEY when the user takes
// it, else one typed without echo.
func (s *session) apiKey() (string, error) {
	if k, _ := exchange.GivenAPIKey(s.Getenv); k != "" {
		s.p.BeforeSecret()
		i, err := s.p.Choose("Which API key?", Options("the one in $"+exchange.APIKeyEnvVar, "another, typed now"))
		if err != nil || i == 0 {
			return k, err
		}
	}
	return s.p.Secret("API key (not shown as you type):")
}

// walletKey asks for the wallet key source and opens its key.
func (s *session) walletKey(t target.Target) (signer.Key, string, error) {
	sources := s.walletSources(t)
	names := make([]string, len(sources))
	for i, src := range sources {
		names[i] = src.name
	}
	i, err := s.p.Choose("Which key signs the login?", Options(names...))
	if err != nil {
		return nil, "", err
	}
	return sources[i].open()
}

// walletSources are the key sources the environment offers, in the login
// screen's order: the keystore always, the raw key when it is set (a
// choice that can only fail is not offered), clef and the signing command
// when configured, the demo key on the sandbox.
func (s *session) walletSources(t target.Target) []walletSource {
	opening := s.opening(t)
	out := []walletSource{{"keystore", s.keystoreKey}}
	if opening.RawKey != "" {
		out = append(out, walletSource{"$" + signer.KeyEnvVar, func() (signer.Key, string, error) {
			op, err := opening.Open(s.ctx, signer.Source{Kind: signer.SourceEnv})
			if err != nil {
				return nil, "", err
			}
			k, err := op.Load()
			return k, "$" + signer.KeyEnvVar, err
		}})
	}
	if src, err := signer.ParseSource(t.Env.Signer); err == nil && src.Kind == signer.SourceClef {
		out = append(out, walletSource{"clef at " + src.Endpoint, func() (signer.Key, string, error) { return s.clefKey(t, src) }})
	}
	if opening.SignCommand != "" {
		out = append(out, walletSource{"signing command", func() (signer.Key, string, error) {
			if !common.IsHexAddress(t.Env.Account) {
				return nil, "", config.ErrNoCommandAccount
			}
			o := opening
			o.Account = common.HexToAddress(t.Env.Account)
			op, err := o.Open(s.ctx, signer.Source{Kind: signer.SourceCommand})
			if err != nil {
				return nil, "", err
			}
			k, err := op.Load()
			return k, signer.Awaiting(k), err
		}})
	}
	if d := t.Demo; d != nil {
		out = append(out, walletSource{"sandbox demo key", func() (signer.Key, string, error) {
			k, err := signer.ParsePrivateKeyHex(d.PrivateKey)
			return k, "the sandbox demo key", err
		}})
	}
	return out
}

// opening is how plain mode opens t's key sources: as the command line
// does, a signing command lent the terminal (it may prompt there).
func (s *session) opening(t target.Target) signer.Opening {
	return signer.Opening{KeystoreDir: s.KeystoreDir, RawKey: s.Getenv(signer.KeyEnvVar),
		SignCommand: signer.SignCommandLine(t.Env.SignCommand, s.Getenv), Start: signer.SignCommandStarter(true),
		Wait: t.Env.SignWait(), Running: s.Running}
}

// keystoreKey asks which keystore file (one of the keystore's, or a path)
// and its passphrase.
func (s *session) keystoreKey() (signer.Key, string, error) {
	entries, _ := signer.ListKeystore(s.KeystoreDir)
	options := make([]Option, 0, len(entries)+1)
	count := map[string]int{}
	for _, e := range entries {
		count[e.Address.Hex()]++
	}
	for _, e := range entries {
		// Each address once: its file (which names it again) only to tell
		// two files of one address apart.
		o := Option{Name: filepath.Base(e.Path)}
		if e.AddressKnown {
			o = Option{Name: e.Address.Hex()}
			if count[o.Name] > 1 {
				o.About = "the file " + filepath.Base(e.Path)
			}
		}
		options = append(options, o)
	}
	path := ""
	if len(entries) > 0 {
		s.p.BeforeSecret()
		i, err := s.p.Choose("Which keystore key?", append(options, Option{Name: "another file"}))
		if err != nil {
			return nil, "", err
		}
		if i < len(entries) {
			path = entries[i].Path
		}
	}
	if path == "" {
		s.p.BeforeSecret()
		typed, err := s.p.Ask("Path of the keystore file:", nil)
		if err != nil {
			return nil, "", err
		}
		if path, err = signer.ExpandHome(typed); err != nil {
			return nil, "", err
		}
	}
	k, err := s.unlockUntil(path, loginPassphraseTries)
	return k, "the keystore file " + filepath.Base(path), err
}

// loginPassphraseTries is how many passphrases the login's keystore file is
// asked before the login starts over, where another key or an API key can
// be chosen.
const loginPassphraseTries = 3

// unlock asks a keystore file's passphrase and decrypts it; its error
// repeats the path shortened, as a typed path may hold most of a key.
func (s *session) unlock(path string) (signer.Key, error) {
	pass, err := s.p.Passphrase("Passphrase of " + filepath.Base(path) + " (not shown as you type):")
	if err != nil {
		return nil, err
	}
	s.p.Say("Unlocking the key…")
	k, err := s.LoadKeystore(path, pass)
	if errors.Is(err, signer.ErrWrongPassphrase) {
		return nil, exchange.UserError{Text: "wrong passphrase", Cause: err} // the question named the file
	} else if err != nil {
		return nil, exchange.UserError{Text: "cannot unlock the keystore: " + safetext.Quoted(err.Error()), Cause: err}
	}
	return k, nil
}

// clefKey asks clef for its accounts and, when it holds several, which.
func (s *session) clefKey(t target.Target, src signer.Source) (signer.Key, string, error) {
	c := signer.NewClef(src.Endpoint, t.Env.SignWait())
	s.p.Say("Asking clef at %s for its accounts (approve the listing there if it asks)…", src.Endpoint)
	cx, cancel := s.waitFor()
	addrs, err := c.Accounts(cx)
	cancel()
	if err != nil {
		return nil, "", s.interrupted(err)
	}
	if len(addrs) == 0 {
		return nil, "", fmt.Errorf("clef at %s holds no account", src.Endpoint)
	}
	i := 0
	if len(addrs) > 1 {
		names := make([]string, len(addrs))
		for j, a := range addrs {
			names[j] = a.Hex()
		}
		if i, err = s.p.Choose("Which of clef's accounts?", Options(names...)); err != nil {
			return nil, "", err
		}
	}
	return c.Key(addrs[i]), src.Describe(), nil
}

// loginError words a failed login; a refused wallet login comes worded by
// its reason from the client.
func loginError(err error, byAPIKey bool) error {
	if errors.Is(err, exchange.ErrUnauthenticated) && byAPIKey {
		return exchange.UserError{Text: "The API key was not accepted: check it and type it again"}
	}
	return exchange.Explain(err)
}
