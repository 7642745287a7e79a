package kit

import (
	"fmt"
	"strings"
	"time"

	"charm.land/bubbles/v2/spinner"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/ethereum/go-ethereum/common"

	"svcwallet/screens/kit/layout"
	"svcwallet/service"
	"svcwallet/signer"
	"svcwallet/tui"
)

// guardOverMsg ends the keystroke guard, so the prompt redraws.
type guardOverMsg struct{ tag tui.Tag }

// KeyGuard is how long keystrokes are ignored after a review appears, so a
// held Enter cannot approve what the user never saw (DESIGN.md §5).
const KeyGuard = 500 * time.Millisecond

// KeyFoundMsg says where the signing key for an address was found.
type KeyFoundMsg struct {
	Source int
	Path   string
}

// Where a signing key comes from, in the order they are tried.
const (
	KeyNone     = iota
	keyLoggedIn // the wallet the user logged in with
	keyEnv      // the raw key in $SVCWALLET_PRIVATE_KEY
	KeyDemo     // the sandbox's published key
	KeyKeystore // a keystore file, unlocked with a passphrase typed here
)

// signingKey finds and unlocks the key that signs for an account: the
// logged-in wallet, the raw-key variable, the sandbox demo key, or a keystore
// file for the address (asking its passphrase). Review screens embed it.
type signingKey struct {
	app    *App
	want   common.Address
	source int
	path   string
	Found  bool
	Pass   Input
	width  int // of the screen, so view wraps rather than clips
}

func newSigningKey(app *App, want common.Address) signingKey {
	return signingKey{app: app, want: want, Pass: NewPassphrase(app.Common, "keystore passphrase")}
}

// Find looks for the key in a Cmd: keystore lookups read the disk.
func (k *signingKey) Find() tea.Cmd {
	app, want := k.app, k.want
	return func() tea.Msg {
		if app.Signer != nil {
			return KeyFoundMsg{Source: keyLoggedIn}
		}
		if raw := app.Getenv(signer.KeyEnvVar); raw != "" {
			if pk, err := signer.ParsePrivateKeyHex(raw); err == nil && pk.Address() == want {
				return KeyFoundMsg{Source: keyEnv}
			}
		}
		if d := app.Target.Demo; d != nil {
			if pk, err := signer.ParsePrivateKeyHex(d.PrivateKey); err == nil && pk.Address() == want {
				return KeyFoundMsg{Source: KeyDemo}
			}
		}
		if path, err := signer.FindKeystore(app.KeystoreDir, want); err == nil {
			return KeyFoundMsg{Source: KeyKeystore, Path: path}
		}
		return KeyFoundMsg{Source: KeyNone}
	}
}

// Update takes the search result and, for a keystore, passphrase keystrokes.
func (k *signingKey) Update(msg tea.Msg) tea.Cmd {
	if m, ok := msg.(KeyFoundMsg); ok {
		k.Found, k.source, k.path = true, m.Source, m.Path
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
		return service.UserError{Text: "Still looking for the signing key"}
	case k.source == KeyNone:
		return service.UserError{Text: fmt.Sprintf("No key for %s: log in by wallet, set $%s, or import it with `svcwallet key import`", k.want.Hex(), signer.KeyEnvVar)}
	case k.source == KeyKeystore && k.Pass.Value() == "":
		return service.UserError{Text: "Type the keystore passphrase, then press enter to sign"}
	}
	return nil
}

