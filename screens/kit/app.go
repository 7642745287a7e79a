// Package kit is what every console screen shares: the App (fixed
// dependencies, the one session, test hooks), key bindings declared once,
// text fields and the list filter, the review gate and signing key, ink,
// text helpers, copying and opening links.
package kit

import (
	"context"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/svcwallet/svcwallet/internal/osguard"
	"github.com/svcwallet/svcwallet/internal/runnext"
	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/follow"
	"github.com/svcwallet/svcwallet/service/journal"
	"github.com/svcwallet/svcwallet/service/session"
	"github.com/svcwallet/svcwallet/service/target"
	"github.com/svcwallet/svcwallet/service/withdrawal"
	"github.com/svcwallet/svcwallet/signer"
	"github.com/svcwallet/svcwallet/tui"
)

// Visit is the life of a screen on the stack: the calls it makes that are
// worth nothing once it is gone (reads, a deposit address or a login asked
// for from it) are cancelled when it is left (tui.Leaver), and with the
// console. Calls
// that move money or sign (withdraw, builder authorization) do not use it:
// their answer must arrive and be journaled even if the screen is gone.
type Visit struct {
	ctx    context.Context
	cancel context.CancelFunc
}

// Context is the visit's context, started on first use under the root's.
func (v *Visit) Context(app *App) context.Context {
	if v.ctx == nil {
		v.ctx, v.cancel = context.WithCancel(app.Root())
	}
	return v.ctx
}

// Leave cancels the visit's calls still out.
func (v *Visit) Leave() {
	if v.cancel != nil {
		v.cancel()
	}
}

// Call bounds one call made under parent by exchange.CallTimeout.
func Call(parent context.Context) (context.Context, context.CancelFunc) {
	return context.WithTimeout(parent, exchange.CallTimeout)
}

// App is what every screen shares besides the tui.Common: the fixed
// dependencies, the session, and the hooks tests replace. Screens hold a
// pointer.
type App struct {
	Deps
	Session
	Hooks
}

// Deps are the console's fixed dependencies: they do not change while it runs.
type Deps struct {
	Common      *tui.Common
	Targets     []target.Target
	KeystoreDir string
	Getenv      func(string) string
	// PollInterval is how often a followed withdrawal's status is asked.
	PollInterval time.Duration
	// Bell rings the terminal bell when a followed withdrawal changes state
	// (the config's bell); Notify also sends a desktop notification when one
	// ends (the config's notify). See Announce.
	Bell, Notify bool
	// Context is the console's root context, cancelled on quit; nil means
	// context.Background.
	Context context.Context
	// Running counts the signatures signing commands are making
	// (signer.Opening.Running); nil counts nothing. The console cancels
	// Context on quit, then closes it (Running.Close), so no signing command or typed
	// data file outlives svcwallet.
	Running *signer.Running
	// ArgumentWarning says a signing command's secret in its arguments
	// once a run, before its first signature (signer.ArgumentWarning).
	ArgumentWarning signer.ArgumentWarning
	// Makers build the screens one feature opens in another.
	Makers Makers
	// Flushes are the writes owed when the console ends; nil owes none.
	Flushes *Flushes
	// Writes are the journal lines handed to commands and not written yet,
	// made or waited for when the console ends (Writes.Finish); nil keeps
	// no count.
	Writes *Writes
	// Sends are the review screens' sends still out, waited for and said
	// when the console ends; nil keeps none.
	Sends *Sends
	// ConfigFlag is the config file the console was started with (--config,
	// else $SVCWALLET_CONFIG); "" for the default one. Command repeats it.
	ConfigFlag string
	// LoginMethods is the method each environment was last logged in with,
	// which the login opens on; its zero value keeps none.
	LoginMethods session.Methods
	// ExportDir is the folder the board's export is offered in: the one
	// the console started in (StartDir); "" offers the state folder.
	ExportDir string
	// EarlierJournals are the journals an earlier svcwallet wrote at their
	// earlier place, left there beside the one in use (osguard.LeftBeside):
	// the repeat guard never sees their withdrawals, so the console says
	// them before its first screen.
	EarlierJournals []osguard.Moved
}

