package plain

import "fmt"

// A secret typed ahead, with the Enter of the question before it (a quick
// hand, a slow link's packet), reaches the terminal while that question's
// line is read, and a terminal echoes what it receives as it receives it:
// the passphrase showed on the screen, above the question that then
// discarded it. So the question right before a secret is read a key at a
// time with echo off, the gate echoing its answer only: what came after
// its Enter is never shown, and is dropped and said at the next question.

// A secret typed ahead that comes later, in a packet after that Enter,
// reached the terminal once the question had put it back, echo on, and
// showed. So from that question, and from one that signs (a passphrase
// may follow), the terminal echoes nothing until the next question that
// reads a line with the terminal's echo (lineAsked): what comes between
// is never shown, and the secret's question discards it.

// What was typed while echo was held off sat unseen in the terminal's
// queue, and a line question after it took it as its answer: the person
// saw an answer they never saw typed, or none. Shown late instead, a
// passphrase typed ahead where none was asked would show. So it is
// discarded as echo comes back, and said (hiddenAheadWords).

// hush holds the terminal's echo off from now until echoAgain.
func (p *Prompter) hush() {
	if p.unhush != nil || p.gate.Hush == nil || !p.gate.OnTerminal() {
		return
	}
	if unhush, err := p.gate.Hush(); err == nil {
		p.unhush = unhush
	}
}

// consoleEchoInput is a Windows console's echo in its mode
// (ENABLE_ECHO_INPUT), written here so its hush is tested everywhere.
const consoleEchoInput = 0x0004

// consoleHush turns a console's echo off by its mode, read by get and set
// by set, until the func it returns sets the mode back as it was: a
// Windows console's Gate.Hush.
func consoleHush(get func() (uint32, error), set func(uint32) error) (func(), error) {
	was, err := get()
	if err != nil {
		return nil, err
	}
	if err := set(was &^ consoleEchoInput); err != nil {
		return nil, err
	}
	return func() { _ = set(was) }, nil
}

// echoAgain puts the terminal's echo back as hush found it, if it holds
// it, at a question: what was typed meanwhile, unseen, is discarded and
// said. No line is being read then (a read in flight holds the terminal:
// the discard's read would wait on it).
func (p *Prompter) echoAgain() {
	if p.giveEchoBack() {
		if held, _ := p.gate.Flush(); held {
			p.Say(hiddenAheadWords)
		}
	}
}

// giveEchoBack puts the terminal's echo back as hush found it, and
// reports whether it held it: as plain mode or a passphrase ends, where a
// read an interrupt left in flight may still wait on the terminal.
func (p *Prompter) giveEchoBack() bool {
	if p.unhush == nil {
		return false
	}
	p.unhush()
	p.unhush = nil
	return true
}

// hiddenAheadWords is said of keys typed while echo was held off.
const hiddenAheadWords = "Discarded what was typed ahead unseen: the terminal showed none of it after the last answer."

// BeforeSecret marks the next question as asked right before a secret.
func (p *Prompter) BeforeSecret() { p.quiet = true }

// readAnswer writes prompt and reads its answer: a key at a time, echoed
// up to its Enter by the gate, when it comes before a secret on a terminal
// read a key at a time and no line is being read already; else a line.
func (p *Prompter) readAnswer(prompt string, quiet bool) (string, error) {
	g := p.gate
	p.echoAgain()  // before the question shows: what is typed at it is seen
	p.sayDropped() // typed ahead of this question, after the one before
	if !quiet || g.Keys == nil || !g.OnTerminal() || p.pending != nil {
		fmt.Fprint(p.out, Fit(p.out, prompt))
		return p.read()
	}
	// What was typed ahead of it is its answer, as at any question that
	// does not sign: key mode reads it from the terminal's queue.
	p.hush()
	keys, err := g.Keys()
	if err != nil {
		return "", err
	}
	defer keys.Close()
	fmt.Fprint(p.out, Fit(p.out, prompt))
	t, err := g.typed(p.ctx, p.out, keys, false, nil)
	p.dropped = t.after
	return t.text, err
}

// sayDropped says, once, that keys typed after the question before a
// secret were dropped.
func (p *Prompter) sayDropped() {
	if p.dropped {
		p.dropped = false
		p.Say(discardedWords)
	}
}
