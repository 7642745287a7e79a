package osguard_test

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/svcwallet/svcwallet/internal/osguard"
)

// endless is a file that never ends (a sparse file of terabytes), counting
// what was read of it; past 64 MiB it gives up, so a reader without a bound
// fails the test instead of taking the machine's memory.
type endless struct{ n int64 }

func (e *endless) Read(p []byte) (int, error) {
	if e.n > 64<<20 {
		return 0, errors.New("read 64 MiB of it")
	}
	e.n += int64(len(p))
	return len(p), nil
}

// TestReadAtMostStopsAtItsBound: a file larger than the bound is refused
// once the bound is passed, never read whole; one within it is read.
func TestReadAtMostStopsAtItsBound(t *testing.T) {
	r := &endless{}
	_, err := osguard.ReadAtMost(r, "/x/config.toml", 1<<20)
	var tl *osguard.TooLargeError
	if !errors.As(err, &tl) || !strings.Contains(err.Error(), "/x/config.toml holds more than 1024 KiB") {
		t.Fatalf("an endless file: %v", err)
	}
	if r.n > 1<<20+64<<10 {
		t.Fatalf("read %d bytes of it, bound 1 MiB", r.n)
	}
	b, err := osguard.ReadAtMost(io.LimitReader(&endless{}, 1<<20), "f", 1<<20)
	if err != nil || len(b) != 1<<20 {
		t.Fatalf("a file of exactly the bound: %d bytes, %v", len(b), err)
	}
}

// TestReadAtMostRefusesALargerFileUnread: a regular file whose size is past
// the bound (a sparse one costs no disk) is refused with nothing read of
// it; the bound read first took as much memory for a refusal.
func TestReadAtMostRefusesALargerFileUnread(t *testing.T) {
	path := filepath.Join(t.TempDir(), "watchboard.json")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := f.Truncate(1 << 30); err != nil {
		t.Fatal(err)
	}
	_, err = osguard.ReadAtMost(f, path, 1<<20)
	if !errors.As(err, new(*osguard.TooLargeError)) {
		t.Fatalf("a sparse file of 1 GiB: %v", err)
	}
	if at, err := f.Seek(0, io.SeekCurrent); err != nil || at != 0 {
		t.Errorf("read %d bytes of it before refusing it (%v)", at, err)
	}
}
