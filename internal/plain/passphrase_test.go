package plain

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/svcwallet/svcwallet/internal/exchangetest"
	"github.com/svcwallet/svcwallet/service/sandbox"
	"github.com/svcwallet/svcwallet/signer"
)

// askPassphrase asks a passphrase on keys, what the terminal holds unread
// before the question being held.
func askPassphrase(t *testing.T, held bool, reads ...[]keyPress) (string, string, error) {
	t.Helper()
	keys := &fakeKeys{now: time.Unix(1, 0)}
	for _, r := range reads {
		keys.reads = append(keys.reads, r...)
	}
	p, out := keysPrompter(t, keys, held)
	answer, err := p.Passphrase("Passphrase of k.json:")
	if keys.opened != keys.closed {
		t.Errorf("the terminal was put in key mode %d times and back %d", keys.opened, keys.closed)
	}
	return answer, out.String(), err
}

// keysPrompter is a prompter whose gate reads keys; held: the terminal
// held keys typed ahead when first asked. A secret is never read as a line.
func keysPrompter(t *testing.T, keys *fakeKeys, held bool) (*Prompter, *bytes.Buffer) {
	t.Helper()
	var out bytes.Buffer
	p := NewPrompter(context.Background(), strings.NewReader(""), &out, func(context.Context, func()) (string, error) {
		t.Fatal("a gate with keys read the passphrase as a line")
		return "", nil
	})
	p.gate = keys.gate()
	flush := p.gate.Flush
	p.gate.Flush = func() (bool, error) {
		_, err := flush()
		was := held
		held = false
		return was, err
	}
	return p, &out
}

// TestPassphrasePasteNeedsItsEnter: a passphrase pasted once the question
// shows is taken when its Enter is typed after it; one whose Enter came
// with the paste (one read, a burst, or inside a bracketed paste) is not
// taken, said, and asked again. A passphrase is never echoed.
func TestPassphrasePasteNeedsItsEnter(t *testing.T) {
	for name, paste := range map[string][]keyPress{
		"one read":  {{read, "right horse\r"}},
		"a burst":   {{read, "right horse"}, {time.Millisecond, "\r"}},
		"bracketed": {{read, "\x1b[200~right horse\r\x1b[201~"}},
	} {
		answer, out, err := askPassphrase(t, false, paste, []keyPress{{read, "other"}, {time.Second, "\r"}})
		if err != nil || answer != "other" || strings.Count(out, pastedEnterWords+"\n") != 1 || strings.Count(out, "Passphrase of k.json: ") != 2 {
			t.Errorf("%s: answer %q, %v; wrote %q", name, answer, err, out)
		}
		if strings.Contains(out, "horse") || strings.Contains(out, "other") {
			t.Errorf("%s: the passphrase was echoed: %q", name, out)
		}
	}
	for name, paste := range map[string][]keyPress{
		"plain":     {{read, "right horse"}, {time.Second, "\r"}},
		"bracketed": {{read, "\x1b[200~right horse\x1b[201~"}, {time.Second, "\r"}},
		"typed":     press(read, 90*time.Millisecond, "right horse\r"),
	} {
		answer, out, err := askPassphrase(t, false, paste)
		if err != nil || answer != "right horse" || out != "Passphrase of k.json: \n" {
			t.Errorf("%s: answer %q, %v; wrote %q", name, answer, err, out)
		}
	}
}

// TestLongPastedPassphrase: a pasted passphrase longer than one read of
// the keys is taken whole where a read cuts it within a character or a
// paste's mark; an Enter inside a bracketed paste whose reads come apart
// still came with the paste.
func TestLongPastedPassphrase(t *testing.T) {
	wide := strings.Repeat("パスワード", 5) // 75 bytes: the first read ends within a character
	long := strings.Repeat("right horse ", 5) + "staple"
	for name, paste := range map[string]struct {
		reads []keyPress
		want  string
	}{
		"wide":      {[]keyPress{{read, wide}, {time.Second, "\r"}}, wide},
		"bracketed": {[]keyPress{{read, "\x1b[200~" + long[:55] + "\x1b[201~"}, {time.Second, "\r"}}, long[:55]},
	} {
		answer, out, err := askPassphrase(t, false, paste.reads)
		if err != nil || answer != paste.want || out != "Passphrase of k.json: \n" {
			t.Errorf("%s: answer %q, %v; wrote %q", name, answer, err, out)
		}
	}
	answer, out, err := askPassphrase(t, false, []keyPress{{read, "\x1b[200~" + long}, {time.Second, "\r\x1b[201~"}},
		[]keyPress{{read, "other"}, {time.Second, "\r"}})
	if err != nil || answer != "other" || strings.Count(out, pastedEnterWords) != 1 {
		t.Errorf("an Enter inside a bracketed paste: answer %q, %v; wrote %q", answer, err, out)
	}
}

// TestPassphraseSaysTheDiscard: what the terminal held before the question
// is discarded and said in one line before it; nothing held, nothing said.
func TestPassphraseSaysTheDiscard(t *testing.T) {
	typed := press(read, 90*time.Millisecond, "pw\r")
	answer, out, err := askPassphrase(t, true, typed)
	if err != nil || answer != "pw" || out != discardedWords+"\nPassphrase of k.json: \n" {
		t.Errorf("answer %q, %v; wrote %q", answer, err, out)
	}
}

