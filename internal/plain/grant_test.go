package plain

import (
	"strings"
	"testing"

	"github.com/svcwallet/svcwallet/service/sandbox"
)

// builderForm is what the user types from home to authorize the sandbox's
// builder, up to the question whether an API key is made as well.
var builderForm = typed("builder", sandbox.BuilderAddress, "0.1", "0.05", "7d")

// withKey is answer to whether an API key is made as well, typed once the
// question shows: it discards what was typed ahead of it.
func withKey(answer string) []scripted {
	return []scripted{after("Create an API key for the builder as well?", answer)}
}

// builderWithdrawKey is what the user types from home to authorize the
// sandbox's builder with an API key that may withdraw, up to the first
// question.
var builderWithdrawKey = steps(builderForm, withKey("yes"), typed("bot", sandbox.BuilderAddress, "Withdraw&Trade"))

// builderAsked is the question that signs the authorization of
// builderWithdrawKey, which names the builder, its caps and its key.
const builderAsked = "Sign and authorize builder " + sandbox.BuilderAddress + " to charge fees up to 0.1% on futures and 0.05% on spot, with an API key for Withdraw and Trade, in environment sandbox? [y/n] "

// grantQuestion is the second question a key that may move funds asks.
const grantQuestion = "The builder's API key gets Withdraw: the builder may move or administer your account's funds. Grant it all the same? Type yes if so, anything else stops: "

// TestFundsGrantAsksAgain: an API key that may move funds
// (builder.AcceptsGrant) is said to be asked of again, and after the y a
// second question says what it grants: only a typed yes authorizes; a y
// out of habit, an empty line or another word sends nothing. Trade alone
// is asked once.
func TestFundsGrantAsksAgain(t *testing.T) {
	for _, no := range []string{"y", "", "sure"} {
		r := newRig(t)
		out, err := r.run(steps(logIn, builderWithdrawKey, typed("y", no, "quit"))...)
		if err != nil {
			t.Fatal(err)
		}
		wants(t, out, "A second question asks you to confirm the API key's grant.\n", builderAsked+grantQuestion+"Not signed: nothing was signed or sent.\n",
			"Goodbye: nothing was signed or sent.")
	}
	r := newRig(t)
	out, err := r.run(steps(logIn, builderWithdrawKey, typed("y", "YES", "quit"))...)
	if err != nil {
		t.Fatal(err)
	}
	wants(t, out, grantQuestion+"Signing and sending the authorization", "Builder authorized (AddAccountSignerWithBuilder")
	r = newRig(t)
	out, err = r.run(steps(logIn, builderForm, withKey("yes"), typed("bot", sandbox.BuilderAddress, "Trade", "y", "quit"))...)
	if err != nil || strings.Contains(out, "second question") || strings.Contains(out, "Type yes") || !strings.Contains(out, "Builder authorized") {
		t.Fatalf("Trade alone: %v\n%s", err, out)
	}
}

// TestPastedYesNeverGrants: a y pasted with the yes after it answers the
// first question, but the yes, typed ahead of the second, is discarded
// before it is asked (plain.Gate), and said: the no typed once it shows
// is its answer, and nothing is authorized.
func TestPastedYesNeverGrants(t *testing.T) {
	r := newRig(t)
	paste := append([]scripted{after("[y/n] ", "y")}, typed("yes")...)
	out, err := r.runPasting(steps(logIn, builderWithdrawKey, paste, []scripted{after("anything else stops: ", "no")}, typed("quit"))...)
	if err != nil {
		t.Fatal(err)
	}
	wants(t, out, builderAsked+discardedWords+"\n"+grantQuestion, "Not signed: nothing was signed or sent.", "Goodbye: nothing was signed or sent.")
	if strings.Contains(out, "Builder authorized") {
		t.Fatalf("a pasted yes granted the key:\n%s", out)
	}
}
