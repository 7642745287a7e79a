//go:build !e2e

package exchangetest

// Trials is how many rounds a randomized test runs: a quarter of its full
// count in the everyday `go test ./...`, all of them with -tags e2e (CI).
func Trials(full int) int { return max(full/4, 1) }
