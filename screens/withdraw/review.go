package withdraw

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/svcwallet/svcwallet/internal/safetext"
	"github.com/svcwallet/svcwallet/screens/kit"
	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/journal"
	"github.com/svcwallet/svcwallet/service/withdrawal"
	"github.com/svcwallet/svcwallet/signer"
	"github.com/svcwallet/svcwallet/tui"
)

// executedMsg answers the sign → journal → withdraw sequence
// (withdrawal.Withdrawer.Execute).
type executedMsg struct{ withdrawal.Sent }

var reviewKeys = struct {
	Sign, Requote, Bridge, History key.Binding
}{
	Sign:    key.NewBinding(key.WithKeys("enter"), tui.WithHelp("enter", "sign and withdraw", "withdraw")),
	Requote: key.NewBinding(key.WithKeys("r"), key.WithHelp("r", "new quote")),
	Bridge:  key.NewBinding(key.WithKeys("c"), key.WithHelp("c", "review the changed bridge address")),
	History: key.NewBinding(key.WithKeys("h"), key.WithHelp("h", "resume it in History")),
}

// typingRequote replaces r for a new quote while the passphrase field has
// the focus, where r is a letter of the passphrase.
var typingRequote = key.NewBinding(key.WithKeys("ctrl+r"), key.WithHelp("ctrl+r", "new quote"))

// reviewScreen shows exactly what will be signed, signs it locally and executes the
// withdrawal: journal first (D11), then the request with the retries of D10.
type reviewScreen struct {
	app      *kit.App
	order    withdrawal.Order
	offset   time.Duration // server clock − local clock, from the quote screen
	setupErr error
	// bridge is the verdict on toAccount; nothing is signed until it is in
	// and clean (bridgeErr nil).
	bridge    *withdrawal.BridgeTrust
	bridgeErr error
	// repeat is the journal's identical withdrawals, from the same check:
	// one that got no answer stops the review (repeatStop), one accepted a
	// moment ago is a warning. repeatErr: the journal could not be read.
	// repeatSigned: the send found it, once this one was signed; a check
	// before signing (a fresh review, Prepare) clears it.
	repeat       withdrawal.Repeat
	repeatErr    error
	repeatSigned bool
	gate         kit.ReviewGate
	err          error
	refused      bool // finally refused (screening): signing again cannot help
	accepted     bool // the service took it: drawn until the status screen comes
	// loss is the second yes to a loss of most of the amount (askingLoss).
	loss  kit.SecondQuestion
	tag   tui.Tag // of this visit's countdown ticks
	wd, h int
	// A stop that lands mid-passphrase (review_stop.go): its hold, whether
	// the field was typed in since the last send, and whether the stop
	// cleared it.
	stopHold       kit.KeyHold
	typed, cleared bool
}

// newReview builds the Transfer message for a quote (withdrawal.NewOrder). The
// nonce and expiration are fixed here, so the digest on screen is the one
// that gets signed; the expiration is the quote's expiry plus
// withdrawal.TransferMargin.
func newReview(app *kit.App, w withdrawal.Choice, p withdrawal.PricedQuote) *reviewScreen {
	s, _ := app.Client().Session()
	r := &reviewScreen{app: app, offset: p.Offset}
	r.order, r.setupErr = withdrawal.NewOrder(w, p, s.FundingAccountAddress, app.Target.Env.Domain(), app.DrawNonce(), app.Common.Now())
	r.gate = kit.NewReviewGate(app, r.order.Transfer.FromAccount, r.keys)
	r.gate.Key.Stopped = r.stopped
	r.gate.Asked = r.askedLoss
	return r
}

func (r *reviewScreen) Init() tea.Cmd {
	r.tag = tui.NextTag()
	return r.gate.Start(r.tick(), r.checkBridge())
}

// Resume re-arms the countdown (its ticks were dropped while hidden),
// checks the bridge address again (the confirm screen may have changed its
// record) and looks for the key again: a search that landed while hidden
// was dropped, and the key found is part of the review. Until both land
// nothing signs, and the check's landing holds keys (an enter still waiting
// for its settling, kit.KeyHold, is dropped).
func (r *reviewScreen) Resume() tea.Cmd {
	r.tag = tui.NextTag()
	return tea.Batch(r.tick(), r.checkBridge(), r.gate.Key.Find())
}

// repeatStop says why the journal stops this withdrawal before signing, or
// nil: an identical one got no answer and may have been paid (it must be
// resumed from History first), or the journal cannot be read to tell.
func (r *reviewScreen) repeatStop() error {
	if r.repeatErr != nil {
		return r.repeatErr
	}
	if u := r.repeat.Unanswered; u != nil {
		ue := withdrawal.UnansweredError{Earlier: *u, Signed: r.repeatSigned}
		return exchange.UserError{Text: ue.Fact() +
			": resume it from History first, which sends the identical request (it cannot pay twice) or asks whether it arrived. " + safetext.Capitalized(ue.Unsent())}
	}
	return nil
}

