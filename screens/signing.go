package screens

import (
	"fmt"
	"strings"
	"time"

	"charm.land/bubbles/v2/spinner"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/ethereum/go-ethereum/common"

	"svcwallet/service"
	"svcwallet/signer"
	"svcwallet/tui"
)

// guardOverMsg ends the keystroke guard, so the prompt redraws.
type guardOverMsg struct{ tag tui.Tag }

// keyGuard is how long keystrokes are ignored after a review appears, so a
// held Enter cannot approve what the user never saw (DESIGN.md §5).
const keyGuard = 500 * time.Millisecond

// keyFoundMsg says where the signing key for an address was found.
type keyFoundMsg struct {
	source int
	path   string
}

// Where a signing key comes from, in the order they are tried.
const (
	keyNone     = iota
	keyLoggedIn // the wallet the user logged in with
	keyEnv      // the raw key in $SVCWALLET_PRIVATE_KEY
	keyDemo     // the sandbox's published key
	keyKeystore // a keystore file, unlocked with a passphrase typed here
)

// signingKey finds and unlocks the key that signs for an account: the
// logged-in wallet, the raw-key variable, the sandbox demo key, or a keystore
// file for the address (asking its passphrase). Review screens embed it.
type signingKey struct {
	app    *App
	want   common.Address
	source int
	path   string
	found  bool
	pass   textinput.Model
	width  int // of the screen, so view wraps rather than clips
}

func newSigningKey(app *App, want common.Address) signingKey {
	return signingKey{app: app, want: want, pass: newInput(app.Common, "keystore passphrase", true)}
}

// find looks for the key in a Cmd: keystore lookups read the disk.
func (k *signingKey) find() tea.Cmd {
	app, want := k.app, k.want
	return func() tea.Msg {
		if app.Signer != nil {
			return keyFoundMsg{source: keyLoggedIn}
		}
		if raw := app.Getenv(signer.KeyEnvVar); raw != "" {
			if pk, err := signer.ParsePrivateKeyHex(raw); err == nil && pk.Address() == want {
				return keyFoundMsg{source: keyEnv}
			}
		}
		if d := app.Target.Demo; d != nil {
			if pk, err := signer.ParsePrivateKeyHex(d.PrivateKey); err == nil && pk.Address() == want {
				return keyFoundMsg{source: keyDemo}
			}
		}
		if path, err := signer.FindKeystore(app.KeystoreDir, want); err == nil {
			return keyFoundMsg{source: keyKeystore, path: path}
		}
		return keyFoundMsg{source: keyNone}
	}
}

// update takes the search result and, for a keystore, passphrase keystrokes.
func (k *signingKey) update(msg tea.Msg) tea.Cmd {
	if m, ok := msg.(keyFoundMsg); ok {
		k.found, k.source, k.path = true, m.source, m.path
		if k.source == keyKeystore {
			return k.pass.Focus()
		}
		return nil
	}
	if k.source != keyKeystore {
		return nil
	}
	var cmd tea.Cmd
	k.pass, cmd = k.pass.Update(msg)
	return cmd
}

// usable: a key to sign with was found.
func (k *signingKey) usable() bool { return k.found && k.source != keyNone }

// typing: the passphrase field has the keys.
func (k *signingKey) typing() bool { return k.source == keyKeystore }

// ready reports whether signing can start, or why not.
func (k *signingKey) ready() error {
	switch {
	case !k.found:
		return service.UserError{Text: "Still looking for the signing key"}
	case k.source == keyNone:
		return service.UserError{Text: fmt.Sprintf("No key for %s: log in by wallet, set $%s, or import it with `svcwallet key import`", k.want.Hex(), signer.KeyEnvVar)}
	case k.source == keyKeystore && k.pass.Value() == "":
		return service.UserError{Text: "Type the keystore passphrase, then press enter to sign"}
	}
	return nil
}

// loader returns a function, safe to run inside a Cmd, that yields the key.
// It captures the passphrase now and clears the field.
func (k *signingKey) loader() func() (signer.Key, error) {
	app, source, path, pass := k.app, k.source, k.path, k.pass.Value()
	k.pass.SetValue("")
	return func() (signer.Key, error) {
		switch source {
		case keyLoggedIn:
			return app.Signer, nil
		case keyEnv:
			return signer.ParsePrivateKeyHex(app.Getenv(signer.KeyEnvVar))
		case keyDemo:
			return signer.ParsePrivateKeyHex(app.Target.Demo.PrivateKey)
		case keyKeystore:
			key, err := app.LoadKeystore(path, pass)
			if err != nil {
				return nil, service.UserError{Text: "Cannot unlock the keystore: " + err.Error() + " — type the passphrase again", Cause: err}
			}
			return key, nil
		}
		return nil, service.UserError{Text: "No signing key"}
	}
}

