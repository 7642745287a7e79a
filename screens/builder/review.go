package builder

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/svcwallet/svcwallet/internal/runnext"
	"github.com/svcwallet/svcwallet/screens/kit"
	"github.com/svcwallet/svcwallet/screens/kit/layout"
	"github.com/svcwallet/svcwallet/service/builder"
	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/intent"
	"github.com/svcwallet/svcwallet/service/journal"
	"github.com/svcwallet/svcwallet/signer"
	"github.com/svcwallet/svcwallet/tui"
)

// builderSentMsg answers the sign → authorize sequence.
type builderSentMsg struct {
	req exchange.BuilderAuthorizeRequest // what was sent; zero when signing failed
	res exchange.BuilderAuthorizeResult
	err error
}

// builderResendMsg says a 429's wait before the same body is over, on
// the timer's word: resend checks the clock. tag is the wait's: a wait
// cancelled (esc) leaves its timer running, which then does nothing.
type builderResendMsg struct{ tag tui.Tag }

var builderReviewKeys = struct {
	Sign, Resend, CancelWait key.Binding
}{
	Sign:       key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "sign and authorize")),
	Resend:     key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "send again")),
	CancelWait: key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "cancel the wait")),
}

// builderReviewScreen shows the typed data of a builder authorization field by
// field, signs it with the main account's key and sends it. The nonce and
// expiration are fixed when the review is built, so the digest on screen is
// the one that gets signed; a retry after a lost answer resends the same
// signed body.
type builderReviewScreen struct {
	app   *kit.App
	order builder.Order
	at    time.Time // when the order was built: its expiration counts from then
	gate  kit.ReviewGate
	sent  *exchange.BuilderAuthorizeRequest // the signed body, once signed
	// fate is what became of the last sending of sent (0 before, or when
	// err is none of its), earlier the fate before it; retryAt ends a
	// 429's wait.
	fate, earlier builder.Fate
	retryAt       time.Time
	// waitTag is the tag of the resend waiting out retryAt (resend).
	waitTag tui.Tag
	err     error
	// errHead names what err stopped: the authorization, or its
	// preparation for offline signing.
	errHead string
	wd, h   int
	// fit is the fullest rendering that fits, kept until the review
	// changes (drawn).
	fit fit
	// grant is the second yes to a key that may move funds (askingGrant).
	grant kit.SecondQuestion
}

// newBuilderReview builds the message for a checked authorization with the
// given nonce, expiring the chosen validity from now.
func newBuilderReview(app *kit.App, a builder.Auth, nonce uint32) *builderReviewScreen {
	now := app.Common.Now()
	r := &builderReviewScreen{app: app, order: builder.NewOrder(a, app.Target.Env.Domain(), nonce, now), at: now}
	r.gate = kit.NewReviewGate(app, a.Main, r.keys)
	r.gate.Key.Stopped = r.keyNotNeeded
	r.gate.Asked = r.askedGrant
	return r
}

// keyNotNeeded: nothing here needs the key's passphrase any more: the body
// is signed (enter sends it again as it is) or taken. The field would take
// q and ? as letters for nothing.
func (r *builderReviewScreen) keyNotNeeded() bool {
	return r.sent != nil || r.fate == builder.FateTaken
}

func (r *builderReviewScreen) Init() tea.Cmd { r.changed(); return r.gate.Start() }

func (r *builderReviewScreen) Title() string { return "Builder: review and sign" }

func (r *builderReviewScreen) SetSize(w, h int) {
	r.wd, r.h = w, h
	r.gate.SetWidth(w)
	r.changed()
}

func (r *builderReviewScreen) KeyMap() help.KeyMap { return r.bindings().KeyMap() }

// bindings: none while keys are held (the guard); enter signs once the
// whole message fits on screen and a key here may sign (noKey), or sends
// the body already signed again, unless the authorization is already out
// or was prepared for offline signing; o prepares it for offline signing
// (preparable, once the message fits).
func (r *builderReviewScreen) bindings() kit.Bindings { return r.gate.Held(r.keys(r.fits())) }

