package plain

import (
	"bytes"
	"context"
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

// TestTypedBackNotEchoed: the answer that trusts a changed bridge address
// is read with echo off, as a passphrase is: a private key pasted there by
// mistake never shows (a plain terminal cannot take a line back), nor an
// address typed; a refusal says what was typed as the check words it
// (an address whole, so a typo shows; a key cut). Where the terminal
// reads no keys one at a time (Windows' console), it is read as a secret.
func TestTypedBackNotEchoed(t *testing.T) {
	const addr = "0x1111111111111111111111111111111111111111"
	key := strings.Repeat("ac0974be", 8)
	check := func(s string) error {
		if s != addr && s != "n" {
			return errors.New("not the new address")
		}
		return nil
	}
	answer, out := typedBack(t, false, []keyPress{{read, key}, {read, "\r"}, {read, " " + addr + " "}, {read, "\r"}}, check)
	if answer != addr || strings.Contains(out, key[:16]) || strings.Contains(out, addr) || !strings.Contains(out, "Not accepted: not the new address.") {
		t.Errorf("answer %q; wrote %q", answer, out)
	}
	// No keys: the line is read with echo off, and its Enter said.
	var secretOut bytes.Buffer
	clock := time.Unix(1, 0)
	p := NewPrompter(context.Background(), strings.NewReader(""), &secretOut, func(context.Context, func()) (string, error) {
		clock = clock.Add(read)
		return " " + addr, nil
	})
	p.gate = Gate{Flush: func() (bool, error) { return false, nil }, Now: func() time.Time { return clock }}
	if answer, err := p.TypedBack("Type it:", check); err != nil || answer != addr || secretOut.String() != "Type it: \n" {
		t.Errorf("without keys: %q, %v; wrote %q", answer, err, secretOut.String())
	}
}
