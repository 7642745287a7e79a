package plain

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/exp/golden"

	"github.com/svcwallet/svcwallet/service/sandbox"
)

// TestJourney is the bar's journey in memory, against the sandbox: log in
// by API key, list the deposit addresses, generate SOLANA's, withdraw 25
// USDT to COMPLETED, authorize a builder, quit. The transcript is a golden
// file (times, ids and hashes replaced), read by eye: every prompt of the
// main flows, one question a line.
func TestJourney(t *testing.T) {
	r := newRig(t)
	out, err := r.run(steps(logIn,
		typed("deposit", "1", "SOLANA"),
		withdraw25, typed("y"),
		[]scripted{after("COMPLETED: ", "builder")}, typed(sandbox.BuilderAddress, "0.1", "0.05", "7d", "no", "y"),
		typed("quit"))...)
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	wants(t, out, "SOLANA deposit address ready: ", "Withdrawal accepted (SUBMITTED)", " SUBMITTED\n", "SUBMITTED → SENDING\n", "SENDING → COMPLETED\n",
		"Builder authorized (AuthorizeBuilder, nonce 4243).", "Goodbye: this session sent withdrawal q-")
	if strings.Contains(out, "\x1b") {
		t.Errorf("an escape sequence is written:\n%s", out)
	}
	if n := r.intents(); n != 1 {
		t.Errorf("%d withdrawals journaled, want 1", n)
	}
	golden.RequireEqual(t, []byte(normalized(out)))
}