// Makers build the screens one feature opens in another, handed in as
// pug's Maker is, so that no feature package imports another: home opens
// every feature through them, the features come back home, and the
// withdrawal review hands what it sent to the status screen.
type Makers struct {
	Home, Deposit, Withdraw, History, Board, Builder func(*App) tui.Screen
	// Login opens with what it read from the disk (LoginFacts).
	Login func(*App, LoginFacts) tui.Screen
	// Status follows the withdrawal quoteID; the journal says whether it
	// is the account's own, whose states are journaled.
	Status func(app *App, quoteID string) tui.Screen
	// Resume takes up a journaled withdrawal (D11).
	Resume func(app *App, rec journal.Record) tui.Screen
	// BoardStatus is the status screen of a withdrawal the board follows,
	// seeded with what the board knows of it, and with the time the
	// service's rate limit still holds the board's asks; each answer it gets
	// goes back to the board through tell.
	BoardStatus func(app *App, f follow.Followed, paused time.Duration, tell Tell) tui.Screen
}

// Tell is the message that hands an answer about id to the screen that
// opened the one asking (the board's row), which learns it as its own.
type Tell func(id string, w exchange.Withdrawal, err error) tea.Msg

// Session is the one login the console is in: the target environment with
// its client (credentials, expiry, silent re-login) and journal, and the
// wallet key when the login was by wallet. The login screen replaces it
// whole; the top bar reads it every time it draws (App.Status).
type Session struct {
	Target target.Target
	// Signer is the logged-in account's key when the login was by wallet,
	// kept for signing withdrawals and builder authorizations.
	Signer signer.Key
	// SignerFrom names where Signer's key is, for the reviews: "clef at
	// http://127.0.0.1:8550", "command: cast wallet sign …"; never a secret.
	SignerFrom string
	// Check is the last check of the unfinished withdrawals (StartCheck);
	// nil before one. It is this session's alone: it ends with it.
	Check *Check
}

// Hooks are the effects tests replace; nil means the real one.
type Hooks struct {
	// LoadKeystore decrypts a keystore file; tests replace the slow scrypt.
	LoadKeystore func(path, passphrase string) (signer.Key, error)
	// Nonce draws signature nonces; nil means signer.NewNonce (crypto/rand).
	// Tests fix it so digests on screen are stable.
	Nonce func() uint32
	// TmuxClipboard reads tmux's set-clipboard option; nil runs tmux. It
	// runs inside a Cmd; tests fake it.
	TmuxClipboard func() (string, error)
	// OpenURL opens a link in the browser; nil uses the desktop's opener.
	// It runs inside a Cmd; tests fake it.
	OpenURL func(link string) error
	// Timer delivers msg after d; nil means tea.Tick. Every screen's timer
	// (the quote's and review's countdowns, the status polls, the watch
	// board) goes through it, so tests record every wait asked for and fire
	// the timers themselves as they move the fake clock.
	Timer func(d time.Duration, msg tea.Msg) tea.Cmd
	// Wait waits d inside a Cmd: the watch board's asker between two slots
	// of the budget. nil waits on a timer. An error ends the wait early:
	// the asker hands over what it has and the board waits through Timer,
	// as tests that step the fake clock by timers do.
	Wait func(ctx context.Context, d time.Duration) error
}

