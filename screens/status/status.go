// Package status follows one withdrawal: its status looked up, followed,
// or resumed from the journal (a request that got no answer settled with
// the service).
package status

import (
	"math/rand/v2"
	"time"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/svcwallet/svcwallet/screens/kit"
	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/follow"
	"github.com/svcwallet/svcwallet/service/journal"
	"github.com/svcwallet/svcwallet/service/withdrawal"
	"github.com/svcwallet/svcwallet/tui"
)

// statusMsg answers one withdrawal-status request of the visit tag.
type statusMsg struct {
	tag tui.Tag
	w   exchange.Withdrawal
	err error
	// journal holds the quote's journal lines when they were read with this
	// request (the first one of an own withdrawal); seeded tells.
	journal []journal.Entry
	seeded  bool
}

// pollMsg is the poll timer of the visit tag firing.
type pollMsg struct{ tag tui.Tag }

// countdownMsg redraws the rate limit's countdown, for the visit tag.
type countdownMsg struct{ tag tui.Tag }

// settleMsg is what settling a resumed unanswered withdrawal came to
// (withdrawal.Withdrawer.Settle); what it learned is journaled already.
type settleMsg struct {
	withdrawal.Settled
	tag     tui.Tag
	journal []journal.Entry
	seeded  bool
}

// settleAgainMsg settles the unanswered withdrawal of the visit tag again,
// once the service's clock can tell whether it arrived.
type settleAgainMsg struct{ tag tui.Tag }

var statusKeys = struct {
	Refresh, Copy, CopyQuote, CopyTx, CopyTo, Open key.Binding
}{
	Refresh:   key.NewBinding(key.WithKeys("r"), key.WithHelp("r", "refresh now")),
	Copy:      key.NewBinding(key.WithKeys("c"), key.WithHelp("c", "copy payout hash")),
	CopyQuote: key.NewBinding(key.WithKeys("i"), key.WithHelp("i", "copy quote id")),
	CopyTx:    key.NewBinding(key.WithKeys("t"), key.WithHelp("t", "copy tx id")),
	CopyTo:    key.NewBinding(key.WithKeys("d"), key.WithHelp("d", "copy destination")),
	Open:      key.NewBinding(key.WithKeys("o"), key.WithHelp("o", "open in explorer")),
}

// What the status screen is doing. Resuming a journaled withdrawal that got
// no answer starts in phaseSettle; every other visit starts in phaseFollow.
type statusPhase int

const (
	phaseFollow   statusPhase = iota // polling the status until it is terminal
	phaseSettle                      // settling an unanswered request with the service (withdrawal.Settle)
	phaseRejected                    // it never happened: nothing to follow
)

// statusScreen follows one withdrawal through the one follow loop
// (follow.Loop: asked when its scheduler says, every interval, backing off
// on errors and pausing for the rate limit), keeps a timeline of the states
// seen, journals them when the journal says the withdrawal is the
// account's own (follow.Own), and stops at its end. In resume mode it
// first settles a journaled request that never got an answer.
type statusScreen struct {
	kit.Visit // its calls end when it is left
	app       *kit.App
	quoteID   string
	rec       *journal.Record // resume mode; nil otherwise

	tag      tui.Tag
	phase    statusPhase
	inflight bool // a status request of this visit is out
	asked    bool // a status request was sent: the first one waits out a rate limit
	sending  bool // settling it is under way (a re-send may be out): Busy
	// elsewhere: settling or following it cannot be done on this session
	// (another service's or account's, or a login as another account made
	// since): r would only say so again.
	elsewhere bool
	seeded    bool            // the journal's past of this withdrawal was read
	intent    *journal.Intent // what the user asked for, when journaled
	// unanswered is the journal's record being settled (phaseSettle), for
	// another try.
	unanswered *journal.Record

	// sched holds the one id the loop follows: what each answer means
	// (follow.Follow), when it is asked next, and which states to journal.
	// follow is what it knows of the id, for the view (sync).
	sched    *follow.Scheduler
	follow   follow.Follow
	timeline []seen
	err      error
	never    follow.Outcome // what it came to, when it never happened (phaseRejected)
	checked  time.Time
	next     time.Time // when the next poll is due; zero when none is
	// limited is when the pause the service's rate limit asked for ends;
	// zero when the last ask was not refused for it.
	limited time.Time
	wd, ht  int
	// top is how many lines of a screen taller than the terminal are
	// scrolled above it (status_scroll.go).
	top int
	// look is the next id, typed or pasted (status_lookup.go).
	look lookup
	// tell hands each answer to the board whose row this is (nil: none),
	// so the row shows what was seen here.
	tell kit.Tell
	// as is the session the screen was opened on: it asks as that account
	// alone (exchange.AsAccount), as the board does (follow.Loop.As).
	as exchange.Session
}