// keys are bindings with the guard aside, the message fitting or not: the
// gate's words of a key it dropped ask them too, of the review as it fits
// once keys are enabled (kit.ReviewGate.Fitted).
func (r *builderReviewScreen) keys(fits bool) kit.Bindings {
	// Once taken, nothing is signed or sent again from here (FateTaken).
	on := !r.gate.Sending && !r.gate.Offline.Done() && !r.gate.Offline.Preparing && fits && r.fate != builder.FateTaken
	return append(append(r.grantBindings(fits),
		kit.Binding{Key: builderReviewKeys.Sign, On: on && r.sent == nil && !r.askedGrant() && !r.noKey(), Do: r.askingGrant(r.sign)},
		kit.Binding{Key: builderReviewKeys.Resend, On: on && r.sent != nil, Do: r.sign},
		r.cancelWaitBinding(),
	), append(r.gate.Offline.Bindings(r.app, r.preparable() && fits && !r.askedGrant(), r.askingGrant(r.prepare)), r.gate.Bindings()...)...)
}

// Busy: while the authorization is in flight, or being prepared for
// offline signing, quitting asks and Esc is held (the answer must find this
// screen).
func (r *builderReviewScreen) Busy() string {
	sending := "The builder authorization is being sent; if you quit, whether it went through is not known, and authorizing again may grant a second authorization (and API key)."
	switch {
	case r.waitLeft() > 0 && r.fate == builder.FateUnknown:
		sending = "The signed builder authorization waits out the service's limit and is not sent again yet; an earlier send may have been taken: if you quit, check the exchange's web UI before authorizing again."
	case r.waitLeft() > 0:
		sending = "The signed builder authorization waits out the service's limit and is not sent again yet; if you quit, it is not sent and nothing is authorized."
	}
	return r.gate.Busy(sending, "The builder authorization")
}

// waitLeft is what remains, on the console's clock, of a 429's wait that
// a resend under way waits out (resend); 0 when none is waited out.
func (r *builderReviewScreen) waitLeft() time.Duration {
	if !r.gate.Sending || r.sent == nil {
		return 0
	}
	return max(r.retryAt.Sub(r.app.Common.Now()), 0)
}

func (r *builderReviewScreen) Inputting() bool { return r.gate.Inputting() }

// HoldsKeys: esc is held with the review's keys (tui.Holding).
func (r *builderReviewScreen) HoldsKeys() bool { return r.gate.HoldsKeys() }

// Asks: enter signs here (tui.Asking).
func (r *builderReviewScreen) Asks() bool { return true }

func (r *builderReviewScreen) Update(msg tea.Msg) (tui.Screen, tea.Cmd) {
	defer r.changed()
	s, cmd := r.update(msg)
	return s, r.gate.Settled(cmd)
}

func (r *builderReviewScreen) update(msg tea.Msg) (tui.Screen, tea.Cmd) {
	// The gate takes every key while a send is out: esc cancels a 429's
	// wait before it, as nothing of it has left yet.
	if k, ok := msg.(tea.KeyPressMsg); ok && r.waitLeft() > 0 {
		if cmd, ok := (kit.Bindings{r.cancelWaitBinding()}).Handle(k); ok {
			return r, cmd
		}
	}
	msg, cmd := r.gate.Update(msg)
	if msg == nil {
		return r, cmd
	}
	if err, handled := r.gate.Offline.Update(r.app, msg); handled {
		r.err, r.errHead = err, "Not prepared"
		return r, nil
	}
	switch msg := msg.(type) {
	case builderSentMsg:
		return r, r.sentReply(msg)
	case builderResendMsg:
		if msg.tag == r.waitTag && r.gate.Sending && r.sent != nil {
			return r, r.resend()
		}
		return r, nil
	case tea.KeyPressMsg:
		if cmd, ok := r.bindings().Handle(msg); ok {
			return r, cmd
		}
	}
	return r, r.gate.Key.Update(msg)
}

// sign signs and sends in one Cmd; once signed, a retry resends the same
// body, so a lost answer never becomes a second authorization.
func (r *builderReviewScreen) sign() tea.Cmd {
	app := r.app
	if !r.fits() {
		return nil
	}
	if r.sent != nil {
		r.err, r.waitTag = nil, tui.NextTag()
		// After a 429, the rest of the wait it asked, then the same body.
		return r.gate.Send(r.resend())
	}
	if err := r.gate.Key.Ready(); err != nil {
		r.err, r.errHead = err, "Not authorized"
		if r.gate.Key.Found && !r.gate.Key.Usable() {
			r.err = noKeyError{err} // o is named as it is drawn (shownErr)
		}
		return nil
	}
	r.err = nil
	// The client and context are taken here: the Cmd's goroutine must not
	// read the App while Update may change its session.
	load, o, client, root, waits, j := r.gate.Key.Loader(), r.order, app.Client(), app.Root(), r.gate.Key.Waits(), app.Journal()
	return r.gate.SendSigned(endWords(o, root), load, func(load func() (signer.Key, error)) tea.Msg {
		// The root context only: the authorization's answer must arrive
		// even if the screen is left. A key that waits for a person is
		// bounded by its own wait (esc cancels it), the request by
		// builder.AuthorizeTimeout.
		cx := root
		if !waits {
			var cancel context.CancelFunc
			cx, cancel = kit.Call(root)
			defer cancel()
		}
		req, res, err := o.Authorize(cx, client, j, load)
		return builderSentMsg{req: req, res: res, err: err}
	})
}