func (r *reviewScreen) Title() string { return "Withdraw: review and sign" }

func (r *reviewScreen) SetSize(w, h int) { r.wd, r.h = w, h; r.gate.SetWidth(w) }

func (r *reviewScreen) KeyMap() help.KeyMap { return r.bindings().KeyMap() }

// bindings offer only what works now: nothing while keys are held (the
// guard) or the withdrawal is out,
// no signing once the quote expired, without a key, after a final refusal
// or when it cannot be signed at all (enter then says why, unless the
// screen already does).
func (r *reviewScreen) bindings() kit.Bindings {
	if r.accepted {
		return nil
	}
	_, whole := r.fitted() // drawn once for the three that ask: up to seven renders
	return r.gate.Held(r.keys(whole))
}

// keys are bindings with the guard aside, the review whole on screen or
// not: the gate's words of a key it dropped ask them too, of the review as
// it fits once keys are enabled (kit.ReviewGate.Fitted).
func (r *reviewScreen) keys(whole bool) kit.Bindings {
	if r.accepted {
		return nil
	}
	return append(append(r.lossBindings(whole),
		kit.Binding{Key: reviewKeys.Sign, On: r.canSign(whole) && !r.askedLoss(), Do: r.askingLoss(r.sign), Off: r.signOff(whole)},
		kit.Binding{Key: reviewKeys.Bridge, On: r.canConfirmBridge(), Do: func() tea.Cmd {
			var changed *withdrawal.BridgeChangedError
			errors.As(r.bridgeErr, &changed)
			return tui.Push(newBridgeConfirm(r.app, *changed))
		}},
		// Stopped by an unanswered identical withdrawal: straight to History,
		// where it is resumed.
		kit.Binding{Key: reviewKeys.History, On: r.repeat.Unanswered != nil && !r.gate.Sending && !r.stopHeld(), Do: func() tea.Cmd {
			return tea.Sequence(tui.Reset(r.app.Makers.Home(r.app)), tui.Push(r.app.Makers.History(r.app)))
		}},
		kit.Binding{Key: r.requoteKey(), On: r.requotes(), Do: func() tea.Cmd { return tui.Pop(r) }},
	), append(r.gate.Offline.Bindings(r.app, r.canPrepare(whole) && !r.askedLoss(), r.askingLoss(r.prepare)), r.gate.Bindings()...)...)
}

// signOff is enter while it does not sign: a new quote once expired, else
// sign's word of why not; none where it would do nothing (the screen says
// why: y or n answers, r gets a new quote, the screen is too small (not
// whole), no key here signs and o may prepare instead), so a hold never
// says enter acts there (Takes). While the key is looked up it does
// nothing yet, but acts once the search's own hold is over.
func (r *reviewScreen) signOff(whole bool) func() tea.Cmd {
	switch {
	case r.expired():
		return r.backToQuote
	case r.askedLoss() || r.gate.Sending || r.signable() || r.gate.Offline.Done() || r.gate.Offline.Preparing ||
		r.setupErr == nil && (!whole || r.refused || r.repeatStop() != nil || r.gate.Key.Found && !r.gate.Key.Usable()):
		return nil
	case r.setupErr == nil && !r.gate.Key.Found:
		return func() tea.Cmd { return nil }
	}
	return r.sign
}

// requotes: the key for a new quote acts, keys held by the guard aside
// (ReviewGate.Held).
func (r *reviewScreen) requotes() bool {
	return !r.gate.Sending && !r.gate.Offline.Preparing && !r.stopHeld()
}

// requoteKey is r, or ctrl+r while the passphrase field takes r as text.
func (r *reviewScreen) requoteKey() key.Binding {
	if r.gate.Key.Typing() {
		return typingRequote
	}
	return reviewKeys.Requote
}

// canSign: enter would sign now (the keystroke guard aside): everything the
// user confirms is on screen (whole, as fitted says).
func (r *reviewScreen) canSign(whole bool) bool {
	return r.signable() && whole
}

// signable: nothing but the screen's size could keep enter from signing.
func (r *reviewScreen) signable() bool {
	return r.sound() && !r.gate.Sending && r.gate.Key.Usable() && !r.gate.Offline.Done() && !r.gate.Offline.Preparing
}

// sound: the review found nothing that stops this quote's Transfer, signed
// here or prepared for signing elsewhere.
func (r *reviewScreen) sound() bool {
	return !r.stopped() && r.bridge != nil && !r.expired() && !r.accepted
}

// stopped: the review found what keeps this quote from being signed
// whatever the user types; an expiry is not one, it comes mid-passphrase.
func (r *reviewScreen) stopped() bool {
	return r.setupErr != nil || r.bridgeErr != nil || r.repeatStop() != nil || r.refused
}

