package kit

import (
	"os"
	"testing"

	"github.com/svcwallet/svcwallet/internal/exchangetest"
)

// TestMain lets the test binary stand in for a signing command
// (exchangetest.FakeSignCommand).
func TestMain(m *testing.M) {
	os.Exit(exchangetest.RunTests(m))
}
