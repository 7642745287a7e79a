package plain

import (
	"strings"
	"testing"

	"github.com/svcwallet/svcwallet/service/sandbox"
)

// TestBackGoesHome: "back" at any question of a flow from home ends the
// flow and offers home again, and each of those questions says so; the
// login's and home's own questions, which have no home to go back to, say
// nothing of it.
func TestBackGoesHome(t *testing.T) {
	r := newRig(t)
	out, err := r.run(steps(logIn,
		typed("withdraw", "ARBITRUM", "back"),
		typed("withdraw", "ARBITRUM", "USDT", "back"),
		typed("look up", "BACK"),
		typed("builder", "back"),
		typed("deposit", "back"),
		typed("quit"))...)
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if n := strings.Count(out, "Home: what next?"); n != 6 {
		t.Errorf("home offered %d times, want 6 (once, then after each back):\n%s", n, out)
	}
	wants(t, out, "USDC\nChoose 1 or 2, or type the name (back for home): \n",
		"withdrawal address book; back for home): \n",
		"(spaces between; back for home): \n",
		"Builder account address (0x and 40 hex digits; back for home): \n",
		"Generate an address?\n  1. Generate an address for a chain without one\n  2. Back home\nChoose 1 or 2, or type the name: \n")
	for _, unasked := range []string{"How do you log in?\n  1. API key\n  2. Wallet signature\nChoose 1 or 2, or type the name: API key",
		"  6. Quit\nChoose 1 to 6, or type the name: "} {
		if !strings.Contains(out, unasked) {
			t.Errorf("a question with no home to go back to offers it, or is not asked; want %q in:\n%s", unasked, out)
		}
	}
	if strings.Contains(out, "Not accepted") || r.intents() != 0 {
		t.Errorf("back was taken as an answer, or something was journaled:\n%s", out)
	}
}

// TestBackIsNoAnswerToASigningQuestion: the question that signs takes
// only y or n; back there is neither, and the question is asked again.
func TestBackIsNoAnswerToASigningQuestion(t *testing.T) {
	r := newRig(t)
	out, err := r.run(steps(logIn, withdraw25, typed("back", "n", "Back home", "quit"))...)
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	wants(t, out, "[y/n] Type y for yes or n for no.\n")
}

// TestBackIsAnAnswerWhereItIsOne: at a question that takes any text (the
// builder's API key label), back is the answer typed, not home, and the
// question does not offer it.
func TestBackIsAnAnswerWhereItIsOne(t *testing.T) {
	r := newRig(t)
	out, err := r.run(steps(logIn, typed("builder", sandbox.BuilderAddress, "0.1", "0.05", "7d", "yes",
		"back", sandbox.BuilderAddress, "Trade", "n", "quit"))...)
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	wants(t, out, "API key label (shown in the API key list): Address of the key", "  Key label: back (sent beside the signature)\n")
}