// New builds a screen that follows the withdrawal quoteID (see newStatus).
func New(app *kit.App, quoteID string) tui.Screen { return newStatus(app, quoteID) }

// newStatus builds a screen that follows the withdrawal quoteID. Its first
// request reads the journal: an own withdrawal's states are journaled.
func newStatus(app *kit.App, quoteID string) *statusScreen {
	// One id asked one request at a time: the budget's gap between
	// requests is for many, only a 429's pause holds it.
	sched := follow.NewScheduler(0)
	sched.Gap, sched.Jitter, sched.Recall = 0, rand.Int64N, true
	as, _ := app.Client().Session()
	sched.Account = as.AccountID // a board's row another login followed is held
	sched.Add(quoteID, app.Common.Now())
	s := &statusScreen{app: app, quoteID: quoteID, sched: sched, as: as, look: lookup{field: kit.NewInput(app.Common, "a quote id", false)}}
	s.look.field.Want("a quote id")
	s.sync()
	return s
}

// sync copies what the loop knows of the id, for the view.
func (s *statusScreen) sync() {
	f, _ := s.sched.Get(s.quoteID)
	s.follow = f.Follow
}

// NewBoardStatus builds the status screen of a withdrawal the board
// follows: the board's last record shows at once, and while the service's
// rate limit holds the board's asks (for paused more), the first ask
// waits for its end.
func NewBoardStatus(app *kit.App, f follow.Followed, paused time.Duration, tell kit.Tell) tui.Screen {
	s := newStatus(app, f.QuoteID)
	s.look.board, s.tell = true, tell
	s.sched.Remove(f.QuoteID)
	s.sched.AddKept(f.Kept(), app.Common.Now())
	s.sync()
	if kept, _ := s.sched.Get(f.QuoteID); s.sched.AnotherLogins(kept) {
		// Another login's row, moving or ended: asked as this one, whose
		// service does not know it, it would read NOT FOUND. Shown as kept.
		s.elsewhere = true
		if kept.Held {
			s.err = exchange.UserError{Text: follow.HeldSentence(kept.As)}
		}
	}
	s.checked = f.LastChecked
	if paused > 0 && !s.elsewhere {
		s.limited = app.Common.Now().Add(paused)
	}
	return s
}

// NewResume builds a status screen for a journaled withdrawal. An unanswered
// request is settled with the service (withdrawal.Withdrawer.Settle: the
// identical body re-sent while its quote is valid, which cannot pay twice,
// else the service asked whether it arrived; "never paid" only when its
// clock makes it certain). Then it is followed.
func NewResume(app *kit.App, rec journal.Record) tui.Screen {
	s := newStatus(app, rec.QuoteID)
	s.rec = &rec
	s.sched.Know(follow.Own{rec.QuoteID: rec})
	s.sync()
	if rec.Intent.Chain != "" {
		s.intent = &rec.Intent
	}
	return s
}

