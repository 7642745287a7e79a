package login

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/ethereum/go-ethereum/common"

	"github.com/svcwallet/svcwallet/internal/safetext"
	"github.com/svcwallet/svcwallet/screens/kit"
	"github.com/svcwallet/svcwallet/service/config"
	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/session"
	"github.com/svcwallet/svcwallet/signer"
	"github.com/svcwallet/svcwallet/tui"
)

// Logging in: the credential the form chose, the login in a Cmd (a wallet
// key that waits says so, and esc ends the wait), and its outcome.

// submit checks the form and starts the login in a Cmd.
func (l *loginScreen) submit() tea.Cmd {
	l.err = nil
	t := l.target()
	var cred func() (exchange.Credential, signer.Key, error)
	from, waiting := "", ""
	var warned tea.Cmd // a signing command's secret in its arguments, said once a run
	switch {
	case l.method == methodAPIKey:
		apiKey := strings.TrimSpace(l.apiKey.Input.Value())
		if apiKey == "" {
			text := "Enter an API key (paste works)"
			if t.Demo != nil { // ctrl+d acts only where there is a demo key
				text += ", or press ctrl+d for the demo key"
			}
			return l.form.Fail(l.apiKey, exchange.UserError{Text: text})
		}
		cred = func() (exchange.Credential, signer.Key, error) { return exchange.APIKey(apiKey), nil, nil }
	case l.kind() == sourceKeystore:
		path, pass := l.keys.path(l.path.Input.Value()), l.pass.Input.Value()
		from = "the keystore file " + safetext.ShownTyped(filepath.Base(path)) // typed: it may hold most of a key
		if path == "" {
			return l.form.Fail(l.path, exchange.UserError{Text: "Enter the path of a keystore file (" + l.app.Command("key", "new") + " makes one)"})
		}
		load := l.app.LoadKeystore
		cred = func() (exchange.Credential, signer.Key, error) {
			path, err := signer.ExpandHome(path)
			if err != nil {
				return nil, nil, err
			}
			k, err := load(path, pass)
			if _, ok := errors.AsType[*signer.WrongPassphraseError](err); ok {
				return nil, nil, err // keyError words it by its facts
			} else if err != nil {
				// The keystore's errors name the path, in full or cleaned
				// and made absolute, and it was typed: it may hold most of
				// a key, so the whole message is shortened.
				return nil, nil, exchange.UserError{Text: safetext.Quoted(err.Error()), Cause: err}
			}
			return exchange.Wallet(k), k, nil
		}
	case l.kind() == sourceClef:
		addr, err := l.clef.chosen()
		if err != nil {
			return tea.Batch(l.form.Fail(l.clefField, err), l.clef.retry(l.askClef))
		}
		ep, wait := l.clefEndpoint(), t.Env.SignWait()
		from, waiting = "clef at "+ep, "approval in clef at "+ep
		cred = func() (exchange.Credential, signer.Key, error) {
			k := signer.NewClef(ep, wait).Key(addr)
			return exchange.Wallet(k), k, nil
		}
	case l.kind() == sourceCommand:
		account := t.Env.Account
		if account == "" {
			return l.form.Fail(l.sourceField, exchange.UserError{Text: config.ErrNoCommandAccount.Error()})
		}
		o := l.app.SignerOpening(t.Env, common.HexToAddress(account))
		// Opened here, where nothing runs yet, so that the wait is named
		// as the key names it, after the line's check: it may come from
		// $SVCWALLET_SIGN_COMMAND, which no config load checked.
		op, err := o.Open(context.Background(), signer.Source{Kind: signer.SourceCommand})
		var k signer.Key
		if err == nil {
			k, err = op.Load()
		}
		if err != nil {
			return l.form.Fail(l.sourceField, keyError(err))
		}
		from, waiting = commandName(o.SignCommand), signer.Awaiting(k)
		warned = kit.ArgumentWarned(l.app, k)
		cred = func() (exchange.Credential, signer.Key, error) { return exchange.Wallet(k), k, nil }
	case l.kind() == sourceEnv:
		from = "$" + signer.KeyEnvVar
		getenv := l.app.Getenv
		cred = func() (exchange.Credential, signer.Key, error) {
			raw := getenv(signer.KeyEnvVar)
			if raw == "" {
				return nil, nil, errors.New("$" + signer.KeyEnvVar + " is not set: export the raw hex key there, or use a keystore file")
			}
			k, err := signer.ParsePrivateKeyHex(raw)
			if err != nil {
				return nil, nil, fmt.Errorf("$%s: %w", signer.KeyEnvVar, err)
			}
			return exchange.Wallet(k), k, nil
		}
	default:
		from = "the sandbox demo key"
		hexKey := t.Demo.PrivateKey
		cred = func() (exchange.Credential, signer.Key, error) {
			k, err := signer.ParsePrivateKeyHex(hexKey)
			if err != nil {
				return nil, nil, err
			}
			return exchange.Wallet(k), k, nil
		}
	}
	l.busy = true
	l.attempt++
	l.waiting, l.cancelled = waiting, false
	// A login whose signature waits for a person (clef, a signing command)
	// is bounded by the key's own wait, and esc cancels it; the others by
	// the usual request time.
	var cx context.Context
	var cancel context.CancelFunc
	if waiting == "" {
		cx, cancel = kit.Call(l.app.Root())
	} else {
		cx, cancel = context.WithCancel(l.app.Root())
	}
	l.cancel = cancel
	attempt, client := l.attempt, t.Client
	login := func() tea.Msg {
		defer cancel()
		c, k, err := cred()
		if err != nil {
			return loginDoneMsg{attempt: attempt, err: keyError(err), keyErr: true}
		}
		s, err := client.Login(cx, c)
		return loginDoneMsg{attempt: attempt, session: s, key: k, from: from, err: err}
	}
	return tea.Batch(login, l.spin.Tick, warned)
}

