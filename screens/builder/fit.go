package builder

import (
	"github.com/svcwallet/svcwallet/screens/kit"
	"github.com/svcwallet/svcwallet/service/builder"
)

// fit is the review's fullest rendering that fits the screen, drawn once
// for what it was drawn from: the footer, the keys and the frame each ask
// for it, and drawing it tries up to seven levels.
type fit struct {
	drawn bool
	at    clockFacts
	view  string
	ok    bool
}

// clockFacts is what the review draws from the console's clock rather than
// from its state: the whole seconds keys stay held (the prompt, 0 when
// they act) and the whole seconds left of a 429's wait. Time moves them without a message, so a fit drawn
// at other facts is drawn again.
type clockFacts struct {
	held int
	wait int
}

func (r *builderReviewScreen) clockFacts() clockFacts {
	f := clockFacts{held: r.gate.HeldSeconds()}
	if left := r.waitLeft(); left > 0 {
		f.wait = builder.Failure{Wait: left}.WaitSeconds()
	}
	return f
}

// changed forgets the fit: Update, SetSize and Init are where the review
// changes.
func (r *builderReviewScreen) changed() { r.fit = fit{} }

// fits reports whether the whole message is on screen.
func (r *builderReviewScreen) fits() bool {
	_, ok := r.fitted()
	return ok
}

// fitted is the fullest rendering that fits the screen's height, from
// the review as it is down to kit.TypedDataView's smallest (level 4), then
// levels 5 and 6, so an 80x24 terminal shows an authorization with an
// API key and fee caps above 1%, and a 60x20 one a keystore key's with a
// label of 100 bytes, its folder said; then 7 and 8 (tightest), so a key
// with every permission is reviewed at 60x20. Without a key here what
// fits chooses its words (kit.ReviewGate.FittedNoKey), not the level.
// Without a fit it is the shortest.
func (r *builderReviewScreen) fitted() (string, bool) {
	at := r.clockFacts()
	if r.fit.drawn && r.fit.at == at {
		return r.fit.view, r.fit.ok
	}
	view, ok := r.render(0, kit.NoKeyFull), true
	if r.h > 0 {
		if r.noKey() {
			view, ok = r.gate.FittedNoKey(9, r.h, r.render)
		} else {
			view, ok = r.gate.Fitted(9, r.h, func(i int) string { return r.render(i, kit.NoKeyFull) })
		}
	}
	r.fit = fit{drawn: true, at: at, view: view, ok: ok}
	return view, ok
}
