package withdraw

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/spinner"
	tea "charm.land/bubbletea/v2"

	"github.com/svcwallet/svcwallet/internal/safetext"
	"github.com/svcwallet/svcwallet/screens/kit"
	"github.com/svcwallet/svcwallet/screens/kit/layout"
	"github.com/svcwallet/svcwallet/service/config"
	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/intent"
	"github.com/svcwallet/svcwallet/service/withdrawal"
	"github.com/svcwallet/svcwallet/tui"
)

// quoteMsg answers a quote request (withdrawal.TakeQuote): the quote with
// the service's clock offset measured alongside, so the countdown follows
// the service's idea of now.
type quoteMsg struct {
	seq   int
	quote withdrawal.PricedQuote
	err   error
}

// settledMsg redraws the quote screen when a quote that came by itself
// starts taking keys (settling).
type settledMsg struct{ tag tui.Tag }

// countdownMsg redraws the countdown once a second while the quote may be
// signed, and asks for a fresh one at its margin.
type countdownMsg struct{ tag tui.Tag }

// requoteIdle is how long after the last key the quote screen stops asking
// for fresh quotes by itself, so an unattended console does not spend the
// request budget; r asks again.
const requoteIdle = 3 * time.Minute

var quoteKeys = struct {
	Confirm, Requote key.Binding
}{
	Confirm: key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "review and sign")),
	Requote: key.NewBinding(key.WithKeys("r"), key.WithHelp("r", "new quote")),
}

// quoteScreen is the third withdrawal step: the locked price and a countdown
// to expires_at. When the countdown reaches the margin a quote may still be
// signed with (withdrawal.MayStillSign), it asks for a fresh quote by
// itself and marks what changed until the next key; after requoteIdle
// without a key it stops, and r asks.
type quoteScreen struct {
	kit.Visit // its calls end when it is left
	app       *kit.App
	w         withdrawal.Choice
	quote     withdrawal.PricedQuote
	ttl       time.Duration // lifetime at the moment the quote was received
	seq       int
	loading   bool
	err       error
	amountErr bool // err refuses the amount (too small, too high, a limit)
	notInBook bool // err refuses the destination: a new quote alone cannot help
	tag       tui.Tag
	spin      spinner.Model
	// was is the quote a fresh one replaced by itself: what changed is
	// marked until the next key. why says why the screen asked for it.
	was *exchange.Quote
	why string
	// shown is when the quote in hand arrived: one that came by itself
	// takes no key for a moment (settling).
	shown time.Time
	// touched is the last key (or the screen's opening); stopped: fresh
	// quotes are no longer asked by themselves (requoteIdle).
	touched time.Time
	stopped bool
	wd, h   int
}

// newQuote builds the quote step and asks for the first quote.
func newQuote(app *kit.App, w withdrawal.Choice) *quoteScreen {
	return &quoteScreen{app: app, w: w, spin: spinner.New(spinner.WithSpinner(spinner.Dot))}
}

func (q *quoteScreen) Init() tea.Cmd {
	q.tag, q.touched = tui.NextTag(), q.app.Common.Now()
	return q.requote()
}

// Resume re-arms the countdown after the review screen was left, and asks for
// a new quote when the old one may no longer be signed: the review goes back
// here for that, and it is said.
func (q *quoteScreen) Resume() tea.Cmd {
	q.tag, q.touched = tui.NextTag(), q.app.Common.Now()
	if q.loading || !q.quote.MayStillSign(q.touched) {
		if q.quote.QuoteID != "" {
			q.why = fmt.Sprintf("Quote %s had %s or less left, too little to sign and send it: here is a fresh one to review.", q.quote.QuoteID, withdrawal.RequoteMargin)
		}
		return q.requote()
	}
	return q.tick()
}

func (q *quoteScreen) Title() string { return "Withdraw: quote" }

func (q *quoteScreen) SetSize(w, h int) { q.wd, q.h = w, h }

func (q *quoteScreen) KeyMap() help.KeyMap { return q.bindings().KeyMap() }

