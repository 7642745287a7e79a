package kit

import (
	"testing"

	"github.com/svcwallet/svcwallet/service/config"
	"github.com/svcwallet/svcwallet/service/target"
)

// TestAppCommand: a command the console prints for the user to run names
// its environment and the config it was started with, quoted for a shell,
// so that it runs as printed (the command line's rule).
func TestAppCommand(t *testing.T) {
	a := &App{Session: Session{Target: target.Target{Env: config.Environment{Name: "testnet"}}}}
	if got, want := a.Command("withdraw", "submit", "FILE", "--signature", "0x…"), "svcwallet withdraw submit FILE --signature 0x… --env testnet"; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
	a.ConfigFlag = "/home/me/svc wallet.toml"
	if got, want := a.Command("builder", "submit", "FILE"), "svcwallet builder submit FILE --env testnet --config '/home/me/svc wallet.toml'"; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
}
