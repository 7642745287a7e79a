package screens

import (
	"context"
	"errors"
	"math/rand/v2"
	"time"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"svcwallet/service"
	"svcwallet/tui"
)

// statusMsg answers one withdrawal-status request of the visit tag.
type statusMsg struct {
	tag tui.Tag
	w   service.Withdrawal
	err error
	// journal holds the quote's journal lines when they were read with this
	// request (the first one of an own withdrawal); seeded tells.
	journal []service.JournalEntry
	seeded  bool
}

// pollMsg is the poll timer of the visit tag firing.
type pollMsg struct{ tag tui.Tag }

// resendMsg answers the re-sent request of a resumed withdrawal; the answer
// is already journaled when it arrives.
type resendMsg struct {
	tag      tui.Tag
	accepted service.WithdrawAccepted
	err      error
	lost     bool // no answer after every retry: it may or may not have arrived
	refused  bool // refused now, which does not prove the first try never ran
	journal  []service.JournalEntry
	seeded   bool
}

// journalFailedMsg reports a journal line that could not be written.
type journalFailedMsg struct{ err error }

var statusKeys = struct {
	Refresh, Copy, Open key.Binding
}{
	Refresh: key.NewBinding(key.WithKeys("r"), key.WithHelp("r", "refresh now")),
	Copy:    key.NewBinding(key.WithKeys("c"), key.WithHelp("c", "copy payout hash")),
	Open:    key.NewBinding(key.WithKeys("o"), key.WithHelp("o", "open in explorer")),
}

// What the Status screen is doing. Resuming a journaled withdrawal starts in
// phaseResend or phaseCheck; every other visit starts in phaseFollow.
type statusPhase int

const (
	phaseFollow   statusPhase = iota // polling the status until it is terminal
	phaseResend                      // re-sending an unanswered request (D10)
	phaseCheck                       // asking whether an expired unanswered request arrived
	phaseRejected                    // it never happened: nothing to follow
)

// neverPaid is journaled for an unanswered request whose quote expired and
// which the service never executed.
const neverPaid = "quote expired before the request was confirmed; nothing was paid"

// seen is one state of the timeline: when this console first saw it and the
// service's updated_at (zero when it came from the journal).
type seen struct {
	state   string
	at      time.Time
	updated time.Time
}

// Status follows one withdrawal: it polls its status every interval (backing
// off on errors), keeps a timeline of the states seen, journals them for the
// user's own withdrawals, and stops at a terminal state. In resume mode it
// first settles a journaled request that never got an answer.
type Status struct {
	app     *App
	quoteID string
	own     bool
	rec     *service.JournalRecord // resume mode; nil otherwise

	// after schedules msg in d; tests replace it to see every wait asked for.
	after func(d time.Duration, msg tea.Msg) tea.Cmd
	// jitter(n) is in [0, n); it spreads the backoff after errors.
	jitter func(n int64) int64

	tag       tui.Tag
	phase     statusPhase
	inflight  bool                    // a status request of this visit is out
	sending   bool                    // the re-sent withdraw is out: Busy
	seeded    bool                    // the journal's past of this withdrawal was read
	journaled string                  // the last state in the journal
	intent    *service.Intent         // what the user asked for, when journaled
	lastReq   service.WithdrawRequest // the re-sent request, for another try on r

	w        service.Withdrawal
	have     bool // w holds an answer
	timeline []seen
	failures int // consecutive failed polls
	err      error
	notFound bool
	rejected string // why it never happened (phaseRejected)
	refusal  string // the re-send's refusal, said if the status shows it never ran
	checked  time.Time
	next     time.Time // when the next poll is due; zero when none is
	wd       int
}

// NewStatus builds a screen that follows the withdrawal quoteID. own is true
// for the user's own withdrawals (from this console): their states are
// journaled. The watch board passes false.
func NewStatus(app *App, quoteID string, own bool) *Status {
	return &Status{
		app: app, quoteID: quoteID, own: own,
		after: func(d time.Duration, msg tea.Msg) tea.Cmd {
			return tea.Tick(d, func(time.Time) tea.Msg { return msg })
		},
		jitter: rand.Int64N,
	}
}