// bindings: enter while the quote in hand can be signed (pressed otherwise
// it says why), r whenever no quote is being asked for.
func (q *quoteScreen) bindings() kit.Bindings {
	return kit.Bindings{
		{Key: quoteKeys.Confirm, On: !q.loading && !q.settling() && q.refusal() == "" && q.signable(), Do: q.confirm, Off: q.confirm},
		{Key: quoteKeys.Requote, On: !q.loading && !q.settling(), Do: q.requote},
	}
}

// refusal says why the quote in hand cannot be reviewed (apart from running
// out): none yet, the service refused it, it pays another amount, or its fee
// is above the cap. Empty when it can.
func (q *quoteScreen) refusal() string {
	switch {
	case q.err != nil:
		return q.err.Error()
	case q.quote.QuoteID == "":
		return "no quote yet"
	}
	return q.w.QuoteRefusal(q.quote.Quote)
}

// requote asks for a fresh quote: the one quote step of every face.
func (q *quoteScreen) requote() tea.Cmd {
	q.loading, q.err, q.stopped = true, nil, false
	q.seq++
	seq, client, w, parent := q.seq, q.app.Client(), q.w, q.Context(q.app)
	return tea.Batch(q.spin.Tick, func() tea.Msg {
		cx, cancel := kit.Call(parent)
		defer cancel()
		p, err := withdrawal.TakeQuote(cx, client, w)
		if errors.As(err, new(*withdrawal.QuoteRefusedError)) {
			err = nil // shown with its refusal (refusal)
		}
		return quoteMsg{seq: seq, quote: p, err: err}
	})
}

// settling: a quote that replaced the one on screen by itself (was, why)
// takes no key for kit.KeyGuard after it shows, so a key meant for the one
// before (enter as the review left at its margin) neither opens this one's
// review nor hides why it came.
func (q *quoteScreen) settling() bool {
	return (q.was != nil || q.why != "") && q.app.Common.Now().Before(q.settled())
}

// settled is when a quote that came by itself takes keys (settling).
func (q *quoteScreen) settled() time.Time { return q.shown.Add(kit.KeyGuard) }

// tick redraws the countdown on its next whole second.
func (q *quoteScreen) tick() tea.Cmd {
	return q.app.After(kit.NextSecond(q.remaining()), countdownMsg{tag: q.tag})
}

// remaining is the quote's time left by the server's clock.
func (q *quoteScreen) remaining() time.Duration { return q.quote.Remaining(q.app.Common.Now()) }

// signable: the quote in hand may still be signed (withdrawal.MayStillSign).
func (q *quoteScreen) signable() bool { return q.quote.MayStillSign(q.app.Common.Now()) }

func (q *quoteScreen) Update(msg tea.Msg) (tui.Screen, tea.Cmd) {
	switch msg := msg.(type) {
	case quoteMsg:
		if msg.seq != q.seq {
			return q, nil
		}
		q.loading = false
		if ended := q.app.SessionEnded(msg.err); ended != nil {
			return q, ended
		}
		q.err = exchange.Explain(msg.err)
		q.amountErr, q.notInBook = false, errors.Is(msg.err, exchange.CodeNotInAddressBook)
		if q.notInBook && q.app.Target.Demo != nil {
			q.err = exchange.Worded(msg.err, config.SandboxBookWords)
		}
		for _, c := range []exchange.Code{exchange.CodeBelowFee, exchange.CodeLimitReached, exchange.CodeDailyLimit, exchange.CodeInsufficientBalance} {
			q.amountErr = q.amountErr || errors.Is(msg.err, c)
		}
		if msg.err != nil {
			q.quote, q.was = withdrawal.PricedQuote{}, nil
			return q, nil
		}
		q.quote, q.shown = msg.quote, q.app.Common.Now()
		q.ttl = q.remaining()
		q.tag = tui.NextTag()
		if q.settling() {
			return q, tea.Batch(q.tick(), q.app.After(kit.KeyGuard, settledMsg{tag: q.tag}))
		}
		return q, q.tick()
	case settledMsg:
		return q, nil // only redraws: the keys are back
	case countdownMsg:
		if msg.tag != q.tag || q.loading || q.quote.QuoteID == "" {
			return q, nil
		}
		switch {
		case q.signable():
			return q, q.tick()
		case q.ttl <= withdrawal.RequoteMargin:
			return q, nil // a quote that came too short: asking again by itself would loop
		case q.app.Common.Now().Sub(q.touched) >= requoteIdle:
			// Nobody has pressed a key for a while: no more quotes by itself.
			q.stopped = true
			return q, nil
		}
		was := q.quote.Quote
		cmd := q.requote()
		q.was = &was
		return q, cmd
	case spinner.TickMsg:
		return q, kit.SpinWhile(&q.spin, msg, q.loading)
	case tea.KeyPressMsg:
		q.touched = q.app.Common.Now()
		if q.loading || q.settling() {
			// Nothing acts while a quote is asked for or has just come by
			// itself, and why it came has not been read yet: a key meant
			// for the review just left must not hide it.
			return q, nil
		}
		q.was, q.why = nil, ""
		cmd, _ := q.bindings().Handle(msg)
		return q, cmd
	}
	return q, nil
}