// view is one or two lines saying which key will sign.
func (k *signingKey) view(lw int) string {
	c := k.app.Common
	st := c.Styles
	var who string
	switch k.source {
	case keyLoggedIn:
		who = "the wallet you logged in with, " + k.app.Signer.Address().Hex()
	case keyEnv:
		who = "the raw key in $" + signer.KeyEnvVar
	case keyDemo:
		who = "the sandbox demo key (public development key)"
	case keyKeystore:
		who = "keystore " + k.path
	default:
		if !k.found {
			return field(c, "Signing key", lw, st.Muted.Render("looking…"))
		}
		return wrapField(c, "Signing key", lw, st.Warning.Render("none found for "+k.want.Hex()), "", k.width)
	}
	var b strings.Builder
	b.WriteString(wrapField(c, "Signing key", lw, st.Value.Render(who), "", k.width))
	if k.source == keyKeystore {
		b.WriteString("\n" + field(c, "Passphrase", lw, k.pass.View()))
	}
	return b.String()
}

// reviewGate is what both review screens (withdrawal, builder) share: the
// keystroke guard, the key that signs, and the spinner while the signed
// request is out.
type reviewGate struct {
	common  *tui.Common
	key     signingKey
	shownAt time.Time
	tag     tui.Tag
	sending bool
	spin    spinner.Model
}

func newReviewGate(app *App, want common.Address) reviewGate {
	return reviewGate{common: app.Common, key: newSigningKey(app, want),
		spin: spinner.New(spinner.WithSpinner(spinner.Dot), spinner.WithStyle(app.Common.Styles.Spinner))}
}

// start marks the review as shown and looks for the key; the guard's end
// is a tagged tick only so the prompt redraws, the guard itself reads the clock.
// The screen's own first commands (a countdown) run in the same batch, after
// the key search.
func (g *reviewGate) start(also ...tea.Cmd) tea.Cmd {
	g.shownAt = g.common.Now()
	g.tag = tui.NextTag()
	tag := g.tag
	cmds := []tea.Cmd{g.key.find(), tea.Tick(keyGuard, func(time.Time) tea.Msg { return guardOverMsg{tag: tag} })}
	return tea.Batch(append(cmds, also...)...)
}

func (g *reviewGate) guarded() bool { return g.common.Now().Before(g.shownAt.Add(keyGuard)) }

// inputting: the passphrase field takes q and ? as text.
func (g *reviewGate) inputting() bool { return g.key.typing() && !g.sending }

func (g *reviewGate) setWidth(w int) { g.key.width = w; g.key.pass.SetWidth(max(w-22, 10)) }

// send marks the signed request as out and runs cmd beside the spinner.
func (g *reviewGate) send(cmd tea.Cmd) tea.Cmd {
	g.sending = true
	return tea.Batch(g.spin.Tick, cmd)
}

// update takes the gate's own messages and swallows keys while the guard
// holds or a request is out; handled says the screen has nothing to do.
func (g *reviewGate) update(msg tea.Msg) (cmd tea.Cmd, handled bool) {
	switch msg := msg.(type) {
	case guardOverMsg:
		return nil, true
	case spinner.TickMsg:
		if g.sending {
			g.spin, cmd = g.spin.Update(msg)
		}
		return cmd, true
	case tea.BackgroundColorMsg:
		g.spin.Style = g.common.Styles.Spinner
		return nil, true
	case tea.KeyPressMsg:
		return nil, g.guarded() || g.sending
	}
	return nil, false
}

// prompt is the line under a review: in flight, guarded, or ready.
func (g *reviewGate) prompt(sending, ready string) string {
	st := g.common.Styles
	var p string
	switch {
	case g.sending:
		p = g.spin.View() + " " + sending
	case g.guarded():
		p = st.Muted.Render("Read the message above; keys are enabled in a moment.")
	default:
		p = st.Value.Render(ready)
	}
	if w := g.key.width; w > 0 && ansi.StringWidth(p) > w {
		p = ansi.Wrap(p, w, "")
	}
	return p
}
