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
	"github.com/svcwallet/svcwallet/internal/plain"
	"github.com/svcwallet/svcwallet/internal/quitcatch"
	"github.com/svcwallet/svcwallet/internal/startenv"
	"github.com/svcwallet/svcwallet/signer"
)

// CLIEnv is what a command may touch of its process, so tests can run it
// with in-memory streams, a fake environment and scripted secrets.
type CLIEnv struct {
	Stdin          io.Reader
	Stdout, Stderr io.Writer
	Getenv         func(string) string
	// ReadSecret reads one secret (a key or passphrase) without echoing
	// it, until ctx ends; terminalReadSecret in a real process.
	ReadSecret func(ctx context.Context, prompt string) (string, error)
	// Terminal is the gate of the questions that sign and of the
	// passphrase that unlocks a key to sign (answers); nil is
	// plain.TerminalGate of Stdin and Stderr, as in a real process.
	Terminal func() plain.Gate
	// Debug is --debug or $SVCWALLET_DEBUG; Log is then the commands' debug
	// log on Stderr, and nil otherwise (the client discards).
	Debug bool
	Log   *slog.Logger
	// JSON is --json: output and errors are JSON documents on Stdout.
	JSON bool
	// Stamp is the release's link-time version, revision and date; empty
	// in any other build.
	Stamp Stamp
	// Interrupt is the context of the commands, ended at ctrl+c
	// (interruptible); stop ends the watch. nil: nothing interrupts.
	Interrupt func(ctx context.Context) (cx context.Context, stop func())
	// BrokenPipes makes a write to a pipe with no reader fail instead of
	// ending the process, while a command under the console runs
	// (brokenPipesAsErrors); nil: writes end as the process has them.
	BrokenPipes func() (stop func())
}

// StdEnv is the real process's streams, environment and secret prompt. It
// takes every SVCWALLET_* variable out of the process's environment into
// memory (signer.TakeEnv), so no child process inherits one, even one a
// library starts without osguard.CommandContext (a clipboard helper, a terminal
// probe); its Getenv still answers them, the secrets startenv took before
// any dependency initialised too. It is made once, before any command runs.
func StdEnv() CLIEnv {
	secrets := map[string]string{}
	names := startenv.Held()
	for _, kv := range os.Environ() {
		if name, _, _ := strings.Cut(kv, "="); strings.HasPrefix(strings.ToUpper(name), osguard.EnvVarPrefix) {
			names = append(names, name)
		}
	}
	for _, name := range names {
		if v, ok := signer.TakeEnv(name); ok {
			secrets[name] = v
		}
	}
	getenv := func(name string) string {
		if v, ok := secrets[name]; ok {
			return v
		}
		return os.Getenv(name)
	}
	return CLIEnv{Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr, Getenv: getenv, ReadSecret: terminalReadSecret, Interrupt: interruptible, BrokenPipes: brokenPipesAsErrors}
}

// interruptible is parent ended by ctrl+c (SIGINT) or ctrl+\ (SIGQUIT),
// or when svcwallet is told to end (SIGTERM, a closed terminal's SIGHUP):
// every request, wait and prompt of the command heeds it, and a signing
// command's process group ends with it. Its cause names the signal. Only
// the first signal is caught: a second has its usual effect, should
// anything not heed it, but a second ctrl+\, which quitcatch drops.
// ctrl+\ is read from quitcatch's catch, registered since the process
// started: one that came before is handled now, and none twice.
func interruptible(parent context.Context) (context.Context, func()) {
	ctx, cancel := context.WithCancelCause(parent)
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	go func() {
		select {
		case s := <-sigs:
			signal.Stop(sigs)
			cancel(signalCause(s.(syscall.Signal)))
		case <-quitcatch.Quits():
			signal.Stop(sigs)
			cancel(signalCause(syscall.SIGQUIT))
		case <-ctx.Done():
		}
	}()
	return ctx, func() { signal.Stop(sigs); cancel(nil) }
}

// brokenPipesAsErrors makes a write to a pipe whose reader has gone
// (svcwallet builder authorize --json --yes | true) fail, where Go would end
// the process by SIGPIPE at a write to stdout or stderr: the command ends
// as for any stdout that refuses its document (its status, said on
// stderr), never silent after an authorization or a payment. The commands
// that only print (printsOnly), the sandbox's log, and the console's and
// plain mode's conversation end as any program does.
func brokenPipesAsErrors() (stop func()) {
	pipes := make(chan os.Signal, 1)
	signal.Notify(pipes, syscall.SIGPIPE)
	return func() { signal.Stop(pipes) }
}

// signalCause is the cause of a context a signal ended.
type signalCause syscall.Signal

func (s signalCause) Error() string { return syscall.Signal(s).String() }

// signalExit is the exit status of a command a signal ended (ctx's cause):
// 128 + its number, as a shell says of such a command; false when none did.
func signalExit(ctx context.Context) (int, bool) {
	s, ok := context.Cause(ctx).(signalCause)
	return 128 + int(s), ok
}

// interruptExit is the exit status of an interruption: its signal's
// (signalExit), else ctrl+c's, 130.
func interruptExit(ctx context.Context) int {
	if exit, ok := signalExit(ctx); ok {
		return exit
	}
	return 128 + int(syscall.SIGINT)
}
