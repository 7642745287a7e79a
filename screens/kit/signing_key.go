package kit

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/ethereum/go-ethereum/common"

	"github.com/svcwallet/svcwallet/internal/safetext"
	"github.com/svcwallet/svcwallet/screens/kit/layout"
	"github.com/svcwallet/svcwallet/service/config"
	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/signer"
	"github.com/svcwallet/svcwallet/tui"
)

// KeyFoundMsg says where the signing key for an address was found: the
// wallet logged in with, else where signer.Lookup found it. For names the
// search that asked (signingKey.Asked): a review takes only its own.
type KeyFoundMsg struct {
	For      tui.Tag
	LoggedIn bool
	signer.Found
}

// signingKey finds and unlocks the key that signs for an account: the
// logged-in wallet, else the environment's clef or signing command, the
// raw-key variable, the sandbox demo key, or a keystore file for the
// address (asking its passphrase). Review screens embed it.
type signingKey struct {
	app      *App
	want     common.Address
	loggedIn bool
	at       signer.Found
	Found    bool
	Pass     Input
	width    int // of the screen, so view wraps rather than clips
	// Asked is the tag of the last search (Find): an answer to an earlier
	// one, or to another review's, is not this key's.
	Asked tui.Tag
	// Stopped, when set, reports that the review found what stops it
	// signing: there is nothing to unlock, so the passphrase field neither
	// shows nor takes the letters the stop's own keys are.
	Stopped func() bool
}

func newSigningKey(app *App, want common.Address) signingKey {
	return signingKey{app: app, want: want, Pass: NewPassphrase(app.Common, "keystore passphrase")}
}

// Find looks for the key in a Cmd (keystore lookups read the disk): the
// wallet logged in with, else where signer.Lookup finds it. What an
// earlier search found is forgotten: only this one's answer signs.
func (k *signingKey) Find() tea.Cmd {
	k.Asked = tui.NextTag()
	k.Found, k.loggedIn, k.at = false, false, signer.Found{}
	app, want, tag := k.app, k.want, k.Asked
	return func() tea.Msg {
		if app.Signer != nil {
			return KeyFoundMsg{For: tag, LoggedIn: true}
		}
		return KeyFoundMsg{For: tag, Found: app.KeyLookup().Find(context.Background(), want)}
	}
}

// Update takes the search result (ReviewGate.Update drops another
// search's) and, for a keystore, passphrase keystrokes.
func (k *signingKey) Update(msg tea.Msg) tea.Cmd {
	if m, ok := msg.(KeyFoundMsg); ok {
		k.Found, k.loggedIn, k.at = true, m.LoggedIn, m.Found
		if k.locked() { // focused while stopped too: the field is back when the stop ends
			return k.Pass.Focus()
		}
		return nil
	}
	if !k.Typing() {
		return nil
	}
	var cmd tea.Cmd
	k.Pass, cmd = k.Pass.Update(msg)
	return cmd
}

// Wallet: the key is the wallet logged in with, whose one line
// (TightView) leaves out where it was opened, so a review with room for
// View draws that.
func (k *signingKey) Wallet() bool { return k.Found && k.loggedIn }

// Usable: a key to sign with was found.
func (k *signingKey) Usable() bool { return k.Found && (k.loggedIn || k.at.Place != signer.KeyNowhere) }

// locked: the key is a keystore file only its passphrase opens.
func (k *signingKey) locked() bool { return !k.loggedIn && k.at.Place == signer.KeyInKeystore }

// Typing: the passphrase field shows and has the keys.
func (k *signingKey) Typing() bool { return k.locked() && (k.Stopped == nil || !k.Stopped()) }

// Ready reports whether signing can start, or why not.
func (k *signingKey) Ready() error {
	switch {
	case !k.Found:
		return exchange.UserError{Text: "Still looking for the signing key"}
	case !k.Usable():
		return k.NoKeyWords(NoKeyFull)
	case k.locked() && k.Pass.Value() == "":
		return exchange.UserError{Text: "Type the keystore passphrase, then press enter to sign"}
	}
	return nil
}

