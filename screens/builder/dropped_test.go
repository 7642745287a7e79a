package builder

import (
	"testing"

	"github.com/svcwallet/svcwallet/screens/screentest"
)

// TestBuilderReviewSaysADroppedKeyActsOnlyWhereItDoes: a key typed while
// the builder review holds its keys is said not taken only when it acts
// there once they are enabled (enter signs, esc goes back); n and x, no
// keys of the review, are said so.
func TestBuilderReviewSaysADroppedKeyActsOnlyWhereItDoes(t *testing.T) {
	r := newBldRig(t, 120, 40)
	rv := r.demoReview(120, 36)
	rv.Init()
	rv.Update(rv.gate.Key.Find()())
	press := func(k string) { screentest.Press(rv, k) }
	screentest.RequireDroppedSaid(t, "the builder review", press, rv.View,
		screentest.Dropped{Key: "n"}, screentest.Dropped{Key: "enter", Acts: true}, screentest.Dropped{Key: "x"},
		screentest.Dropped{Key: "esc", Acts: true})
}

// TestGrantQuestionSaysADroppedKeyActsOnlyWhereItDoes: while the second
// question of a key that may move funds holds its keys, its y and n are
// said not taken, and x is said to do nothing on the review.
func TestGrantQuestionSaysADroppedKeyActsOnlyWhereItDoes(t *testing.T) {
	_, rv := grantReview(t, "Withdraw&Trade")
	if screentest.Press(rv, "enter"); !rv.askedGrant() {
		t.Fatal("enter did not ask the second question")
	}
	press := func(k string) { screentest.Press(rv, k) }
	screentest.RequireDroppedSaid(t, "the grant question", press, rv.View,
		screentest.Dropped{Key: "x"}, screentest.Dropped{Key: "y", Acts: true}, screentest.Dropped{Key: "n", Acts: true})
}