// resend posts the signed body again once the console's clock reaches
// retryAt (a 429's wait), through the App's timer, which tests fake: a
// timer that fires early is set again for the rest.
func (r *builderReviewScreen) resend() tea.Cmd {
	if wait := r.retryAt.Sub(r.app.Common.Now()); wait > 0 {
		return r.app.After(wait, builderResendMsg{tag: r.waitTag})
	}
	client, root, req := r.app.Client(), r.app.Root(), *r.sent
	return r.gate.Counted(endWords(r.order, root).AlreadySigned(), func() tea.Msg {
		cx, cancel := kit.Call(root)
		defer cancel()
		res, err := client.AuthorizeBuilder(cx, req)
		return builderSentMsg{req: req, res: res, err: err}
	})
}

// cancelWaitBinding is esc while a resend waits out a 429's wait: it
// cancels the wait (cancelWait).
func (r *builderReviewScreen) cancelWaitBinding() kit.Binding {
	return kit.Binding{Key: builderReviewKeys.CancelWait, On: r.waitLeft() > 0, Do: r.cancelWait}
}

// cancelWait ends a 429's wait before the signed body is sent again:
// nothing has left, its timer does nothing (the next wait has another
// waitTag, and none runs), and the review says so with enter's step
// (againWords), keys held as when it showed again.
func (r *builderReviewScreen) cancelWait() tea.Cmd {
	r.gate.Sent()
	text := "The signed authorization was not sent again"
	if r.fate == builder.FateUnknown {
		text += "; an earlier attempt may have been taken: " + r.order.Auth.Unchecked()
	}
	r.err, r.errHead = exchange.UserError{Text: text}, "Wait cancelled"
	return r.gate.Guard()
}

// sentReply shows the result, or what became of the authorization
// (builder.Auth.Failed) and its next step.
func (r *builderReviewScreen) sentReply(msg builderSentMsg) tea.Cmd {
	r.gate.Sent()
	if msg.req.Signature.R != "" {
		r.sent = &msg.req
	}
	if msg.err != nil {
		r.fate = 0
		r.errHead, r.err = exchange.Labelled("Not authorized", builder.Explain(msg.err))
		switch {
		case errors.As(msg.err, new(*journal.RolledBackError)):
			r.err = kit.JournalLost(msg.err, r.app.Command("doctor"))
		case r.sent != nil:
			f := r.order.Auth.Failed(msg.err, r.earlier)
			r.err, r.fate, r.earlier = f, f.Fate, f.Fate
			r.retryAt = r.app.Common.Now().Add(f.Wait)
			r.errHead = f.Head()
			if f.Fate == builder.FateRefused || f.Fate == builder.FateTaken {
				// Going back and reviewing again draws a new nonce; once
				// taken, nothing is sent again.
				r.sent = nil
			}
		}
		// The review shows again with why: an enter held through the
		// send, or pressed twice, must not sign again before that is read.
		return r.gate.Guard()
	}
	res := newBuilderResult(r.app, r.order.Auth, r.order.Expiration().UnixNano(), msg.res.APIKey)
	// The result's title says it was authorized: no toast repeats it.
	return tea.Sequence(tui.Reset(r.app.Makers.Home(r.app)), tui.Push(res))
}

// preparable: the authorization may be written for a wallet elsewhere, as
// `builder authorize --signer offline` does, once the whole message is on
// screen (asked apart: the words drawn into it, shownErr, cannot ask), when
// none is signed to be sent again (r.sent) and the gate allows it.
func (r *builderReviewScreen) preparable() bool {
	return r.sent == nil && r.fate != builder.FateTaken && r.gate.CanPrepare(r.app)
}

