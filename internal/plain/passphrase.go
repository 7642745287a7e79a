package plain

import (
	"context"
	"fmt"
	"io"
)

// The words of a passphrase's question that signs (Passphrase).
const (
	discardedWords   = "Discarded what was typed before this question."
	pastedEnterWords = "Not taken: its Enter came with the paste. Paste or type the passphrase, then press Enter yourself."
)

// Passphrase asks the secret that unlocks a key to sign with. On a
// terminal it is held to the gate's rule of type-ahead: what was typed or
// pasted before the question shows is discarded (and said), so a line
// typed ahead never unlocks a key that then signs; where keys are read one
// at a time (Gate.Keys), a passphrase may be pasted (password managers
// do), but one whose Enter came with the paste is not taken, said, and
// asked again. Elsewhere it is Secret.
func (p *Prompter) Passphrase(question string) (string, error) {
	g := p.signing()
	for g.OnTerminal() {
		if g.Keys == nil {
			p.discardAhead(g)
			break
		}
		t, err := p.hidden(g, question)
		switch {
		case err != nil:
			return "", err
		case t.pastedEnter:
			p.Say(pastedEnterWords)
		case t.text != "":
			return t.text, nil
		}
	}
	return p.secretOf(question, func(s string) string { return s })
}

// AskPassphrase is Passphrase asked on out and answered on in under g: the
// command line's passphrase that unlocks a key to sign is held to plain
// mode's rule by this one reader. secret reads it where g reads no keys.
func AskPassphrase(ctx context.Context, g Gate, in io.Reader, out io.Writer, secret SecretReader, question string) (string, error) {
	p := NewPrompter(ctx, in, out, secret)
	p.gate = g
	defer p.giveEchoBack()
	return p.Passphrase(question)
}

// discardAhead drops what was typed ahead of the passphrase's question,
// and a key dropped after the question before, saying so once.
func (p *Prompter) discardAhead(g Gate) {
	g.discardSaying(p.out, p.dropped)
	p.dropped = false
}

// hidden asks question and reads its answer a key at a time, unechoed;
// the terminal is put back however the read ends, a panic too. Key mode
// is set before the discard, as at a question that signs (Gate.answer).
func (p *Prompter) hidden(g Gate, question string) (typedLine, error) {
	keys, err := g.Keys()
	if err != nil {
		return typedLine{}, err
	}
	defer keys.Close()
	shown := Fit(p.out, question+" ")
	p.discardAhead(g)
	fmt.Fprint(p.out, shown)
	return g.typed(p.ctx, p.out, keys, true, nil)
}
