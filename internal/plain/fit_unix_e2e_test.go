//go:build e2e && (aix || darwin || dragonfly || freebsd || linux || netbsd || openbsd || solaris || zos)

package plain

import (
	"io"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/creack/pty"
)

// TestQuestionsWrappedOnASixtyColumnTerminal: on a terminal 60 columns
// wide, a choice's title, a line question (one before a secret too), a
// secret's, one that signs and a passphrase's are written wrapped at
// spaces to its width, so the terminal splits no word (an address)
// mid-word, and each takes its answer.
func TestQuestionsWrappedOnASixtyColumnTerminal(t *testing.T) {
	p, ptmx, tty, shown, reads := quietRig(t)
	if err := pty.Setsize(tty, &pty.Winsize{Rows: 24, Cols: 60}); err != nil {
		t.Fatal(err)
	}
	const chooseTitle = "Withdraw USDT from the funding account, through sandbox-bridge, to which chain?"
	const sign = "Sign and withdraw 25 USDT to 0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC on ARBITRUM?"
	const quiet = "Path of the keystore file (such as ~/keys/UTC--2026-12-02T01-00-00.000000000Z--f39fd6e5):"
	const secret = "API key of the environment called sandbox, from its API key list (not shown as you type):"
	const passphrase = "Passphrase of UTC--2026-12-02T01-00-00.000000000Z--f39fd6e51aad88f6f4ce6ab8827279cfffb92266 (not shown as you type):"
	type result struct {
		dest, pass string
		yes        bool
		err        error
	}
	done := make(chan result, 1)
	go func() {
		if _, err := p.Choose(chooseTitle, Options("ARBITRUM", "BASE")); err != nil {
			done <- result{err: err}
			return
		}
		p.BeforeSecret() // read a key at a time, then a secret
		if _, err := p.Ask(quiet, nil); err != nil {
			done <- result{err: err}
			return
		}
		if _, err := p.Secret(secret); err != nil {
			done <- result{err: err}
			return
		}
		dest, err := p.Ask(strings.TrimSuffix(longQuestion, " "), nil)
		if err != nil {
			done <- result{err: err}
			return
		}
		yes, err := p.Confirm(func() string { return sign })
		if err != nil {
			done <- result{err: err}
			return
		}
		pass, err := p.Passphrase(passphrase)
		done <- result{dest, pass, yes, err}
	}()
	onTerminal := func(q string) string { return strings.ReplaceAll(fitTo(q, 60), "\n", "\r\n") }
	until(t, "the choice's title, wrapped", func() bool { return strings.Contains(shown.String(), onTerminal(chooseTitle)+"\r\n") })
	io.WriteString(ptmx, "1\n")
	until(t, "the question before a secret, wrapped", func() bool { return strings.Contains(shown.String(), onTerminal(quiet+" ")) })
	io.WriteString(ptmx, "k\r")
	until(t, "the secret's question, wrapped", func() bool { return strings.Contains(shown.String(), onTerminal(secret+" ")) })
	io.WriteString(ptmx, "s\n")
	until(t, "the destination question, wrapped", func() bool { return strings.Contains(shown.String(), onTerminal(longQuestion)) })
	io.WriteString(ptmx, "dest\n")
	until(t, "the question that signs, wrapped", func() bool { return strings.Contains(shown.String(), onTerminal(sign+" [y/n] ")) })
	for len(reads) > 0 {
		within(t, "a read of the keys", reads)
	}
	for _, k := range []string{"y", "\r"} {
		io.WriteString(ptmx, k)
		within(t, "a read of the keys", reads)
	}
	until(t, "the passphrase's question, wrapped", func() bool { return strings.Contains(shown.String(), onTerminal(passphrase+" ")) })
	for _, k := range []string{"p", "w", "\r"} {
		io.WriteString(ptmx, k)
		within(t, "a read of the keys", reads)
	}
	if r := within(t, "the answer", done); r.err != nil || r.dest != "dest" || !r.yes || r.pass != "pw" {
		t.Fatalf("%+v; the terminal showed %q", r, ansi.Strip(shown.String()))
	}
}