// NewResume builds a Status screen for a journaled withdrawal. An unanswered
// request whose quote is still valid is re-sent with the identical body (same
// signature and nonce, so it cannot pay twice: D10); one whose quote expired
// is settled by asking the service whether it arrived. Then it is followed.
func NewResume(app *App, rec service.JournalRecord) tui.Screen {
	s := NewStatus(app, rec.QuoteID, true)
	s.rec = &rec
	if rec.Intent.Chain != "" {
		s.intent = &rec.Intent
	}
	return s
}

func (s *Status) Init() tea.Cmd {
	s.tag = tui.NextTag()
	if s.rec != nil {
		rec := s.rec
		s.rec = nil // decided once per screen
		switch {
		case rec.Answered && rec.State == "":
			s.phase, s.rejected = phaseRejected, orText(rec.Error, "the service refused the request")
			return nil
		case !rec.Answered && s.app.Common.Now().Before(rec.Intent.ExpiresAt):
			return s.resend(rec.Request)
		case !rec.Answered:
			s.phase = phaseCheck
		}
	}
	return s.fetch()
}

// Resume restarts polling with a new tag: the ticks of the visit before were
// dropped while another screen was on top.
func (s *Status) Resume() tea.Cmd {
	if s.sending || !s.polling() {
		return nil
	}
	s.tag = tui.NextTag()
	s.inflight = false // its answer carries the old tag and will be dropped
	return s.fetch()
}

func (s *Status) Title() string { return s.heading() }

// SetSize: the content is a few lines; the root cuts what is taller.
func (s *Status) SetSize(w, _ int) { s.wd = w }

// KeyMap offers r except for a withdrawal that never happened, and copying
// only when there is a payout hash to copy.
func (s *Status) KeyMap() help.KeyMap {
	return keyMap{when(s.phase != phaseRejected, statusKeys.Refresh), when(s.copyable(), statusKeys.Copy),
		when(s.explorerLink() != "", statusKeys.Open)}
}

// copyable: the withdrawal shown has a payout hash.
func (s *Status) copyable() bool { return s.have && !s.notFound && s.w.WithdrawTxHash != "" }

// Busy: while the re-sent withdraw is out, leaving would lose its answer.
func (s *Status) Busy() bool { return s.sending }

// polling reports whether the screen asks the service by itself: not once
// the withdrawal has ended or is unknown, nor while a lost re-send waits
// for the user's r.
func (s *Status) polling() bool {
	return s.phase != phaseRejected && s.phase != phaseResend && !s.notFound && !(s.have && s.final(s.w))
}

func (s *Status) interval() time.Duration {
	if s.app.PollInterval > 0 {
		return s.app.PollInterval
	}
	return service.DefaultPollInterval
}

func (s *Status) Update(msg tea.Msg) (tui.Screen, tea.Cmd) {
	switch msg := msg.(type) {
	case pollMsg:
		if msg.tag == s.tag && !s.inflight && s.polling() {
			return s, s.fetch()
		}
	case statusMsg:
		if msg.tag == s.tag {
			return s, s.answered(msg)
		}
	case resendMsg:
		if msg.tag == s.tag {
			return s, s.resent(msg)
		}
	case journalFailedMsg:
		return s, tui.ShowError(service.UserError{Text: "The journal could not be written (" + msg.err.Error() + "): the history may miss this state; check the disk"})
	case tea.KeyPressMsg:
		return s, s.key(msg)
	}
	return s, nil
}

func (s *Status) key(k tea.KeyPressMsg) tea.Cmd {
	switch {
	case key.Matches(k, statusKeys.Refresh):
		switch {
		case s.sending || s.inflight:
			return nil
		case s.phase == phaseRejected:
			return tui.ShowInfo("Nothing to refresh: this withdrawal never happened")
		case s.phase == phaseResend:
			// The last re-send got no answer; decide again, as the quote may
			// have expired since.
			rec := s.lostRecord()
			s.rec = &rec
			return s.Init()
		}
		// A new tag drops the pending tick, so refreshing never makes two
		// timers; notFound is cleared to ask again.
		s.tag, s.notFound = tui.NextTag(), false
		return s.fetch()
	case key.Matches(k, statusKeys.Copy):
		switch {
		case s.copyable():
		case s.notFound || s.have && service.Terminal(s.w.State):
			return nil // nothing was paid out, and the footer offers no c
		default:
			return tui.ShowInfo("No payout hash yet: it is set once the withdrawal is COMPLETED")
		}
		return copyText(s.app, s.w.WithdrawTxHash, "Copied payout hash "+s.w.WithdrawTxHash)
	case key.Matches(k, statusKeys.Open):
		if link := s.explorerLink(); link != "" {
			return openLink(s.app, link)
		}
	}
	return nil
}

