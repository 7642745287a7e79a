package plain

import (
	"errors"
	"io"
	"strings"
	"testing"
)

// TestReadLine: one line at a time, CR LF or LF, a last line without its
// newline, then io.EOF; an empty line is a value; a line over maxLine is
// refused.
func TestReadLine(t *testing.T) {
	in := strings.NewReader("first\r\nsecond\nlast")
	for _, want := range []string{"first", "second", "last"} {
		if got, err := ReadLine(in); err != nil || got != want {
			t.Fatalf("ReadLine = %q, %v; want %q", got, err, want)
		}
	}
	if _, err := ReadLine(in); !errors.Is(err, io.EOF) {
		t.Fatalf("after the last line: %v, want io.EOF", err)
	}
	// An empty line is a value (an empty passphrase), not the end.
	if got, err := ReadLine(strings.NewReader("\nnext")); err != nil || got != "" {
		t.Fatalf("empty line: %q, %v", got, err)
	}
	if _, err := ReadLine(strings.NewReader(strings.Repeat("a", maxLine+1))); err == nil {
		t.Fatal("over-long line accepted")
	}
}
