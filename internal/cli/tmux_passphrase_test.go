//go:build e2e && unix

package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/svcwallet/svcwallet/service/sandbox"
	"github.com/svcwallet/svcwallet/signer"
)

// TestTmuxTypedAheadPassphraseSignsNothing: `withdraw --yes --keystore-file`
// in a real terminal, its passphrase typed before svcwallet started (held
// by the terminal while the shell waits on a fifo), asks again and says
// the discard: nothing is signed; the passphrase pasted with its Enter is
// asked again; typed a key at a time, it signs. The same with stderr to a
// file: the passphrase is asked and read on the terminal all the same.
func TestTmuxTypedAheadPassphraseSignsNothing(t *testing.T) {
	r := newWithdrawRig(t, sandbox.Options{})
	const pass = "ahead-pass"
	_, keyFile, err := signer.ImportRawKey(filepath.Join(r.home, "keys"), sandbox.DemoPrivateKey, pass)
	if err != nil {
		t.Fatal(err)
	}
	r.must("set-buffer", "-b", "pasted", pass+"\n")
	for i, toFile := range []bool{false, true} {
		t.Logf("stderr to a file: %v", toFile)
		fifo := filepath.Join(r.home, fmt.Sprint("go", i))
		if err := syscall.Mkfifo(fifo, 0o600); err != nil {
			t.Fatal(err)
		}
		// With stderr to a file the question is on the terminal all the
		// same: the person typing sees it.
		stderr, said := "", r.pane
		if toFile {
			stderr = "2>" + filepath.Join(r.home, "stderr")
		}
		r.must("respawn-pane", "-k", "-t", "main", fmt.Sprintf("cat %s >/dev/null; env %s SVCWALLET_API_KEY=%s %s withdraw --chain arbitrum --to %s --amount 25 --yes --keystore-file %s %s; echo exit=$?",
			fifo, r.homeEnv(), sandbox.DemoAPIKey, r.bin, sandbox.DestCompleted, keyFile, stderr))
		r.keys("-l", pass)
		r.keys("Enter")
		r.waitShows(pass) // echoed by the terminal: it holds the line before svcwallet runs
		if err := os.WriteFile(fifo, nil, 0o600); err != nil {
			t.Fatal(err)
		}
		waitSays := func(texts ...string) {
			t.Helper()
			r.waitFor(strings.Join(texts, ", "), func() bool {
				s := said()
				for _, x := range texts {
					if !strings.Contains(s, x) {
						return false
					}
				}
				return true
			})
		}
		waitSays("Discarded what was typed before this question.", "Passphrase for")
		r.must("paste-buffer", "-p", "-b", "pasted", "-t", "main")
		// Asked again once what was typed before it is discarded: a key
		// typed sooner is dropped, the passphrase read without it.
		r.waitFor("the passphrase refused, then asked again", func() bool {
			s := said()
			at := strings.LastIndex(s, "Not taken: its Enter came with the paste.")
			return at >= 0 && strings.Contains(s[at:], "Passphrase for")
		})
		if b := r.srv.Exchange.Balance(sandbox.DemoAccountID); b.String() != fmt.Sprint(10000-25*i) {
			t.Fatalf("stderr to a file %v: a passphrase typed ahead or pasted with its Enter signed: balance %s\n%s", toFile, b, said())
		}
		r.typedUnseen(append(strings.Split(pass, ""), "Enter")...)
		waitSays("exit=0")
		// The terminal echoed the line typed ahead; nothing echoes one typed or pasted once asked.
		if s := said(); strings.Contains(s[strings.LastIndex(s, "Discarded what was typed"):], pass) {
			t.Errorf("stderr to a file %v: the passphrase was echoed:\n%s", toFile, s)
		}
	}
	if b := r.srv.Exchange.Balance(sandbox.DemoAccountID); b.String() != "9950" {
		t.Errorf("balance %s after two withdrawals", b)
	}
}

// typedUnseen types keys as typedAt does, each once the ones before it were
// read (keysRead): a hidden answer shows nothing as it is read. Read late
// on a busy machine, two keys came as one paste, and an Enter with one
// was refused.
func (s *tmuxSession) typedUnseen(keys ...string) {
	s.t.Helper()
	for i, k := range keys {
		if i > 0 {
			s.keysRead(fmt.Sprintf("%q read", keys[i-1]))
			time.Sleep(typingGap)
		}
		s.keys(k)
	}
}

// keysRead waits until the pane's terminal holds none of the keys sent
// unread (its input queue empty), asked after a later tmux command, which
// tmux answers once it wrote them.
func (s *tmuxSession) keysRead(what string) {
	s.t.Helper()
	tty, err := os.OpenFile(strings.TrimSpace(s.must("display-message", "-p", "-t", "main", "#{pane_tty}")), os.O_RDONLY|syscall.O_NOCTTY, 0)
	if err != nil {
		s.t.Fatal(err)
	}
	defer tty.Close()
	s.waitFor(what, func() bool {
		n, err := unreadKeys(tty)
		return err == nil && n == 0
	})
}
