//go:build unix

package cli

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/svcwallet/svcwallet/service/sandbox"
	"github.com/svcwallet/svcwallet/signer"
)

// TestUserFilesFIFO (issue 25 item 9): every file a command reads because
// the user named it (an offline submission, a password file, a keystore
// file, the config) is refused at once when it is a named pipe, naming it
// and what it is, instead of waiting for ever for a writer.
func TestUserFilesFIFO(t *testing.T) {
	lightScrypt(t)
	pipe := filepath.Join(t.TempDir(), "pipe")
	if err := syscall.Mkfifo(pipe, 0o600); err != nil {
		t.Fatal(err)
	}
	e := newBcliEnv(t)
	_, keystoreFile, err := signer.ImportRawKey(t.TempDir(), sandbox.DemoPrivateKey, cliPass)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		run  func() (int, string)
	}{
		{"withdraw submit", func() (int, string) { r := depositCmd(t, nil, "withdraw", "submit", pipe); return r.code, r.stderr }},
		{"key new --password-file", func() (int, string) {
			r := keyCmd(t, "", nil, "new", "--keystore", t.TempDir(), "--password-file", pipe)
			return r.code, r.stderr
		}},
		{"builder --password-file", func() (int, string) {
			r := bcli(t, nil, "", false, authorizeArgs(e, "--keystore-file", keystoreFile, "--password-file", pipe)...)
			return r.code, r.stderr
		}},
		{"builder --keystore-file", func() (int, string) {
			r := bcli(t, nil, cliPass+"\n", false, authorizeArgs(e, "--keystore-file", pipe)...)
			return r.code, r.stderr
		}},
		{"--config", func() (int, string) {
			r := depositCmd(t, nil, "status", "q-1", "--config", pipe)
			return r.code, r.stderr
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			type result struct {
				code   int
				stderr string
			}
			done := make(chan result, 1)
			go func() { code, stderr := tc.run(); done <- result{code, stderr} }()
			select {
			case r := <-done:
				if r.code == 0 || !strings.Contains(r.stderr, pipe+" is a named pipe (FIFO), not a regular file") {
					t.Fatalf("exit %d, want the pipe refused by name:\n%s", r.code, r.stderr)
				}
			case <-time.After(20 * time.Second):
				t.Fatal("still blocked on the named pipe after 20 s")
			}
		})
	}
	if e.requests.Load() != 0 {
		t.Errorf("%d requests with a named pipe for a file", e.requests.Load())
	}
}

// TestPasswordFileOpenToOthers (issue 25 item 5): a password file group or
// others may read or write is refused with the chmod that fixes it, and no
// key is written with its passphrase; made private, it is used.
func TestPasswordFileOpenToOthers(t *testing.T) {
	lightScrypt(t)
	dir := t.TempDir()
	pw := filepath.Join(t.TempDir(), "pw")
	if err := os.WriteFile(pw, []byte(cliPass+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r := keyCmd(t, "", nil, "new", "--keystore", dir, "--password-file", pw)
	if r.code == 0 || !strings.Contains(r.stderr, pw+" is open to group or others (mode 0644)") || !strings.Contains(r.stderr, "chmod 600 "+pw) {
		t.Fatalf("a 0644 password file: exit %d:\n%s", r.code, r.stderr)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Fatalf("%d files written with the passphrase of a password file others can read", len(entries))
	}
	e := newBcliEnv(t)
	_, keystoreFile, err := signer.ImportRawKey(t.TempDir(), sandbox.DemoPrivateKey, cliPass)
	if err != nil {
		t.Fatal(err)
	}
	b := bcli(t, nil, "", false, authorizeArgs(e, "--keystore-file", keystoreFile, "--password-file", pw)...)
	if b.code == 0 || !strings.Contains(b.stderr, "chmod 600 "+pw) || e.requests.Load() != 0 {
		t.Fatalf("a 0644 password file for a signature: exit %d, %d requests:\n%s", b.code, e.requests.Load(), b.stderr)
	}
	if err := os.Chmod(pw, 0o600); err != nil {
		t.Fatal(err)
	}
	if r := keyCmd(t, "", nil, "new", "--keystore", dir, "--password-file", pw); r.code != 0 {
		t.Fatalf("a 0600 password file: exit %d:\n%s", r.code, r.stderr)
	}
}
