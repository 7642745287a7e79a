package board

// Asking the service: the follow loop hands out a span of asks within the
// budget (follow.Loop.Plan), one Cmd asks them at their slots, and the
// answers are taken together into the rows and the tally.

import (
	"context"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/svcwallet/svcwallet/screens/kit"
	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/follow"
	"github.com/svcwallet/svcwallet/service/journal"
	"github.com/svcwallet/svcwallet/tui"
)

// boardHandOver is the span of asks one Cmd makes before it hands their
// answers over: the console wakes once for about five answers, not three
// times for each, which was most of the board's CPU (issue 35 item 2); the
// board draws answers once a second anyway (boardDrawEvery).
const boardHandOver = time.Second

// kick starts asking unless a tick or a span of asks is out, or nothing
// moves.
func (b *boardScreen) kick() tea.Cmd {
	if b.ticking || b.asking != nil || b.sched.Moving() == 0 || b.otherLogin != nil {
		return nil
	}
	b.ticking = true
	tag := b.tag
	return func() tea.Msg { return boardTickMsg{tag: tag} }
}

// step hands the asks of the next span to one Cmd, or waits for the next
// one due; with nothing moving it stops (an answer starts it again).
// While the service's rate limit pauses the asks, it ticks each second, so
// the countdown shown stays true.
func (b *boardScreen) step() tea.Cmd {
	if b.asking != nil || b.otherLogin != nil {
		return nil
	}
	now := b.app.Common.Now()
	loop := b.loop()
	p, wait := loop.Plan(now, boardHandOver)
	if len(p.Slots) == 0 {
		if wait <= 0 {
			return nil
		}
		if paused := b.sched.PausedFor(now); paused > 0 {
			wait = min(wait, kit.NextSecond(paused))
		}
		b.ticking = true
		return b.app.After(wait, boardTickMsg{tag: b.tag})
	}
	ctx, cancel := context.WithCancel(b.Context(b.app))
	b.asking = cancel
	tag, since, mark := b.tag, b.journalSince(), b.journaled
	return func() tea.Msg {
		defer cancel()
		asked, rest, changed := loop.AskPlan(ctx, p)
		// A stat while the journal is unchanged; unreadable, it is read
		// again from mark at the next span.
		recs, mark, _ := since(mark)
		return boardAskedMsg{tag: tag, asked: asked, rest: rest, journaled: recs, mark: mark, changed: changed}
	}
}

// journalSince reads what this account's journal gained since a mark
// (follow.Journaled), for a Cmd to call.
func (b *boardScreen) journalSince() func(journal.Mark) ([]journal.Record, journal.Mark, error) {
	j, o := b.app.Journal(), b.app.Target.Owner()
	return func(m journal.Mark) ([]journal.Record, journal.Mark, error) { return follow.Journaled(j, o, m) }
}

// learned takes what the journal gained (another terminal's withdraw
// refused or accepted, a state it journaled): the rows of those ids say it
// now, not when the board is opened again.
func (b *boardScreen) learned(recs []journal.Record) tea.Cmd {
	var says []tea.Cmd
	for _, r := range recs {
		b.known.AddRecord(r)
	}
	for _, id := range b.sched.Learn(recs) {
		before, ok := b.rows[id]
		if !ok {
			continue
		}
		b.tally.count(before, -1)
		after := b.follow(id, before.seq)
		b.list.Replace(before, after)
		b.unseen = false
		if after.label != before.label {
			b.marked[id], b.unsaved[id] = true, true
			says = append(says, tui.ShowInfo(id+": "+before.Outcome().Name+" → "+after.Outcome().Name))
		}
	}
	return tea.Batch(says...)
}

// replan stops the span of asks out, if any: what it did not ask is given
// back and planned again, after a removal (a removed id is not asked) or
// a change of the budget.
func (b *boardScreen) replan() {
	if b.asking != nil {
		b.asking()
	}
}

