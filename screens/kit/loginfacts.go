package kit

import (
	"errors"

	tea "charm.land/bubbletea/v2"

	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/session"
	"github.com/svcwallet/svcwallet/signer"
	"github.com/svcwallet/svcwallet/tui"
)

// LoginFacts are what the login opens with from the disk: the keystore's
// keys and the method the environment was last logged in with.
type LoginFacts struct {
	Keys []signer.KeystoreEntry
	Last session.Method
}

// LoginFactsMsg carries the login's facts read by ReadLoginFacts; the
// screen that asked opens the login with them.
type LoginFactsMsg struct{ Facts LoginFacts }

// LoginFacts reads them for the app's environment. It reads files: the
// console calls it before it runs; a screen asks ReadLoginFacts instead.
func (a *App) LoginFacts() LoginFacts {
	return findLoginFacts(a.KeystoreDir, a.LoginMethods, a.Target.Env.Name)
}

// ReadLoginFacts reads the login's facts off the event loop (a log out
// builds the login while the console runs).
func (a *App) ReadLoginFacts() tea.Cmd {
	dir, methods, env := a.KeystoreDir, a.LoginMethods, a.Target.Env.Name
	return func() tea.Msg { return LoginFactsMsg{findLoginFacts(dir, methods, env)} }
}

// findLoginFacts is what a keystore it cannot read leaves empty: the login
// then offers a path to type.
func findLoginFacts(dir string, methods session.Methods, env string) LoginFacts {
	keys, _ := signer.ListKeystore(dir)
	return LoginFacts{Keys: keys, Last: methods.Last(env)}
}

// SessionEnded takes the person to the login when err says the session
// ended and the client cannot renew it (a kept one the service refused,
// or one whose login waits for a person): the login opens with the error
// said, and the screens that needed the session are left. Nil otherwise.
func (a *App) SessionEnded(err error) tea.Cmd {
	if _, ok := errors.AsType[*exchange.SessionEndedError](err); !ok {
		return nil
	}
	a.EndSession()
	dir, methods, env, login := a.KeystoreDir, a.LoginMethods, a.Target.Env.Name, a.Makers.Login
	return tea.Batch(tui.ShowError(exchange.Explain(err)), func() tea.Msg {
		facts := findLoginFacts(dir, methods, env)
		return tui.ResetTo(func() tui.Screen { return login(a, facts) })
	})
}

// EndSession ends the console's session whole, at a logout or once the
// service ended it: its wallet key and its check of unfinished withdrawals
// go with it (the check's answers taken after were worded for the next
// login), and a session auth login kept is no longer this run's.
func (a *App) EndSession() {
	a.Session = Session{Target: a.Target}
	a.Target.Kept = false
}
