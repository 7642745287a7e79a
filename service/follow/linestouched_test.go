package follow

import (
	"math/bits"
	"strconv"
	"strings"
	"testing"

	"github.com/svcwallet/svcwallet/internal/safetext"
)

// refusedLines is n lines each refused for one span of what's shape: a
// TRON payout hash (64 hex digits without 0x, a key's shape) or a
// recovery phrase, each line its own.
func refusedLines(what string, n int) string {
	lines := make([]string, n)
	for i := range lines {
		if what == "key" {
			lines[i] = strconv.FormatUint(1<<63+uint64(i), 16) + strings.Repeat("0", 48)
		} else {
			lines[i] = "abandon ability able about above absent absorb abstract absurd abuse access accident # q-" + strconv.Itoa(i)
		}
	}
	return strings.Join(lines, "\n")
}

// TestRefusedLinesFoundByHalving: the lines a span refused for a key's or
// a recovery phrase's shape touches are found by halving, at most two
// searches of the lines' bounds a span, counted, not timed: each line was
// checked against every span, n² checks for n such lines (a paste of
// 64,000 TRON payout hashes held the board's Update 10 s, 100,000 given to
// `status -` took 23 s). Every line is still refused.
func TestRefusedLinesFoundByHalving(t *testing.T) {
	compared := 0
	was := boundCompared
	boundCompared = func() { compared++ }
	t.Cleanup(func() { boundCompared = was })
	const n = 2000
	for _, what := range []string{"key", "phrase"} {
		text := refusedLines(what, n)
		spans := len(safetext.KeySpans(MaskHashes(text))) + len(safetext.WalletSecretSpans(text))
		compared = 0
		_, _, bad := ParseQuoteIDs(text, true)
		most := 2 * spans * (bits.Len(uint(n)) + 1)
		if len(bad) != n || spans < n || compared == 0 || compared > most {
			t.Errorf("%d lines each a %s's shape: %d refused, %d spans found by %d comparisons of bounds; want all %d refused by between 1 and %d", n, what, len(bad), spans, compared, n, most)
		}
	}
}

// BenchmarkParseManyRefusedLines reads 100,000 lines each refused for a
// key's or a recovery phrase's shape, as `status -` and the board's paste
// may be given them.
func BenchmarkParseManyRefusedLines(b *testing.B) {
	for _, what := range []string{"key", "phrase"} {
		text := refusedLines(what, 100_000)
		b.Run(what, func(b *testing.B) {
			for b.Loop() {
				ParseQuoteIDs(text, true)
			}
		})
	}
}
