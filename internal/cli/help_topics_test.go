package cli

import (
	"os"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/spf13/cobra"
)

// TestHelpIsShortAndTopicsSaidOnce: every command's --help is at most 60
// lines; what several commands share is a help topic (svcwallet help keys),
// said by no command's help, and printed once by the man page and once by
// docs/commands.md.
func TestHelpIsShortAndTopicsSaidOnce(t *testing.T) {
	root := newApp(CLIEnv{Getenv: func(string) string { return "" }}).rootCommand()
	var topics []*cobra.Command
	for _, c := range root.Commands() {
		if c.IsAdditionalHelpTopicCommand() {
			topics = append(topics, c)
		}
	}
	if len(topics) < 3 {
		t.Fatalf("%d help topics, want keys, environments and exit-status at least", len(topics))
	}
	// A topic's mark is the longest line of its first paragraph, which no
	// command's help has.
	mark := func(c *cobra.Command) string {
		m := ""
		for _, l := range strings.Split(strings.Split(c.Long, "\n\n")[0], "\n") {
			if l = strings.TrimSpace(l); len(l) > len(m) {
				m = l
			}
		}
		return m
	}

	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		r := depositCmd(t, nil, append(strings.Fields(strings.TrimPrefix(c.CommandPath(), "svcwallet")), "--help")...)
		if n := strings.Count(r.stdout, "\n"); n > 60 {
			t.Errorf("%s --help is %d lines, want at most 60", c.CommandPath(), n)
		}
		// The text is broken by hand at 80 columns; a longer line wraps into
		// a stray one-word line.
		for _, l := range strings.Split(c.Long, "\n") {
			if n := utf8.RuneCountInString(l); n > 80 {
				t.Errorf("%s --help has a line of %d columns, want at most 80: %q", c.CommandPath(), n, l)
			}
		}
		for _, tp := range topics {
			if strings.Contains(r.stdout, mark(tp)) {
				t.Errorf("%s --help repeats the %s topic", c.CommandPath(), tp.Name())
			}
		}
		for _, s := range c.Commands() {
			if s.IsAvailableCommand() {
				walk(s)
			}
		}
	}
	walk(root)

	doc, err := os.ReadFile(commandsDoc)
	if err != nil {
		t.Fatal(err)
	}
	man := manPage(root, time.Unix(0, 0))
	for _, tp := range topics {
		r := depositCmd(t, nil, "help", tp.Name())
		if r.code != 0 || !strings.Contains(r.stdout, mark(tp)) {
			t.Errorf("svcwallet help %s: exit %d, %q", tp.Name(), r.code, r.stdout)
		}
		if n := strings.Count(man, roffText(mark(tp))); n != 1 {
			t.Errorf("the man page says the %s topic %d times, want once", tp.Name(), n)
		}
		if n := strings.Count(string(doc), markdownText(mark(tp))); n != 1 {
			t.Errorf("%s says the %s topic %d times, want once", commandsDoc, tp.Name(), n)
		}
	}
}

// TestExitStatusTopicSaysAnAnswerThatMayHavePaid: help exit-status gives
// exit 5 to a withdraw answered with a 409, 9108 or an unnamed 4xx, as
// withdraw does (TestWithdrawQuoteUsedIsSaidAsAnswered) and in the words
// README and docs/scripting.md use; a script reading "no answer" alone took
// such an answer for one never sent.
func TestExitStatusTopicSaysAnAnswerThatMayHavePaid(t *testing.T) {
	r := depositCmd(t, nil, "help", "exit-status")
	topic := strings.Join(strings.Fields(r.stdout), " ")
	for _, want := range []string{"withdraw no answer to the request, or an answer that does not say whether it paid", "a 409, 9108, or a 3xx or 4xx the interface gives no meaning"} {
		if !strings.Contains(topic, want) {
			t.Errorf("help exit-status does not say %q:\n%s", want, r.stdout)
		}
	}
	for _, doc := range []string{"../../README.md", "../../docs/scripting.md"} {
		if b, err := os.ReadFile(doc); err != nil || !strings.Contains(string(b), "does not say whether it paid") {
			t.Errorf("%s does not say it in the same words (%v)", doc, err)
		}
	}
}

// TestExitStatusTopicSaysAUsedNonce: help exit-status gives exit 5 to a
// Transfer whose nonce the service says was used (withdraw submit after a
// restored state folder: most likely paid, TestSubmitAfterARestoreExitsUnknownSayingMostLikelyPaid),
// and 1 to a submit overtaken since it was prepared, as docs/scripting.md
// and README say: the topic read 1 as "nothing paid" for neither.
func TestExitStatusTopicSaysAUsedNonce(t *testing.T) {
	r := depositCmd(t, nil, "help", "exit-status")
	topic := strings.Join(strings.Fields(r.stdout), " ")
	for _, want := range []string{"a Transfer whose nonce the service says was used already", "since the Transfer was prepared"} {
		if !strings.Contains(topic, want) {
			t.Errorf("help exit-status does not say %q:\n%s", want, r.stdout)
		}
	}
	for _, doc := range []string{"../../README.md", "../../docs/scripting.md"} {
		if b, err := os.ReadFile(doc); err != nil || !strings.Contains(string(b), "nonce the service says was used") {
			t.Errorf("%s does not say a used nonce exits 5 (%v)", doc, err)
		}
	}
}

// TestScriptingExit5SaysResumeOfAnotherAccount: docs/scripting.md's exit 5
// names withdraw resume's withdrawal journaled as another account than the
// session's (withdrawal.SettledOtherAccount, exit 5 in withdrawCmd.resume),
// with the next step its message says: the row left it out.
func TestScriptingExit5SaysResumeOfAnotherAccount(t *testing.T) {
	b, err := os.ReadFile("../../docs/scripting.md")
	if err != nil {
		t.Fatal(err)
	}
	var row string
	for line := range strings.Lines(string(b)) {
		if strings.HasPrefix(line, "| 5 |") {
			row = line
		}
	}
	for _, want := range []string{"journaled as another account", "log in as that account", "withdraw resume"} {
		if !strings.Contains(row, want) {
			t.Errorf("docs/scripting.md's exit 5 row does not say %q: %s", want, row)
		}
	}
}
