package cli

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/svcwallet/svcwallet/internal/safetext"
	"github.com/svcwallet/svcwallet/service/config"
	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/journal"
	"github.com/svcwallet/svcwallet/service/session"
	"github.com/svcwallet/svcwallet/signer"
)

// sessionStore is where auth login keeps sessions: the credential store,
// and the session file in the state folder.
func (a *app) sessionStore() session.Store {
	return session.Store{File: stateFile(session.FileName), Now: time.Now}
}

// loginMethods is where the console's login remembers the method each
// environment was last logged in with: the state folder.
func loginMethods() session.Methods {
	return session.Methods{File: stateFile(session.MethodsFile)}
}

// stateFile is the file name in the state folder (beside the journal);
// "" when there is none.
func stateFile(name string) string {
	if p := journal.DefaultPath(); p != "" {
		return filepath.Join(filepath.Dir(p), name)
	}
	return ""
}

// keptClient is a client of e holding the session svcwallet auth login
// kept for it, when there is one for e's service that has not ended and
// the command line names no key of its own, nor $SVCWALLET_API_KEY
// another key than the one kept with it, nor a signing key (signing, the
// environment's signer, $SVCWALLET_PRIVATE_KEY) not known to be the
// wallet a kept wallet session logged in with (session.Loaded.Serves):
// each logs in as today. The
// client renews the session with the API key kept with it, and keeps the
// renewed one (exchange.Options.OnRenewed): a login by another credential
// on the client is never kept; a wallet's session, once ended, is the user's to log in
// again. A session kept for another service is never sent: stderr says so
// and the command logs in as today. keep is what a login of today's must
// keep, when an ended session was kept for e, else nil: the login of its
// account alone (session.Entry.Renews), and by an API key only the one
// kept. A wallet's session that does not
// serve where the user could not guess why is said on stderr, with the
// step (unservedStep; onConsole: for the console and plain mode).
func (a *app) keptClient(e config.Environment, f signerFlags, signing *keyChoice, opts exchange.Options, onConsole bool) (client *exchange.Client, keep func(exchange.Kept)) {
	if e.Embedded() || f.onCommandLine() {
		return nil, nil
	}
	store := a.sessionStore()
	l, err := store.Load(e)
	var expired *session.ExpiredError
	var other *session.OtherServiceError
	serves := true
	if err == nil {
		var unserved *session.UnservedError
		apiKey, given := exchange.GivenAPIKey(a.env.Getenv)
		if serves, unserved = l.Serves(apiKey, a.signingGiven(e, f, signing)); given && apiKey == "" {
			serves = false // a blank key given logs in, and is refused
		} else if unserved != nil && a.unserved == "" {
			// A warning and the login's text, never an error's; its step
			// leaves out a --config path it cannot show (safetext.Command).
			a.unserved = safetext.Text(unserved.Error() + "; " + a.unservedStep(e, unserved, onConsole))
			fmt.Fprintf(a.env.Stderr, "svcwallet: warning: %s\n", a.unserved)
		}
	}
	switch {
	case err == nil && !serves:
		// The key given logs in instead; the kept session stays.
		return nil, nil
	case err == nil:
		if opts.Logger == nil {
			opts.Logger = a.env.Log
		}
		// Only the kept credential's renewals: a login by another (the
		// console's l with a builder's new key) is for this run alone.
		opts.OnRenewed = a.keepRenewed(store, e, l.Where, l.APIKey)
		opts.OnRefused = func(k exchange.Kept) {
			if err := store.Refused(e, k, time.Now()); err != nil {
				fmt.Fprintf(a.env.Stderr, "svcwallet: warning: the refused session could not be marked ended (%v): %s forgets it\n", err, newInvocation(e.Name, a.configPath, a.env.Getenv).command("auth", "logout"))
			}
		}
		client = exchange.New(e, opts)
		var renew exchange.Credential
		if l.APIKey != "" {
			renew = exchange.APIKey(l.APIKey)
		}
		client.Adopt(l.Kept(), renew)
		return client, nil
	case errors.As(err, &expired):
		// A login by $SVCWALLET_API_KEY is kept only while that key is the
		// one kept (SaveRenewal): another's (a builder's new key, of the
		// same account) kept beside the user's was taken for the user's.
		given, _ := exchange.GivenAPIKey(a.env.Getenv)
		return nil, a.keepRenewed(store, e, expired.Where, given)
	case errors.As(err, &other):
		fmt.Fprintf(a.env.Stderr, "svcwallet: warning: %v, so it is not sent (%s forgets it)\n", other, newInvocation(e.Name, a.configPath, a.env.Getenv).command("auth", "logout"))
	case !errors.Is(err, session.ErrNone):
		fmt.Fprintf(a.env.Stderr, "svcwallet: warning: %v; logging in as without one (%s forgets it)\n", err, newInvocation(e.Name, a.configPath, a.env.Getenv).command("auth", "logout"))
	}
	return nil, nil
}