// Waited waits d through Hooks.Wait; it ends early, with ctx's error,
// when ctx ends.
func (a *App) Waited(ctx context.Context, d time.Duration) error {
	if a.Wait != nil {
		return a.Wait(ctx, d)
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// After is the Cmd that delivers msg after d, through Hooks.Timer.
func (a *App) After(d time.Duration, msg tea.Msg) tea.Cmd { return tui.After(a.Timer, d, msg) }

// DrawNonce returns a fresh signature nonce (D9).
func (a *App) DrawNonce() uint32 {
	if a.Nonce != nil {
		return a.Nonce()
	}
	return signer.NewNonce()
}

// Journal is the session's journal: every withdrawal is written there
// before it is sent (D11). Nil when there is none.
func (a *App) Journal() *journal.Journal { return a.Target.Journal }

// JournalLost words a journal that lost lines svcwallet wrote to it
// (journal.CheckWritten's error) as every review says it: nothing is
// signed, and doctor (the command line's words for it) says what was lost.
func JournalLost(lost error, doctor string) error {
	return exchange.UserError{Text: "Nothing can be signed: " + lost.Error() + "; run " + doctor +
		", which says what was lost and how to accept the journal as it now is", Cause: lost}
}

// Withdrawer carries this session's withdrawals (sign, journal, send),
// made by withdrawal.NewWithdrawer: without a journal (a test's console)
// it is a dry run's, which signs nothing. Its one refusal, a Withdrawer
// that signs without a journal, cannot come of this setup.
func (a *App) Withdrawer() withdrawal.Withdrawer {
	w, _ := withdrawal.NewWithdrawer(withdrawal.Setup{Client: a.Client(), Journal: a.Journal(), Now: a.Common.Now,
		BridgePins: a.Target.BridgePins(), DryRun: a.Journal() == nil})
	return w
}

// AccountRecords returns the read of the journal's records of the
// logged-in account in the current environment (newest first, with the
// count of lines skipped). Call it in Update and run what it returns inside
// a Cmd: the session is read now, as a Cmd's goroutine must not read the
// App while Update changes it (a login screen replaces the Session), and
// the file is read in the Cmd.
func (a *App) AccountRecords() func() ([]journal.Record, int, error) {
	j, o := a.Journal(), a.Target.Owner()
	return func() ([]journal.Record, int, error) { return j.AccountRecords(o) }
}

// UnfinishedRecords is AccountRecords narrowed to the unfinished
// withdrawals (Journal.UnfinishedRecords), which it reads alone: what Home
// counts.
func (a *App) UnfinishedRecords() func() ([]journal.Record, int, error) {
	j, o := a.Journal(), a.Target.Owner()
	return func() ([]journal.Record, int, error) { return j.UnfinishedRecords(o) }
}

// RecentRecords is the read of the logged-in account's n latest
// withdrawals in the current environment (journal.Journal.Recent), made
// as AccountRecords' is: call it in Update, run what it returns in a Cmd.
func (a *App) RecentRecords(n int) func() ([]journal.Record, error) {
	j, o := a.Journal(), a.Target.Owner()
	return func() ([]journal.Record, error) { return j.Recent(o, n) }
}

// Client is the logged-in target's client.
func (a *App) Client() *exchange.Client { return a.Target.Client }

// Root is the console's context: cancelled when the console quits.
func (a *App) Root() context.Context {
	if a.Context == nil {
		return context.Background()
	}
	return a.Context
}

// TopBar is the top bar's content for the current session, read from the
// client at each draw, so a silent re-login shows its new expiry at once.
func (a *App) TopBar() tui.TopBar {
	s, _ := a.Client().Session()
	return tui.TopBar{
		Env: a.Target.Env.Name, ChainID: a.Target.Env.ChainID,
		Account: s.FundingAccountAddress, SubAccount: s.SubAccountID, SessionExpires: s.Expires,
	}
}

// CommandOn is Command for a command naming operands from outside (a quote
// id, a file), behind "--" when one begins with '-' (runnext.CommandOn).
func (a *App) CommandOn(words, operands []string, flags ...string) string {
	return runnext.CommandOn(a.ConfigFlag, a.Target.Env.Name, words, operands, flags...)
}

// ThenMend is the step after osguard.RenameFirst, when err's fix is that,
// as the command line's errors say it: the doctor run, on the console's
// environment and config, that names the command that mends the file once
// renamed (tui.Common.ThenMend).
func (a *App) ThenMend(err error) string {
	return runnext.ThenMend(a.ConfigFlag, a.Target.Env.Name, err)
}

// Command is a svcwallet command line for the user to run next, on the
// console's environment: `svcwallet WORDS... --env NAME`, and the
// --config the console was started with, quoted for a shell where needed,
// as every command the command line prints (runnext.Command: runnable as
// printed, the flags only where the command takes them, a path a terminal
// would not show as it is left out).
func (a *App) Command(words ...string) string {
	return runnext.Command(a.ConfigFlag, a.Target.Env.Name, words...)
}