// canConfirmBridge: a recorded (not pinned) bridge address changed, and the
// user may review the change on its own screen.
func (r *reviewScreen) canConfirmBridge() bool {
	var changed *withdrawal.BridgeChangedError
	return errors.As(r.bridgeErr, &changed) && !changed.Pinned && !r.gate.Sending && !r.stopHeld()
}

// priced is the quote reviewed, with the service's clock offset.
func (r *reviewScreen) priced() withdrawal.PricedQuote {
	return withdrawal.PricedQuote{Quote: r.order.Quote, Offset: r.offset}
}

// remaining is the quote's time left by the service's clock.
func (r *reviewScreen) remaining() time.Duration { return r.priced().Remaining(r.app.Common.Now()) }

// expired: the quote may no longer be signed (withdrawal.MayStillSign).
func (r *reviewScreen) expired() bool { return !r.priced().MayStillSign(r.app.Common.Now()) }

// tick schedules the next countdown redraw, on the next whole second of time
// left, so the margin is seen when it comes; nothing ticks once the quote
// may no longer be signed or when there is nothing to sign.
func (r *reviewScreen) tick() tea.Cmd {
	if r.expired() || r.setupErr != nil {
		return nil
	}
	return r.app.After(kit.NextSecond(r.remaining()), countdownMsg{tag: r.tag})
}

// backToQuote leaves a review whose quote may no longer be signed for the
// quote screen, which takes a fresh one and says why; not while something
// is being signed, sent or prepared, nor once a Transfer was prepared.
func (r *reviewScreen) backToQuote() tea.Cmd {
	if r.gate.Sending || r.gate.Offline.Preparing || r.gate.Offline.Done() || r.setupErr != nil {
		return nil
	}
	return tui.Pop(r) // once: a tick and enter at the margin go back together
}

// Busy: while the withdraw is in flight, or the Transfer is being prepared
// for offline signing, quitting asks and Esc is held (the answer must find
// this screen).
func (r *reviewScreen) Busy() string {
	return r.gate.Busy(kit.SubmittingWithdrawal(r.app), "The withdrawal")
}

// Inputting also while a stop's keys are held: the q and ? of a passphrase
// typed on come here (Update swallows them), never quit nor open the help.
func (r *reviewScreen) Inputting() bool { return r.gate.Inputting() || r.stopHeld() }

// HoldsKeys: esc is held with the review's keys (tui.Holding).
func (r *reviewScreen) HoldsKeys() bool { return r.gate.HoldsKeys() }

// Asks: enter signs here (tui.Asking).
func (r *reviewScreen) Asks() bool { return true }

// update is Update but for a stop landing mid-passphrase (Update).
func (r *reviewScreen) update(msg tea.Msg) (tui.Screen, tea.Cmd) {
	msg, cmd := r.gate.Update(msg)
	if msg == nil {
		return r, cmd
	}
	if err, handled := r.gate.Offline.Update(r.app, msg); handled {
		if u := withdrawal.AsUnanswered(err); u != nil {
			r.repeat.Unanswered, r.repeatSigned = &u.Earlier, false // Prepare saw it since the review looked
		} else {
			r.err = err
		}
		return r, nil
	}
	switch msg := msg.(type) {
	case countdownMsg:
		if msg.tag != r.tag {
			return r, nil
		}
		if r.expired() {
			return r, r.backToQuote()
		}
		return r, r.tick()
	case executedMsg:
		return r, r.executed(msg)
	case bridgeCheckedMsg:
		if msg.tag != r.tag {
			return r, nil // an earlier visit's, or another review's
		}
		r.bridgeErr = msg.err
		if msg.err == nil {
			r.bridge = &msg.trust
		}
		r.repeat, r.repeatErr, r.repeatSigned = msg.repeat, msg.repeatErr, false
		// What it says is part of the review: keys are held for the whole
		// guard from when it lands, so a held enter never signs it unseen.
		return r, r.gate.Guard()
	case tea.KeyPressMsg:
		if cmd, ok := r.bindings().Handle(msg); ok {
			return r, cmd
		}
	}
	return r, r.gate.Key.Update(msg)
}