// NoKeyWording is how fully a review says no key here signs for its
// account (NoKeyWords), fullest first: each size of window says the
// fullest that fits (ReviewGate.FittedNoKey).
type NoKeyWording int

const (
	// NoKeyFull names the account and the signer's setting, and says its
	// error in the fewest words (signer.NoKeyError.Cause).
	NoKeyFull NoKeyWording = iota
	// NoKeyUnnamed leaves the account to the review, which shows it.
	NoKeyUnnamed
	// NoKeySetting names the signer's setting alone.
	NoKeySetting
	// NoKeyCause says the signer's error alone, without its setting's
	// name (the ways name what to fix).
	NoKeyCause
	// NoKeyBrief leaves the error to a larger window; its step still
	// names what to fix.
	NoKeyBrief
	// NoKeyCauseNow says the signer's error in its fewest words and only
	// the ways that act now.
	NoKeyCauseNow
	// NoKeyNow says only the ways that act while the signer is set
	// (signer.NoKeyError.Now): its fix, or a login by wallet.
	NoKeyNow
)

// NoKeyWords say no key here signs for the account (signer.NoKeyError's
// fact) as fully as w, then the console's one set of ways to bring it
// (App.KeyWays, App.KeySteps, in fewest words KeyNow). Without an error
// from the signer every wording but the full one is the brief one.
func (k *signingKey) NoKeyWords(w NoKeyWording) error {
	nk := k.app.KeyLookup().NoKey(k.want, k.at)
	unnamed := *nk
	unnamed.Account = common.Address{}
	text := safetext.Capitalized(nk.For("the account")) + ". " + k.app.KeyWays(nk)
	switch {
	case w > NoKeyFull && nk.Err == nil:
		text = "No key here signs for this account: " + k.app.KeySteps(nk)
	case w >= NoKeyNow:
		text = "No key here signs for this account: " + k.app.keyNow(nk)
	case w == NoKeyCauseNow:
		text = "No key here signs for this account (" + nk.Cause() + "): " + k.app.keyNow(nk)
	case w == NoKeyBrief:
		text = "No key here signs for this account: " + k.app.KeySteps(nk)
	case w == NoKeySetting && nk.Signer != "":
		text = fmt.Sprintf("No key here signs for this account (signer = %q in the config: %s): %s", nk.Signer, nk.Cause(), k.app.KeySteps(nk))
	case w >= NoKeySetting:
		text = "No key here signs for this account (" + nk.Cause() + "): " + k.app.KeySteps(nk)
	case w == NoKeyUnnamed:
		text = safetext.Capitalized(unnamed.For("this account")) + ". " + k.app.KeyWays(nk)
	}
	return exchange.UserError{Text: text, Cause: k.at.Err}
}

// FittedNoKey is Fitted of a review with no key here, render saying so
// in a NoKeyWording. With the signer's own error, each wording is tried
// at every level before a briefer one, so a window says the fullest that
// fits whole and leaves no rows blank that a fuller one would take;
// without it the full words add only the account, which the review
// shows, so each level is tried in full and then in brief.
func (g *ReviewGate) FittedNoKey(levels, h int, render func(level int, w NoKeyWording) string) (string, bool) {
	if g.Key.at.Err != nil {
		n := int(NoKeyNow) + 1
		return g.Fitted(n*levels, h, func(i int) string { return render(i%levels, NoKeyWording(i/levels)) })
	}
	return g.Fitted(2*levels, h, func(i int) string { return render(i/2, NoKeyWording(i%2)*NoKeyBrief) })
}

// KeySteps are the console's ways of bringing the key, after the words no
// key signs that leave the signer's error out, in the one rule's order
// (signer.NoKeyError.Steps).
func (a *App) KeySteps(nk *signer.NoKeyError) string {
	return nk.Steps(keyBefore, "run "+a.Command("key", "import"))
}

// KeyWays is the sentence of the console's ways after the words no key
// signs that say the signer's error (signer.NoKeyError.Ways): every screen
// that says those says them.
func (a *App) KeyWays(nk *signer.NoKeyError) string {
	return nk.Ways(keyBefore, "run "+a.Command("key", "import"))
}

