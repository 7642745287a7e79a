//go:build e2e

package exchangetest

// Trials is how many rounds a randomized test runs: all of them with
// -tags e2e (CI), a quarter in the everyday `go test ./...`.
func Trials(full int) int { return full }
