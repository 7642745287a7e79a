// Package startenv holds what svcwallet's environment must not show its
// dependencies while they initialise: the secret variables, taken into
// memory, and TMUX, hidden until the first of svcwallet's own code runs.
// lipgloss's package variable runs `tmux info` at initialisation when TMUX
// is set (colorprofile.Detect): with every variable and no time limit.
//
// Its init runs before any package that can start a child: since Go 1.21
// the first package, by import path, whose imports are all initialised is
// initialised next, and this one imports only os, so it is ready as soon as
// os is and sorts before os/exec (TestStartEnvIsInitialisedFirst). It must
// import nothing os does not.
package startenv

import (
	"os"
	"sync"
)

// The variables holding a secret: svcwallet's private key and API key.
const (
	PrivateKeyVar = "SVCWALLET_PRIVATE_KEY"
	APIKeyVar     = "SVCWALLET_API_KEY"
)

var (
	mu       sync.Mutex
	held     = map[string]string{}
	tmux     string
	tmuxHeld bool
)

func init() {
	for _, name := range [...]string{PrivateKeyVar, APIKeyVar} {
		if v, ok := os.LookupEnv(name); ok {
			held[name] = v
			_ = os.Unsetenv(name)
		}
	}
	if tmux, tmuxHeld = os.LookupEnv("TMUX"); tmuxHeld {
		_ = os.Unsetenv("TMUX")
	}
}

// Take hands over the secret variable name as the process started with it,
// once: a second Take finds nothing.
func Take(name string) (string, bool) {
	mu.Lock()
	defer mu.Unlock()
	v, ok := held[name]
	delete(held, name)
	return v, ok
}

// Held names the secret variables taken at start and not handed over yet.
func Held() []string {
	mu.Lock()
	defer mu.Unlock()
	var names []string
	for name := range held {
		names = append(names, name)
	}
	return names
}

// GiveBackTMUX puts TMUX back in the environment as the process started
// with it, for svcwallet's own code, which asks tmux with a bound.
func GiveBackTMUX() {
	mu.Lock()
	defer mu.Unlock()
	if tmuxHeld {
		_ = os.Setenv("TMUX", tmux)
		tmuxHeld = false
	}
}
