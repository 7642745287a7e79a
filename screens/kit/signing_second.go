package kit

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// SecondQuestion is a review's second yes (a loss of most of the amount,
// a builder key that may move funds): the review's key asks it instead of
// acting, the gate holds keys while it shows (ReviewGate.Guard), a typed y
// then acts and n withdraws it. The screen keeps its words and its rule.
type SecondQuestion struct {
	// act is what y does while the question is asked; nil when it is not.
	act func() tea.Cmd
}

// Asking wraps act (signing, or preparing for offline signing): when needed
// says the second yes is wanted, it is asked, and keys typed with the key
// that asked are held; otherwise act runs.
func (q *SecondQuestion) Asking(g *ReviewGate, needed func() bool, act func() tea.Cmd) func() tea.Cmd {
	return func() tea.Cmd {
		if needed() {
			q.act = act
			return g.Guard()
		}
		return act()
	}
}

// Pending: the question was asked and neither answered nor withdrawn; the
// screen says when it may be answered (the asked predicate given to
// Bindings).
func (q *SecondQuestion) Pending() bool { return q.act != nil }

// Bindings answer it while asked: yes (the screen's y, in its words) acts
// once the review and the question are on screen whole (seen, as enter
// signs only then), after answered records the yes where the review keeps
// it; no does not act.
func (q *SecondQuestion) Bindings(asked, seen bool, yes, no key.Binding, answered func()) Bindings {
	return Bindings{
		{Key: yes, On: asked && seen, Do: func() tea.Cmd {
			act := q.act
			q.act = nil
			answered()
			return act()
		}},
		{Key: no, On: asked, Do: func() tea.Cmd {
			q.act = nil
			return nil
		}},
	}
}

// Words is the question as the service words it, with the console's key
// convention (the footer names the same keys).
func (q *SecondQuestion) Words(question string) string { return question + " (y/n)" }