// finish moves on to the home screen, or explains the failure. What was
// typed is kept for another try after a network or service failure; a
// secret the failure was about (an API key the service refused, a
// passphrase that did not open the key, a signature refused) is cleared.
func (l *loginScreen) finish(msg loginDoneMsg) tea.Cmd {
	if msg.attempt != l.attempt {
		return nil
	}
	l.busy, l.waiting = false, ""
	if msg.err != nil {
		l.err = loginError(msg.err, l.method)
		if msg.keyErr && l.kind() == sourceKeystore && kit.LooksLikeAPIKey(l.pass.Input.Value()) {
			l.err = errAPIKeyAsPassphrase
		}
		refused := errors.Is(msg.err, exchange.ErrUnauthenticated)
		if refused && l.method == methodAPIKey {
			l.apiKey.Input.SetValue("")
		}
		if msg.keyErr || refused && l.method != methodAPIKey {
			l.pass.Input.SetValue("")
		}
		return nil
	}
	l.app.Session = kit.Session{Target: l.target(), Signer: msg.key, SignerFrom: msg.from}
	return tea.Batch(l.rememberMethod(), tui.Reset(l.app.Makers.Home(l.app)))
}

// rememberMethod records the method just logged in with, for the next
// login to open on. A record that cannot be written is not said: it only
// chooses where the next login opens.
func (l *loginScreen) rememberMethod() tea.Cmd {
	methods, env, method := l.app.LoginMethods, l.target().Env.Name, session.ByAPIKey
	if l.method == methodWallet {
		method = session.ByWallet
	}
	return func() tea.Msg {
		_ = methods.Remember(env, method)
		return nil
	}
}

// errAPIKeyAsPassphrase is said when what did not open the keystore has
// the shape of an API key: the method was the wallet's, the key typed an
// API key.
var errAPIKeyAsPassphrase = exchange.UserError{Text: "That did not open the key, and it has the shape of an API key: it was cleared. " +
	"To log in with an API key, choose Method: API key (shift+tab up to it, then ←/→) and paste it there"}

// loginError words the failures a login can meet; a refused wallet login
// comes worded by its reason from the client.
func loginError(err error, method int) error {
	if errors.Is(err, exchange.ErrUnauthenticated) && method == methodAPIKey {
		return exchange.UserError{Text: "The API key was not accepted: check it and paste it again"}
	}
	return exchange.Explain(err)
}

// keyError words a key that did not open for the login: a wrong
// passphrase names the key, its address as the console shortens every
// address, and is typed again.
func keyError(err error) error {
	if w, ok := errors.AsType[*signer.WrongPassphraseError](err); ok {
		key := "in " + safetext.ShownTyped(w.File)
		if w.Address != (common.Address{}) {
			key = "of " + tui.ShortAddress(w.Address.Hex())
		}
		return exchange.UserError{Text: "Wrong passphrase for the keystore key " + key + ": type it again", Cause: err}
	}
	return exchange.UserError{Text: err.Error(), Cause: err}
}
