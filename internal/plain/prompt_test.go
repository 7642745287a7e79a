package plain

import (
	"bytes"
	"context"
	"errors"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/svcwallet/svcwallet/service/sandbox"
)

// TestChooseByNumberOrName: a choice is taken by its number, its name in
// any case, or a name's unique beginning; an empty line asks again, and
// anything else says what to type before asking again.
func TestChooseByNumberOrName(t *testing.T) {
	options := []Option{{Name: "Withdraw USDT"}, {Name: "Look up a withdrawal's status"}, {Name: "SOLANA"}, {Name: "SOLANA_TEST"}}
	for _, tc := range []struct {
		typed string
		want  int
		said  []string
	}{
		{"2\n", 1, nil},
		{"solana\n", 2, nil},
		{"withdraw\n", 0, nil},
		{"LOOK\n", 1, nil},
		{"\n\n4\n", 3, nil},
		{"9\n1\n", 0, []string{"there is no choice 9: type a number from 1 to 4, or a name"}},
		{"sol\nsolana_t\n", 3, []string{`"sol" begins more than one choice`}},
		{"deposit\n3\n", 2, []string{`no choice is called "deposit"`}},
		// Repeated as the command line's refusals repeat a name
		// (safetext.NameQuoted): a private key pasted at the question was
		// said to its 40th digit, a recovery phrase to its 7th word, and a
		// look-alike letter read as the one it copies.
		{strings.TrimPrefix(sandbox.DemoPrivateKey, "0x") + "\n3\n", 2, []string{`no choice is called "ac0974be…"`}},
		{"legal winner thank year wave sausage worth useful legal winner thank yellow\n3\n", 2, []string{`no choice is called "…"`}},
		{"\u0412ASE\n3\n", 2, []string{`no choice is called "\u0412ASE"`}},
		{"solana\u200b\n3\n", 2, []string{`no choice is called "solana\u200b"`}},
		{"\x1b[31mso\n3\n", 2, []string{`no choice is called "\x1b[31mso"`}},
	} {
		var out bytes.Buffer
		p := NewPrompter(context.Background(), strings.NewReader(tc.typed), &out, nil)
		got, err := p.Choose("Which?", options)
		if err != nil || got != tc.want {
			t.Errorf("%q: choice %d, %v; want %d", tc.typed, got, err, tc.want)
		}
		asked := strings.Count(out.String(), "Choose 1 to 4, or type the name:")
		if want := strings.Count(tc.typed, "\n"); asked != want {
			t.Errorf("%q: asked %d times, want %d (once a line):\n%s", tc.typed, asked, want, out.String())
		}
		for _, s := range tc.said {
			wants(t, out.String(), "Not accepted: "+s)
		}
	}
}

// TestAskChecksEachAnswer: free text is checked as typed; the refusal is
// said and the question asked again; the input's end is ErrEnd.
func TestAskChecksEachAnswer(t *testing.T) {
	var out bytes.Buffer
	p := NewPrompter(context.Background(), strings.NewReader("\nabc\n25\n"), &out, nil)
	got, err := p.Ask("Amount:", func(s string) error {
		if s != "25" {
			return errors.New("type digits.")
		}
		return nil
	})
	if err != nil || got != "25" {
		t.Fatalf("%q, %v", got, err)
	}
	if out.String() != "Amount: Amount: Not accepted: type digits.\nAmount: " {
		t.Errorf("transcript %q", out.String())
	}
	if _, err := p.Ask("Amount:", nil); !errors.Is(err, ErrEnd) {
		t.Errorf("at the input's end: %v, want ErrEnd", err)
	}
}

// TestInputEndsQuitsCleanly: the input's end at any prompt quits plain
// mode without an error, saying what was signed or sent.
func TestInputEndsQuitsCleanly(t *testing.T) {
	r := newRig(t)
	for _, lines := range [][]scripted{nil, logIn, steps(logIn, withdraw25)} {
		out, err := r.run(lines...)
		if err != nil {
			t.Errorf("after %d lines: %v", len(lines), err)
		}
		wants(t, out, "The input ended: quitting; nothing was signed or sent.\n")
	}
}

