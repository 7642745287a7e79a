package follow_test

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/follow"
)

// TestParseQuoteIDsSplitKey (issue 25 item 4): a key wrapped over two
// lines is refused as the whole key is: every line it touches is malformed
// with exchange.ErrKeyShape, and none of its halves is an id; the lines
// around it are read. Ids of 32 hex digits apart are ids.
func TestParseQuoteIDsSplitKey(t *testing.T) {
	key := strings.Repeat("5e", 16) + strings.Repeat("a7", 16)
	for _, split := range []bool{false, true} {
		ids, _, bad := follow.ParseQuoteIDs("q-1\n0x"+key[:32]+"\r\n"+key[32:]+"  # mine\nq-2", split)
		if !slices.Equal(ids, []string{"q-1", "q-2"}) || len(bad) != 2 || bad[0].Line != 2 || bad[1].Line != 3 {
			t.Fatalf("split %v: ids %q, %d malformed", split, ids, len(bad))
		}
		for _, m := range bad {
			if !errors.Is(m.Err, exchange.ErrKeyShape) {
				t.Errorf("split %v: line %d refused for %v, not the key's shape", split, m.Line, m.Err)
			}
		}
	}
	for _, sep := range []string{" ", ",", "-", ".", ":"} {
		ids, _, bad := follow.ParseQuoteIDs(key[:32]+sep+key[32:], true)
		if len(ids) != 0 || len(bad) != 1 || !errors.Is(bad[0].Err, exchange.ErrKeyShape) {
			t.Errorf("a key split by %q on one line: ids %q, %d malformed", sep, ids, len(bad))
		}
	}
	ids, _, bad := follow.ParseQuoteIDs(key[:32]+"\nq-1\n"+key[32:], false)
	if len(ids) != 3 || len(bad) != 0 {
		t.Errorf("ids of 32 hex digits apart: ids %q, %d malformed", ids, len(bad))
	}
}

// TestCheckTypedID (issue 28 item 2): the board's field takes pieces of a
// generated id's shape, never the words of a line or a passphrase.
func TestCheckTypedID(t *testing.T) {
	for _, id := range []string{"q-7mzq4d2kxw5v3c6hbf2ytjnr1e", "q-mqekavustnsyqkfkgvnwfmhrrf", "5f0c9e1b-7a3d-4c2e-8f6a-1b0c9d8e7f6a",
		"1234567890123456789", "tx-00000001", "q-gone-404"} {
		if err := follow.CheckTypedID(id); err != nil {
			t.Errorf("%s refused: %v", id, err)
		}
	}
	for _, w := range []string{"correct", "horse", "battery", "staple", "correct-horse-battery-staple", "--rate-limit", "apt-get", "q-sending",
		"hunter2", "sandbox", "q1"} {
		if err := follow.CheckTypedID(w); !errors.Is(err, follow.ErrTypedWord) {
			t.Errorf("%s taken for a quote id", w)
		}
	}
}
