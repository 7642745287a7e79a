package osguard_test

import (
	"errors"
	"io"
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
