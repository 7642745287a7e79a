package plain

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
// answered it, as a plain question. The gate's one loop asks it (Gate.ask).
func (p *Prompter) TypedBack(question string, check func(string) error) (string, error) {
	for {
		text, err := p.signing().ask(p.ctx, p.out, func() string { return question + " " }, p.read, true)
		switch {
		case err != nil:
			return "", err
		case text == "":
			continue
		}
		if err := check(text); err != nil {
			p.Say("Not accepted: %v.", trimStop(err))
			continue
		}
		return text, nil
	}
}
