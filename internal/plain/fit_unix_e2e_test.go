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
// wide, a line said, a line question and one that signs are written
// wrapped at spaces to its width, so the terminal splits no address
// mid-word, and each question takes its answer; a line naming a command
// to run is written whole, to be copied as one.
func TestQuestionsWrappedOnASixtyColumnTerminal(t *testing.T) {
	p, ptmx, _, shown, reads := quietRig(t)
	if err := pty.Setsize(ptmx, &pty.Winsize{Rows: 24, Cols: 60}); err != nil {
		t.Fatal(err)
	}
	const sign = "Sign and withdraw 25 USDT to 0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC on ARBITRUM?"
	type result struct {
		dest string
		yes  bool
		err  error
	}
	done := make(chan result, 1)
	const said = "Logged in to sandbox by API key: funding account 0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266, account id 0x5f1c2e9a3b7d4c1308a6e2f9b0c4d7e1a2b3c4d5."
	const run = "To sign it without a question, run: svcwallet withdraw --env sandbox --chain ARBITRUM --to 0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC --amount 25 --yes"
	go func() {
		p.Say("%s", said)
		p.Say("%s", run)
		dest, err := p.Ask(strings.TrimSuffix(longQuestion, " "), nil)
		if err != nil {
			done <- result{err: err}
			return
		}
		yes, err := p.Confirm(func() string { return sign })
		done <- result{dest, yes, err}
	}()
	onTerminal := func(q string) string { return strings.ReplaceAll(fitTo(q, 60), "\n", "\r\n") }
	until(t, "the line said, wrapped", func() bool { return strings.Contains(shown.String(), onTerminal(said)+"\r\n") })
	until(t, "the command to run, whole", func() bool { return strings.Contains(shown.String(), "\r\n"+run+"\r\n") })
	until(t, "the destination question, wrapped", func() bool { return strings.Contains(shown.String(), onTerminal(longQuestion)) })
	io.WriteString(ptmx, "dest\n")
	until(t, "the question that signs, wrapped", func() bool { return strings.Contains(shown.String(), onTerminal(sign+" [y/n] ")) })
	for len(reads) > 0 {
		<-reads
	}
	for _, k := range []string{"y", "\r"} {
		io.WriteString(ptmx, k)
		<-reads
	}
	if r := <-done; r.err != nil || r.dest != "dest" || !r.yes {
		t.Fatalf("%+v; the terminal showed %q", r, ansi.Strip(shown.String()))
	}
}
