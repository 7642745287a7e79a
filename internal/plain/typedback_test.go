package plain

import (
	"errors"
	"strings"
	"testing"
	"time"
)

// TestTypedBackTakesNoTypeAheadNorPastedEnter: the answer that trusts a
// changed bridge address is held to the passphrase's rule on a terminal:
// what waited typed ahead is discarded and said, an answer within the
// dwell is refused, one whose Enter came with a paste is refused; an
// address pasted and its Enter typed after is taken. Asked with Ask, a
// paste of the address and its Enter trusted it at once.
func TestTypedBackTakesNoTypeAheadNorPastedEnter(t *testing.T) {
	const addr = "0x1111111111111111111111111111111111111111"
	check := func(s string) error {
		if s != addr && s != "n" {
			return errors.New("not the new address")
		}
		return nil
	}
	for name, tc := range map[string]struct {
		held  bool
		reads []keyPress
		says  []string
	}{
		"pasted with its Enter": {reads: []keyPress{{read, addr + "\r"}, {read, "n"}, {read, "\r"}}, says: []string{pastedEnterAnswer}},
		"typed too soon":        {reads: append(press(time.Millisecond, time.Millisecond*30, addr[:3]+"\r"), keyPress{read, "n"}, keyPress{read, "\r"}), says: []string{tooSoon}},
		"typed ahead":           {held: true, reads: []keyPress{{read, "n"}, {read, "\r"}}, says: []string{discardedWords}},
	} {
		answer, out := typedBack(t, tc.held, tc.reads, check)
		if answer != "n" {
			t.Errorf("%s: answer %q; wrote %q", name, answer, out)
		}
		for _, w := range tc.says {
			if !strings.Contains(out, w) {
				t.Errorf("%s: does not say %q: %q", name, w, out)
			}
		}
	}
	if answer, out := typedBack(t, false, []keyPress{{read, addr}, {read, "\r"}}, check); answer != addr {
		t.Errorf("an address pasted, its Enter typed: %q; wrote %q", answer, out)
	}
}

// typedBack asks TypedBack on fake keys; held: the terminal held keys
// typed ahead when first asked.
func typedBack(t *testing.T, held bool, reads []keyPress, check func(string) error) (string, string) {
	t.Helper()
	p, out := keysPrompter(t, &fakeKeys{now: time.Unix(1, 0), reads: reads}, held)
	answer, err := p.TypedBack("Type it:", check)
	if err != nil {
		t.Fatalf("%v; wrote %q", err, out.String())
	}
	return answer, out.String()
}
