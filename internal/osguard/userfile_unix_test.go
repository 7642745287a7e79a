//go:build unix

package osguard

import (
	"errors"
	"github.com/svcwallet/svcwallet/internal/safetext"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// fifo makes a named pipe in a private directory, with no writer.
func fifo(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "pipe")
	if err := syscall.Mkfifo(path, 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestOpenUserFileRefusesSpecialFiles (issue 25 item 9): a file the user
// names is opened without waiting, and anything but a regular file is
// refused naming the file and what it is; a regular file reads as usual.
func TestOpenUserFileRefusesSpecialFiles(t *testing.T) {
	dir := t.TempDir()
	sock := filepath.Join(dir, "sock")
	l, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	for path, kind := range map[string]string{fifo(t): "a named pipe (FIFO)", "/dev/null": "a character device", dir: "a directory"} {
		err := promptly(t, path, func() error {
			f, err := OpenUserFile(path)
			if err == nil {
				f.Close()
			}
			return err
		})
		wantUnsafe(t, err, path, "is "+kind+", not a regular file", "a regular file")
	}
	if _, err := OpenUserFile(sock); err == nil {
		t.Error("a socket was opened as a file")
	}
	plain := filepath.Join(dir, "plain")
	if err := os.WriteFile(plain, []byte("read me"), 0o600); err != nil {
		t.Fatal(err)
	}
	f, err := OpenUserFile(plain)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if b, err := io.ReadAll(f); err != nil || string(b) != "read me" {
		t.Fatalf("a regular file read %q, %v", b, err)
	}
}

// TestOwnFileSwappedForFIFO: a named pipe put at one of svcwallet's own
// paths after its check (OpenPrivate's open alone) is refused, not waited
// on, for reading and for appending.
func TestOwnFileSwappedForFIFO(t *testing.T) {
	path := fifo(t)
	for _, flag := range []int{os.O_RDONLY, os.O_RDWR | os.O_APPEND | os.O_CREATE, os.O_WRONLY} {
		err := promptly(t, path, func() error {
			f, err := openNoFollow(path, flag, 0o600)
			if err == nil {
				f.Close()
			}
			return err
		})
		if err == nil {
			t.Errorf("flag %#x: a named pipe was opened as one of svcwallet's files", flag)
		}
	}
}

// TestOpenSecretFile (issue 25 item 5): a password file is read only when
// it is the user's and no one else may read or change it (ssh's rule for a
// private key), and the directories above it are as CheckPrivatePath
// wants; each refusal names the file and the fix.
func TestOpenSecretFile(t *testing.T) {
	_, a, _, file := privateTree(t)
	f, err := OpenSecretFile(file)
	if err != nil {
		t.Fatalf("a 0600 password file was refused: %v", err)
	}
	f.Close()
	for _, mode := range []os.FileMode{0o644, 0o640, 0o604, 0o620, 0o602, 0o660} {
		if err := os.Chmod(file, mode); err != nil {
			t.Fatal(err)
		}
		_, err := OpenSecretFile(file)
		wantUnsafe(t, err, file, "is open to group or others", "chmod 600 "+file)
	}
	if err := os.Chmod(file, 0o400); err != nil {
		t.Fatal(err)
	}
	if f, err := OpenSecretFile(file); err != nil {
		t.Fatalf("a 0400 password file was refused: %v", err)
	} else {
		f.Close()
	}
	if err := os.Chmod(a, 0o777); err != nil {
		t.Fatal(err)
	}
	_, err = OpenSecretFile(file)
	wantUnsafe(t, err, a, "writable by group or others", "chmod go-w "+a)
	if err := os.Chmod(a, 0o700); err != nil {
		t.Fatal(err)
	}
	if os.Geteuid() == 0 {
		if err := os.Chown(file, nobody, nobody); err != nil {
			t.Fatal(err)
		}
		_, err = OpenSecretFile(file)
		wantUnsafe(t, err, file, "belongs to another user (uid 65534)", `sudo chown "$USER" `+file)
		// The opened file's own check, which holds when the file is
		// swapped after the path's check.
		fi, err := os.Stat(file)
		if err != nil {
			t.Fatal(err)
		}
		wantUnsafe(t, checkSecret(file, fi), file, "belongs to another user (uid 65534)", `sudo chown "$USER" `+file)
	}
	path := fifo(t)
	err = promptly(t, path, func() error { _, err := OpenSecretFile(path); return err })
	wantUnsafe(t, err, path, "is a named pipe (FIFO)", "a regular file")
}

// promptly runs f and fails the test when it has not returned within a
// bound far above its cost: an open that waits for a writer would block
// for ever.
func promptly[T any](t *testing.T, what string, f func() T) T {
	t.Helper()
	done := make(chan T, 1)
	go func() { done <- f() }()
	select {
	case v := <-done:
		return v
	case <-time.After(10 * time.Second):
		t.Fatalf("%s: still running after 10 s", what)
		panic("unreachable")
	}
}

// TestFixesQuotePaths (issue 33 item 11): the command a refusal names to
// make a file or a folder private is quoted for the shell: run as printed,
// a name with spaces, $(...), backticks, quotes or a newline comes back as
// one word, and nothing it says is run.
func TestFixesQuotePaths(t *testing.T) {
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("no sh")
	}
	dir := filepath.Join(t.TempDir(), "my dir $(touch PWNED)")
	if err := os.Mkdir(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	cwd := t.TempDir()
	for _, name := range []string{"pass `touch PWNED`", "it's \"q\"", "new\nline;touch PWNED"} {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte("x\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := OpenSecretFile(path)
		var u *UnsafePathError
		if safetext.Shown(path) != path { // a newline: no command names it
			if !errors.As(err, &u) || u.Fix != RenameFirst {
				t.Errorf("%q: %v names a command", name, err)
			}
			continue
		}
		if got := fixRunsAs(t, cwd, err); got != "600\x00"+path+"\x00" {
			t.Errorf("%q: %v runs as chmod %q", name, err, got)
		}
	}
	if os.Geteuid() == 0 { // only root gives a file to another user
		path := filepath.Join(dir, "theirs $(touch PWNED)")
		if err := os.WriteFile(path, nil, 0o600); err != nil {
			t.Fatal(err)
		}
		if err := os.Chown(path, 65534, 65534); err != nil {
			t.Fatal(err)
		}
		_, err := OpenSecretFile(path)
		if got := sudoRunsAs(t, cwd, err); got != "chown\x00me\x00"+path+"\x00" {
			t.Errorf("another user's file: %v runs as sudo %q", err, got)
		}
		theirs := filepath.Join(t.TempDir(), "their `touch PWNED` dir")
		if err := os.Mkdir(theirs, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Chown(theirs, 65534, 65534); err != nil {
			t.Fatal(err)
		}
		err = CheckPrivatePath(filepath.Join(theirs, "file"))
		if got := sudoRunsAs(t, cwd, err); got != "chown\x00me\x00"+theirs+"\x00" {
			t.Errorf("another user's folder: %v runs as sudo %q", err, got)
		}
	}
	if err := os.Chmod(dir, 0o770); err != nil {
		t.Fatal(err)
	}
	err := CheckPrivatePath(filepath.Join(dir, "file"))
	if got := fixRunsAs(t, cwd, err); got != "go-w\x00"+dir+"\x00" {
		t.Errorf("a folder writable by its group: %v runs as chmod %q", err, got)
	}
	if _, err := os.Stat(filepath.Join(cwd, "PWNED")); err == nil {
		t.Error("a printed fix ran what a name says")
	}
}

// fixRunsAs runs the chmod that err's fix names in sh, in cwd, with chmod
// stood in for by printf: its arguments, each ended by a NUL.
func fixRunsAs(t *testing.T, cwd string, err error) string {
	t.Helper()
	var u *UnsafePathError
	if !errors.As(err, &u) || !strings.Contains(u.Fix, "chmod ") {
		t.Fatalf("no chmod to fix %v", err)
	}
	run := exec.Command("sh", "-c", `chmod() { printf '%s\0' "$@"; }; `+u.Fix[strings.Index(u.Fix, "chmod "):])
	run.Dir = cwd
	out, rerr := run.Output()
	if rerr != nil {
		t.Errorf("sh: %v", rerr)
	}
	return string(out)
}

// sudoRunsAs is fixRunsAs for the sudo chown an owner's fix names, $USER
// being me.
func sudoRunsAs(t *testing.T, cwd string, err error) string {
	t.Helper()
	var u *UnsafePathError
	if !errors.As(err, &u) || !strings.Contains(u.Fix, "sudo chown ") {
		t.Fatalf("no sudo chown to fix %v", err)
	}
	fix, _, _ := strings.Cut(u.Fix[strings.Index(u.Fix, "sudo "):], "; else")
	run := exec.Command("sh", "-c", `sudo() { printf '%s\0' "$@"; }; USER=me; `+fix)
	run.Dir = cwd
	out, rerr := run.Output()
	if rerr != nil {
		t.Errorf("sh: %v", rerr)
	}
	return string(out)
}

// TestSecretFileNamedEscaped: a secret's file whose name holds what a
// terminal acts on (an escape, a newline) is refused naming it escaped
// (Shown), open to others or another user's alike, and with no command
// naming it, which would carry the escape (RenameFirst).
func TestSecretFileNamedEscaped(t *testing.T) {
	path := filepath.Join(t.TempDir(), "osc\x1b]52;c;MHg5\a\nline")
	if err := os.WriteFile(path, []byte("x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(path, 0o644); err != nil {
		t.Fatal(err)
	}
	owners := []bool{false}
	if os.Geteuid() == 0 { // only root gives a file to another user
		owners = append(owners, true)
	}
	for _, theirs := range owners {
		if theirs {
			if err := os.Chown(path, nobody, nobody); err != nil {
				t.Fatal(err)
			}
		}
		_, err := OpenSecretFile(path)
		var u *UnsafePathError
		if !errors.As(err, &u) || strings.ContainsAny(u.What+u.Fix, "\x1b\a\n") || !strings.Contains(u.What, safetext.Shown(path)) || u.Fix != RenameFirst {
			t.Errorf("another user's %v: the name is not escaped: %q", theirs, err)
		}
	}
}