func (s *statusScreen) Init() tea.Cmd {
	s.tag = tui.NextTag()
	if s.rec != nil {
		rec := s.rec
		s.rec = nil // decided once per screen
		switch withdrawal.PlanResume(*rec) {
		case withdrawal.ResumeNeverHappened:
			s.phase, s.never = phaseRejected, follow.RecordOutcome(*rec)
			return nil
		case withdrawal.ResumeSettle:
			return s.settle(*rec)
		}
	}
	s.sched.Interval = s.interval()
	if wait := s.limited.Sub(s.app.Common.Now()); wait > 0 {
		return tea.Batch(s.schedule(wait), s.countdown())
	}
	return s.step()
}

// countdown redraws the screen when the rate limit's countdown shows one
// second less, while it runs.
func (s *statusScreen) countdown() tea.Cmd {
	left := s.limited.Sub(s.app.Common.Now())
	if left <= 0 {
		return nil
	}
	return s.app.After(kit.NextSecond(left), countdownMsg{tag: s.tag})
}

// Resume restarts polling with a new tag: the ticks of the visit before were
// dropped while another screen was on top.
func (s *statusScreen) Resume() tea.Cmd {
	if s.sending || !s.polling() {
		return nil
	}
	s.tag = tui.NextTag()
	s.inflight = false // its answer carries the old tag and will be dropped
	s.sched.Again(s.quoteID, s.app.Common.Now())
	return s.step()
}

func (s *statusScreen) Title() string { return s.heading() }

// SetSize: on a short terminal View leaves out what another key shows.
func (s *statusScreen) SetSize(w, h int) { s.wd, s.ht = w, h }

// bindings: r except for a withdrawal that never happened or while the
// re-sent withdraw is out (during a status request it waits for that one),
// copying the quote id always (support asks for it), the tx id once the
// service gave one, the destination when the journal has it, and copying
// and opening only when there is a payout hash; r is offered last once the
// withdrawal ended.
func (s *statusScreen) bindings() kit.Bindings {
	if s.look.on {
		return s.lookupBindings()
	}
	refresh := kit.Binding{Key: statusKeys.Refresh, On: s.phase != phaseRejected && !s.sending && !s.elsewhere, Do: s.refresh,
		Off: func() tea.Cmd {
			if s.phase == phaseRejected {
				return tui.ShowInfo("Nothing to refresh: this withdrawal is " + s.never.Name + ", and nothing more will happen to it")
			}
			return nil
		}}
	bs := kit.Bindings{
		{Key: statusKeys.Copy, On: s.copyable(), Do: func() tea.Cmd {
			return kit.CopyText(s.app, s.follow.Last.WithdrawTxHash, "Copied payout hash "+s.follow.Last.WithdrawTxHash)
		}, Off: func() tea.Cmd {
			if s.follow.NotFound || s.follow.Known && exchange.Terminal(s.follow.Last.State) {
				return nil // nothing was paid out
			}
			return tui.ShowInfo("No payout hash yet: it is set once the withdrawal is COMPLETED")
		}},
		{Key: statusKeys.CopyQuote, On: true, Do: func() tea.Cmd {
			return kit.CopyText(s.app, s.follow.QuoteID, "Copied quote id "+s.follow.QuoteID)
		}},
		{Key: statusKeys.CopyTx, On: s.txID() != "", Do: func() tea.Cmd {
			return kit.CopyText(s.app, s.txID(), "Copied tx id "+s.txID())
		}},
		{Key: statusKeys.Open, On: s.explorerLink() != "", Do: func() tea.Cmd { return kit.OpenLink(s.app, s.explorerLink()) }},
		{Key: statusKeys.CopyTo, On: s.destination() != "", Do: func() tea.Cmd {
			return kit.CopyText(s.app, s.destination(), "Copied destination "+s.destination())
		}},
		{Key: lookupKeys.Start, On: s.look.board, Do: func() tea.Cmd { return nil }}, // lookupUpdate takes it
	}
	// Scrolling first: what it shows may be the state's end.
	if s.follow.Known && exchange.Terminal(s.follow.Last.State) {
		// Ended, it is copied from more than refreshed: a short footer
		// keeps the copies.
		return append(append(s.scrollBindings(), bs...), refresh)
	}
	return append(append(s.scrollBindings(), refresh), bs...)
}