// prepare prepares the authorization for the main account's key to sign
// offline (builder.Prepare, through kit.Offline).
func (r *builderReviewScreen) prepare() tea.Cmd {
	r.err = nil
	client, j, o, at := r.app.Client(), r.app.Journal(), r.order, r.at
	nonce, _ := o.Message.NonceExpiration()
	name := "builder-" + strconv.FormatUint(uint64(nonce), 10) + ".json"
	return r.gate.Offline.Prepare(r.app, runnext.Authorize(o.Auth), o.Auth.Main, name, "authorization",
		func(cx context.Context) (intent.Prepared, error) {
			p, err := builder.Prepare(cx, client, j, o, at)
			return p.Prepared, err
		})
}

// View draws the whole message, or, when the terminal is too short to show
// all of it, only a request to enlarge it: nothing is signed unseen. Once
// prepared for offline signing, where the file is and how to finish stay
// on screen whatever its height, and so does an authorization found taken.
func (r *builderReviewScreen) View() string {
	full, ok := r.fitted()
	if !ok {
		if r.gate.Offline.Done() {
			return layout.Clip(r.gate.Offline.View(r.app.Common, r.wd), r.wd)
		}
		if r.fate == builder.FateTaken {
			// Nothing is signed or sent from here any more: that the
			// builder is authorized, and where to look, matter, not the
			// message, which the notice to enlarge would hide them behind.
			return layout.Clip(layout.ErrorBlock(r.app.Common, r.errHead, r.shownErr(), r.wd), r.wd)
		}
		st := r.app.Common.Styles
		return st.Warning.Render(layout.WrapTo(r.tooSmall(lipgloss.Height(full)), max(r.wd, 20)))
	}
	return full
}

// render draws the review at a level of kit.TypedDataView.Render: 0 as
// it is, 1 without blank lines (the warnings' too), and so on; from 3 a
// keystore key takes two lines (signingKey.TightView) and the prompt one
// at 60 columns; at 5 the prompt goes beside the passphrase (briefPrompt);
// at 6, for a prompt that needs its line, the key and its passphrase
// share one line (signingKey.OneLine); 7 and 8 are 6 in fewer words
// (review, warnings). words is how fully no key here is said (fitted).
func (r *builderReviewScreen) render(level int, words kit.NoKeyWording) string {
	c := r.app.Common
	st := c.Styles
	var b strings.Builder
	b.WriteString(r.typedDataView(level))
	// The warnings of every review (builder.Auth.Warnings), fewer words as
	// it is compacted (warnings).
	for _, w := range r.warnings(level) {
		if level == 0 {
			b.WriteString("\n")
		}
		b.WriteString(st.Warning.Render(layout.WrapTo("! "+w, max(r.wd, 20))) + "\n")
	}
	if r.gate.Offline.Done() {
		// Nothing is signed here: which key would have is beside the point.
		b.WriteString("\n" + r.gate.Offline.View(c, r.wd))
		return layout.Clip(b.String(), r.wd)
	}
	lw := kit.LabelWidth(r.order.Review(), level)
	switch {
	case level == 0:
		b.WriteString("\n" + r.gate.Key.View(18) + "\n\n")
	case level < 3:
		b.WriteString(r.gate.Key.View(18) + "\n")
	case level == 5 && r.gate.Key.Typing():
		// The prompt beside the passphrase, its line saved: the key's
		// folder stays said.
		if beside := r.briefPrompt(); beside != "" {
			if key, drawn := r.gate.Key.TightView(lw, beside, false); drawn {
				b.WriteString(key + "\n")
				return layout.Clip(b.String(), r.wd)
			}
		}
		key, _ := r.gate.Key.TightView(lw, "", false)
		b.WriteString(key + "\n")
	default:
		// Last, a keystore key on one line, its folder left out, for what
		// needs the prompt's line (an error, a resend's words).
		key, one := r.gate.Key.OneLine(lw)
		if level < 6 || !one {
			key, _ = r.gate.Key.TightView(lw, "", false)
		}
		b.WriteString(key + "\n")
	}
	switch {
	case r.gate.Offline.Preparing:
		b.WriteString(r.gate.Prompt("", "Preparing the authorization for offline signing…") + "\n")
	case r.err != nil && !r.gate.Sending:
		b.WriteString(layout.ErrorBlock(c, r.errHead, r.shownErr(), r.wd))
		if again := againWords(r.fate); r.sent != nil && again != "" {
			if r.gate.Guarded() { // enter and esc do nothing yet
				again = "Read it: " + r.gate.KeysEnabled(c.Now()) + "."
			}
			b.WriteString(st.Muted.Render(layout.WrapTo(again, max(r.wd, 20))) + "\n")
		}
	case r.sent != nil:
		sending := "Sending the signed authorization again…"
		if left := r.waitLeft(); left > 0 {
			sending = fmt.Sprintf("Waiting %d s, as the service asked, before sending the signed authorization again…", builder.Failure{Wait: left}.WaitSeconds())
		}
		b.WriteString(r.gate.Prompt(sending,
			"Press enter to send the signed authorization again, esc to go back.") + "\n")
	default:
		ready := "Press enter to sign with this key and authorize the builder, esc to go back."
		if level >= 3 {
			// One line at 60 columns: the key is on the line above.
			ready = "Press enter to sign and authorize, esc to go back."
		}
		switch {
		case r.noKey() && (words > kit.NoKeyFull || level >= 3):
			// Fewer words where the full ones do not fit (fitted): the
			// briefest fit 60x20. Where the key takes one line, fewer
			// words after.
			ready = r.gate.NoKeyWords(r.gate.Key.NoKeyWords(words), r.preparable(), "it").Error() + "."
		case r.noKey():
			ready = r.noKeyWords(r.gate.Key.Ready()).Error() + "."
		}
		if r.askedGrant() {
			ready = r.grantQuestion(level)
		}
		b.WriteString(r.gate.Prompt("Signing and sending the authorization…", ready) + "\n")
	}
	return layout.Clip(b.String(), r.wd)
}