// confirm opens the review of what will be signed, if the quote still may be.
func (q *quoteScreen) confirm() tea.Cmd {
	switch {
	case q.loading || q.quote.QuoteID == "":
		return nil
	case !q.signable():
		return tui.ShowError(exchange.UserError{Text: q.ranOut()})
	}
	if refusal := q.refusal(); refusal != "" {
		next := "press r for a new quote"
		if q.quote.PayAmount.Equal(q.w.Amount) { // the fee is over the cap
			next = "press r to re-quote later, or go back and raise the cap"
		}
		return tui.ShowError(exchange.UserError{Text: safetext.Capitalized(refusal) + ": " + next})
	}
	return tui.Push(newReview(q.app, q.w, q.quote))
}

// ranOut says that the quote in hand may no longer be signed, and what r does.
func (q *quoteScreen) ranOut() string {
	if q.stopped {
		return fmt.Sprintf("No fresh quote was asked for after %d minutes without a key: press r for a new quote", int(requoteIdle.Minutes()))
	}
	return "Quote expired: press r to get a new one"
}

// View draws the quote; where that is taller than the screen, without
// the facts' notes and details (the route and the quote's id) and the gap
// under the countdown, so the countdown and what enter does stay on
// screen.
func (q *quoteScreen) View() string {
	out := q.draw(false)
	if q.h > 0 && strings.Count(out, "\n")+1 > q.h { // Clip ends on no newline
		return q.draw(true)
	}
	return out
}