func (s *statusScreen) KeyMap() help.KeyMap { return s.bindings().KeyMap() }

// copyable: the withdrawal shown has a payout hash.
func (s *statusScreen) copyable() bool {
	return s.follow.Known && !s.follow.NotFound && s.follow.Last.WithdrawTxHash != ""
}

// txID is the service's transfer id of the withdrawal shown, "" before one.
func (s *statusScreen) txID() string {
	if !s.follow.Known || s.follow.NotFound {
		return ""
	}
	return s.follow.Last.TxID
}

// destination is where the withdrawal pays, when the journal has it; ""
// otherwise (the service's record does not say).
func (s *statusScreen) destination() string {
	if s.intent == nil {
		return ""
	}
	return s.intent.ToAddress
}

// Busy: while the re-sent withdraw is out, leaving would lose its answer.
func (s *statusScreen) Busy() string {
	if s.sending {
		return kit.SubmittingWithdrawal(s.app)
	}
	return ""
}

// polling reports whether the screen asks the service by itself: not once
// the withdrawal has ended or is unknown, nor while a lost re-send waits
// for the user's r.
func (s *statusScreen) polling() bool {
	return s.phase == phaseFollow && !s.follow.NotFound && !s.ended() && !s.elsewhere
}

func (s *statusScreen) interval() time.Duration {
	if s.app.PollInterval > 0 {
		return s.app.PollInterval
	}
	return follow.DefaultPollInterval
}

func (s *statusScreen) Update(msg tea.Msg) (tui.Screen, tea.Cmd) {
	if cmd, ok := s.lookupUpdate(msg); ok {
		return s, cmd
	}
	switch msg := msg.(type) {
	case pollMsg:
		if msg.tag == s.tag && !s.inflight && (s.polling() || !s.asked) {
			return s, s.step()
		}
	case statusMsg:
		if msg.tag == s.tag {
			return s, s.answered(msg)
		}
	case countdownMsg:
		if msg.tag == s.tag {
			return s, s.countdown()
		}
	case settleMsg:
		if msg.tag == s.tag {
			return s, s.settled(msg)
		}
	case settleAgainMsg:
		if msg.tag == s.tag && s.phase == phaseSettle && !s.sending {
			return s, s.settle(*s.unanswered)
		}
	case tea.KeyPressMsg:
		cmd, _ := s.bindings().Handle(msg)
		return s, cmd
	}
	return s, nil
}

// refresh asks again now (unless a request is already out); an
// unanswered request not settled yet is settled again.
func (s *statusScreen) refresh() tea.Cmd {
	if s.inflight {
		return nil // its answer is on the way
	}
	if s.phase == phaseSettle {
		return s.settle(*s.unanswered)
	}
	// A new tag drops the pending tick, so refreshing never makes two
	// timers; an unknown id is asked again. One that ended is asked all
	// the same (the loop no longer follows it): what it says is only when
	// it was checked.
	s.tag = tui.NextTag()
	if !s.sched.Again(s.quoteID, s.app.Common.Now()) {
		return s.fetch()
	}
	s.sync()
	return s.step()
}

// step asks the id when the loop says (follow.Scheduler.Next), or sets the
// timer for when it will. The first ask is made also for a withdrawal that
// ended before it (the board's record): it reads the journal and shows
// what the service says now.
func (s *statusScreen) step() tea.Cmd {
	if s.elsewhere {
		return nil // this session cannot ask it
	}
	_, wait, ok := s.sched.Next(s.app.Common.Now())
	switch {
	case ok, !s.asked && wait == 0:
		return s.fetch()
	case wait > 0:
		return s.schedule(wait)
	}
	return nil
}

