package plain

import (
	"fmt"
	"strings"
	"time"

	"github.com/svcwallet/svcwallet/service/intent"
)

// pastedEnterAnswer is said of an answer typed back whose Enter came with
// a paste.
const pastedEnterAnswer = "Not taken: its Enter came with the paste. Paste or type it, then press Enter yourself."

// TypedBack asks question, whose answer trusts what it types back (the
// new bridge funding address a withdrawal will pay), until check accepts
// it, held to the passphrase's rule on a terminal: what was typed ahead is
// discarded and said; read a key at a time, it may be pasted, but one
// whose Enter came with the paste is not taken; and an answer within
// intent.ReviewDwell of the question is refused. Each refusal is said and
// the question asked again. A line typed or pasted ahead with its Enter
// answered it, as a plain question.
func (p *Prompter) TypedBack(question string, check func(string) error) (string, error) {
	g := p.signing()
	for {
		var asked time.Time
		if g.OnTerminal() {
			if held, _ := g.Flush(); held {
				p.Say(discardedWords)
			}
			asked = g.Now() // before the question shows, as Gate.Ask takes it
		}
		t, err := g.answer(p.ctx, p.out, func() string { return question + " " }, p.read)
		if t.askedAgain.After(asked) {
			asked = t.askedAgain
		}
		text := strings.TrimSpace(t.text)
		switch {
		case err != nil:
			return "", err
		case !g.OnTerminal():
		case t.pastedEnter:
			p.Say(pastedEnterAnswer)
			continue
		case g.Now().Before(asked.Add(intent.ReviewDwell)):
			fmt.Fprintln(p.out, tooSoon)
			continue
		}
		if text == "" {
			continue
		}
		if err := check(text); err != nil {
			p.Say("Not accepted: %v.", strings.TrimSuffix(err.Error(), "."))
			continue
		}
		return text, nil
	}
}