// journalReader returns a function that reads this withdrawal's journal
// lines inside a Cmd, or nil when there is nothing to read.
func (s *Status) journalReader() func() ([]service.JournalEntry, bool) {
	if !s.own || s.seeded || s.app.Journal == nil {
		return nil
	}
	j, id, env := s.app.Journal, s.quoteID, s.app.Target.Env.Name
	return func() ([]service.JournalEntry, bool) {
		all, err := j.Entries()
		if err != nil {
			return nil, false // the timeline starts from what is seen now
		}
		var out []service.JournalEntry
		for _, e := range all {
			if e.QuoteID == id && e.Env == env {
				out = append(out, e)
			}
		}
		return out, true
	}
}

// fetch asks the service for the status once.
func (s *Status) fetch() tea.Cmd {
	s.inflight, s.next = true, time.Time{}
	client, id, tag, read := s.app.Client(), s.quoteID, s.tag, s.journalReader()
	return func() tea.Msg {
		var m statusMsg
		m.tag = tag
		if read != nil {
			m.journal, m.seeded = read()
		}
		cx, cancel := ctx()
		defer cancel()
		m.w, m.err = client.WithdrawalStatus(cx, id)
		return m
	}
}

// answered takes one status answer and schedules the next poll: the
// interval after an answer, a growing backoff after errors, none at the end.
func (s *Status) answered(m statusMsg) tea.Cmd {
	s.inflight, s.next = false, time.Time{}
	s.checked = s.app.Common.Now()
	s.seed(m.journal, m.seeded)
	if m.err != nil {
		if unknownQuote(m.err) {
			if s.phase == phaseCheck {
				return s.reject(orText(s.refusal, neverPaid))
			}
			s.notFound, s.err = true, nil
			return nil
		}
		s.failures++
		s.err = service.Explain(m.err)
		return s.schedule(service.PollDelay(s.interval(), s.failures, s.jitter))
	}
	s.failures, s.err, s.notFound = 0, nil, false
	if s.phase == phaseCheck {
		if m.w.State == service.StateCreated {
			return s.reject(orText(s.refusal, neverPaid))
		}
		s.phase = phaseFollow // the first request did arrive
	}
	cmd := s.observe(m.w)
	if s.final(m.w) {
		return cmd
	}
	return tea.Batch(cmd, s.schedule(s.interval()))
}

func (s *Status) schedule(d time.Duration) tea.Cmd {
	s.next = s.app.Common.Now().Add(d)
	return s.after(d, pollMsg{tag: s.tag})
}

// unknownQuote is the service's 404 for a quote it does not show this
// account; a 404 for a wrong path (a misconfigured URL) is not one.
func unknownQuote(err error) bool {
	var ae *service.APIError
	return errors.As(err, &ae) && (ae.Code == service.CodeNotFound || ae.Code == 0 && ae.Status == 404)
}

// observe records an answer: a new state joins the timeline and, for an own
// withdrawal, the journal. CREATED is not journaled: to the journal a state
// means the request was answered.
func (s *Status) observe(w service.Withdrawal) tea.Cmd {
	s.w, s.have = w, true
	s.addSeen(seen{state: w.State, at: s.app.Common.Now(), updated: w.UpdatedAt})
	if !s.own || s.app.Journal == nil || w.State == s.journaled || w.State == service.StateCreated {
		return nil
	}
	s.journaled = w.State
	e := s.entry(service.JournalState)
	e.State, e.TxHash = w.State, w.WithdrawTxHash
	return s.appendJournal(e)
}

func (s *Status) addSeen(x seen) {
	if n := len(s.timeline); n > 0 && s.timeline[n-1].state == x.state {
		if s.timeline[n-1].updated.IsZero() {
			s.timeline[n-1].updated = x.updated
		}
		return
	}
	s.timeline = append(s.timeline, x)
}