// unservedStep is what to do about a kept wallet session that does not
// serve beside the signing key given (session.UnservedError): log in
// again to record its wallet, or name the key's account, on the command
// line (unless onConsole: the console and plain mode take no flags) or in
// the environment's config.
func (a *app) unservedStep(e config.Environment, u *session.UnservedError, onConsole bool) string {
	if u.Earlier {
		return "run " + newInvocation(e.Name, a.configPath, a.env.Getenv).command("auth", "login") + " again to keep one that records it"
	}
	if onConsole {
		// Short: the console's login is read at 60 columns, the address
		// just above.
		return "to use it, set account to that address in environment " + e.Name + "'s config"
	}
	return fmt.Sprintf("to use it, name the key's account: --account %s, or account = %q in environment %s's config", u.Wallet.Hex(), u.Wallet.Hex(), e.Name)
}

// keptEnded words the session auth login kept for e when it has ended (or
// was refused), for an error that asks to log in; "" when none did.
func (a *app) keptEnded(e config.Environment) string {
	if e.Embedded() {
		return ""
	}
	var expired *session.ExpiredError
	if _, err := a.sessionStore().Load(e); errors.As(err, &expired) {
		return expired.Error()
	}
	return ""
}

// noCredential says there is no key to log in to e with, after the kept
// session's end when it ended; the auth login it names runs as printed.
func (a *app) noCredential(e config.Environment) error {
	return &noCredentialError{login: a.loginCommand(e), ended: a.keptEnded(e)}
}

// loginCommand is the auth login of e and the config this run named.
func (a *app) loginCommand(e config.Environment) string {
	return newInvocation(e.Name, a.configPath, a.env.Getenv).command("auth", "login")
}

// keptOnly is keptClient's client for the console and plain mode, which
// open on it (past the login) when there is one, or nil; unserved says
// why a kept wallet session does not serve, for the console's login
// screen (plain mode reads it on stderr), or "".
func (a *app) keptOnly(e config.Environment, opts exchange.Options) (client *exchange.Client, unserved string) {
	client, _ = a.keptClient(e, signerFlags{}, nil, opts, true)
	return client, a.unserved
}

// signingGiven is the signing key the command is given beside its login:
// signing (a withdrawal's), else the environment's signer or
// $SVCWALLET_PRIVATE_KEY, with its address when known unopened.
func (a *app) signingGiven(e config.Environment, f signerFlags, signing *keyChoice) session.Signing {
	if signing != nil {
		return session.Signing{Given: true, Wallet: signing.Address}
	}
	src, chosen, err := f.chosen(e)
	raw := a.env.Getenv(signer.KeyEnvVar)
	switch {
	case err != nil:
		return session.Signing{Given: true}
	case (!chosen || src.Kind == signer.SourceEnv) && strings.TrimSpace(raw) == "", chosen && src.Kind == signer.SourceOffline:
		// No key to sign with: signer = "env" without the variable names none.
		return session.Signing{}
	case !chosen:
		src.Source = signer.Source{Kind: signer.SourceEnv}
	}
	account, _ := f.accountOf(e)
	addr, known := signer.Opening{Account: account, RawKey: raw}.Known(src.Source)
	if !known {
		return session.Signing{Given: true}
	}
	return session.Signing{Given: true, Wallet: addr}
}

// keepRenewed keeps each session a login opens for e where the last one
// was kept, with the API key kept before (a renewal by it), while a
// session of its account is kept there still (session.Store.SaveRenewal);
// a failure to keep it is said, not fatal: the command goes on with its
// session.
func (a *app) keepRenewed(store session.Store, e config.Environment, where session.Where, apiKey string) func(exchange.Kept) {
	return func(k exchange.Kept) {
		if _, err := store.SaveRenewal(e, k, apiKey, where == session.InFile); err != nil {
			fmt.Fprintf(a.env.Stderr, "svcwallet: warning: the renewed session could not be kept (%v): the next command logs in again\n", err)
		}
	}
}
