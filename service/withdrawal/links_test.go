//go:build unix

package withdrawal_test

import (
	"testing"

	"github.com/svcwallet/svcwallet/internal/exchangetest"
	"github.com/svcwallet/svcwallet/service/config"
	"github.com/svcwallet/svcwallet/service/sandbox"
	"github.com/svcwallet/svcwallet/service/withdrawal"
)

// TestBridgePinsRefuseLinks: the recorded bridge addresses are neither
// read nor written through a symbolic link.
func TestBridgePinsRefuseLinks(t *testing.T) {
	const bridge = sandbox.BridgeFundingAddress
	pins := withdrawal.BridgePinsPath(t.TempDir())
	pinsContent := `{"prod":{"address":"` + bridge + `","first_seen":"2026-01-01T00:00:00Z"}}` + "\n"
	pinsTarget := exchangetest.PlantLink(t, pins, pinsContent)
	tofu := config.Environment{Name: "prod"}
	_, err := withdrawal.CheckBridge(tofu, pins, bridge, t0)
	exchangetest.WantLinkRefused(t, "CheckBridge", err, pins, pinsTarget, pinsContent)
	err = withdrawal.ConfirmBridge(tofu, pins, bridge, "0x5FbDB2315678afecb367f032d93F642f64180aa3", t0)
	exchangetest.WantLinkRefused(t, "ConfirmBridge", err, pins, pinsTarget, pinsContent)
}
