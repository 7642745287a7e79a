//go:build e2e

package cli

// The end-to-end tests run svcwallet's binary, which may write the state
// folder the tests share: TestMain does not hold them to its check.
func init() { e2eSharesState = true }
