package plain

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/svcwallet/svcwallet/service/sandbox"
	"github.com/svcwallet/svcwallet/signer"
)

// discardTyped is a terminal's flush on a script: the lines typed ahead of
// the screen (those that wait for nothing) are discarded, and what is left
// of the one being read; it reports whether there were any.
func (s *script) discardTyped() (bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	held := len(s.cur) > 0
	s.cur = nil
	for len(s.lines) > 0 && s.lines[0].after == "" && s.lines[0].before == nil {
		s.lines, held = s.lines[1:], true
	}
	return held, nil
}

// runPasting runs plain mode on a terminal whose discard drops the lines
// typed ahead of the screen (a paste).
func (r *rig) runPasting(lines ...scripted) (string, error) {
	r.t.Helper()
	out := newTranscript()
	in := &script{lines: lines, out: out}
	r.console.Gate.Flush = in.discardTyped
	err := r.console.Run(context.Background(), in, out, nil)
	return out.String(), err
}

// TestPasteDoesNotSign (issue 33 item 1): a paste of address, amount, fee
// cap and y at the destination question fills the form, but its y does not
// answer "Sign and withdraw?": it is discarded before the question, and
// the n typed once the question shows is the answer. The same for a
// builder authorization pasted whole, whose y is discarded before the
// question whether an API key is made as well (it is part of authorizing),
// and said: the no typed once it shows is its answer.
func TestPasteDoesNotSign(t *testing.T) {
	r := newRig(t)
	paste := []scripted{after("Destination address on", sandbox.DestCompleted)}
	paste = append(paste, typed("25", "none", "y")...)
	out, err := r.runPasting(steps(logIn, typed("withdraw", "ARBITRUM", "USDT"), paste,
		[]scripted{after("[y/n] ", "n")}, typed("Back home", "quit"))...)
	if err != nil {
		t.Fatal(err)
	}
	wants(t, out, "Sign and withdraw 25 USDT", "Not signed: nothing was signed or sent.", "Goodbye: nothing was signed or sent.")
	if n, bal := r.intents(), r.ex.Balance(sandbox.DemoAccountID); n != 0 || bal.String() != "10000" {
		t.Errorf("%d withdrawals journaled, balance %s:\n%s", n, bal, out)
	}

	paste = []scripted{after("Builder account address", sandbox.BuilderAddress)}
	paste = append(paste, typed("0.1", "0.05", "7d", "y")...)
	out, err = r.runPasting(steps(logIn, typed("builder"), paste, withKey("no"), []scripted{after("[y/n] ", "n")}, typed("quit"))...)
	if err != nil {
		t.Fatal(err)
	}
	wants(t, out, "  2. Yes\n"+discardedWords+"\nChoose 1 or 2, or type the name (back for home): ", "Sign and authorize builder "+sandbox.BuilderAddress+" to charge fees up to 0.1% on futures and 0.05% on spot, in environment sandbox? [y/n] ", "Not signed: nothing was signed or sent.", "Goodbye: nothing was signed or sent.")
}

// TestNoTerminalSignsNothing (issue 33 item 2): answers that come from no
// terminal (TERM=dumb svcwallet < answers) reach the review, but a
// withdrawal or a builder authorization is not asked about or signed:
// plain mode says the command that signs it without a question and ends
// (ErrNoTerminal, exit 2 on the command line).
func TestNoTerminalSignsNothing(t *testing.T) {
	r := newRig(t)
	r.console.Gate = Gate{}
	out, err := r.run(steps(logIn, withdraw25, typed("y", "quit"))...)
	if !errors.Is(err, ErrNoTerminal) {
		t.Fatalf("ended with %v:\n%s", err, out)
	}
	wants(t, out, "You receive: ", "Not signed: the answers do not come from a terminal, or the questions are not written on one, so the withdrawal cannot be confirmed here; nothing was signed or sent.",
		"To sign it without a question, run: svcwallet withdraw --chain ARBITRUM --to "+sandbox.DestCompleted+" --amount 25 --max-fee 2 --yes --env sandbox\n")
	if strings.Contains(out, "[y/n]") || r.intents() != 0 || r.ex.Balance(sandbox.DemoAccountID).String() != "10000" {
		t.Errorf("asked or signed:\n%s", out)
	}

	r.vars[signer.KeyEnvVar] = sandbox.DemoPrivateKey
	out, err = r.run(steps(logIn, typed("builder", sandbox.BuilderAddress, "0.1", "0.05", "36h", "yes", "bot", sandbox.BuilderAddress, "Trade", "y", "quit"))...)
	if !errors.Is(err, ErrNoTerminal) {
		t.Fatalf("builder: ended with %v:\n%s", err, out)
	}
	wants(t, out, "so the builder authorization cannot be confirmed here",
		"run: svcwallet builder authorize --builder "+sandbox.BuilderAddress+" --max-futures-fee 0.1 --max-spot-fee 0.05 --expires 36h0m0s --api-key-signer "+sandbox.BuilderAddress+" --permissions Trade --label bot --yes --env sandbox\n")
	if strings.Contains(out, "Builder authorized") || strings.Contains(out, "[y/n]") {
		t.Errorf("builder: asked or signed:\n%s", out)
	}
}