// briefPrompt is the prompt in words that fit beside the passphrase at 60
// columns, or a wrong passphrase said there; "" where it needs a line of
// its own (another error, a resend, the preparation for offline signing).
func (r *builderReviewScreen) briefPrompt() string {
	if errors.Is(r.err, signer.ErrWrongPassphrase) && !r.gate.Sending && !r.gate.Offline.Preparing {
		// Said beside the field it is about: the key's folder keeps its line.
		return r.app.Common.Styles.ErrorToast.Render("wrong passphrase: type again")
	}
	if r.gate.Offline.Preparing || r.err != nil && !r.gate.Sending || r.sent != nil || r.askedGrant() {
		return ""
	}
	return r.gate.BriefPrompt("signing and sending…", "enter signs, esc goes back")
}

// typedDataView shows the authorization's facts but its details, which are
// the message's fields (builder.Order.Facts), then the message
// (kit.TypedDataView), the builder and its rights drawn apart.
func (r *builderReviewScreen) typedDataView(level int) string {
	// What the fee integers and the expiration mean is never dropped, nor
	// whose the API key's signer is (never the user's own key); once notes
	// are dropped, whose each account is in words that fit beside it.
	review, labelled := r.review(level)
	var facts strings.Builder
	v := kit.TypedDataView{Review: review, Where: kit.WhereRows(r.app),
		Danger: map[string]bool{"builderAccountID": true, "maxFutureFeeRate": true, "maxSpotFeeRate": true, "permissions": true, "signer": true},
		Keep:   map[string]bool{"maxFutureFeeRate": true, "maxSpotFeeRate": true, "expiration": true, "signer": true},
		// The nonce beside the permissions saves a line at 60x20.
		Pairs: map[string][]string{"permissions": {"nonce"}}}
	for _, f := range r.order.Facts() {
		switch {
		case f.Mark == intent.Detail, labelled:
		case level >= 5:
			facts.WriteString(r.tightFact(f) + "\n")
		default:
			v.Facts = append(v.Facts, f)
		}
	}
	return facts.String() + v.Render(r.app.Common, r.wd, min(level, 4))
}

// tightFact draws a fact in its label's own column, not the message's, its
// value broken at words or, where that takes more lines, anywhere: a key
// label of 100 bytes takes two lines at 60 columns, never three.
func (r *builderReviewScreen) tightFact(f intent.Fact) string {
	c, lw := r.app.Common, ansi.StringWidth(f.Label)
	room := max(r.wd-lw-1, 8)
	lines := strings.Split(layout.WrapTo(f.Value, room), "\n")
	if hard := strings.Split(ansi.Hardwrap(f.Value, room, true), "\n"); len(hard) < len(lines) {
		lines = hard
	}
	for i, l := range lines {
		f.Value = l
		lines[i] = kit.FactValue(c, f)
	}
	return layout.Field(c, f.Label, lw, strings.Join(lines, "\n"+layout.Pad("", lw+1)))
}
