//go:build unix

package osguard

import (
	"errors"
	"github.com/svcwallet/svcwallet/internal/safetext"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// nobody is a uid that is neither root nor the tests' user.
const nobody = 65534

func skipUnlessRoot(t *testing.T) {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("giving a file to another user needs root")
	}
}

// privateTree is home/a/b/file, all the user's, HOME pointing at home.
func privateTree(t *testing.T) (home, a, b, file string) {
	t.Helper()
	home = t.TempDir()
	t.Setenv("HOME", home)
	a = filepath.Join(home, "a")
	b = filepath.Join(a, "b")
	if err := os.MkdirAll(b, 0o700); err != nil {
		t.Fatal(err)
	}
	file = filepath.Join(b, "file")
	if err := os.WriteFile(file, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	return home, a, b, file
}

// wantUnsafe checks that err refuses path, saying words, with fix.
func wantUnsafe(t *testing.T, err error, path, words, fix string) {
	t.Helper()
	var u *UnsafePathError
	if !errors.As(err, &u) || !strings.Contains(u.What, path+" ") || !strings.Contains(u.What, words) || !strings.Contains(u.Fix, fix) {
		t.Fatalf("got %v, want an UnsafePathError saying %q of %s with the fix %q", err, words, path, fix)
	}
}

// TestCheckPrivatePathModes: group- or other-writable files, and directories
// above them up to home, are refused with the chmod that fixes them, by the
// check and by OpenPrivate; a sticky directory above (like /tmp), and read
// bits, are fine.
func TestCheckPrivatePathModes(t *testing.T) {
	for _, tc := range []struct {
		name      string
		chmod     func(a, b, file string) (string, os.FileMode)
		refused   bool
		wantWords string
	}{
		{"owner only", func(_, _, f string) (string, os.FileMode) { return f, 0o600 }, false, ""},
		{"readable by all", func(_, _, f string) (string, os.FileMode) { return f, 0o644 }, false, ""},
		{"file group-writable", func(_, _, f string) (string, os.FileMode) { return f, 0o620 }, true, "writable by group or others (mode 0620)"},
		{"file others-writable", func(_, _, f string) (string, os.FileMode) { return f, 0o606 }, true, "writable by group or others (mode 0606)"},
		{"directory group-writable", func(_, b, _ string) (string, os.FileMode) { return b, 0o770 }, true, "(mode 0770)"},
		{"directory two above others-writable", func(a, _, _ string) (string, os.FileMode) { return a, 0o707 }, true, "(mode 0707)"},
		{"sticky directory writable by all", func(_, b, _ string) (string, os.FileMode) { return b, 0o777 | os.ModeSticky }, false, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, a, b, file := privateTree(t)
			path, mode := tc.chmod(a, b, file)
			// Chmod, not the create mode: the umask would mask the bits.
			if err := os.Chmod(path, mode); err != nil {
				t.Fatal(err)
			}
			err := CheckPrivatePath(file)
			f, openErr := OpenPrivate(file, os.O_RDONLY)
			if openErr == nil {
				f.Close()
			}
			if !tc.refused {
				if err != nil || openErr != nil {
					t.Fatalf("refused: %v; open: %v", err, openErr)
				}
				return
			}
			wantUnsafe(t, err, path, tc.wantWords, "chmod go-w "+path)
			wantUnsafe(t, openErr, path, tc.wantWords, "chmod go-w "+path)
		})
	}
}

// TestCheckPrivatePathOwners: a file or a directory above it that belongs to
// another user (not root) is refused, with the chown that fixes it.
func TestCheckPrivatePathOwners(t *testing.T) {
	skipUnlessRoot(t)
	for _, pick := range []string{"file", "its directory", "two directories up"} {
		t.Run(pick, func(t *testing.T) {
			_, a, b, file := privateTree(t)
			path := map[string]string{"file": file, "its directory": b, "two directories up": a}[pick]
			if err := os.Chown(path, nobody, nobody); err != nil {
				t.Fatal(err)
			}
			wantUnsafe(t, CheckPrivatePath(file), path, "belongs to another user (uid 65534)", `sudo chown "$USER" `+path)
			if pick == "file" {
				// The open alone, as when the file is swapped after the check.
				f, err := openNoFollow(file, os.O_RDONLY, 0)
				if err == nil {
					f.Close()
				}
				wantUnsafe(t, err, path, "belongs to another user", "chown")
			}
		})
	}
}

// TestCheckPrivatePathStopsAtHome: the walk stops at the home directory (it
// is checked, what is above it is not), and goes up to / for a file outside
// home. Without the stop a group-writable /home would refuse every file.
func TestCheckPrivatePathStopsAtHome(t *testing.T) {
	home, _, _, file := privateTree(t)
	above := filepath.Dir(home)
	if err := os.Chmod(above, 0o770); err != nil {
		t.Fatal(err)
	}
	if err := CheckPrivatePath(file); err != nil {
		t.Fatalf("a directory above home refused a file under it: %v", err)
	}
	t.Setenv("HOME", t.TempDir())
	wantUnsafe(t, CheckPrivatePath(file), above, "(mode 0770)", "chmod go-w "+above)

	t.Setenv("HOME", home)
	if err := os.Chmod(home, 0o770); err != nil {
		t.Fatal(err)
	}
	wantUnsafe(t, CheckPrivatePath(file), home, "(mode 0770)", "chmod go-w "+home)
}