// sign signs the Transfer and executes the withdrawal in one Cmd.
func (r *reviewScreen) sign() tea.Cmd {
	if r.setupErr != nil {
		return tui.ShowError(r.setupErr)
	}
	if r.bridge == nil || r.bridgeErr != nil || r.repeatStop() != nil {
		return nil // the screen says why; nothing is signed
	}
	if err := r.gate.Key.Ready(); err != nil {
		r.err = err
		return nil
	}
	if r.expired() {
		return r.backToQuote() // never signed past its margin
	}
	r.err = nil
	load, withdrawer, order, waits := r.gate.Key.Loader(), r.app.Withdrawer(), r.order, r.gate.Key.Waits()
	return r.gate.SendSigned(endWords(r.app, order, waits), load, func(load func() (signer.Key, error)) tea.Msg {
		// Not cancelled when the screen is left: an answer must be journaled.
		// A key that waits for a person is bounded by its own wait (esc
		// cancels it); Execute bounds the send by WithdrawTimeout.
		cx := context.Background()
		if !waits {
			var cancel context.CancelFunc
			cx, cancel = context.WithTimeout(cx, exchange.WithdrawTimeout)
			defer cancel()
		}
		return executedMsg{withdrawer.Execute(cx, order, load)}
	})
}

// executed moves on to following the withdrawal, or explains the refusal.
func (r *reviewScreen) executed(msg executedMsg) tea.Cmd {
	r.gate.Sent()
	_, ended := errors.AsType[*exchange.SessionEndedError](msg.Err)
	switch {
	case msg.Err == nil:
		r.accepted = true
		// Follow the quote id that was sent, never the one echoed back: a
		// fresh quote when the signature outlived the reviewed one.
		sent := r.order
		if msg.Order.Quote.QuoteID != "" {
			sent = msg.Order
		}
		said := tui.ShowInfo(fmt.Sprintf("Withdrawal accepted: %s %s on its way", sent.Quote.ReceiveAmount, sent.Choice.TokenOut))
		if u := msg.Unrecorded; u != nil {
			said = tui.ShowError(exchange.UserError{Text: "Withdrawal accepted, but " + u.Error() + ": resume it from History once the disk has room", Cause: u})
		}
		return tea.Sequence(tui.Reset(r.app.Makers.Home(r.app)), tui.Push(r.app.Makers.Status(r.app, sent.Quote.QuoteID)), said)
	case msg.Lost != nil && ended:
		// Nothing can be asked without a session: the journal holds the
		// request unanswered, and History offers it once logged in again.
		return r.app.SessionEnded(exchange.Worded(msg.Err, "No clear answer from the service before the session ended: the withdrawal is saved; log in again, then take it up from History (it cannot be paid twice)"))
	case msg.Lost != nil:
		// This quote must never be signed again with another nonce: the
		// journaled request may have executed. The resume screen re-sends it
		// identically or asks the service, and this review is left behind.
		said := exchange.UserError{Text: "No clear answer from the service: the withdrawal is saved and is being checked; it cannot be paid twice"}
		if msg.Answered() {
			said = exchange.UserError{Text: strings.TrimSuffix(exchange.Explain(msg.Err).Error(), ".") + "; the withdrawal is saved and is being checked", Cause: msg.Err}
		}
		return tea.Sequence(tui.Reset(r.app.Makers.Home(r.app)), tui.Push(r.app.Makers.Resume(r.app, *msg.Lost)), tui.ShowError(said))
	case msg.Unrecorded != nil:
		r.err = exchange.UserError{Text: exchange.Explain(msg.Err).Error() + "; but " + msg.Unrecorded.Error() + ": resume it from History once the disk has room", Cause: msg.Err}
	case ended:
		// Refused for the session, or never sent without one: journaled,
		// nothing paid; a new quote is asked once logged in again.
		return r.app.SessionEnded(msg.Err)
	case withdrawal.AsUnanswered(msg.Err) != nil:
		// Another console or command got no answer since the review
		// looked: the screen stops as if it had seen it.
		ue := withdrawal.AsUnanswered(msg.Err)
		r.repeat.Unanswered, r.repeatSigned = &ue.Earlier, ue.Signed
	case errors.As(msg.Err, new(*journal.RolledBackError)):
		// Found once answered (every byte summed): enter is refused alike.
		r.repeatErr = kit.JournalLost(msg.Err, r.app.Command("doctor"))
	case errors.Is(msg.Err, exchange.ErrQuoteExpired):
		r.err = lateQuoteError{}
	case errors.As(msg.Err, new(*withdrawal.BridgeChangedError)):
		// Recorded by another console since the review checked it: the
		// screen stops as if it had seen the change, and offers c.
		r.bridgeErr = msg.Err
	default:
		r.err = exchange.Explain(msg.Err)
		// Screening looks at the destination, not the signature, and a quote
		// id the journal holds stays held: signing this quote again is
		// refused the same way. A used nonce says its Transfer most likely
		// paid: signing again would pay twice.
		r.refused = errors.Is(msg.Err, exchange.CodeAddressFlagged) || errors.As(msg.Err, new(*withdrawal.QuoteIDUsedError)) ||
			withdrawal.NonceUsed(msg.Err)
	}
	// The review shows again with why: an enter held through the send, or
	// pressed twice, must not sign again before that is read.
	return r.gate.Guard()
}
