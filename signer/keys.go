package signer

import (
	"fmt"
	"io"
	"os"
	"runtime"
)

// KeyEnvVar is the environment variable KeyFromEnv reads when given no name.
const KeyEnvVar = "SVCWALLET_PRIVATE_KEY"

// maxKeyFileSize bounds what KeyFromFile reads: a hex key with a newline is
// 67 bytes, so anything much larger is the wrong file.
const maxKeyFileSize = 1 << 10

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
// nothing reading the environment later can see it.
func TakeEnv(name string) (string, bool) {
	v, ok := os.LookupEnv(name)
	os.Unsetenv(name)
	return v, ok
}

// KeyFromEnv takes a raw hex private key from the environment variable name
// (KeyEnvVar when name is empty; see TakeEnv). Errors name the variable,
// never its value.
func KeyFromEnv(name string) (*PrivateKey, error) {
	if name == "" {
		name = KeyEnvVar
	}
	v, ok := TakeEnv(name)
	if !ok || v == "" {
		return nil, fmt.Errorf("environment variable %s is not set; export the hex private key in it or use a keystore", name)
	}
	k, err := ParsePrivateKeyHex(v)
	if err != nil {
		return nil, fmt.Errorf("environment variable %s: %w", name, err)
	}
	return k, nil
}

// KeyFromFile reads a raw hex private key from a file that only its owner may
// read or write, as ssh does for identity files: a key others can read is
// already compromised, and one they can write can be swapped for theirs.
func KeyFromFile(path string) (*PrivateKey, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("cannot open key file: %w", err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("cannot stat key file: %w", err)
	}
	if !st.Mode().IsRegular() {
		return nil, fmt.Errorf("key file %s is not a regular file", path)
	}
	// Windows reports synthetic permission bits (0666 for every writable
	// file), so the check would refuse every key file there.
	if perm := st.Mode().Perm(); runtime.GOOS != "windows" && perm&0o077 != 0 {
		return nil, fmt.Errorf("key file %s is readable by others (mode %o): chmod 600 it", path, perm)
	}
	if err := CheckPrivatePath(path); err != nil {
		return nil, fmt.Errorf("key file: %w", err)
	}
	b, err := io.ReadAll(io.LimitReader(f, maxKeyFileSize+1))
	if err != nil {
		return nil, fmt.Errorf("cannot read key file: %w", err)
	}
	if len(b) > maxKeyFileSize {
		return nil, fmt.Errorf("key file %s is too large to hold one hex private key", path)
	}
	k, err := ParsePrivateKeyHex(string(b))
	if err != nil {
		return nil, fmt.Errorf("key file %s: %w", path, err)
	}
	return k, nil
}