// keyNow is KeySteps in the fewest words: the ways that act while the
// environment's signer is set and cannot sign (signer.NoKeyError.Now).
func (a *App) keyNow(nk *signer.NoKeyError) string {
	return nk.Now(keyBefore, "run "+a.Command("key", "import"))
}

// keyBefore is the console's first way of bringing the key.
const keyBefore = "log in by wallet"

// Loader returns a function, safe to run inside a Cmd, that yields the key.
// It captures the passphrase now and clears the field.
func (k *signingKey) Loader() func() (signer.Key, error) {
	app, loggedIn, at, pass := k.app, k.loggedIn, k.at, k.Pass.Value()
	k.Pass.SetValue("")
	var none error
	if !loggedIn && at.Place == signer.KeyNowhere {
		none = k.NoKeyWords(NoKeyFull) // as the gate says it, worded here: k is not read in the Cmd
	}
	return func() (signer.Key, error) {
		if loggedIn {
			return app.Signer, nil
		}
		switch at.Place {
		case signer.KeyOfEnvironment:
			return at.Key, nil
		case signer.KeyInEnv:
			return signer.ParsePrivateKeyHex(app.Getenv(signer.KeyEnvVar))
		case signer.KeyDemo:
			return signer.ParsePrivateKeyHex(app.Target.Demo.PrivateKey)
		case signer.KeyInKeystore:
			key, err := app.LoadKeystore(at.Path, pass)
			if err != nil {
				return nil, KeyNotOpened(err)
			}
			return key, nil
		}
		return nil, none
	}
}

// KeyNotOpened words a keystore key that did not open, once, with what to
// do next: a wrong passphrase is typed again (the screen names the key),
// anything else is the file's to mend.
func KeyNotOpened(err error) error {
	if errors.Is(err, signer.ErrWrongPassphrase) {
		return exchange.UserError{Text: "Wrong passphrase: type it again", Cause: err}
	}
	return exchange.UserError{Text: "Cannot unlock the keystore: " + err.Error(), Cause: err}
}

// View is one or two lines saying which key will sign.
func (k *signingKey) View(lw int) string {
	c := k.app.Common
	st := c.Styles
	who := k.at.Who()
	switch {
	case !k.Found:
		return layout.Field(c, "Signing key", lw, st.Muted.Render("looking…"))
	case k.loggedIn:
		who = signer.WalletWho(k.app.Signer, k.app.SignerFrom)
	case !k.Usable():
		return layout.WrapField(c, "Signing key", lw, st.Warning.Render("none found for "+k.want.Hex()), "", k.width)
	}
	var b strings.Builder
	b.WriteString(layout.WrapField(c, "Signing key", lw, st.Value.Render(who), "", k.width))
	if k.Typing() {
		b.WriteString("\n" + layout.Field(c, "Passphrase", lw, k.Pass.View()))
	}
	return b.String()
}

