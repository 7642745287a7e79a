package config

import (
	"os"
	"testing"
)

// TestMain gives the tests a state folder of their own: nothing is made in
// the state folder of whoever runs the tests. A second process of a test
// (SVCWALLET_TEST_EDIT) keeps the state folder it was given.
func TestMain(m *testing.M) {
	if os.Getenv("SVCWALLET_TEST_EDIT") != "" {
		os.Exit(m.Run())
	}
	dir, err := os.MkdirTemp("", "svcwallet-config-test-")
	if err != nil {
		panic(err)
	}
	os.Setenv("XDG_STATE_HOME", dir)
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}
