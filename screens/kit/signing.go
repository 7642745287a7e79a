package kit

import (
	"context"
	"fmt"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/spinner"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/ethereum/go-ethereum/common"

	"svcwallet/clean"
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

// Find looks for the key in a Cmd: keystore lookups read the disk.
func (k *signingKey) Find() tea.Cmd {
	app, want := k.app, k.want
	return func() tea.Msg {
		if app.Signer != nil {
			return KeyFoundMsg{Source: KeyLoggedIn}
		}
		if k, from, err := configuredKey(app, want); err != nil {
			return KeyFoundMsg{Source: KeyNone, Err: err}
		} else if k != nil {
			return KeyFoundMsg{Source: KeyConfigured, Key: k, From: from}
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
		return service.UserError{Text: "Still looking for the signing key"}
	case k.source == KeyNone && k.err != nil:
		return service.UserError{Text: fmt.Sprintf("The environment's signer (signer = %q in the config) cannot sign for %s: %v", k.app.Target.Env.Signer, k.want.Hex(), k.err), Cause: k.err}
	case k.source == KeyNone:
		return service.UserError{Text: fmt.Sprintf("No key for %s: log in by wallet, set $%s or signer (config), or `svcwallet key import`", k.want.Hex(), signer.KeyEnvVar)}
	case k.source == KeyKeystore && k.Pass.Value() == "":
		return service.UserError{Text: "Type the keystore passphrase, then press enter to sign"}
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

// configuredKey is the environment's own key source (the config's signer,
// as the command line uses it) when it is clef or a signing command for
// want; nil when the environment names none of them, or names another
// account. Opening either asks nothing of anyone: clef and the command
// are first asked when the user signs. err says why the source named
// cannot sign.
func configuredKey(app *App, want common.Address) (signer.Key, string, error) {
	env := app.Target.Env
	if env.Signer == "" || (env.Account != "" && common.HexToAddress(env.Account) != want) {
		return nil, "", nil
	}
	src, err := signer.ParseSource(env.Signer)
	if err != nil || (src.Kind != signer.SourceClef && src.Kind != signer.SourceCommand) {
		return nil, "", nil // the other sources are looked for as they always are
	}
	line := env.SignCommand
	if line == "" && app.Getenv != nil {
		line = app.Getenv(signer.SignCommandEnvVar)
	}
	o := signer.Opening{Account: want, SignCommand: line, Start: service.GroupCommandContext, Wait: env.SignWait(), Running: app.Running}
	op, err := o.Open(context.Background(), src)
	if err != nil {
		return nil, "", err
	}
	k, err := op.Load()
	if err != nil {
		return nil, "", err
	}
	if src.Kind == signer.SourceCommand {
		return k, signer.Awaiting(k), nil // "the signing command NAME": never its arguments
	}
	return k, src.Describe(), nil
}

// awaitingMsg says what a signature now waits for (signer.Awaiter), or
// with what "", that the wait is over; tag is the send's.
type awaitingMsg struct {
	tag  tui.Tag
	what string
}

// waitKeys: esc cancels a signature awaited from clef or a signing command.
var waitKeys = struct{ Cancel key.Binding }{
	Cancel: key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "cancel the signature")),
}

// ReviewGate is what both review screens (withdrawal, builder) share: the
// keystroke guard, the key that signs, the spinner while the signed
// request is out, and the wait for a signature from clef or a signing
// command, which esc cancels.
type ReviewGate struct {
	common  *tui.Common
	Key     signingKey
	ShownAt time.Time
	tag     tui.Tag
	Sending bool
	spin    spinner.Model
	// The send's wait: what it waits for ("" while not waiting), its
	// messages, whether esc cancelled it, and the cancel.
	sendTag    tui.Tag
	awaiting   string
	waits      <-chan string
	cancelled  bool
	cancelWait context.CancelFunc
	// waited: the send's wait is over (its signature came, or not); until
	// then nothing is signed, journaled or sent.
	waited bool
	// root is the console's context: quitting ends a wait too (a signing
	// command is stopped), never a send.
	root context.Context
}

func NewReviewGate(app *App, want common.Address) ReviewGate {
	return ReviewGate{common: app.Common, Key: newSigningKey(app, want), root: app.Root(),
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

// SendSigned is Send for a request that signs with the key load gives:
// run signs and sends inside the Cmd. When the key waits (Key.Waits), each
// wait is shown as it starts and ends, and esc cancels it, and only it:
// its context ends, so the signature never comes and nothing is sent
// (signer.Watch). Update only flips state and cancels; the waiting
// happens in the Cmd.
func (g *ReviewGate) SendSigned(load func() (signer.Key, error), run func(load func() (signer.Key, error)) tea.Msg) tea.Cmd {
	if !g.Key.Waits() {
		return g.Send(func() tea.Msg { return run(load) })
	}
	g.sendTag = tui.NextTag()
	g.awaiting, g.cancelled, g.waited = "", false, false
	waitCx, cancel := context.WithCancel(g.root)
	g.cancelWait = cancel
	// Buffered and never blocking: a wait that is over is also said by
	// the answer, which ends the send.
	waits := make(chan string, 4)
	g.waits = waits
	say := func(what string) {
		select {
		case waits <- what:
		default:
		}
	}
	watched := func() (signer.Key, error) {
		k, err := load()
		if err != nil {
			return nil, err
		}
		return cancelDrops{signer.Watch(k, func(ctx context.Context, what string) (context.Context, func()) {
			cx, stop := context.WithCancel(ctx)
			unhook := context.AfterFunc(waitCx, stop)
			say(what)
			return cx, func() { unhook(); stop(); say("") }
		}), waitCx}, nil
	}
	return tea.Batch(g.Send(func() tea.Msg {
		defer cancel()
		defer close(waits)
		return run(watched)
	}), g.listen())
}

// cancelDrops is a waiting key whose signature is dropped when the user
// cancelled the wait (esc) even though the signature came: the screen said
// "cancelling", so nothing may be sent.
type cancelDrops struct {
	signer.Key
	cancelled context.Context
}

func (k cancelDrops) Awaiting() string { return signer.Awaiting(k.Key) }

func (k cancelDrops) SignTypedData(ctx context.Context, d signer.Domain, m signer.Message) ([65]byte, error) {
	sig, err := k.Key.SignTypedData(ctx, d, m)
	if err == nil && k.cancelled.Err() != nil {
		return [65]byte{}, &signer.WaitError{Awaiting: k.Awaiting(), Cancelled: true}
	}
	return sig, err
}

// listen delivers the send's next wait, or nothing once it is over.
func (g *ReviewGate) listen() tea.Cmd {
	waits, tag := g.waits, g.sendTag
	if waits == nil {
		return nil
	}
	return func() tea.Msg {
		what, ok := <-waits
		if !ok {
			return nil
		}
		return awaitingMsg{tag: tag, what: what}
	}
}

// Sent ends the send: its answer came.
func (g *ReviewGate) Sent() {
	g.Sending, g.awaiting, g.waits = false, "", nil
	if g.cancelWait != nil {
		g.cancelWait()
		g.cancelWait = nil
	}
}

// Bindings are the gate's keys, for the screen's footer and its key
// handling alike: esc while a signature is awaited.
func (g *ReviewGate) Bindings() Bindings {
	return Bindings{{Key: waitKeys.Cancel, On: g.Sending && g.awaiting != "" && !g.cancelled, Do: func() tea.Cmd {
		g.cancelled = true
		g.cancelWait()
		return nil
	}}}
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
	case awaitingMsg:
		if msg.tag != g.sendTag || !g.Sending {
			return nil, true
		}
		g.awaiting = msg.what
		g.waited = g.waited || msg.what == ""
		return g.listen(), true
	case tea.BackgroundColorMsg:
		g.spin.Style = g.common.Styles.Spinner
		return nil, true
	case tea.KeyPressMsg:
		if g.Sending {
			cmd, _ := g.Bindings().Handle(msg)
			return cmd, true
		}
		return nil, g.guarded()
	}
	return nil, false
}

// Prompt is the line under a review: in flight, guarded, or ready.
func (g *ReviewGate) Prompt(sending, ready string) string {
	st := g.common.Styles
	var p string
	switch {
	case g.Sending && g.cancelled && g.awaiting != "":
		p = g.spin.View() + " Cancelling the wait for " + g.awaiting + "…"
	case g.Sending && g.awaiting != "":
		p = g.spin.View() + " Waiting for " + g.awaiting + "… " + st.Muted.Render("(esc cancels; nothing is sent until it signs)")
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

// What a review in flight says when quitting asks (tui.Busy).
const AwaitingSignature = "A signature is awaited; if you quit, the wait ends and nothing is signed or sent."

// SubmittingWithdrawal is what a screen sending a withdrawal says when
// quitting asks: a request is journaled before it leaves, and History
// offers it at the next start, except on the embedded sandbox, whose
// journal ends with the console.
func SubmittingWithdrawal(app *App) string {
	if app.Target.Demo != nil {
		return "A withdrawal is being submitted; if you quit, its answer is not seen, and the sandbox ends with the console."
	}
	return "A withdrawal is being submitted; if you quit, its answer is not seen here: once sent, it is in the journal and History offers it at the next start."
}

// Unsigned: the request is out for a signature from a key that waits
// (clef, a signing command) and none has come: nothing is signed,
// journaled or sent yet.
func (g *ReviewGate) Unsigned() bool { return g.Sending && g.Key.Waits() && !g.waited }

// PreparingOffline is what a review says when quitting asks while what
// (its message) is being prepared for offline signing.
func PreparingOffline(what string) string {
	return what + " is being prepared for offline signing; if you quit, its file may not be written: prepare it again."
}

// OfflineKey prepares a review's message for offline signing: written for a
// wallet elsewhere, and nothing signed here (App.OfflineReady).
var OfflineKey = key.NewBinding(key.WithKeys("o"), key.WithHelp("o", "prepare for offline signing"))

// OfflineCopyKey copies a prepared file's submit command (Offline.Command):
// wrapped on a narrow screen, it cannot be copied whole from the terminal.
var OfflineCopyKey = key.NewBinding(key.WithKeys("c"), key.WithHelp("c", "copy the submit command"))

// Offline is a review's message prepared for offline signing: the file of
// its typed data, the account whose key must sign it, the command that
// sends the signature (naming the file as a word of its own: App.Command)
// and the time it must be sent before.
type Offline struct {
	Path   string
	Signer common.Address
	Submit string
	Before time.Time
}

// Copy copies the submit command to the clipboard (OfflineCopyKey).
func (o Offline) Copy(app *App) tea.Cmd {
	return CopyText(app, o.Submit, "Copied the submit command: replace 0x… with the signature")
}

// View says where the file is and how to finish: sign it with the signer's
// key in any wallet, then submit it before it expires. The commands name
// the file itself, so they run as shown.
func (o Offline) View(c *tui.Common, wd int) string {
	st := c.Styles
	file := clean.ShellWord(o.Path)
	lines := []string{
		st.Value.Render("Prepared for offline signing; nothing was signed or sent."),
		layout.WrapField(c, "File", 16, st.Value.Render(o.Path), "", wd),
		layout.WrapField(c, "Sign with", 16, st.Value.Render(o.Signer.Hex()), "its key, in any wallet; with cast:", wd),
		layout.WrapField(c, "", 16, st.Value.Render("cast wallet sign --data --from-file "+file), "", wd),
		layout.WrapField(c, "Then run", 16, st.Value.Render(o.Submit), "", wd),
		layout.WrapField(c, "Before", 16, st.Value.Render(o.Before.UTC().Format("2006-01-02 15:04:05 UTC")), "", wd),
	}
	var b strings.Builder
	for _, l := range lines {
		b.WriteString(l)
		if !strings.HasSuffix(l, "\n") {
			b.WriteString("\n")
		}
	}
	return b.String()
}
