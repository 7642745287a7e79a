package kit

import (
	"errors"
	"fmt"
	"sync"

	tea "charm.land/bubbletea/v2"

	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/follow"
	"github.com/svcwallet/svcwallet/service/journal"
	"github.com/svcwallet/svcwallet/tui"
)

// CheckTickMsg asks the check's scheduler what is due, for its tag.
type CheckTickMsg struct{ tag tui.Tag }

// CheckAnswerMsg answers the status request of one id of the check tag.
type CheckAnswerMsg struct {
	tag tui.Tag
	id  string
	w   exchange.Withdrawal
	err error
}

// CheckedMsg says a check is over and every state it learned is in the
// journal: the screen reads the journal again, and says Said.
type CheckedMsg struct{ Said tea.Cmd }

// Check asks the service, in the background, about the unfinished
// withdrawals this account made (journal.UnfinishedOwn): Home and History
// start it when opened, so their counts and marks are the service's, not
// what the journal last saw. One scheduler (follow.Scheduler) within the
// environment's request budget, the most recent first, each id asked until
// it is answered once (a 429 is waited out), each state learned journaled
// as every follower does. Its messages reach the screen on top: Home and
// History hand them to Update, and Resume when back on top, as answers
// that reached another screen were lost.
type Check struct {
	// as is the session the check was started for: it asks only as its
	// account (exchange.AsAccount) and ends once the client is another's.
	as       exchange.Session
	sched    *follow.Scheduler
	tag      tui.Tag
	ticking  bool            // a tick of this check is pending
	inflight map[string]bool // handed out by Next, not answered yet
	total    int
	answered int
	failed   int
	err      error           // the last failure, said at the end
	writes   *sync.WaitGroup // journal writes not done yet
	// vanished says the last withdrawal the journal saw accepted that the
	// service no longer knows (follow.LabelVanished); "" for none.
	vanished string
}

// Checking is how many unfinished withdrawals the check has still to
// hear about; 0 when none is under way.
func (c *Check) Checking() int {
	if c == nil {
		return 0
	}
	return c.total - c.answered
}

// StartCheck starts a check of the unfinished withdrawals among recs (the
// account's records) unless one is under way or none is unfinished.
func (a *App) StartCheck(recs []journal.Record) tea.Cmd {
	if a.Checking() > 0 || a.Journal() == nil {
		return nil
	}
	ids := journal.UnfinishedOwn(recs)
	if len(ids) == 0 {
		return nil
	}
	s := follow.NewScheduler(a.Target.Env.EffectiveFollowRate())
	s.Know(follow.OwnOf(recs))
	for _, id := range ids {
		s.Add(id, a.Common.Now())
	}
	as, _ := a.Client().Session()
	a.Check = &Check{as: as, sched: s, tag: tui.NextTag(), total: len(ids), inflight: map[string]bool{}, writes: &sync.WaitGroup{}}
	return a.checkStep()
}

// Checking is how many unfinished withdrawals the session's check has
// still to hear about; 0 when none is under way.
func (a *App) Checking() int { return a.Check.Checking() }

// ResumeCheck goes on with a check under way, on a screen back on top: a
// new tag, and the ids whose answers reached another screen asked again.
func (a *App) ResumeCheck() tea.Cmd {
	c := a.Check
	if c.Checking() == 0 {
		return nil
	}
	c.tag, c.ticking = tui.NextTag(), false
	for id := range c.inflight {
		c.sched.Requeue(id, a.Common.Now())
	}
	clear(c.inflight)
	return a.checkStep()
}

// UpdateCheck takes the check's messages; ok is false for any other.
func (a *App) UpdateCheck(msg tea.Msg) (cmd tea.Cmd, ok bool) {
	c := a.Check
	switch msg := msg.(type) {
	case CheckTickMsg:
		if c != nil && msg.tag == c.tag && c.Checking() > 0 {
			c.ticking = false
			return a.checkStep(), true
		}
		return nil, true
	case CheckAnswerMsg:
		if c != nil && msg.tag == c.tag && c.Checking() > 0 {
			return a.checkAnswered(msg), true
		}
		return nil, true
	}
	return nil, false
}

// checkStep asks every id the scheduler hands out now, and sets one tick
// for the next one due. The requests live as long as the console: the
// check goes on behind other screens, its answers kept once back.
func (a *App) checkStep() tea.Cmd {
	c := a.Check
	var cmds []tea.Cmd
	for {
		id, wait, ok := c.sched.Next(a.Common.Now())
		if !ok {
			if wait > 0 && !c.ticking {
				c.ticking = true
				cmds = append(cmds, a.After(wait, CheckTickMsg{tag: c.tag}))
			}
			return tea.Batch(cmds...)
		}
		c.inflight[id] = true
		client, tag, parent, as := a.Client(), c.tag, a.Root(), c.as
		was, _ := c.sched.Get(id)
		cmds = append(cmds, func() tea.Msg {
			cx, cancel := Call(parent)
			defer cancel()
			// The service's clock read again when a kept reading would decide it.
			w, err := follow.Loop{Ask: client.WithdrawalStatus, Reread: client.ServiceTimeAfter}.AskOf(exchange.AsAccount(cx, as), was.Follow)
			return CheckAnswerMsg{tag: tag, id: id, w: w, err: err}
		})
	}
}

// checkAnswered hands one answer to the follow loop (follow.Loop.Took,
// each id asked once), journals what it taught and, once every id is
// answered, says so.
func (a *App) checkAnswered(m CheckAnswerMsg) tea.Cmd {
	c := a.Check
	if ended := a.SessionEnded(m.err); ended != nil {
		a.Check = nil // checked again by the next session's Home
		return ended
	}
	if other, ok := errors.AsType[*exchange.OtherAccountError](m.err); ok && other.Meanwhile {
		// A login as another account landed: the check ends with the
		// session it was for; that one's Home starts its own.
		a.Check = nil
		return nil
	}
	delete(c.inflight, m.id)
	seen := follow.Loop{Scheduler: c.sched, Now: a.Common.Now, Once: true}.Took(m.id, m.w, m.err)
	var write tea.Cmd
	if seen.Step.JournalState != "" {
		write = JournalState(a, m.id, m.w, c.writes)
	}
	if !seen.Done {
		return tea.Batch(write, a.checkStep()) // a 429: asked again after the pause
	}
	if seen.Vanished && !seen.NotFoundYet() {
		// One sent unanswered and not known yet is no error: Home says
		// it is unfinished, and History resumes it.
		o := seen.Outcome()
		c.vanished = m.id + " " + o.Name + ": " + o.Sentence()
	}
	c.sched.Remove(m.id)
	c.answered++
	if m.err != nil && !errors.Is(m.err, exchange.ErrNotFound) {
		c.failed, c.err = c.failed+1, m.err
	}
	if c.answered < c.total {
		return tea.Batch(write, a.checkStep())
	}
	return tea.Batch(write, c.done())
}

// done is the check's end: a CheckedMsg once every state it learned is in
// the journal, saying what went wrong, or nothing when all went well.
func (c *Check) done() tea.Cmd {
	var said tea.Cmd
	switch {
	case c.vanished != "":
		said = tui.ShowError(exchange.UserError{Text: c.vanished})
	case c.failed > 0:
		said = tui.ShowError(exchange.UserError{Text: fmt.Sprintf("%d of %d unfinished withdrawals could not be asked about (%s): press u on History to try again",
			c.failed, c.total, exchange.Explain(c.err)), Cause: c.err})
	}
	writes := c.writes
	return func() tea.Msg {
		writes.Wait()
		return CheckedMsg{Said: said}
	}
}
