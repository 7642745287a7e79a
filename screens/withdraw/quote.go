package withdraw

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/spinner"
	tea "charm.land/bubbletea/v2"

	"github.com/svcwallet/svcwallet/screens/kit"
	"github.com/svcwallet/svcwallet/screens/kit/layout"
	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/withdrawal"
	"github.com/svcwallet/svcwallet/tui"
)

// quoteMsg answers a quote request, with the server's clock offset measured
// alongside so the countdown follows the service's idea of now.
type quoteMsg struct {
	seq    int
	quote  exchange.Quote
	offset time.Duration // server time − local time
	err    error
}

// countdownMsg redraws the countdown once a second while the quote is valid.
type countdownMsg struct{ tag tui.Tag }

var quoteKeys = struct {
	Confirm, Requote key.Binding
}{
	Confirm: key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "review and sign")),
	Requote: key.NewBinding(key.WithKeys("r"), key.WithHelp("r", "new quote")),
}

// quoteScreen is the third withdrawal step: the locked price and a countdown to
// expires_at. An expired quote cannot be confirmed; r asks for a new one.
type quoteScreen struct {
	kit.Visit // its calls end when it is left
	app       *kit.App
	w         withdrawal.Choice
	quote     exchange.Quote
	offset    time.Duration
	ttl       time.Duration // lifetime at the moment the quote was received
	seq       int
	loading   bool
	err       error
	amountErr bool // err refuses the amount (too small, too high, a limit)
	tag       tui.Tag
	spin      spinner.Model
	wd, h     int
}

// newQuote builds the quote step and asks for the first quote.
func newQuote(app *kit.App, w withdrawal.Choice) *quoteScreen {
	return &quoteScreen{app: app, w: w, spin: spinner.New(spinner.WithSpinner(spinner.Dot))}
}

func (q *quoteScreen) Init() tea.Cmd {
	q.tag = tui.NextTag()
	return q.requote()
}

