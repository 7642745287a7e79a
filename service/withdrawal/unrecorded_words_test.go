package withdrawal_test

import (
	"errors"
	"testing"

	"github.com/svcwallet/svcwallet/service/withdrawal"
)

// TestBridgeUnrecordedWords: the bridge funding address not recorded is
// said in one sentence, the one every face places (the command line after
// "withdrawal … was accepted, but", plain mode as a sentence of its own,
// the console through Error), and nothing when it was recorded.
func TestBridgeUnrecordedWords(t *testing.T) {
	const want = "the bridge funding address 0xAbC could not be recorded (disk full): the next withdrawal trusts it on first use again"
	u := &withdrawal.UnrecordedError{QuoteID: "q-1", Bridge: errors.New("disk full"), Address: "0xAbC"}
	if got := u.BridgeUnrecorded(); got != want {
		t.Errorf("said %q, want %q", got, want)
	}
	if got := u.Error(); got != want {
		t.Errorf("Error %q, want %q", got, want)
	}
	if got := (&withdrawal.UnrecordedError{QuoteID: "q-1", Journal: errors.New("disk full")}).BridgeUnrecorded(); got != "" {
		t.Errorf("a recorded bridge address said %q", got)
	}
}
