package kit

import (
	"context"
	"slices"
	"time"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/spinner"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/ethereum/go-ethereum/common"

	"github.com/svcwallet/svcwallet/screens/kit/layout"
	"github.com/svcwallet/svcwallet/signer"
	"github.com/svcwallet/svcwallet/tui"
)

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
// request is out, the wait for a signature from clef or a signing command,
// which esc cancels, and the preparation for offline signing.
type ReviewGate struct {
	common *tui.Common
	// after is App.After: the timer a key's settling waits on (KeyHold).
	after   func(time.Duration, tea.Msg) tea.Cmd
	Key     signingKey
	Offline Offline
	KeyHold
	// Asked: a question a letter answers (the second yes to a loss) is on
	// the review, so its y is an answer even while the passphrase field
	// has the focus, and is held to intent.PasteGap as an enter is.
	Asked func() bool
	// keys are the screen's bindings with the guard aside (before Held),
	// the review whole on screen or not: a key the guard dropped is said
	// as acting later only if one takes it once keys are enabled.
	keys func(whole bool) Bindings
	// enabled: the review is drawn as it reads once its keys are enabled
	// (Fitted), the hold's words aside; whole is whether it fitted so, as
	// Fitted last found (true until then).
	enabled, whole bool
	// settle settles the last key the screen was given (KeyHold.took).
	settle  tea.Cmd
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
	// sends counts each send out for the console's end (Sends).
	sends *Sends
}

// NewReviewGate is the gate of a review of what want signs; keys are the
// review's bindings with the guard aside (its own, before Held), which the
// words of a key the guard dropped follow: a review has them from its
// start, or every key it takes would be said to do nothing.
func NewReviewGate(app *App, want common.Address, keys func(whole bool) Bindings) ReviewGate {
	return ReviewGate{common: app.Common, after: app.After, Key: newSigningKey(app, want), root: app.Root(), keys: keys, whole: true, sends: app.Sends,
		spin: spinner.New(spinner.WithSpinner(spinner.Dot), spinner.WithStyle(app.Common.Styles.Spinner))}
}

// Start marks the review as shown and looks for the key.
// The screen's own first commands (a countdown) run in the same batch, after
// the key search.
func (g *ReviewGate) Start(also ...tea.Cmd) tea.Cmd {
	cmds := []tea.Cmd{g.Key.Find(), g.Guard()}
	return tea.Batch(append(cmds, also...)...)
}

// Guard holds keys for ShownGuard from now: the review showed, or a second
// question that signs did (a loss's yes), which keys typed before it must
// not answer.
func (g *ReviewGate) Guard() tea.Cmd {
	g.KeyHold.Tell(g.common.RepeatsTold)
	return g.KeyHold.Start(g.common.Now())
}

// Guarded: keys are held (Guard); never while the review is drawn as it
// reads once they are enabled (Fitted).
func (g *ReviewGate) Guarded() bool { return !g.enabled && g.Holds(g.common.Now()) }

// In is when held keys act, as a message says it ("in 2 s"): the hold
// ticks each second (KeyHold.Left), so the words hold as they stand.
func (g *ReviewGate) In() string { return g.InSeconds(g.common.Now()) }

// HeldSeconds is the whole seconds keys stay held (KeyHold.Left), 0 when
// they act: what a drawing kept between frames is drawn again for.
func (g *ReviewGate) HeldSeconds() int {
	if g.enabled {
		return 0
	}
	return g.Left(g.common.Now())
}

// Inputting: the passphrase field takes q and ? as text.
func (g *ReviewGate) Inputting() bool { return g.Key.Typing() && !g.Sending }

func (g *ReviewGate) SetWidth(w int) { g.Key.width = w; g.Key.Pass.SetWidth(max(w-22, 10)) }

// Send marks the signed request as out and runs cmd beside the spinner.
func (g *ReviewGate) Send(cmd tea.Cmd) tea.Cmd {
	g.Sending = true
	return tea.Batch(g.spin.Tick, cmd)
}

// Counted is cmd, a send of s, counted for the console's end while it
// runs (Sends): from inside the Cmd, as one never started sends nothing.
func (g *ReviewGate) Counted(s *Sending, cmd tea.Cmd) tea.Cmd {
	sends := g.sends
	return func() tea.Msg {
		var msg tea.Msg
		sends.Sent(s, func() { msg = cmd() })
		return msg
	}
}

