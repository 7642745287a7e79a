package board

// Asking the service: the scheduler says which id is due within the budget,
// and each answer is taken into the rows and the tally.

import (
	tea "charm.land/bubbletea/v2"

	"github.com/svcwallet/svcwallet/screens/kit"
	"github.com/svcwallet/svcwallet/service/follow"
	"github.com/svcwallet/svcwallet/tui"
)

// kick starts ticking unless a tick is pending or nothing moves.
func (b *boardScreen) kick() tea.Cmd {
	if b.ticking || b.sched.Moving() == 0 {
		return nil
	}
	b.ticking = true
	tag := b.tag
	return func() tea.Msg { return boardTickMsg{tag: tag} }
}

// step asks every id the scheduler hands out now, and waits for the next
// one; with nothing moving it stops (an answer starts it again). While the
// service's rate limit pauses the asks, it ticks each second, so the
// countdown shown stays true.
func (b *boardScreen) step() tea.Cmd {
	now := b.app.Common.Now()
	var cmds []tea.Cmd
	for {
		id, wait, ok := b.sched.Next(now)
		if !ok {
			if wait > 0 {
				if p := b.sched.PausedFor(now); p > 0 {
					wait = min(wait, kit.NextSecond(p))
				}
				b.ticking = true
				cmds = append(cmds, b.app.After(wait, boardTickMsg{tag: b.tag}))
			}
			return tea.Batch(cmds...)
		}
		cmds = append(cmds, b.fetch(id))
	}
}

func (b *boardScreen) fetch(id string) tea.Cmd {
	client, tag, parent := b.app.Client(), b.tag, b.Context(b.app)
	return func() tea.Msg {
		cx, cancel := kit.Call(parent)
		defer cancel()
		w, err := client.WithdrawalStatus(cx, id)
		return boardAnswerMsg{tag: tag, id: id, w: w, err: err}
	}
}

// answered records an answer, taken by the follow loop (follow.Loop.Took):
// its row is replaced, in its place in the order; a change of state is
// marked on the row and announced once, journaled for an own withdrawal
// and saved.
func (b *boardScreen) answered(msg boardAnswerMsg) tea.Cmd {
	before, known := b.rows[msg.id]
	if !known {
		return b.kick() // removed while asked
	}
	step := follow.Loop{Scheduler: b.sched, Now: b.app.Common.Now}.Took(msg.id, msg.w, msg.err).Step
	if msg.err == nil {
		b.known.AddWithdrawal(msg.w)
	}
	b.tally.count(before, -1)
	after := b.follow(msg.id, before.seq)
	// An answer that changes no row drawn, no count and no name (an id
	// among 10,000 asked again) leaves the frame as it was.
	b.unseen = !b.list.Replace(before, after) && after.label == before.label && after.Known == before.Known &&
		after.Final == before.Final && after.NotFound == before.NotFound
	var write, say, save tea.Cmd
	if step.JournalState != "" {
		write = kit.JournalState(b.app, msg.id, msg.w, nil)
	}
	if step.Changed {
		b.unsaved[msg.id] = true
		save = b.saveSoon()
	}
	// Said when what the row says changes: an answer that ends a row the
	// journal had at its end already changes nothing on screen.
	if step.Changed && before.Known && after.label != before.label {
		b.marked[msg.id] = true
		o := after.Outcome()
		say = tui.ShowInfo(msg.id + ": " + before.Outcome().Name + " → " + o.Name)
		if after.Final {
			say = tea.Batch(say, kit.Announce(b.app, "Withdrawal "+o.Name, msg.id+": "+o.Sentence()))
		} else if b.app.Bell {
			say = tea.Batch(say, tea.Raw("\a"))
		}
	}
	return tea.Batch(write, say, save, b.kick())
}
