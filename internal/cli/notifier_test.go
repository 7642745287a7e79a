package cli

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/svcwallet/svcwallet/service/follow"
)

// TestNotifierRunsOnUnlessHungInARow: the notify command is run for every
// withdrawal that ends until maxNotifyHung runs in a row were ended at
// their time, which is said once; runs so ended but not in a row leave it
// running. Each run's end is given, not timed: a run meant to end well
// that a loaded machine started late read as one that hung.
func TestNotifierRunsOnUnlessHungInARow(t *testing.T) {
	for _, tc := range []struct {
		ends string // a run a withdrawal: H ended at its time, else O
		runs int
		said bool
	}{
		{"HHHHH", 3, true},
		{"OHHHOO", 4, true},
		{"HOHOHOH", 7, false},
		{"HHOHHOHHO", 9, false},
		{"OOOO", 4, false},
	} {
		var stderr bytes.Buffer
		runs := 0
		n := &notifier{
			c: statusCmd{env: CLIEnv{Stderr: &stderr}, app: &app{name: "svcwallet status"}},
			run: func(context.Context, *follow.Followed) bool {
				runs++
				return tc.ends[runs-1] == 'H'
			},
		}
		for range tc.ends {
			n.ended(t.Context(), &follow.Followed{})
		}
		said := strings.Count(stderr.String(), "is not run again in this watch")
		if runs != tc.runs || said != map[bool]int{true: 1}[tc.said] {
			t.Errorf("%s: ran %d times, want %d; said it runs no more %d times:\n%s", tc.ends, runs, tc.runs, said, stderr.String())
		}
	}
}
