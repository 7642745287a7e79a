//go:build e2e && unix

package cli

import (
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/svcwallet/svcwallet/service/sandbox"
)

// TestWithdrawWrappedAtSixtyColumns: withdraw on a terminal 60 columns
// wide writes its review and its acceptance wrapped at spaces (plain.Fit),
// so the terminal splits no word at its edge: every line it writes is
// within 60 cells (its warning too) but a word wider alone (the digest)
// and the command that follows it, kept whole on a line of its own; the
// acceptance names the address whole.
func TestWithdrawWrappedAtSixtyColumns(t *testing.T) {
	r := newPasteRig(t)
	s := r.start(t, ptyStart{cols: 60}, "withdraw", "--chain", "arbitrum", "--to", sandbox.DestCompleted, "--amount", "25", "--max-fee", "2")
	const short = 15 * time.Second
	s.answerReviewed(" in environment rig? [y/N] ", "y", short)
	if code := s.wait(short); code != 0 {
		t.Fatalf("exit %d; transcript:\n%s", code, s.output())
	}
	out := s.output()
	t.Logf("transcript:\n%s", out)
	if !strings.Contains(out, "Withdrawal accepted") || !strings.Contains(out, "\r\n"+sandbox.DestCompleted+" on ARBITRUM\r\n") {
		t.Errorf("the acceptance is not wrapped before the address:\n%s", out)
	}
	if !strings.Contains(out, "\r\nFollow it:\r\nsvcwallet status q-") {
		t.Errorf("the command to follow it is not whole on a line of its own:\n%s", out)
	}
	for _, line := range strings.Split(out, "\r\n") {
		word := !strings.Contains(strings.TrimSpace(line), " ")
		if ansi.StringWidth(line) > 60 && !word && !strings.HasPrefix(line, "svcwallet status ") {
			t.Errorf("a line of %d cells: %q", ansi.StringWidth(line), line)
		}
	}
}