// Loader returns a function, safe to run inside a Cmd, that yields the key.
// It captures the passphrase now and clears the field.
func (k *signingKey) Loader() func() (signer.Key, error) {
	app, source, path, pass := k.app, k.source, k.path, k.Pass.Value()
	k.Pass.SetValue("")
	return func() (signer.Key, error) {
		switch source {
		case keyLoggedIn:
			return app.Signer, nil
		case keyEnv:
			return signer.ParsePrivateKeyHex(app.Getenv(signer.KeyEnvVar))
		case KeyDemo:
			return signer.ParsePrivateKeyHex(app.Target.Demo.PrivateKey)
		case KeyKeystore:
			key, err := app.LoadKeystore(path, pass)
			if err != nil {
				return nil, service.UserError{Text: "Cannot unlock the keystore: " + err.Error() + " — type the passphrase again", Cause: err}
			}
			return key, nil
		}
		return nil, service.UserError{Text: "No signing key"}
	}
}

// View is one or two lines saying which key will sign.
func (k *signingKey) View(lw int) string {
	c := k.app.Common
	st := c.Styles
	var who string
	switch k.source {
	case keyLoggedIn:
		who = "the wallet you logged in with, " + k.app.Signer.Address().Hex()
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

// ReviewGate is what both review screens (withdrawal, builder) share: the
// keystroke guard, the key that signs, and the spinner while the signed
// request is out.
type ReviewGate struct {
	common  *tui.Common
	Key     signingKey
	ShownAt time.Time
	tag     tui.Tag
	Sending bool
	spin    spinner.Model
}

func NewReviewGate(app *App, want common.Address) ReviewGate {
	return ReviewGate{common: app.Common, Key: newSigningKey(app, want),
		spin: spinner.New(spinner.WithSpinner(spinner.Dot), spinner.WithStyle(app.Common.Styles.Spinner))}
}

// Start marks the review as shown and looks for the key; the guard's end
// is a tagged tick only so the prompt redraws, the guard itself reads the clock.
// The screen's own first commands (a countdown) run in the same batch, after
// the key search.
func (g *ReviewGate) Start(also ...tea.Cmd) tea.Cmd {
	g.ShownAt = g.common.Now()
	g.tag = tui.NextTag()
	tag := g.tag
	cmds := []tea.Cmd{g.Key.Find(), tea.Tick(KeyGuard, func(time.Time) tea.Msg { return guardOverMsg{tag: tag} })}
	return tea.Batch(append(cmds, also...)...)
}

func (g *ReviewGate) guarded() bool { return g.common.Now().Before(g.ShownAt.Add(KeyGuard)) }

// Inputting: the passphrase field takes q and ? as text.
func (g *ReviewGate) Inputting() bool { return g.Key.Typing() && !g.Sending }

func (g *ReviewGate) SetWidth(w int) { g.Key.width = w; g.Key.Pass.SetWidth(max(w-22, 10)) }

// Send marks the signed request as out and runs cmd beside the spinner.
func (g *ReviewGate) Send(cmd tea.Cmd) tea.Cmd {
	g.Sending = true
	return tea.Batch(g.spin.Tick, cmd)
}

// Update takes the gate's own messages and swallows keys while the guard
// holds or a request is out; handled says the screen has nothing to do.
func (g *ReviewGate) Update(msg tea.Msg) (cmd tea.Cmd, handled bool) {
	switch msg := msg.(type) {
	case guardOverMsg:
		return nil, true
	case spinner.TickMsg:
		if g.Sending {
			g.spin, cmd = g.spin.Update(msg)
		}
		return cmd, true
	case tea.BackgroundColorMsg:
		g.spin.Style = g.common.Styles.Spinner
		return nil, true
	case tea.KeyPressMsg:
		return nil, g.guarded() || g.Sending
	}
	return nil, false
}

// Prompt is the line under a review: in flight, guarded, or ready.
func (g *ReviewGate) Prompt(sending, ready string) string {
	st := g.common.Styles
	var p string
	switch {
	case g.Sending:
		p = g.spin.View() + " " + sending
	case g.guarded():
		p = st.Muted.Render("Read the message above; keys are enabled in a moment.")
	default:
		p = st.Value.Render(ready)
	}
	if w := g.Key.width; w > 0 && ansi.StringWidth(p) > w {
		p = ansi.Wrap(p, w, "")
	}
	return p
}