// TestLinesSaidWrappedOnASixtyColumnTerminal: on a terminal 60 columns
// wide, a line said is written wrapped at spaces, so the terminal splits
// no address mid-word; a command to run in a line is written whole, on a
// line of its own, to be copied as one, the words before it wrapped.
func TestLinesSaidWrappedOnASixtyColumnTerminal(t *testing.T) {
	p, _, tty, shown, _ := quietRig(t)
	if err := pty.Setsize(tty, &pty.Winsize{Rows: 24, Cols: 60}); err != nil {
		t.Fatal(err)
	}
	const said = "Logged in to sandbox by API key: funding account 0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266, account id 0x5f1c2e9a3b7d4c1308a6e2f9b0c4d7e1a2b3c4d5."
	const run = "To sign it without a question, run: svcwallet withdraw --env sandbox --chain ARBITRUM --to 0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC --amount 25 --yes"
	p.Say("%s", said)
	p.Say("%s", run)
	onTerminal := func(q string) string { return strings.ReplaceAll(fitTo(q, 60), "\n", "\r\n") }
	until(t, "the line said, wrapped", func() bool { return strings.Contains(shown.String(), onTerminal(said)+"\r\n") })
	command := run[strings.Index(run, "svcwallet"):]
	until(t, "the command to run, whole on its line", func() bool {
		return strings.Contains(shown.String(), "To sign it without a question, run:\r\n"+command+"\r\n")
	})
}

// TestGateWordsWrappedOnASixtyColumnTerminal: on a terminal 60 columns
// wide, the gate's own words (here a paste refused) are wrapped at spaces
// as a line said is: written as they were, the terminal split a word.
func TestGateWordsWrappedOnASixtyColumnTerminal(t *testing.T) {
	p, ptmx, tty, shown, reads := quietRig(t)
	if err := pty.Setsize(tty, &pty.Winsize{Rows: 24, Cols: 60}); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() {
		_, err := p.Confirm(func() string { return "Sign?" })
		done <- err
	}()
	until(t, "the question", func() bool { return strings.Contains(shown.String(), "Sign? [y/n] ") })
	io.WriteString(ptmx, "y\r") // one read: a paste
	wrapped := strings.ReplaceAll(fitTo(pasted, 60), "\n", "\r\n")
	until(t, "the paste refused, wrapped", func() bool { return strings.Contains(shown.String(), wrapped+"\r\n") })
	// Typed before the question is asked again, a key is discarded unseen.
	until(t, "the question asked again", func() bool { return strings.Count(shown.String(), "Sign? [y/n] ") >= 2 })
	for len(reads) > 0 {
		within(t, "a read of the keys", reads)
	}
	for _, k := range []string{"n", "\r"} {
		io.WriteString(ptmx, k)
		within(t, "a read of the keys", reads)
	}
	if err := within(t, "the answer", done); err != nil {
		t.Fatalf("%v; the terminal showed %q", err, ansi.Strip(shown.String()))
	}
}

// TestFittedForFollowsAResize: a writer made Fitted on a terminal fits
// each write to the terminal's width as it is then: resized from 100 to 60
// columns while a command runs, its next line is wrapped at 60.
func TestFittedForFollowsAResize(t *testing.T) {
	ptmx, tty, err := pty.Open()
	if err != nil {
		t.Fatalf("open a pseudo-terminal: %v", err)
	}
	t.Cleanup(func() { tty.Close(); ptmx.Close() })
	const line = "Withdrawal q-ugfdocdemmbg4sulegf5gzdzcy is SENDING: the bridge pays out on ARBITRUM.\n"
	var out strings.Builder
	w := FittedFor(&out, tty)
	for _, cols := range []uint16{100, 60} {
		if err := pty.Setsize(ptmx, &pty.Winsize{Rows: 24, Cols: cols}); err != nil {
			t.Fatal(err)
		}
		out.Reset()
		io.WriteString(w, line)
		if wrapped := strings.Count(out.String(), "\n") > 1; wrapped != (cols < 100) {
			t.Errorf("at %d columns wrapped %v: %q", cols, wrapped, out.String())
		}
	}
}
