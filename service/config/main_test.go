package config

import (
	"os"
	"testing"
)

// TestMain gives the tests a state folder of their own: a config edit's
// lock is made there (editLock), never in the state folder of whoever runs
// the tests.
func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "svcwallet-config-test-")
	if err != nil {
		panic(err)
	}
	os.Setenv("XDG_STATE_HOME", dir)
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}