// TightView is View on as few lines as fit: a keystore key on one line,
// its address shortened and its folder cut from the left (the file's name
// repeats the address), its passphrase under it unless Stopped, and beside
// the field, when it fits, what beside says (a review's countdown); the
// wallet logged in with on one
// line too (loggedInView); a key found whole on one line with beside
// after it where it fits, in fewer words if brief (besideOneLine). It
// reports whether beside was drawn.
func (k *signingKey) TightView(lw int, beside string, brief bool) (string, bool) {
	if k.Found && k.loggedIn {
		return k.loggedInView(lw, beside)
	}
	if k.Found && k.at.Place == signer.KeyOfEnvironment && layout.Width(layout.Field(k.app.Common, "Signing key", lw, k.at.Who())) > k.width {
		// The environment row says whose it is; a long program's name is
		// cut to the line, so the review keeps its rows for what it says.
		from := ansi.Truncate(k.at.From, max(k.width-lw-1, 1), "…")
		return layout.Field(k.app.Common, "Signing key", lw, k.app.Common.Styles.Value.Render(from)), false
	}
	if k.Found && !k.Usable() {
		return k.noneOneLine(lw, beside)
	}
	if !k.Found || !k.locked() {
		return k.besideOneLine(lw, beside, brief)
	}
	c := k.app.Common
	head := "keystore " + tui.ShortAddress(k.want.Hex()) + " in "
	room := k.width - lw - 1 - layout.Width(head)
	line := layout.Field(c, "Signing key", lw, c.Styles.Value.Render(head+layout.PathTail(safetext.Shown(filepath.Dir(k.at.Path)), room)))
	if !k.Typing() {
		// Nothing to unlock (Stopped): the key's line alone.
		return line, false
	}
	pass := k.Pass
	bw := layout.Width(beside)
	fits := beside != "" && k.width-lw-1-2-bw >= 12
	if fits {
		pass.SetWidth(k.width - lw - 1 - 2 - bw - 1)
		if layout.Width(pass.Placeholder) > pass.Width() {
			// Its label names the field; a placeholder cut would not.
			pass.Placeholder = ""
		}
		return line + "\n" + layout.Field(c, "Passphrase", lw, pass.View()+"  "+beside), true
	}
	return line + "\n" + layout.Field(c, "Passphrase", lw, pass.View()), false
}

// besideOneLine is a key found whole on one line (the sandbox demo key, a
// raw key): beside it, when it fits, what beside says, if brief in the
// key's fewer words (signer.Found.Brief) where that is what makes room;
// else View.
func (k *signingKey) besideOneLine(lw int, beside string, brief bool) (string, bool) {
	if !k.Found || !k.Usable() || k.loggedIn || beside == "" {
		return k.View(lw), false
	}
	c := k.app.Common
	whos := []string{k.at.Who()}
	if brief {
		whos = append(whos, k.at.Brief())
	}
	for _, who := range whos {
		if line := layout.Field(c, "Signing key", lw, c.Styles.Value.Render(who)) + "  " + beside; layout.Width(line) <= k.width {
			return line, true
		}
	}
	return k.View(lw), false
}

// noneOneLine is no key found on one line, the account shortened (the
// review shows it whole), beside it what beside says where that fits: the
// rows a small review needs for the ways to bring the key.
func (k *signingKey) noneOneLine(lw int, beside string) (string, bool) {
	line := layout.Field(k.app.Common, "Signing key", lw, k.app.Common.Styles.Warning.Render("none found for "+tui.ShortAddress(k.want.Hex())))
	if with := line + "  " + beside; beside != "" && layout.Width(with) <= k.width {
		return with, true
	}
	return line, false
}

// OneLine is a keystore key and its passphrase field on one line, for a
// review with no row to spare: the key's address shortened, its folder
// left out (not signed, and cut to nothing at 60 columns anyway). It
// reports false, drawing nothing, for any other key or a field under 8
// cells.
func (k *signingKey) OneLine(lw int) (string, bool) {
	if !k.Typing() || k.loggedIn {
		return "", false
	}
	c := k.app.Common
	head := c.Styles.Value.Render("keystore "+tui.ShortAddress(k.want.Hex())) + "  " + layout.InksFor(c).Label.On("passphrase") + " "
	room := k.width - lw - 1 - layout.Width(head)
	if room < 8 {
		return "", false
	}
	pass := k.Pass
	pass.SetWidth(room - 1)
	// The word before it names the field; its placeholder, cut, would not.
	pass.Placeholder = ""
	return layout.Field(c, "Signing key", lw, head+pass.View()), true
}