// loop is the follow loop over the board's scheduler, asking as the
// account the board was opened for (follow.Loop.As); each ask is bounded
// as a screen's call is (kit.Call).
func (b *boardScreen) loop() follow.Loop {
	client := b.app.Client()
	return follow.Loop{Scheduler: b.sched, Now: b.app.Common.Now, Wait: b.app.Waited, As: b.as,
		Ask: func(ctx context.Context, id string) (exchange.Withdrawal, error) {
			cx, cancel := kit.Call(ctx)
			defer cancel()
			return client.WithdrawalStatus(cx, id)
		},
		Reread: func(ctx context.Context, w exchange.Withdrawal) exchange.Withdrawal {
			cx, cancel := kit.Call(ctx)
			defer cancel()
			return client.ServiceTimeAfter(cx, w)
		}}
}

// took takes the answers of a span of asks, gives back what it did not
// ask, and plans the next span. The frame is left as drawn when no answer
// changed it.
func (b *boardScreen) took(msg boardAskedMsg) tea.Cmd {
	b.asking = nil
	for _, a := range msg.asked {
		if ended := b.app.SessionEnded(a.Err); ended != nil {
			// The ids are in the board's file: the board opens with them
			// once logged in again.
			return tea.Batch(b.saveNow(), ended)
		}
	}
	cmds := make([]tea.Cmd, 0, len(msg.asked)+1)
	unseen := true
	for _, a := range msg.asked {
		cmds = append(cmds, b.answered(a))
		unseen = unseen && b.unseen
	}
	b.sched.Release(msg.rest)
	b.unseen = unseen
	b.journaled = msg.mark
	cmds = append(cmds, b.learned(msg.journaled))
	if c := msg.changed; c != nil {
		// The board is its account's: asked as the login made since, each
		// of its rows would end NOT FOUND, for good. It stops, saying so.
		b.otherLogin = exchange.UserError{Text: c.Sentence(), Cause: c}
		b.unseen = false
	}
	next := b.step()
	return tea.Batch(append(cmds, next, b.saveSoon())...)
}

// answered records an answer, taken by the follow loop (follow.Loop.TookAt):
// its row is replaced, in its place in the order; a change of state is
// marked on the row and announced once, journaled for an own withdrawal
// and saved.
func (b *boardScreen) answered(a follow.Asked) tea.Cmd {
	before, known := b.rows[a.ID]
	if !known {
		b.unseen = true
		return nil // removed while asked
	}
	step := follow.Loop{Scheduler: b.sched}.TookAt(a).Step
	if a.Err == nil {
		b.known.AddWithdrawal(a.W)
	}
	b.tally.count(before, -1)
	after := b.follow(a.ID, before.seq)
	// An answer that changes no row drawn, no count and no name (an id
	// among 10,000 asked again) leaves the frame as it was.
	b.unseen = !b.list.Replace(before, after) && after.label == before.label && after.Known == before.Known &&
		after.Final == before.Final && after.NotFound == before.NotFound
	var write, say tea.Cmd
	if step.JournalState != "" {
		write = kit.JournalState(b.app, a.ID, a.W, nil)
	}
	if step.Changed {
		b.unsaved[a.ID] = true // saved by the caller (saveSoon)
	}
	// Said when what the row says changes: an answer that ends a row the
	// journal had at its end already changes nothing on screen.
	if step.Changed && before.Known && after.label != before.label {
		b.marked[a.ID] = true
		o := after.Outcome()
		say = tui.ShowInfo(a.ID + ": " + before.Outcome().Name + " → " + o.Name)
		if after.Final {
			say = tea.Batch(say, kit.Announce(b.app, "Withdrawal "+o.Name, a.ID+": "+o.Sentence()))
		} else if b.app.Bell {
			say = tea.Batch(say, tea.Raw("\a"))
		}
	}
	return tea.Batch(write, say)
}
