//go:build !e2e

package exchangetest

// Trials is how many rounds a randomized test runs: a quarter of its full
// count in the everyday `go test ./...`, all of them with -tags e2e (CI).
func Trials(full int) int { return max(full/4, 1) }

// Rounds is Trials for a randomized test whose rounds each cost a whole
// file's reads and fsyncs: everyday of them in the everyday run (its time
// is held under 45 s), all of them with -tags e2e.
func Rounds(full, everyday int) int { return min(full, everyday) }
