package cli

import (
	"strings"
	"testing"

	"github.com/svcwallet/svcwallet/service/follow"
)

// endless is standard input that never ends: `yes q-1 | svcwallet status -`.
type endless struct{ n int64 }

func (e *endless) Read(p []byte) (int, error) {
	const line = "q-12345678\n"
	for i := range p {
		p[i] = line[(e.n+int64(i))%int64(len(line))]
	}
	e.n += int64(len(p))
	return len(p), nil
}

// TestStatusStdinBounded: standard input past follow.MaxIDsText (a log or
// a stream piped to status - by mistake) is refused, saying so, once the
// bound is read: it was read whole, 100 MB of ids holding 370 MB, and a
// stream that never ends grew until the system ended svcwallet. Input
// just under the bound is read.
func TestStatusStdinBounded(t *testing.T) {
	in := &endless{}
	_, _, err := readQuoteIDs(in)
	if err == nil || !strings.Contains(err.Error(), "standard input holds more than 16 MiB") {
		t.Fatalf("endless input: %v", err)
	}
	if in.n > follow.MaxIDsText+64<<10 {
		t.Errorf("read %d bytes of it, more than the bound", in.n)
	}
	under := strings.Repeat("q-12345678\n", (follow.MaxIDsText-1)/11)
	if ids, _, err := readQuoteIDs(strings.NewReader(under)); err != nil || len(ids) != 1 {
		t.Errorf("input under the bound: %d ids, %v", len(ids), err)
	}
}
