//go:build e2e && unix

package cli

import (
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/svcwallet/svcwallet/service/intent"
	"github.com/svcwallet/svcwallet/service/sandbox"
)

// ptyTyping drives a process on a pseudo-terminal as a person does: it
// waits until what it answers is on screen, then types.
type ptyTyping struct {
	*silentTerminal
	t    *testing.T
	seen int // how far the output has been read
}

// answer waits for prompt after what was read so far, then types line.
func (p *ptyTyping) answer(prompt, line string, deadline time.Duration) {
	p.t.Helper()
	p.waitFor(prompt, deadline)
	if _, err := p.ptmx.Write([]byte(line + "\n")); err != nil {
		p.t.Fatal(err)
	}
}

// answerReviewed answers a question that signs as a person does, once the
// review is read, a key at a time: an answer within intent.ReviewDwell of
// the question, or one whose keys come as a paste, is refused by design
// (plain.Gate), and the question's moment is taken before it is written,
// so one typed that long after it shows is never early. Each key is typed
// once the one before is echoed (read), so a slow reader never takes two
// in one read; the sleeps are the reading and the typing the rule asks
// for, not an ordering.
func (p *ptyTyping) answerReviewed(prompt, line string, deadline time.Duration) {
	p.t.Helper()
	p.waitFor(prompt, deadline)
	time.Sleep(intent.ReviewDwell)
	for i, key := range []byte(line + "\n") {
		if i > 0 {
			p.waitFor(line[i-1:i], deadline)
			time.Sleep(typingGap)
		}
		if _, err := p.ptmx.Write([]byte{key}); err != nil {
			p.t.Fatal(err)
		}
	}
}

// withdrawToArbitrum chooses at plain mode's home a withdrawal of USDT to
// ARBITRUM paid out in USDT, up to the destination question.
func (p *ptyTyping) withdrawToArbitrum(deadline time.Duration) {
	p.t.Helper()
	p.answer("Home: what next?", "Withdraw USDT", deadline)
	p.answer("to which chain?", "ARBITRUM", deadline)
	p.answer("Which token is paid out on ARBITRUM?", "USDT", deadline)
}

// waitFor waits until text shows after what was read so far, and reads
// past it; a process that ends first, or a deadline passed, fails the
// test (a guard against a stall, not a measure of speed).
func (p *ptyTyping) waitFor(text string, deadline time.Duration) {
	p.t.Helper()
	// A question is wrapped at spaces to the terminal's width (plain.Fit).
	wrapped := regexp.MustCompile(strings.ReplaceAll(regexp.QuoteMeta(text), " ", "(?: |\r\n)"))
	end := time.Now().Add(deadline)
	for {
		out := p.output()
		if at := wrapped.FindStringIndex(out[p.seen:]); at != nil {
			p.seen += at[1]
			return
		}
		select {
		case <-p.done:
			p.t.Fatalf("ended before showing %q; it wrote:\n%s", text, out)
		default:
		}
		if time.Now().After(end) {
			p.t.Fatalf("%q not shown after %v; it wrote:\n%s", text, deadline, out)
		}
		time.Sleep(10 * time.Millisecond) // polling interval, not ordering
	}
}