// TestCheckPrivatePathFollowsLinks: a link (a dotfile manager's config) is
// judged by the file it points to and the directories above that file.
func TestCheckPrivatePathFollowsLinks(t *testing.T) {
	_, _, b, file := privateTree(t)
	elsewhere := filepath.Join(t.TempDir(), "shared")
	if err := os.Mkdir(elsewhere, 0o700); err != nil {
		t.Fatal(err)
	}
	real := filepath.Join(elsewhere, "config.toml")
	if err := os.WriteFile(real, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(b, "config.toml")
	if err := os.Symlink(real, link); err != nil {
		t.Fatal(err)
	}
	if err := CheckPrivatePath(link); err != nil {
		t.Fatalf("a link to a safe file refused: %v", err)
	}
	if err := os.Chmod(elsewhere, 0o777); err != nil {
		t.Fatal(err)
	}
	wantUnsafe(t, CheckPrivatePath(link), elsewhere, "(mode 0777)", "chmod go-w "+elsewhere)
	if err := CheckPrivatePath(file); err != nil {
		t.Fatalf("a file beside the link refused: %v", err)
	}
}

// TestOpenPrivateRefusesLinks: svcwallet's own files are opened without
// following a link, even one pointing at a file of the user's, and a
// dangling link does not create its target; nothing but a regular file is opened.
func TestOpenPrivateRefusesLinks(t *testing.T) {
	_, _, b, target := privateTree(t)
	link := filepath.Join(b, "journal.jsonl")
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	for _, flag := range []int{os.O_RDONLY, os.O_CREATE | os.O_APPEND | os.O_WRONLY} {
		f, err := OpenPrivate(link, flag)
		if err == nil {
			f.Close()
		}
		wantUnsafe(t, err, link, "is a symbolic link", "remove the link")
	}
	wantUnsafe(t, CheckPrivateFile(link), link, "is a symbolic link", "remove the link")
	// The open alone, as when the link is planted after the check.
	if f, err := openNoFollow(link, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o600); err == nil {
		f.Close()
		t.Fatal("the open followed a link")
	}
	if b, err := os.ReadFile(target); err != nil || string(b) != "x" {
		t.Fatalf("the link's target changed: %q, %v", b, err)
	}

	dangling := filepath.Join(b, "debug.log")
	planted := filepath.Join(b, "planted")
	if err := os.Symlink(planted, dangling); err != nil {
		t.Fatal(err)
	}
	if f, err := OpenPrivate(dangling, os.O_CREATE|os.O_WRONLY); err == nil {
		f.Close()
		t.Fatal("a dangling link was opened")
	}
	if _, err := os.Lstat(planted); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("the dangling link's target was created: %v", err)
	}

	fifo := filepath.Join(b, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	wantUnsafe(t, CheckPrivateFile(fifo), fifo, "is not a regular file", "move it away")

	plain := filepath.Join(b, "plain")
	f, err := OpenPrivate(plain, os.O_CREATE|os.O_WRONLY)
	if err != nil {
		t.Fatalf("a new file in a private directory refused: %v", err)
	}
	f.Close()
}

// TestOwnedByUs: an entry is ours when we own it or root does; another
// user's is refused whoever runs the tests (they run as root here, where
// every file is root's or ours).
func TestOwnedByUs(t *testing.T) {
	me := func() int { return 1000 }
	for uid, want := range map[int]bool{1000: true, 0: true, 1001: false, 65534: false} {
		if got := ownedByUs(uid, me); got != want {
			t.Errorf("uid %d owned by us: %v, want %v", uid, got, want)
		}
	}
}

// TestUnsafeHostileNamesEscaped: a file or a folder above it whose name
// holds what a terminal acts on is refused naming it escaped (Shown) and
// with no command naming it (RenameFirst): writable by others, or
// another user's.
func TestUnsafeHostileNamesEscaped(t *testing.T) {
	_, _, b, _ := privateTree(t)
	dir := filepath.Join(b, "dir\x1b]52;c;MHg5\a")
	file := filepath.Join(dir, "key\nfile")
	if err := os.Mkdir(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	type change struct {
		path  string
		apply func(string) error
	}
	changes := map[string]change{
		"file writable by others":   {file, func(p string) error { return os.Chmod(p, 0o622) }},
		"folder writable by others": {dir, func(p string) error { return os.Chmod(p, 0o770) }},
	}
	if os.Geteuid() == 0 { // only root gives a file to another user
		changes["file another user's"] = change{file, func(p string) error { return os.Chown(p, nobody, nobody) }}
		changes["folder another user's"] = change{dir, func(p string) error { return os.Chown(p, nobody, nobody) }}
	}
	for name, c := range changes {
		t.Run(name, func(t *testing.T) {
			if err := c.apply(c.path); err != nil {
				t.Fatal(err)
			}
			defer os.Chmod(dir, 0o700)
			defer os.Chmod(file, 0o600)
			defer os.Chown(dir, os.Getuid(), os.Getgid())
			defer os.Chown(file, os.Getuid(), os.Getgid())
			var u *UnsafePathError
			if err := CheckPrivatePath(file); !errors.As(err, &u) || strings.ContainsAny(u.What+u.Fix, "\x1b\a\n") || !strings.Contains(u.What, safetext.Shown(c.path)) || u.Fix != RenameFirst {
				t.Errorf("%q", err)
			}
		})
	}
}