// seed puts the journal's past of this withdrawal in front of the timeline,
// once, so reopening it shows the states seen in earlier sessions and none
// is journaled twice.
func (s *Status) seed(entries []service.JournalEntry, ok bool) {
	if !ok || s.seeded {
		return
	}
	s.seeded = true
	for _, e := range entries {
		switch e.Kind {
		case service.JournalIntent:
			if e.Intent != nil && s.intent == nil {
				s.intent = e.Intent
			}
		case service.JournalAccepted:
			s.journaled = service.StateSubmitted
			s.addSeen(seen{state: service.StateSubmitted, at: e.Time})
		case service.JournalState:
			s.journaled = e.State
			s.addSeen(seen{state: e.State, at: e.Time})
		}
	}
}

func (s *Status) entry(kind string) service.JournalEntry {
	sess, _ := s.app.Client().Session()
	return service.JournalEntry{Time: s.app.Common.Now(), Kind: kind, Env: s.app.Target.Env.Name,
		AccountID: sess.AccountID, QuoteID: s.quoteID}
}

func (s *Status) appendJournal(e service.JournalEntry) tea.Cmd {
	j := s.app.Journal
	return func() tea.Msg {
		if err := j.Append(e); err != nil {
			return journalFailedMsg{err: err}
		}
		return nil
	}
}

// reject ends a resumed withdrawal that never happened, in the journal too.
func (s *Status) reject(why string) tea.Cmd {
	s.phase, s.rejected, s.next = phaseRejected, why, time.Time{}
	if s.app.Journal == nil {
		return nil
	}
	e := s.entry(service.JournalRejected)
	e.Error = why
	return s.appendJournal(e)
}

// resend re-sends the journaled request byte for byte and journals the
// answer in the same Cmd, so a crash cannot separate the two.
func (s *Status) resend(req service.WithdrawRequest) tea.Cmd {
	s.phase, s.sending, s.err = phaseResend, true, nil
	s.lastReq = req
	client, j, tag, read, now := s.app.Client(), s.app.Journal, s.tag, s.journalReader(), s.app.Common.Now
	answer := s.entry("")
	return func() tea.Msg {
		var m resendMsg
		m.tag = tag
		if read != nil {
			m.journal, m.seeded = read()
		}
		cx, cancel := context.WithTimeout(context.Background(), withdrawTimeout)
		defer cancel()
		m.accepted, m.err = client.Withdraw(cx, req)
		answer.Time = now()
		switch {
		case m.err == nil:
			answer.Kind = service.JournalAccepted
		case service.OutcomeUnknown(m.err):
			m.lost = true
			return m
		default:
			// The first send of this request got no answer, so a refusal now
			// (an expired quote included) does not prove it never ran: the
			// status decides, and the journal learns the answer from it.
			m.refused = true
			return m
		}
		if j != nil {
			// The answer is in hand; a failed write costs the history this line only.
			_ = j.Append(answer)
		}
		return m
	}
}

// resent takes the answer to the re-sent request.
func (s *Status) resent(m resendMsg) tea.Cmd {
	s.sending = false
	s.seed(m.journal, m.seeded)
	switch {
	case m.lost:
		s.err = service.UserError{Text: "No answer from the service after every retry: the request may or may not have arrived. Press r to send the identical request again (it cannot pay twice)."}
		return nil
	case m.refused:
		s.phase, s.refusal = phaseCheck, service.Explain(m.err).Error()
		if errors.Is(m.err, service.ErrQuoteExpired) {
			s.refusal = neverPaid
		}
		return s.fetch()
	}
	s.phase, s.journaled = phaseFollow, service.StateSubmitted
	s.w, s.have = service.Withdrawal{QuoteID: m.accepted.QuoteID, TxID: m.accepted.TxID, State: m.accepted.State, ReceiveAmount: m.accepted.ReceiveAmount}, true
	s.addSeen(seen{state: service.StateSubmitted, at: s.app.Common.Now()})
	return s.fetch()
}

// lostRecord is the journal record of a re-send that got no answer, for
// deciding again on r.
func (s *Status) lostRecord() service.JournalRecord {
	rec := service.JournalRecord{QuoteID: s.quoteID, Request: s.lastReq}
	if s.intent != nil {
		rec.Intent = *s.intent
	}
	return rec
}

func orText(s, alt string) string {
	if s == "" {
		return alt
	}
	return s
}