// SendSigned is Send for a request that signs with the key load gives:
// run signs and sends inside the Cmd, counted as s (Counted), marked
// signed once the signature comes. When the key waits (Key.Waits), each
// wait is shown as it starts and ends, and esc cancels it, and only it:
// its context ends, so the signature never comes and nothing is sent
// (signer.Watch). Update only flips state and cancels; the waiting
// happens in the Cmd.
func (g *ReviewGate) SendSigned(s *Sending, load func() (signer.Key, error), run func(load func() (signer.Key, error)) tea.Msg) tea.Cmd {
	warned := g.Key.argumentWarned()
	marking := func(load func() (signer.Key, error)) func() (signer.Key, error) {
		return func() (signer.Key, error) {
			k, err := load()
			if err != nil {
				return nil, err
			}
			return s.Signed(k), nil
		}
	}
	if !g.Key.Waits() {
		return tea.Batch(g.Send(g.Counted(s, func() tea.Msg { return run(marking(load)) })), warned)
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
	return tea.Batch(g.Send(g.Counted(s, func() tea.Msg {
		defer cancel()
		defer close(waits)
		return run(marking(watched))
	})), g.listen(), warned)
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

// Held is bs, none of them acting while the guard holds keys (Update
// swallows them then): the footer offers no key that does nothing.
func (g *ReviewGate) Held(bs Bindings) Bindings {
	if g.Acts(true) {
		return bs
	}
	held := make(Bindings, len(bs))
	for i, b := range bs {
		b.On, b.Off = false, nil
		held[i] = b
	}
	return held
}

// Acts reports whether a key that acts when on (its binding's On) acts now:
// the rule the footer's keys are held to (Held), which a message naming a
// key is held to too, so none says "press" a key the guard swallows.
func (g *ReviewGate) Acts(on bool) bool { return on && (g.Sending || !g.Guarded()) }

// HoldsKeys: the guard holds keys and nothing is out (tui.Holding): esc,
// the root's going back, is held with the review's own.
func (g *ReviewGate) HoldsKeys() bool { return !g.Acts(true) }

// Update takes the gate's own messages and swallows keys while the guard
// holds or a request is out; it returns what the screen acts on: msg, the
// answer key its settling let act (KeyHold.Update), or nil (nothing).
func (g *ReviewGate) Update(msg tea.Msg) (act tea.Msg, cmd tea.Cmd) {
	switch msg := msg.(type) {
	case keyHoldOverMsg, tui.ShownAgainMsg, tui.SettledMsg:
		return g.KeyHold.Update(msg, g.common.Now(), g.after)
	case KeyFoundMsg:
		if msg.For != g.Key.Asked {
			return nil, nil // an earlier search's, or another review's
		}
		// Which key signs is part of the review: keys are held a whole
		// guard from when it shows, however late the search lands.
		return nil, tea.Batch(g.Key.Update(msg), g.Guard())
	case spinner.TickMsg:
		return nil, SpinWhile(&g.spin, msg, g.Sending)
	case awaitingMsg:
		if msg.tag != g.sendTag || !g.Sending {
			return nil, nil
		}
		g.awaiting = msg.what
		g.waited = g.waited || msg.what == ""
		return nil, g.listen()
	case tea.BackgroundColorMsg:
		g.spin.Style = g.common.Styles.Spinner
		return nil, nil
	case tea.KeyPressMsg:
		if g.Sending {
			cmd, _ := g.Bindings().Handle(msg)
			return nil, cmd
		}
		answers := g.Asked != nil && g.Asked() && key.Matches(msg, answerKeys)
		if g.Inputting() && editsField(msg) && !answers && !g.Waiting() {
			// Kept while held too: a fast typist's passphrase begun as the
			// review showed. A letter answers nothing; only what acts is
			// held, and to the gap (a passphrase may come pasted).
			g.settle = g.took(g.common.Now())
			return msg, nil
		}
		act, cmd := g.KeyHold.Update(msg, g.common.Now(), g.after)
		if act != nil {
			g.settle = cmd
			return act, nil
		}
		return nil, cmd
	}
	return msg, nil
}

// editsField: k is a letter of the passphrase (y too: the caller tells an
// answer) or one of the field's editing keys (fieldEdits); enter has no text.
func editsField(k tea.KeyPressMsg) bool {
	return k.Text != "" || slices.Contains(fieldEdits, k.String())
}

// fieldEdits are the passphrase field's own keys that move in it or delete
// (textinput's: arrows, home/end, ctrl+a/e/u/k/w, delete, backspace…): a
// correction made as the review shows is kept. None answers or leaves.
var fieldEdits = func() []string {
	km := textinput.DefaultKeyMap()
	var keys []string
	for _, b := range []key.Binding{km.CharacterForward, km.CharacterBackward, km.WordForward, km.WordBackward,
		km.DeleteWordBackward, km.DeleteWordForward, km.DeleteAfterCursor, km.DeleteBeforeCursor,
		km.DeleteCharacterBackward, km.DeleteCharacterForward, km.LineStart, km.LineEnd} {
		keys = append(keys, b.Keys()...)
	}
	return keys
}()

// Settled is what the key the screen was last given does (cmd), or, when
// it did nothing, what settles it (KeyHold.took): a key that acted changed
// what the next one meets (a send, a hold, another screen).
func (g *ReviewGate) Settled(cmd tea.Cmd) tea.Cmd {
	settle := g.settle
	g.settle = nil
	if settle == nil {
		return cmd
	}
	return g.Then(settle, cmd)
}

// Prompt is the line under a review: in flight, guarded, or ready.
func (g *ReviewGate) Prompt(sending, ready string) string {
	st := g.common.Styles
	var p string
	switch {
	case g.Sending && g.cancelled && g.awaiting != "":
		p = g.spin.View() + " Cancelling the wait for " + g.awaiting + "…"
	case g.Sending && g.awaiting != "":
		// On one line where it can be: the footer names esc too.
		p = g.spin.View() + " Waiting for " + g.awaiting + "…"
		if note := layout.Fitting(max(g.Key.width-ansi.StringWidth(p)-1, 0), "(esc cancels; nothing is sent until it signs)", "(esc cancels)", ""); note != "" {
			p += " " + st.Muted.Render(note)
		}
	case g.Sending:
		p = g.spin.View() + " " + sending
	case g.Guarded() && g.Pasted():
		p = st.Muted.Render(PasteAnswersNothing + ": type your answer " + g.In() + ".")
	case g.Guarded() && g.dropped() != "":
		p = st.Muted.Render(g.dropped() + "read the message above; " + g.KeysEnabled(g.common.Now()) + ".")
	case g.Guarded():
		p = st.Muted.Render("Read the message above; " + g.KeysEnabled(g.common.Now()) + ".")
	default:
		p = st.Value.Render(ready)
	}
	if w := g.Key.width; w > 0 && ansi.StringWidth(p) > w {
		p = layout.WrapTo(p, w)
	}
	return p
}

// dropped is what the review says first of a key its guard dropped
// (KeyHold.DroppedSaid), as it acts once keys are enabled (takes).
func (g *ReviewGate) dropped() string { return g.droppedSaid(g.common.Now(), g.takes) }

// takes: k acts once keys are enabled: a key of the review as it then
// fits (keys, whole), esc, which goes back (the root pushed the review),
// or the passphrase field's paste (ctrl+v), which the guard drops as it
// drops enter, and the field takes once keys are enabled.
func (g *ReviewGate) takes(k tea.KeyPressMsg) bool {
	return g.keys(g.whole).Takes(k, true) || g.Inputting() && key.Matches(k, g.Key.Pass.KeyMap.Paste)
}

// Fitted is layout.Fitted of the review: while the words of a key the
// guard dropped are drawn, the review's fit once keys are enabled (the
// hold's words aside) is found first, which says whether that key acts
// then (takes); then the fit as drawn now, words and all. The words
// never measure themselves, and a key that acts only on a review shown
// whole is said to do nothing on one too small.
func (g *ReviewGate) Fitted(levels, h int, render func(level int) string) (string, bool) {
	if g.Guarded() && g.KeyHold.dropped != nil {
		g.enabled = true
		_, g.whole = layout.Fitted(levels, h, render)
		g.enabled = false
	}
	return layout.Fitted(levels, h, render)
}

// BriefPrompt is Prompt in few enough words to stand beside a passphrase
// field (signingKey.TightView) on a review with no line for the prompt.
// Only a keystore key has that field, and it never awaits a signature.
func (g *ReviewGate) BriefPrompt(sending, ready string) string {
	switch {
	case g.Sending:
		return g.spin.View() + " " + sending
	case g.Guarded() && g.Pasted():
		return g.common.Styles.Muted.Render("a paste answers nothing")
	case g.Guarded() && g.dropped() != "":
		k, acts := g.droppedActs(g.common.Now(), g.takes)
		said := k + " does nothing here; "
		if acts {
			said = k + " not taken; "
		}
		return g.common.Styles.Muted.Render(said + g.KeysEnabled(g.common.Now()))
	case g.Guarded():
		return g.common.Styles.Muted.Render(g.KeysEnabled(g.common.Now()))
	}
	return g.common.Styles.Value.Render(ready)
}

// CanPrepare reports whether the review's intent may be prepared for
// offline signing now, as far as the gate knows: nothing is out, nothing
// prepared, the journal outlives the console (App.OfflineReady), and the
// passphrase field does not take o as a letter.
func (g *ReviewGate) CanPrepare(app *App) bool {
	return !g.Sending && !g.Offline.Done() && !g.Offline.Preparing && !g.Offline.earlier && app.OfflineReady() && !g.Key.Typing()
}

// Busy is what a review says when quitting asks (tui.Busy): a signature is
// awaited, its request is out (sending), or what it signs (preparing) is
// being prepared for offline signing; "" when it is not busy.
func (g *ReviewGate) Busy(sending, preparing string) string {
	switch {
	case g.Unsigned():
		return AwaitingSignature
	case g.Sending:
		return sending
	case g.Offline.Preparing:
		return preparingOffline(preparing)
	}
	return ""
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
