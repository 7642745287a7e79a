package builder

import (
	"testing"

	"github.com/svcwallet/svcwallet/screens/screentest"
)

// TestTitleAppearsOnce: each builder screen's title is in the top bar,
// and the body does not repeat it as a heading.
func TestTitleAppearsOnce(t *testing.T) {
	builderTitles := map[string]string{
		"form_empty": "Builder authorization", "form_filled_key": "Builder authorization",
		"review_authorize": "Builder: review and sign", "review_with_key": "Builder: review and sign",
		"result_with_key": "Builder authorized",
	}
	for _, st := range bldGoldenStates {
		t.Run("builder_"+st.name, func(t *testing.T) {
			title, ok := builderTitles[st.name]
			if !ok {
				t.Fatalf("no title known for the state %s: add it here", st.name)
			}
			r := newBldRig(t, 120, 40)
			st.reach(r)
			screentest.RequireTitleOnce(t, r.View(), title)
		})
	}
	t.Run("builder_review_too_short", func(t *testing.T) {
		r := newBldRig(t, 120, 40)
		r.reviewAt60x20()
		r.UntilShows("Enlarge the terminal")
		screentest.RequireTitleOnce(t, r.View(), "Builder: review and sign")
	})
}