// Resume re-arms the countdown after the review screen was left, and asks for
// a new quote when the old one ran out meanwhile.
func (q *quoteScreen) Resume() tea.Cmd {
	q.tag = tui.NextTag()
	if q.loading || q.remaining() <= 0 {
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
		{Key: quoteKeys.Confirm, On: !q.loading && q.refusal() == "" && q.remaining() > 0, Do: q.confirm, Off: q.confirm},
		{Key: quoteKeys.Requote, On: !q.loading, Do: q.requote},
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
	return q.w.QuoteRefusal(q.quote)
}

func (q *quoteScreen) requote() tea.Cmd {
	q.loading, q.err = true, nil
	q.seq++
	seq, client, w, parent := q.seq, q.app.Client(), q.w, q.Context(q.app)
	req := w.QuoteRequest()
	return tea.Batch(q.spin.Tick, func() tea.Msg {
		cx, cancel := kit.Call(parent)
		defer cancel()
		// The countdown and the signature's expiry use this offset.
		clock, err := client.MeasureClock(cx)
		if err == nil {
			err = clock.CheckSkew()
		}
		if err != nil {
			return quoteMsg{seq: seq, err: err}
		}
		quote, err := client.Quote(cx, req)
		return quoteMsg{seq: seq, quote: quote, offset: clock.Offset, err: err}
	})
}

func (q *quoteScreen) tick() tea.Cmd {
	tag := q.tag
	return tea.Tick(time.Second, func(time.Time) tea.Msg { return countdownMsg{tag: tag} })
}

// priced is the quote in hand with the clock offset measured with it.
func (q *quoteScreen) priced() withdrawal.PricedQuote {
	return withdrawal.PricedQuote{Quote: q.quote, Offset: q.offset}
}

// remaining is the quote's time left by the server's clock.
func (q *quoteScreen) remaining() time.Duration { return q.priced().Remaining(q.app.Common.Now()) }

func (q *quoteScreen) Update(msg tea.Msg) (tui.Screen, tea.Cmd) {
	switch msg := msg.(type) {
	case quoteMsg:
		if msg.seq != q.seq {
			return q, nil
		}
		q.loading = false
		q.err = exchange.Explain(msg.err)
		q.amountErr = false
		for _, c := range []exchange.Code{exchange.CodeBelowFee, exchange.CodeLimitReached, exchange.CodeDailyLimit, exchange.CodeInsufficientBalance} {
			q.amountErr = q.amountErr || errors.Is(msg.err, c)
		}
		if msg.err != nil {
			q.quote = exchange.Quote{}
			return q, nil
		}
		q.quote, q.offset = msg.quote, msg.offset
		q.ttl = q.remaining()
		q.tag = tui.NextTag()
		return q, q.tick()
	case countdownMsg:
		if msg.tag != q.tag || q.remaining() <= 0 {
			return q, nil
		}
		return q, q.tick()
	case spinner.TickMsg:
		if !q.loading {
			return q, nil
		}
		var cmd tea.Cmd
		q.spin, cmd = q.spin.Update(msg)
		return q, cmd
	case tea.KeyPressMsg:
		cmd, _ := q.bindings().Handle(msg)
		return q, cmd
	}
	return q, nil
}

// confirm opens the review of what will be signed, if the quote still holds.
func (q *quoteScreen) confirm() tea.Cmd {
	switch {
	case q.loading || q.quote.QuoteID == "":
		return nil
	case q.remaining() <= 0:
		return tui.ShowError(exchange.UserError{Text: "Quote expired: press r to get a new one"})
	}
	if refusal := q.w.QuoteRefusal(q.quote); refusal != "" {
		next := "press r for a new quote"
		if q.quote.PayAmount.Equal(q.w.Amount) { // the fee is over the cap
			next = "press r to re-quote later, or go back and raise the cap"
		}
		return tui.ShowError(exchange.UserError{Text: capitalized(refusal) + ": " + next})
	}
	return tui.Push(newReview(q.app, q.w, q.priced()))
}

func (q *quoteScreen) View() string {
	c := q.app.Common
	st := c.Styles
	const lw = 16
	var b strings.Builder
	b.WriteString(layout.Field(c, "Route", lw, st.Value.Render(q.w.TokenIn+" → "+q.w.TokenOut+" on "+q.w.Route.Chain)) + "\n")
	b.WriteString(layout.Field(c, "Destination", lw, st.Value.Render(q.w.ToAddress)) + "\n\n")
	switch {
	case q.loading:
		b.WriteString(q.spin.View() + " Asking the bridge for a quote…\n")
		return layout.Clip(b.String(), q.wd)
	case q.err != nil:
		b.WriteString(layout.ErrorBlock(c, "Quote refused", q.err, q.wd) + "\n")
		b.WriteString(st.Muted.Render("Press r to try again, or esc to change the amount or destination.") + "\n")
		return layout.Clip(b.String(), q.wd)
	}
	qt := q.quote
	b.WriteString(layout.Field(c, "You pay", lw, st.Danger.Render(qt.PayAmount.String()+" "+q.w.TokenIn)) + st.Muted.Render("  from the funding account") + "\n")
	b.WriteString(layout.Field(c, "You receive", lw, st.Value.Render(qt.ReceiveAmount.String()+" "+q.w.TokenOut)) + st.Muted.Render("  on "+q.w.Route.Chain) + "\n")
	b.WriteString(layout.Field(c, "Bridge fee", lw, st.Value.Render(qt.Fee.String()+" "+q.w.TokenIn)) + st.Muted.Render("  ≈ "+qt.FeeUSD.String()+" USD") + "\n")
	lost := st.Value.Render(qt.Cost().String() + " " + q.w.TokenIn)
	if l := withdrawal.QuoteLoss(qt); l.High() {
		lost = st.Warning.Render(qt.Cost().String() + " " + q.w.TokenIn + " (" + l.Percent().String() + "%)")
	}
	b.WriteString(layout.Field(c, "You lose", lw, lost) + st.Muted.Render("  pay − receive, the fee included") + "\n")
	speed := st.Value.Render(withdrawal.SpeedWords(qt.Speed))
	if qt.Speed == exchange.SpeedSlow {
		speed = st.Warning.Render(withdrawal.SpeedWords(qt.Speed))
	}
	b.WriteString(layout.Field(c, "Speed", lw, speed) + "\n")
	b.WriteString(layout.Field(c, "Quote id", lw, st.Muted.Render(qt.QuoteID)) + "\n\n")
	if warn := lossWords(withdrawal.Order{Choice: q.w, Quote: qt}); warn != "" {
		if withdrawal.QuoteLoss(qt).Severe() {
			warn += " The review asks you to confirm it a second time."
		}
		b.WriteString(st.Warning.Render(layout.WrapTo(warn, q.wd)) + "\n\n")
	}
	refused := q.refusal()
	if refused != "" {
		b.WriteString(st.Warning.Render(layout.WrapTo("Refused: "+refused+".", q.wd)) + "\n\n")
	}
	left := q.remaining()
	if left <= 0 {
		b.WriteString(st.ErrorToast.Render("Quote expired: press r to get a new one") + "\n")
		return layout.Clip(b.String(), q.wd)
	}
	secs := int((left + time.Second - 1) / time.Second)
	b.WriteString(layout.Field(c, "Expires in", lw, st.Value.Render(fmt.Sprintf("%ds", secs))+"  "+q.bar(left, max(min(q.wd-lw-12, 40), 10))) + "\n\n")
	if refused != "" {
		b.WriteString(st.Muted.Render(layout.WrapTo("Press r for a new quote, or esc to change the amount, destination or fee cap.", q.wd)) + "\n")
		return layout.Clip(b.String(), q.wd)
	}
	b.WriteString(st.Muted.Render("Press enter to review exactly what will be signed.") + "\n")
	return layout.Clip(b.String(), q.wd)
}

// capitalized starts an ASCII sentence with a capital letter.
func capitalized(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
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
