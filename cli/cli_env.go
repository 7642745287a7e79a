package cli

import (
	"io"
	"log/slog"
	"os"
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
}

// StdEnv is the real process's streams, environment and secret prompt.
func StdEnv() CLIEnv {
	return CLIEnv{Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr, Getenv: os.Getenv, ReadSecret: terminalReadSecret}
}
