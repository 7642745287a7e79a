//go:build e2e

package exchangetest

// Trials is how many rounds a randomized test runs: all of them with
// -tags e2e (CI), a quarter in the everyday `go test ./...`.
func Trials(full int) int { return full }

// Rounds is Trials for a randomized test whose rounds each cost a whole
// file's reads and fsyncs: all of them with -tags e2e, fewer everyday.
func Rounds(full, everyday int) int { return full }