func (q *quoteScreen) draw(short bool) string {
	c := q.app.Common
	st := c.Styles
	const lw = 16
	var b strings.Builder
	switch {
	case q.loading || q.err != nil:
		b.WriteString(q.facts(q.w.Facts(), nil, short) + "\n")
	}
	switch {
	case q.loading:
		b.WriteString(q.spin.View() + " Asking the bridge for a quote…\n")
		return layout.Clip(b.String(), q.wd)
	case q.err != nil:
		b.WriteString(layout.ErrorBlock(c, "Quote refused", q.err, q.wd) + "\n")
		next := "Press r to try again, or esc to change the amount or destination."
		switch {
		case q.notInBook && q.app.Target.Demo != nil:
			next = "Press esc to choose another destination: ctrl+r there fills in the sandbox's address book."
		case q.notInBook:
			next = "Press esc to choose another destination, or r to ask again once it is in the address book."
		}
		b.WriteString(st.Muted.Render(layout.WrapTo(next, q.wd)) + "\n")
		return layout.Clip(b.String(), q.wd)
	}
	qt := q.quote.Quote
	switch {
	case q.stopped: // the screen says why no fresh quote came
	case q.why != "":
		b.WriteString(st.Warning.Render(layout.WrapTo(q.why, q.wd)) + "\n\n")
	case q.was != nil:
		what := "the amounts are as they were."
		if w := q.was; !w.ReceiveAmount.Equal(qt.ReceiveAmount) || !w.Fee.Equal(qt.Fee) || !w.Cost().Equal(qt.Cost()) {
			what = "what changed is marked ◆."
		}
		b.WriteString(st.Warning.Render(layout.WrapTo("A fresh quote: the last one reached its last "+withdrawal.RequoteMargin.String()+"; "+what, q.wd)) + "\n\n")
	}
	var was []intent.Fact
	if q.was != nil {
		was = withdrawal.Order{Choice: q.w, Quote: *q.was}.Facts()
	}
	b.WriteString(q.facts(withdrawal.Order{Choice: q.w, Quote: qt}.Facts(), was, short) + "\n")
	if warn := lossWords(withdrawal.Order{Choice: q.w, Quote: qt}); warn != "" {
		if (withdrawal.Order{Choice: q.w, Quote: qt}).Loss().Severe() {
			warn += " The review asks you to confirm it a second time."
		}
		b.WriteString(st.Warning.Render(layout.WrapTo(warn, q.wd)) + "\n\n")
	}
	refused := q.refusal()
	if refused != "" {
		b.WriteString(st.Warning.Render(layout.WrapTo("Refused: "+refused+".", q.wd)) + "\n\n")
	}
	left := q.remaining()
	if !q.signable() {
		b.WriteString(st.ErrorToast.Render(layout.WrapTo(q.ranOut(), q.wd)) + "\n")
		return layout.Clip(b.String(), q.wd)
	}
	secs := int((left + time.Second - 1) / time.Second)
	b.WriteString(layout.Field(c, "Expires in", lw, st.Value.Render(fmt.Sprintf("%ds", secs))+"  "+q.bar(left, max(min(q.wd-lw-12, 40), 10))) + "\n")
	if !short {
		b.WriteString("\n")
	}
	if q.settling() { // r is off too: a fresh quote refused names it once it acts
		b.WriteString(st.Muted.Render("Read the fresh quote; "+kit.KeysEnabledIn(q.settled().Sub(c.Now()))+".") + "\n")
		return layout.Clip(b.String(), q.wd)
	}
	if refused != "" {
		b.WriteString(st.Muted.Render(layout.WrapTo("Press r for a new quote, or esc to change the amount, destination or fee cap.", q.wd)) + "\n")
		return layout.Clip(b.String(), q.wd)
	}
	b.WriteString(st.Muted.Render("Press enter to review exactly what will be signed.") + "\n")
	return layout.Clip(b.String(), q.wd)
}

// facts draws the withdrawal's facts (withdrawal.Order.Facts, the
// review's), each with its note, or short: without notes and details;
// after a fresh quote replaced one by itself, a value that differs from
// the one in was (its facts) is marked with what it was.
func (q *quoteScreen) facts(facts, was []intent.Fact, short bool) string {
	c := q.app.Common
	var b strings.Builder
	for _, f := range facts {
		if short && f.Mark == intent.Detail {
			continue
		}
		value, note := kit.FactValue(c, f), f.Note
		if short {
			note = ""
		}
		// A new quote has a new id: that is no change to mark.
		if i := slices.IndexFunc(was, func(w intent.Fact) bool { return w.Label == f.Label }); i >= 0 && was[i].Value != f.Value && was[i].Value != q.was.QuoteID {
			value, note = value+c.Styles.Warning.Render("  ◆ was "+was[i].Value), ""
		}
		b.WriteString(layout.WrapField(c, f.Label, 16, value, note, q.wd) + "\n")
	}
	return b.String()
}

// bar draws the time left as a progress bar of width w.
func (q *quoteScreen) bar(left time.Duration, w int) string {
	st := q.app.Common.Styles
	filled := w
	if q.ttl > 0 {
		filled = int(int64(w) * int64(left) / int64(q.ttl))
	}
	filled = max(min(filled, w), 0)
	return st.ProgressFilled.Render(strings.Repeat("█", filled)) + st.ProgressEmpty.Render(strings.Repeat("░", w-filled))
}
