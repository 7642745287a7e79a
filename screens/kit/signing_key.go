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

	"github.com/svcwallet/svcwallet/screens/kit/layout"
	"github.com/svcwallet/svcwallet/service/config"
	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/signer"
	"github.com/svcwallet/svcwallet/tui"
)

// KeyFoundMsg says where the signing key for an address was found.
type KeyFoundMsg struct {
	Source int
	Path   string
	// Key and From are the environment's configured key (KeyConfigured) and
	// its name; Err says why that source cannot sign, with Source KeyNone.
	Key  signer.Key
	From string
	Err  error
}

// Where a signing key comes from, in the order they are tried.
const (
	KeyNone     = iota
	KeyLoggedIn // the wallet the user logged in with
	keyEnv      // the raw key in $SVCWALLET_PRIVATE_KEY
	KeyDemo     // the sandbox's published key
	KeyKeystore // a keystore file, unlocked with a passphrase typed here
	// KeyConfigured is the environment's own key source (its config's
	// signer, as the command line's): clef or a signing command, after an
	// API-key login.
	KeyConfigured
)

// signingKey finds and unlocks the key that signs for an account: the
// logged-in wallet, the raw-key variable, the sandbox demo key, or a keystore
// file for the address (asking its passphrase). Review screens embed it.
type signingKey struct {
	app    *App
	want   common.Address
	source int
	path   string
	key    signer.Key // KeyConfigured's
	from   string     // KeyConfigured's name
	err    error      // why the configured source cannot sign
	Found  bool
	Pass   Input
	width  int // of the screen, so view wraps rather than clips
}

func newSigningKey(app *App, want common.Address) signingKey {
	return signingKey{app: app, want: want, Pass: NewPassphrase(app.Common, "keystore passphrase")}
}

// Find looks for the key in a Cmd (keystore lookups read the disk): the
// wallet logged in with, else where signer.Lookup finds it.
func (k *signingKey) Find() tea.Cmd {
	app, want := k.app, k.want
	return func() tea.Msg {
		if app.Signer != nil {
			return KeyFoundMsg{Source: KeyLoggedIn}
		}
		f := app.KeyLookup().Find(context.Background(), want)
		return KeyFoundMsg{Source: keySources[f.Place], Path: f.Path, Key: f.Key, From: f.From, Err: f.Err}
	}
}

// keySources are the review's sources of signer.Lookup's places.
var keySources = map[signer.KeyPlace]int{signer.KeyNowhere: KeyNone, signer.KeyOfEnvironment: KeyConfigured,
	signer.KeyInEnv: keyEnv, signer.KeyDemo: KeyDemo, signer.KeyInKeystore: KeyKeystore}

// Update takes the search result and, for a keystore, passphrase keystrokes.
func (k *signingKey) Update(msg tea.Msg) tea.Cmd {
	if m, ok := msg.(KeyFoundMsg); ok {
		k.Found, k.source, k.path, k.key, k.from, k.err = true, m.Source, m.Path, m.Key, m.From, m.Err
		if k.source == KeyKeystore {
			return k.Pass.Focus()
		}
		return nil
	}
	if k.source != KeyKeystore {
		return nil
	}
	var cmd tea.Cmd
	k.Pass, cmd = k.Pass.Update(msg)
	return cmd
}

// Usable: a key to sign with was found.
func (k *signingKey) Usable() bool { return k.Found && k.source != KeyNone }

// Typing: the passphrase field has the keys.
func (k *signingKey) Typing() bool { return k.source == KeyKeystore }

// Ready reports whether signing can start, or why not.
func (k *signingKey) Ready() error {
	switch {
	case !k.Found:
		return exchange.UserError{Text: "Still looking for the signing key"}
	case k.source == KeyNone && k.err != nil:
		return exchange.UserError{Text: fmt.Sprintf("The environment's signer (signer = %q in the config) cannot sign for %s: %v", k.app.Target.Env.Signer, k.want.Hex(), k.err), Cause: k.err}
	case k.source == KeyNone:
		return exchange.UserError{Text: fmt.Sprintf("No key for %s: log in by wallet, set $%s or signer (config), or `svcwallet key import`", k.want.Hex(), signer.KeyEnvVar)}
	case k.source == KeyKeystore && k.Pass.Value() == "":
		return exchange.UserError{Text: "Type the keystore passphrase, then press enter to sign"}
	}
	return nil
}