// TestInterruptedAtAPrompt: ctrl+c (the context's end) at a prompt ends
// plain mode with ErrInterrupted, saying nothing was signed or sent, or
// what this session sent.
func TestInterruptedAtAPrompt(t *testing.T) {
	r := newRig(t)
	for _, tc := range []struct {
		name         string
		lines        []scripted
		prompt, said string
	}{
		{"at the login", nil, "How do you log in?", "\nInterrupted: nothing was signed or sent.\n"},
		{"at the review", steps(logIn, withdraw25), "[y/n] ", "\nInterrupted: nothing was signed or sent.\n"},
		{"after a withdrawal", steps(logIn, withdraw25, typed("y")), "COMPLETED: ",
			"\nInterrupted: this session sent withdrawal q-"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			out := newTranscript()
			// The user types the lines, then nothing: ctrl+c comes at the
			// prompt they leave open.
			never := make(chan struct{})
			defer close(never)
			in := io.MultiReader(&script{lines: tc.lines, out: out}, blocked(never))
			done := make(chan error, 1)
			go func() { done <- r.console.Run(ctx, in, out, nil) }()
			if !out.waitFor(tc.prompt, stall) {
				t.Fatalf("no %q:\n%s", tc.prompt, out)
			}
			cancel()
			select {
			case err := <-done:
				if !errors.Is(err, ErrInterrupted) {
					t.Errorf("ended with %v, want ErrInterrupted", err)
				}
			case <-time.After(stall):
				t.Fatalf("still running after ctrl+c:\n%s", out)
			}
			wants(t, out.String(), tc.said)
		})
	}
}

// blocked is input the user never types: a read waits, as a terminal's
// does through ctrl+c, until the test ends.
type blocked chan struct{}

func (b blocked) Read([]byte) (int, error) {
	<-b
	return 0, io.EOF
}

// secretsRead is a secret reader at a terminal answering secrets in turn,
// its prompt drawn first.
func secretsRead(secrets ...string) func(context.Context, func()) (string, error) {
	return func(_ context.Context, prompt func()) (string, error) {
		prompt()
		s := secrets[0]
		secrets = secrets[1:]
		return s, nil
	}
}

// TestSecretNeverEchoed: a secret is read by the secret reader when there
// is one (a terminal, echo off), and an empty one asks again.
func TestSecretNeverEchoed(t *testing.T) {
	var out bytes.Buffer
	p := NewPrompter(context.Background(), strings.NewReader(""), &out, secretsRead("", sandbox.DemoAPIKey))
	got, err := p.Secret("API key (not shown as you type):")
	if err != nil || got != sandbox.DemoAPIKey {
		t.Fatalf("%q, %v", got, err)
	}
	if out.String() != "API key (not shown as you type): \nAPI key (not shown as you type): \n" {
		t.Errorf("transcript %q", out.String())
	}
}

// TestSecretWithMoreLinesNotTaken: a secret whose line came with more,
// held by the terminal (a recovery phrase pasted one numbered word a line),
// is not taken and the rest dropped unread: the first line was sent as the
// API key, and each other answered the next question, which said it back.
func TestSecretWithMoreLinesNotTaken(t *testing.T) {
	var out bytes.Buffer
	flushes := 0
	p := NewPrompter(context.Background(), strings.NewReader(""), &out, secretsRead("01.legal", sandbox.DemoAPIKey))
	now, after := waitedClock()
	// The rest held once after the first line; the paste then pauses.
	p.gate = Gate{Flush: func() (bool, error) { flushes++; return flushes == 1, nil }, Now: now, After: after}
	got, err := p.Secret("API key (not shown as you type):")
	if err != nil || got != sandbox.DemoAPIKey {
		t.Fatalf("%q, %v", got, err)
	}
	if want := "API key (not shown as you type): \n" + pastedLinesWords + "\nAPI key (not shown as you type): \n"; out.String() != want {
		t.Errorf("transcript %q, want %q", out.String(), want)
	}
}

// TestWanted: plain mode is chosen by --plain, $SVCWALLET_PLAIN or
// $ACCESSIBLE set true (as huh reads it), or TERM=dumb; a choice made
// (--plain=false, SVCWALLET_PLAIN=0) opens the full screen even there, and
// a variable set false chooses nothing.
func TestWanted(t *testing.T) {
	on, off := true, false
	for _, tc := range []struct {
		flag *bool
		vars map[string]string
		want bool
	}{
		{nil, nil, false},
		{&on, nil, true},
		{nil, map[string]string{PlainVar: "1"}, true},
		{nil, map[string]string{PlainVar: "0"}, false},
		{nil, map[string]string{"ACCESSIBLE": "true"}, true},
		{nil, map[string]string{"ACCESSIBLE": "false"}, false},
		{nil, map[string]string{"TERM": "dumb"}, true},
		{nil, map[string]string{"TERM": "dumb", PlainVar: "0"}, false},
		{&off, map[string]string{"TERM": "dumb", "ACCESSIBLE": "1"}, false},
		{&on, map[string]string{PlainVar: "0"}, true},
		{nil, map[string]string{"TERM": "xterm-256color", "NO_COLOR": "1"}, false},
	} {
		if got := Wanted(tc.flag, func(k string) string { return tc.vars[k] }); got != tc.want {
			t.Errorf("--plain %v, %v: %v, want %v", tc.flag, tc.vars, got, tc.want)
		}
	}
}