// journalReader returns a function that reads this account's journal
// lines of this withdrawal inside a Cmd, or nil when there is nothing to
// read.
func (s *statusScreen) journalReader() func() ([]journal.Entry, bool) {
	if s.seeded || s.app.Journal() == nil {
		return nil
	}
	j, id, o := s.app.Journal(), s.quoteID, s.app.Target.Owner()
	return func() ([]journal.Entry, bool) {
		out, err := j.EntriesOf(o, id)
		if err != nil {
			return nil, false // the timeline starts from what is seen now
		}
		return out, true
	}
}

// fetch asks the service for the status once.
func (s *statusScreen) fetch() tea.Cmd {
	s.inflight, s.asked, s.next = true, true, time.Time{}
	client, id, tag, read, parent := s.app.Client(), s.quoteID, s.tag, s.journalReader(), s.Context(s.app)
	was, _ := s.sched.Get(id)
	was.QuoteID = id
	if s.as.AccountID != "" {
		parent = exchange.AsAccount(parent, s.as)
	}
	return func() tea.Msg {
		var m statusMsg
		m.tag = tag
		if read != nil {
			m.journal, m.seeded = read()
		}
		cx, cancel := kit.Call(parent)
		defer cancel()
		// The service's clock read again when a kept reading would decide it.
		m.w, m.err = follow.Loop{Ask: client.WithdrawalStatus, Reread: client.ServiceTimeAfter}.AskOf(cx, was.Follow)
		return m
	}
}

// answered hands one status answer to the follow loop
// (follow.Loop.Took), which says when the next ask is: the interval after
// an answer, a growing backoff after errors, the rate limit's pause after
// a 429, none at the end.
func (s *statusScreen) answered(m statusMsg) tea.Cmd {
	s.inflight, s.next = false, time.Time{}
	if ended := s.app.SessionEnded(m.err); ended != nil {
		return ended // asked again once logged in: nothing here is lost
	}
	if c := follow.LoginChanged(m.err); c != nil {
		// Asked as the login made since, it would read NOT FOUND: it stops,
		// saying who to log in as (the follow's words).
		c.One = true
		s.err, s.elsewhere = exchange.UserError{Text: c.Sentence(), Cause: c}, true
		return nil
	}
	s.checked = s.app.Common.Now()
	s.seed(m.journal, m.seeded)
	if m.err == nil {
		// Seen here, with the service's updated_at, also when the board
		// followed it to its end before.
		s.addSeen(seen{state: m.w.State, at: s.checked, updated: m.w.UpdatedAt})
	}
	if f, _ := s.sched.Get(s.quoteID); f.Final {
		return nil // it ended before this answer: nothing more to learn
	}
	step := follow.Loop{Scheduler: s.sched, Now: s.app.Common.Now}.Took(s.quoteID, m.w, m.err).Step
	s.sync()
	s.err, s.limited = exchange.Explain(s.follow.Err), time.Time{}
	if step.RateLimited {
		// Said as the pause it is, with its countdown, not as a failure.
		s.err, s.limited = nil, s.checked.Add(step.Delay)
	}
	var cmd tea.Cmd
	if step.JournalState != "" {
		cmd = kit.JournalState(s.app, s.quoteID, m.w, nil)
	}
	if s.tell != nil {
		told := s.tell(s.quoteID, m.w, m.err)
		cmd = tea.Batch(cmd, func() tea.Msg { return told })
	}
	if s.follow.Final {
		if step.Changed && s.follow.Known {
			o := s.follow.Outcome()
			cmd = tea.Batch(cmd, kit.Announce(s.app, "Withdrawal "+o.Name, s.quoteID+": "+o.Sentence()))
		}
		return cmd
	}
	return tea.Batch(cmd, s.step(), s.countdown())
}

func (s *statusScreen) schedule(d time.Duration) tea.Cmd {
	s.next = s.app.Common.Now().Add(d)
	return s.app.After(d, pollMsg{tag: s.tag})
}