// loggedInView is the wallet logged in with on one line: its address
// shortened only when it is the account that signs (the review shows that
// whole), beside it what beside says where that fits, then where the
// wallet was opened where that fits whole.
func (k *signingKey) loggedInView(lw int, beside string) (string, bool) {
	c := k.app.Common
	addr := k.app.Signer.Address().Hex()
	if k.app.Signer.Address() == k.want {
		addr = tui.ShortAddress(addr)
	}
	line := "login wallet " + addr
	room := k.width - lw - 1 - layout.Width(line)
	fits := beside != "" && room >= 2+layout.Width(beside)
	if fits {
		room -= 2 + layout.Width(beside)
	}
	if from := ", from " + k.app.SignerFrom; k.app.SignerFrom != "" && layout.Width(from) <= room {
		line += from
	}
	out := layout.WrapField(c, "Signing key", lw, c.Styles.Value.Render(line), "", k.width)
	if fits {
		out += "  " + beside
	}
	return out, fits
}

// Waits reports whether the key that signs waits for something outside
// svcwallet (clef, a signing command: signer.Awaiting): only the wallet
// logged in with can; the other keys are in memory.
func (k *signingKey) Waits() bool {
	switch {
	case k.loggedIn:
		return signer.Awaiting(k.app.Signer) != ""
	case k.at.Place == signer.KeyOfEnvironment:
		return signer.Awaiting(k.at.Key) != ""
	}
	return false
}

// ArgumentWarned is the console's word, once a run, that k, about to sign,
// is a signing command giving its program a secret as an argument
// (signer.ArgumentWarning): a warning up until a key pressed after it was
// drawn (tui.WarningMsg, held as a review's keys are), so no key typed
// ahead takes it down unseen; the safe spelling left to docs/keys.md,
// which three lines have no room for; fewer words where the warning's
// would be cut before docs/keys.md. Nil when none is due.
func ArgumentWarned(app *App, k signer.Key) tea.Cmd {
	words := app.ArgumentWarning.Due(k)
	if words == "" {
		return nil
	}
	return tui.ShowWarning("Warning: "+words+"; docs/keys.md says how to keep it out (\"A key kept out of the process list\")",
		"Warning: "+signer.ArgumentSecretBrief(k)+"; see docs/keys.md", ShownGuard, KeyGuard)
}

// argumentWarned is ArgumentWarned of the key this review signs with.
func (k *signingKey) argumentWarned() tea.Cmd {
	switch {
	case k.loggedIn:
		return ArgumentWarned(k.app, k.app.Signer)
	case k.at.Place == signer.KeyOfEnvironment:
		return ArgumentWarned(k.app, k.at.Key)
	}
	return nil
}

// SignerOpening is how the console opens env's clef or signing command
// for account: the signing command from the config (signer.SignCommandLine),
// started as the command line starts it, in a process group of its own
// that ends whole with its wait (signer.SignCommandStarter), without the
// terminal, which the console holds, and counted for the quit (Running).
func (a *App) SignerOpening(env config.Environment, account common.Address) signer.Opening {
	return signer.Opening{Account: account, SignCommand: signer.SignCommandLine(env.SignCommand, a.Getenv),
		Start: signer.SignCommandStarter(false), Wait: env.SignWait(), Running: a.Running}
}

// KeyLookup is where a review looks for the key when the session holds
// none: the environment's clef or signing command (opened as SignerOpening
// opens them), the raw key, the sandbox's demo key, the keystore.
func (a *App) KeyLookup() signer.Lookup {
	env := a.Target.Env
	l := signer.Lookup{Opening: a.SignerOpening(env, common.Address{}), Signer: env.Signer, Account: env.Account}
	l.RawKey, l.KeystoreDir = a.Getenv(signer.KeyEnvVar), a.KeystoreDir
	if a.Target.Demo != nil {
		l.DemoKey = a.Target.Demo.PrivateKey
	}
	return l
}

// CutAwaited shortens, in err's words, the key source a signature waited
// for (signer.WaitError's Awaiting) to n cells with an ellipsis: a long
// signing program's name would take rows a small review needs, and the
// words around it say what happened and what to do.
func CutAwaited(err error, n int) error {
	we, ok := errors.AsType[*signer.WaitError](err)
	if !ok || layout.Width(we.Awaiting) <= n {
		return err
	}
	return exchange.UserError{Text: strings.Replace(err.Error(), we.Awaiting, ansi.Truncate(we.Awaiting, n, "…"), 1), Cause: err}
}