// Loader returns a function, safe to run inside a Cmd, that yields the key.
// It captures the passphrase now and clears the field.
func (k *signingKey) Loader() func() (signer.Key, error) {
	app, source, path, pass, configured := k.app, k.source, k.path, k.Pass.Value(), k.key
	k.Pass.SetValue("")
	return func() (signer.Key, error) {
		switch source {
		case KeyLoggedIn:
			return app.Signer, nil
		case KeyConfigured:
			return configured, nil
		case keyEnv:
			return signer.ParsePrivateKeyHex(app.Getenv(signer.KeyEnvVar))
		case KeyDemo:
			return signer.ParsePrivateKeyHex(app.Target.Demo.PrivateKey)
		case KeyKeystore:
			key, err := app.LoadKeystore(path, pass)
			if err != nil {
				return nil, KeyNotOpened(err)
			}
			return key, nil
		}
		return nil, exchange.UserError{Text: "No signing key"}
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
	var who string
	switch k.source {
	case KeyLoggedIn:
		who = "the wallet you logged in with, " + k.app.Signer.Address().Hex()
		if k.app.SignerFrom != "" {
			who += ", from " + k.app.SignerFrom
		}
	case KeyConfigured:
		who = k.from + ", the environment's signer"
	case keyEnv:
		who = "the raw key in $" + signer.KeyEnvVar
	case KeyDemo:
		who = "the sandbox demo key (public development key)"
	case KeyKeystore:
		who = "keystore " + k.path
	default:
		if !k.Found {
			return layout.Field(c, "Signing key", lw, st.Muted.Render("looking…"))
		}
		return layout.WrapField(c, "Signing key", lw, st.Warning.Render("none found for "+k.want.Hex()), "", k.width)
	}
	var b strings.Builder
	b.WriteString(layout.WrapField(c, "Signing key", lw, st.Value.Render(who), "", k.width))
	if k.source == KeyKeystore {
		b.WriteString("\n" + layout.Field(c, "Passphrase", lw, k.Pass.View()))
	}
	return b.String()
}

// TightView is View on as few lines as fit: a keystore key on one line,
// its address shortened and its folder cut from the left (the file's name
// repeats the address), and beside the passphrase, when it fits, what
// beside says (a review's countdown). It reports whether beside was
// drawn.
func (k *signingKey) TightView(lw int, beside string) (string, bool) {
	if k.source != KeyKeystore {
		return k.View(lw), false
	}
	c := k.app.Common
	head := "keystore " + tui.ShortAddress(k.want.Hex()) + " in "
	room := k.width - lw - 1 - ansi.StringWidth(head)
	line := layout.Field(c, "Signing key", lw, c.Styles.Value.Render(head+cutLeft(filepath.Dir(k.path), room)))
	pass := k.Pass
	bw := ansi.StringWidth(beside)
	fits := beside != "" && k.width-lw-1-2-bw >= 12
	if fits {
		pass.SetWidth(k.width - lw - 1 - 2 - bw - 1)
		return line + "\n" + layout.Field(c, "Passphrase", lw, pass.View()+"  "+beside), true
	}
	return line + "\n" + layout.Field(c, "Passphrase", lw, pass.View()), false
}

// cutLeft is s cut to w cells from the left, "…" saying so.
func cutLeft(s string, w int) string {
	if ansi.StringWidth(s) <= w {
		return s
	}
	r := []rune(s)
	for len(r) > 0 && ansi.StringWidth(string(r))+1 > w {
		r = r[1:]
	}
	return "…" + string(r)
}

// Waits reports whether the key that signs waits for something outside
// svcwallet (clef, a signing command: signer.Awaiting): only the wallet
// logged in with can; the other keys are in memory.
func (k *signingKey) Waits() bool {
	switch k.source {
	case KeyLoggedIn:
		return signer.Awaiting(k.app.Signer) != ""
	case KeyConfigured:
		return signer.Awaiting(k.key) != ""
	}
	return false
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
