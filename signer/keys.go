package signer

import (
	"fmt"
	"io"
	"os"

	"github.com/svcwallet/svcwallet/internal/startenv"
)

// KeyEnvVar holds a raw hex private key, for the commands and the console.
const KeyEnvVar = startenv.PrivateKeyVar

// String, GoString and Format keep the private key out of every fmt verb, so a
// stray %v or %#v in a log line or error shows only the address.
func (p PrivateKey) String() string {
	if p.key == nil {
		return "PrivateKey(empty)"
	}
	return "PrivateKey(" + p.Address().Hex() + ")"
}

func (p PrivateKey) GoString() string { return p.String() }

func (p PrivateKey) Format(f fmt.State, _ rune) { io.WriteString(f, p.String()) }

// TakeEnv reads a secret environment variable once and removes it from the
// process's environment, so no child process (a browser opener, tmux) and
// nothing reading the environment later can see it. A secret variable
// was taken before any dependency initialised (startenv): it is handed
// over from there, once.
func TakeEnv(name string) (string, bool) {
	defer os.Unsetenv(name)
	if v, ok := startenv.Take(name); ok {
		return v, true
	}
	return os.LookupEnv(name)
}
