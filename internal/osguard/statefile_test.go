//go:build unix

package osguard

import (
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestWriteStateFileRefusesLinks: a state file written without being read
// first (every caller reads today) is still not replaced when it is a
// symbolic link, so a link planted there is not silently swapped.
func TestWriteStateFileRefusesLinks(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "target")
	if err := os.WriteFile(target, []byte("kept"), 0o600); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "state.json")
	if err := os.Symlink(target, path); err != nil {
		t.Fatal(err)
	}
	if err := WriteStateFile(path, []byte("new")); err == nil || !strings.Contains(err.Error(), path+" is a symbolic link") {
		t.Fatalf("WriteStateFile through a link: %v", err)
	}
	if fi, err := os.Lstat(path); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Fatalf("the link was replaced: %v", err)
	}
}

// TestStateFileRoundTrip: a state file is written 0600 in a 0700 folder
// made for it, read back as written, and replaced whole with no temporary
// file left beside it.
func TestStateFileRoundTrip(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "state", "svcwallet")
	path := filepath.Join(dir, "bridge.json")
	for _, body := range []string{`{"first":1}`, `{"second":2}`} {
		if err := WriteStateFile(path, []byte(body)); err != nil {
			t.Fatal(err)
		}
		got, err := ReadStateFileAtMost(path, 1<<10)
		if err != nil || string(got) != body {
			t.Fatalf("read back %q, %v; want %q", got, err, body)
		}
	}
	if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("the file's mode: %v %v", fi.Mode(), err)
	}
	if fi, err := os.Stat(dir); err != nil || fi.Mode().Perm() != 0o700 {
		t.Errorf("the folder's mode: %v %v", fi.Mode(), err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("left beside it: %v", entries)
	}
	if _, err := ReadStateFileAtMost(filepath.Join(dir, "missing"), 1<<10); !os.IsNotExist(err) {
		t.Errorf("a missing file: %v", err)
	}
}

// TestWriteStateFileRefusesOpenFiles: a state file others may change (mode
// 0666) is refused, not replaced with what they could have put there.
func TestWriteStateFileRefusesOpenFiles(t *testing.T) {
	path := filepath.Join(t.TempDir(), "watch.txt")
	if err := os.WriteFile(path, []byte("theirs"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(path, 0o666); err != nil {
		t.Fatal(err)
	}
	if err := WriteStateFile(path, []byte("mine")); err == nil {
		t.Fatal("a file open to others was replaced")
	}
	if b, _ := os.ReadFile(path); string(b) != "theirs" {
		t.Errorf("the file now holds %q", b)
	}
}

// TestCreateStateFile: both creators of a new private file (a state file,
// and a file the user names) write it 0600, never over an existing file
// nor through a link.
func TestCreateStateFile(t *testing.T) {
	for name, create := range map[string]func(string, []byte) error{"CreateStateFile": CreateStateFile, "CreateFile": CreateFile} {
		dir := t.TempDir()
		path := filepath.Join(dir, "prepared.json")
		if err := create(path, []byte("first")); err != nil {
			t.Fatal(name, err)
		}
		if err := create(path, []byte("second")); !os.IsExist(err) {
			t.Errorf("%s, an existing file: %v, want it to exist already", name, err)
		}
		if b, _ := os.ReadFile(path); string(b) != "first" {
			t.Errorf("%s: the file was replaced: %q", name, b)
		}
		if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o600 {
			t.Errorf("%s: mode %v, %v", name, fi.Mode(), err)
		}
		link := filepath.Join(dir, "link")
		if err := os.Symlink(filepath.Join(dir, "elsewhere"), link); err != nil {
			t.Fatal(err)
		}
		if err := create(link, []byte("through")); err == nil {
			t.Errorf("%s: a file was created through a link", name)
		}
		if _, err := os.Stat(filepath.Join(dir, "elsewhere")); err == nil {
			t.Errorf("%s: the link's target was written", name)
		}
	}
	if err := CreateStateFile(filepath.Join(t.TempDir(), "sub", "new.json"), nil); err != nil {
		t.Errorf("a state file's directory is made: %v", err)
	}
}

// TestGroupCmdRun: Run starts a child in its own group and waits for it,
// its exit status kept; one that cannot start says so.
func TestGroupCmdRun(t *testing.T) {
	g := GroupCommandContext(t.Context(), "sh", "-c", "exit 3")
	g.LendForeground() // no terminal here: nothing is lent
	err := g.Run()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 3 {
		t.Errorf("exit status: %v, want 3", err)
	}
	if err := GroupCommandContext(t.Context(), filepath.Join(t.TempDir(), "missing")).Run(); err == nil {
		t.Error("a missing program started")
	}
	if g.Cmd.SysProcAttr == nil || !g.Cmd.SysProcAttr.Setpgid {
		t.Error("the child did not lead a group of its own")
	}
}

// TestKindOf names each kind of file that is not a regular one.
func TestKindOf(t *testing.T) {
	for m, want := range map[os.FileMode]string{os.ModeDir: "a directory", os.ModeNamedPipe: "a named pipe (FIFO)", os.ModeSocket: "a socket",
		os.ModeDevice | os.ModeCharDevice: "a character device", os.ModeDevice: "a device", os.ModeIrregular: "a special file"} {
		if got := kindOf(m); got != want {
			t.Errorf("kindOf(%v) = %q, want %q", m, got, want)
		}
	}
}

// TestAFileNotFilledIsRemoved: a new file whose write fails half way is
// removed, so that a half-written file is never taken for done.
func TestAFileNotFilledIsRemoved(t *testing.T) {
	path := filepath.Join(t.TempDir(), "half")
	f, err := OpenPrivate(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL)
	if err != nil {
		t.Fatal(err)
	}
	full := errors.New("no space left on device")
	err = fill(f, func(w io.Writer) error {
		if _, err := w.Write([]byte(`{"half":`)); err != nil {
			return err
		}
		return full
	})
	if !errors.Is(err, full) {
		t.Fatalf("fill: %v, want the write's error", err)
	}
	if _, err := os.Lstat(path); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("the half-written file is still there: %v", err)
	}
}
