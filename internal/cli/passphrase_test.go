package cli

import (
	"bytes"
	"context"
	"io"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/svcwallet/svcwallet/internal/exchangetest"
	"github.com/svcwallet/svcwallet/internal/plain"
	"github.com/svcwallet/svcwallet/service/sandbox"
	"github.com/svcwallet/svcwallet/signer"
)

// typingTerminal is a terminal read a key at a time by the gate: ahead is
// what was typed before the question, held until the gate's discard drops
// it; keys what is typed once it shows. Each string is one read, a second
// after the one before, so only a read of several keys is a paste.
type typingTerminal struct {
	mu          sync.Mutex
	ahead, keys []string
	now         time.Time
}

func (k *typingTerminal) gate() plain.Gate {
	return plain.Gate{
		Flush: func() (bool, error) {
			k.mu.Lock()
			defer k.mu.Unlock()
			held := len(k.ahead) > 0
			k.ahead = nil
			return held, nil
		},
		Now: func() time.Time {
			k.mu.Lock()
			defer k.mu.Unlock()
			return k.now
		},
		Keys: func() (io.ReadCloser, error) { return k, nil },
	}
}

func (k *typingTerminal) Read(b []byte) (int, error) {
	k.mu.Lock()
	defer k.mu.Unlock()
	queue := &k.keys
	if len(k.ahead) > 0 {
		queue = &k.ahead
	}
	if len(*queue) == 0 {
		return 0, io.EOF
	}
	k.now = k.now.Add(time.Second)
	n := copy(b, (*queue)[0])
	*queue = (*queue)[1:]
	return n, nil
}

func (k *typingTerminal) Close() error { return nil }

// line is what a line's read of the terminal takes: the keys up to Enter,
// typed ahead or not.
func (k *typingTerminal) line() (string, error) {
	var b strings.Builder
	for {
		var key [8]byte
		n, err := k.Read(key[:])
		if err != nil || strings.ContainsRune(string(key[:n]), '\r') {
			return b.String(), err
		}
		b.Write(key[:n])
	}
}

// typedKeys is s typed a key at a time.
func typedKeys(s string) []string { return strings.Split(s, "") }

// TestTypeAheadNeverUnlocksToSign: the passphrase that unlocks a keystore
// key to sign (here auth login's wallet signature, which asks nothing
// else) is held on a terminal to plain mode's rule: what was typed before
// the question is discarded and said, so a passphrase typed ahead signs
// nothing; a paste whose Enter came with it is asked again; typed once it
// shows, it unlocks. Piped stdin still reads one line.
func TestTypeAheadNeverUnlocksToSign(t *testing.T) {
	exchangetest.CheapScrypt(t, &signer.ScryptN, &signer.ScryptP)
	w, _ := newAuthWorld(t, sandbox.Options{})
	const pass = " right horse "
	_, file, err := signer.ImportRawKey(t.TempDir(), sandbox.DemoPrivateKey, pass)
	if err != nil {
		t.Fatal(err)
	}
	login := func(term *typingTerminal, stdin string) (int, string) {
		t.Helper()
		in := strings.NewReader(stdin)
		var out, errOut bytes.Buffer
		env := CLIEnv{Stdin: in, Stdout: &out, Stderr: &errOut, Getenv: func(string) string { return "" },
			ReadSecret: func(context.Context, string) (string, error) { return plain.ReadLine(in) }}
		if term != nil {
			env.Terminal = term.gate
			env.ReadSecret = func(context.Context, string) (string, error) {
				t.Error("the passphrase was read as a line on a terminal")
				return term.line()
			}
		}
		code := Run([]string{"auth", "login", "--keystore-file", file, "--config", w.config}, env)
		if strings.Contains(out.String()+errOut.String(), "horse") {
			t.Errorf("the passphrase was echoed:\n%s%s", out.String(), errOut.String())
		}
		return code, out.String() + errOut.String()
	}
	const discarded = "Discarded what was typed before this question."
	for name, tc := range map[string]struct {
		term   *typingTerminal
		stdin  string
		signed bool
		says   []string
	}{
		// The terminal then closes: no one typed ctrl+d.
		"typed ahead": {term: &typingTerminal{ahead: typedKeys(pass + "\r")}, says: []string{discarded,
			"the terminal closed before the passphrase was typed (it hung up, or its input ended): nothing was signed or sent"}},
		"ctrl+d": {term: &typingTerminal{keys: typedKeys("\x04")}, says: []string{"the terminal's input ended (ctrl+d) before the passphrase: nothing was signed or sent"}},
		"typed ahead, then typed": {term: &typingTerminal{ahead: typedKeys("wrong\r"), keys: typedKeys(pass + "\r")},
			signed: true, says: []string{discarded}},
		"pasted with its Enter": {term: &typingTerminal{keys: append([]string{pass + "\r"}, typedKeys(pass+"\r")...)},
			signed: true, says: []string{"Not taken: its Enter came with the paste."}},
		"pasted, Enter typed": {term: &typingTerminal{keys: []string{pass, "\r"}}, signed: true},
		"piped":               {stdin: pass + "\n", signed: true},
	} {
		code, said := login(tc.term, tc.stdin)
		if signed := code == 0 && strings.Contains(said, "Logged in to local"); signed != tc.signed {
			t.Errorf("%s: logged in %v, want %v: exit %d:\n%s", name, signed, tc.signed, code, said)
		}
		for _, s := range tc.says {
			if !strings.Contains(said, s) {
				t.Errorf("%s: does not say %q:\n%s", name, s, said)
			}
		}
		if !slices.Contains(tc.says, discarded) && strings.Contains(said, discarded) {
			t.Errorf("%s: says a discard of nothing:\n%s", name, said)
		}
		w.run("", nil, "auth", "logout")
	}
}