// TestPlainJourneyOnATerminal is issue 29's bar: plain mode on a
// pseudo-terminal (no tmux) logs in by API key, lists the deposit
// addresses, generates SOLANA's, withdraws 25 USDT to COMPLETED on the
// embedded sandbox (it settles in about 6 s: the test waits for the line
// that says so) and authorizes a builder. The transcript holds no escape
// sequence, the API key typed is not echoed, and it reads top to bottom:
// each state line once, in order.
func TestPlainJourneyOnATerminal(t *testing.T) {
	dir := t.TempDir()
	bin := buildStamped(t, dir)
	s := &ptyTyping{silentTerminal: startSilent(t, bin, silentEnv(dir), "--plain"), t: t}
	const short, settle = 15 * time.Second, 60 * time.Second
	home := "Home: what next?"
	s.answer("How do you log in?", "API key", short)
	s.answer("API key (not shown as you type): ", sandbox.DemoAPIKey, short)
	s.answer(home, "Deposit addresses", short)
	s.answer("Generate an address?", "1", short)
	s.answer("Which chain?", "SOLANA", short)
	s.waitFor("SOLANA deposit address ready: ", short)
	s.withdrawToArbitrum(short)
	s.answer("of the sandbox's address book, on ARBITRUM?", sandbox.DestCompleted, short)
	s.answer("Amount of USDT to pay", "25", short)
	s.answer("Fee cap in USDT", "2", short)
	s.answerReviewed("[y/n] ", "y", short)
	s.waitFor("SENDING → COMPLETED", settle)
	s.answer(home, "Builder authorization", short)
	s.answer("Authorize which builder account?", "1", short)
	s.answer("Max futures fee", "0.1", short)
	s.answer("Max spot fee", "0.05", short)
	s.answer("Valid for", "7d", short)
	// Held as a question that signs: typed a key at a time, once read.
	s.answerReviewed("Create an API key for the builder as well?", "No", short)
	s.answerReviewed("[y/n] ", "y", short)
	s.waitFor("Builder authorized", short)
	s.answer(home, "Quit", short)
	if code := s.wait(short); code != 0 {
		t.Errorf("exit %d", code)
	}
	out := s.output()
	t.Logf("transcript:\n%s", out)
	// But the terminal's mode that marks pastes, asked while a question
	// that signs or a secret is read, and asked off after: it draws nothing.
	marks := strings.NewReplacer(ansi.SetModeBracketedPaste, "", ansi.ResetModeBracketedPaste, "")
	if bare := marks.Replace(out); strings.IndexByte(bare, 0x1b) >= 0 {
		i := strings.IndexByte(bare, 0x1b)
		t.Errorf("an escape sequence at byte %d: %q", i, bare[max(i-20, 0):min(i+20, len(bare))])
	}
	if !strings.Contains(out, ansi.SetModeBracketedPaste) || strings.Count(out, ansi.SetModeBracketedPaste) != strings.Count(out, ansi.ResetModeBracketedPaste) {
		t.Error("the terminal was not asked to mark pastes at the questions that sign, or not asked to stop each time")
	}
	if strings.Contains(out, "(not shown as you type): "+sandbox.DemoAPIKey) {
		t.Error("the API key is echoed")
	}
	last := -1
	for _, line := range []string{"Logged in to sandbox by API key", "SOLANA deposit address ready: ", "Withdrawal accepted (SUBMITTED)",
		" SUBMITTED\r\n", " SUBMITTED → SENDING\r\n", " SENDING → COMPLETED\r\n", "COMPLETED: Paid out", "Builder authorized (AuthorizeBuilder",
		"Goodbye: this session sent withdrawal q-"} {
		if n := strings.Count(out, line); n != 1 {
			t.Errorf("%q said %d times, want once", line, n)
		}
		i := strings.Index(out, line)
		if i < last {
			t.Errorf("%q is out of order", line)
		}
		last = i
	}
}

// TestPlainSevereLossOnATerminal is the newcomer's case: on a dumb
// terminal, 2 USDT to ARBITRUM with no fee cap loses 1.5 USDT (75%). The
// review says so and warns, and after the y a second question asks for a
// typed yes: a second y signs and sends nothing.
func TestPlainSevereLossOnATerminal(t *testing.T) {
	dir := t.TempDir()
	bin := buildStamped(t, dir)
	s := &ptyTyping{silentTerminal: startSilent(t, bin, silentEnv(dir, "TERM=dumb")), t: t}
	const short = 15 * time.Second
	s.answer("How do you log in?", "API key", short)
	s.answer("API key (not shown as you type): ", sandbox.DemoAPIKey, short)
	s.withdrawToArbitrum(short)
	s.answer("of the sandbox's address book, on ARBITRUM?", sandbox.DestCompleted, short)
	s.answer("Amount of USDT to pay", "2", short)
	s.answer("Fee cap in USDT", "none", short)
	s.waitFor("You lose: 1.5 USDT, 75% of the amount", short)
	s.waitFor("Warning: Most of this withdrawal goes to fees: you lose 1.5 USDT of the 2 USDT you pay (75%).", short)
	s.answerReviewed("[y/n] ", "y", short)
	s.answerReviewed("You lose 1.5 USDT, 75% of the amount, to fees. Withdraw all the same? Type yes if so, anything else stops: ", "y", short)
	s.waitFor("Not signed: nothing was signed or sent.", short)
	s.answer("What next?", "Back home", short)
	s.answer("Home: what next?", "Quit", short)
	if code := s.wait(short); code != 0 {
		t.Errorf("exit %d", code)
	}
	if out := s.output(); !strings.Contains(out, "Goodbye: nothing was signed or sent.") || strings.Contains(out, "Withdrawal accepted") {
		t.Errorf("transcript:\n%s", out)
	}
}

// TestPlainInterruptedOnATerminal: on a dumb terminal (TERM=dumb chooses
// plain mode), ctrl+c at a prompt says nothing was signed or sent and
// ends with exit status 130.
func TestPlainInterruptedOnATerminal(t *testing.T) {
	dir := t.TempDir()
	bin := buildStamped(t, dir)
	s := &ptyTyping{silentTerminal: startSilent(t, bin, silentEnv(dir, "TERM=dumb")), t: t}
	s.answer("How do you log in?", "1", 15*time.Second)
	s.waitFor("API key (not shown as you type): ", 15*time.Second)
	if _, err := s.ptmx.Write([]byte{3}); err != nil { // ctrl+c
		t.Fatal(err)
	}
	if code := s.wait(15 * time.Second); code != 130 {
		t.Errorf("exit %d, want 130", code)
	}
	if out := s.output(); !strings.Contains(out, "Interrupted: nothing was signed or sent.") || strings.IndexByte(out, 0x1b) >= 0 {
		t.Errorf("transcript:\n%q", out)
	}
}