// TestTypeAheadDoesNotUnlock: a passphrase typed before its question shows
// neither unlocks a wallet login's key (which would sign the login with no
// further question) nor a withdrawal's after its y: it is discarded and
// said, and only what is typed once the question shows answers it.
func TestTypeAheadDoesNotUnlock(t *testing.T) {
	exchangetest.CheapScrypt(t, &signer.ScryptN, &signer.ScryptP)
	r := newRig(t)
	if _, _, err := signer.ImportRawKey(r.console.KeystoreDir, sandbox.DemoPrivateKey, "right horse"); err != nil {
		t.Fatal(err)
	}
	wrong := after("Passphrase of UTC--", "wrong horse")
	out, err := r.runPasting(steps(typed("Wallet signature", "keystore", "1", "right horse"), []scripted{wrong, wrong, wrong},
		[]scripted{after("Login failed", "API key")}, typed(sandbox.DemoAPIKey, "quit"))...)
	if err != nil {
		t.Fatal(err)
	}
	wants(t, out, discardedWords+"\nPassphrase of UTC--", "Login failed: wrong passphrase, 3 times", "Logged in to sandbox by API key")
	if strings.Contains(out, "by wallet") {
		t.Errorf("a passphrase typed ahead logged in:\n%s", out)
	}

	// Without the demo key, the reviews sign with the keystore's.
	r.console.Targets[0].Demo = nil
	out, err = r.runPasting(steps(logIn, withdraw25, []scripted{after("[y/n] ", "y")}, typed("right horse"))...)
	if err != nil {
		t.Fatal(err)
	}
	wants(t, out, "Sign and withdraw 25 USDT", discardedWords+"\nPassphrase of UTC--")
	if n, bal := r.intents(), r.ex.Balance(sandbox.DemoAccountID); n != 0 || bal.String() != "10000" {
		t.Errorf("%d withdrawals journaled, balance %s: a passphrase typed ahead signed:\n%s", n, bal, out)
	}
	out, err = r.runPasting(steps(logIn, builderForm, withKey("no"), []scripted{after("[y/n] ", "y")}, typed("right horse"))...)
	if err != nil {
		t.Fatal(err)
	}
	wants(t, out, "on spot, in environment sandbox? [y/n] ", discardedWords+"\nPassphrase of UTC--")
	if strings.Contains(out, "Builder authorized") {
		t.Errorf("a passphrase typed ahead authorized the builder:\n%s", out)
	}
}

// panicking is an output that fails as no writer should.
type panicking struct{}

func (panicking) Write([]byte) (int, error) { panic("the output broke") }

// TestPassphrasePutsTheTerminalBack: the terminal leaves key mode (echo
// off) however the passphrase's read ends, a panic too.
func TestPassphrasePutsTheTerminalBack(t *testing.T) {
	keys := &fakeKeys{now: time.Unix(1, 0), reads: []keyPress{{read, "pw"}, {time.Second, "\r"}}}
	p := NewPrompter(context.Background(), strings.NewReader(""), panicking{}, nil)
	p.gate = keys.gate()
	func() {
		defer func() { _ = recover() }()
		_, _ = p.Passphrase("Passphrase of k.json:")
	}()
	if keys.opened != 1 || keys.closed != 1 {
		t.Errorf("a panic: the terminal was put in key mode %d times and back %d", keys.opened, keys.closed)
	}
}

// TestPassphraseDropsALineReadAhead: a line read before the passphrase's
// question (a follow's stop at enter) neither answers it nor goes unsaid.
func TestPassphraseDropsALineReadAhead(t *testing.T) {
	var out bytes.Buffer
	p := NewPrompter(context.Background(), strings.NewReader("typed after\n"), &out, nil)
	p.gate = Gate{Flush: func() (bool, error) { return false, nil }, Now: readingClock()}
	ahead := make(chan lineRead, 1)
	ahead <- lineRead{line: "right horse"}
	p.pending = ahead
	answer, err := p.Passphrase("Passphrase of k.json:")
	if err != nil || answer != "typed after" || out.String() != discardedWords+"\nPassphrase of k.json: " {
		t.Errorf("answer %q, %v; wrote %q", answer, err, out.String())
	}
}

// TestPassphraseKeepsItsSpaces: a passphrase that begins or ends with a
// space (key new and the console take one) is taken as typed, read a key
// at a time or a line at a time; an empty one asks again.
func TestPassphraseKeepsItsSpaces(t *testing.T) {
	answer, _, err := askPassphrase(t, false, []keyPress{{read, " right horse "}, {time.Second, "\r"}})
	if err != nil || answer != " right horse " {
		t.Errorf("read a key at a time: %q, %v", answer, err)
	}
	lines := []string{"", " right horse "}
	var out bytes.Buffer
	p := NewPrompter(context.Background(), strings.NewReader(""), &out, func(context.Context, func()) (string, error) {
		line := lines[0]
		lines = lines[1:]
		return line, nil
	})
	p.gate = Gate{Flush: func() (bool, error) { return false, nil }, Now: readingClock()}
	if answer, err := p.Passphrase("Passphrase of k.json:"); err != nil || answer != " right horse " {
		t.Errorf("read a line at a time: %q, %v", answer, err)
	}
}

// TestPassphraseLineEditing: the hidden passphrase takes ctrl+w (the word
// before the end, and the spaces after it) and ctrl+u (all of it) as a
// terminal's line editor does, without echoing a key or an erase.
func TestPassphraseLineEditing(t *testing.T) {
	for typed, want := range map[string]string{
		"right hose\x17horse\r":      "right horse",
		"right horse  \x17stable\r":  "right stable",
		"\x17right\x17\x17horse\r":   "horse",
		"wrong one\x15right horse\r": "right horse",
	} {
		answer, out, err := askPassphrase(t, false, press(read, 90*time.Millisecond, typed))
		if err != nil || answer != want {
			t.Errorf("%q: answer %q, %v, want %q", typed, answer, err, want)
		}
		if out != "Passphrase of k.json: \n" {
			t.Errorf("%q: wrote %q, want the question alone", typed, out)
		}
	}
}
