package cli

import (
	"fmt"
	"strings"
	"testing"

	"github.com/svcwallet/svcwallet/service/follow"
)

// TestStatusBoundsItsIDs: `status -` given more ids than one run follows
// (follow.MaxFollowed) says so in the service's words, with what to do,
// and asks nothing: never "1 id was not followed", as if the rest were.
// That as many as fit are taken is follow's TestTooManyForARun: asking
// 20,000 here took a third of this package's tests.
func TestStatusBoundsItsIDs(t *testing.T) {
	r := newStatusRig(t)
	var in strings.Builder
	for i := range follow.MaxFollowed + 1 {
		fmt.Fprintf(&in, "q-bound-%06d\n", i)
	}
	res := r.runStdin(in.String(), "-")
	said := "20,001 ids given, and one run follows at most 20,000 withdrawals: nothing was asked"
	if res.code != exitUsage || !strings.Contains(res.stderr, said) {
		t.Fatalf("exit %d, stderr %q; want exit 2 saying %q", res.code, res.stderr, said)
	}
	if n := len(r.takeAsks()); n != 0 {
		t.Errorf("%d status requests, want none", n)
	}
}
