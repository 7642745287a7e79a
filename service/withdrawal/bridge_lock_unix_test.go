//go:build unix

package withdrawal

import (
	"errors"
	"os"
	"syscall"
	"testing"
	"time"

	"github.com/svcwallet/svcwallet/service/config"
)

// TestBridgePinsWrittenUnderTheirLock: recording a first use and
// confirming a change read the recorded addresses and write them back
// holding bridge_pins.json.lock. Without it, two processes recording at
// once (two environments' first withdrawals) each wrote back what it read,
// and one environment's address was lost: its next address, whatever it
// was, became a first use, signed without a word.
func TestBridgePinsWrittenUnderTheirLock(t *testing.T) {
	const first, second = "0x5FbDB2315678afecb367f032d93F642f64180aa3", "0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512"
	path := BridgePinsPath(t.TempDir())
	writes, free := 0, 0
	t.Cleanup(func() { writePins = writeBridgePins })
	writePins = func(p string, pins map[string]bridgePin) error {
		f, err := os.OpenFile(p+".lock", os.O_RDWR|os.O_CREATE, 0o600)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		writes++
		if !errors.Is(syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB), syscall.EWOULDBLOCK) {
			free++
		}
		return writeBridgePins(p, pins)
	}
	env := config.Environment{Name: "testnet", ChainID: 326}
	now := time.Date(2026, 11, 28, 12, 0, 0, 0, time.UTC)
	if err := RecordBridge(env, path, first, now); err != nil {
		t.Fatal(err)
	}
	if err := ConfirmBridge(env, path, first, second, now); err != nil {
		t.Fatal(err)
	}
	if writes != 2 || free != 0 {
		t.Fatalf("%d of %d writes of the recorded addresses were made without their lock", free, writes)
	}
}
