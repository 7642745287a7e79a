package cli

import (
	"context"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/svcwallet/svcwallet/internal/osguard"
	"github.com/svcwallet/svcwallet/internal/signer"
)

// CLIEnv is what a command may touch of its process, so tests can run it
// with in-memory streams, a fake environment and scripted secrets.
type CLIEnv struct {
	Stdin          io.Reader
	Stdout, Stderr io.Writer
	Getenv         func(string) string
	// ReadSecret reads one secret (a key or passphrase) without echoing it;
	// terminalReadSecret in a real process.
	ReadSecret func(prompt string) (string, error)
	// Debug is --debug or $SVCWALLET_DEBUG; Log is then the commands' debug
	// log on Stderr, and nil otherwise (the client discards).
	Debug bool
	Log   *slog.Logger
	// JSON is --json: output and errors are JSON documents on Stdout.
	JSON bool
	// Stamp is the release's link-time version, revision and date; empty
	// in any other build.
	Stamp Stamp
	// Interrupt watches for ctrl+c while a signature is awaited (clef, a
	// signing command): the context it returns ends at ctrl+c, or when
	// svcwallet is told to end (SIGTERM, a closed terminal: a signing
	// command's process group then ends with it), and stop gives those
	// signals back their usual effect. nil: nothing interrupts (tests
	// cancel through the key source instead).
	Interrupt func(ctx context.Context) (cx context.Context, stop context.CancelFunc)
}

// StdEnv is the real process's streams, environment and secret prompt. It
// takes every SVCWALLET_* variable out of the process's environment into
// memory (signer.TakeEnv), so no child process inherits one, even one a
// library starts without osguard.Command (a clipboard helper, a terminal
// probe); its Getenv still answers them. It is made once, before any
// command runs.
func StdEnv() CLIEnv {
	secrets := map[string]string{}
	for _, kv := range os.Environ() {
		if name, _, _ := strings.Cut(kv, "="); strings.HasPrefix(strings.ToUpper(name), osguard.EnvVarPrefix) {
			if v, ok := signer.TakeEnv(name); ok {
				secrets[name] = v
			}
		}
	}
	getenv := func(name string) string {
		if v, ok := secrets[name]; ok {
			return v
		}
		return os.Getenv(name)
	}
	interrupt := func(ctx context.Context) (context.Context, context.CancelFunc) {
		return signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	}
	return CLIEnv{Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr, Getenv: getenv, ReadSecret: terminalReadSecret, Interrupt: interrupt}
}
