package signer

import (
	"bytes"
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/svcwallet/svcwallet/internal/osguard"
	"github.com/svcwallet/svcwallet/internal/safetext"
)

// FilePlaceholder in a signing command's words is replaced by the path of
// a private file holding the typed data; without one, the typed data is
// the command's standard input.
const FilePlaceholder = "{file}"

// DefaultWait bounds how long a signature may wait for clef or a signing
// command: a person reading a device's screen, not a stuck program.
const DefaultWait = 5 * time.Minute

// maxCommandOutput bounds what is kept of a signing command's stdout and
// stderr: a signature is 132 bytes, an error a few lines.
const maxCommandOutput = 16 << 10

// maxCommandError bounds the part of a failed command's stderr an error repeats.
const maxCommandError = 200

// CheckSignCommand checks a signing command before it is used: it splits
// into words, and holds no private key (safetext.HoldsKeyShape), which
// every user of the machine could read in the process list; a command
// reaches a key through its own means (cast's --ledger, --keystore, --aws).
//
// Its program's name is said while it runs ("waiting for the signing
// command NAME"), so a control or invisible character, which a bidi
// override is and no command needs, is refused too.
func CheckSignCommand(line string) error {
	if safetext.HoldsKeyShape(line) {
		return errors.New("it holds " + safetext.KeyShape + ": a key on a command line is visible to every user of the machine; let the command reach its key itself (cast's --ledger, --keystore FILE, --aws)")
	}
	if err := invisibleCharacter(line); err != nil {
		return err
	}
	_, err := SplitCommand(line)
	return err
}

// Starter makes the process of a signing command (signer.SignCommandStarter,
// which both faces use: the clean environment every child of svcwallet
// gets, a process group or job object that ends whole with ctx, the
// terminal lent while it runs and taken back once it has ended).
type Starter func(ctx context.Context, name string, arg ...string) *osguard.GroupCmd

// CommandKey is a key held by a signing command (cast wallet sign --ledger,
// a KMS client, ...): each signature runs it with the typed data as
// eth_signTypedData_v4 JSON, in a private file for {file} or on its
// standard input, and reads the signature, 0x and 130 hex digits, from its
// standard output. It cannot say its address: the caller names it.
type CommandKey struct {
	addr    common.Address
	words   []string
	start   Starter
	timeout time.Duration
	// pipesWait bounds the wait for its output once it has ended: a helper
	// it started (an agent) may hold its pipes for as long as it runs.
	pipesWait time.Duration
	running   *Running // Opening.Running
}

// NewCommandKey is the signing command words signing for addr, each run
// made by start and ended after timeout (0: DefaultWait).
func NewCommandKey(addr common.Address, words []string, start Starter, timeout time.Duration) *CommandKey {
	if timeout <= 0 {
		timeout = DefaultWait
	}
	return &CommandKey{addr: addr, words: words, start: start, timeout: timeout, pipesWait: 2 * time.Second}
}

func (k *CommandKey) Address() common.Address { return k.addr }

// name is the command's program, for messages: its base name only.
func (k *CommandKey) name() string { return filepath.Base(k.words[0]) }

func (k *CommandKey) Awaiting() string { return "the signing command " + k.name() }

// SignTypedData runs the command once. The typed data file lives in a
// directory only this user can open and is removed when the command ends.
func (k *CommandKey) SignTypedData(ctx context.Context, d Domain, m Message) ([65]byte, error) {
	if k.running != nil {
		if !k.running.begin() {
			return [65]byte{}, &WaitError{Awaiting: k.Awaiting(), Cancelled: true}
		}
		// Ended last: after the process has ended and the file is gone.
		defer k.running.end()
	}
	var out [65]byte
	td := TypedDataJSON(d, m)
	args := append([]string(nil), k.words[1:]...)
	usesFile := false
	for _, a := range args {
		usesFile = usesFile || strings.Contains(a, FilePlaceholder)
	}
	if usesFile {
		dir, err := os.MkdirTemp("", "svcwallet-sign-")
		if err != nil {
			return out, fmt.Errorf("cannot make the typed data file for the signing command: %w", err)
		}
		defer os.RemoveAll(dir)
		path := filepath.Join(dir, "typed-data.json")
		if err := osguard.CreateFile(path, td); err != nil {
			return out, fmt.Errorf("cannot write the typed data file for the signing command: %w", err)
		}
		for i, a := range args {
			args[i] = strings.ReplaceAll(a, FilePlaceholder, path)
		}
	}
	cx, cancel := context.WithTimeout(ctx, k.timeout)
	defer cancel()
	g := k.start(cx, k.words[0], args...)
	if !usesFile {
		g.Cmd.Stdin = bytes.NewReader(td)
	}
	stdout, stderr := osguard.CappedBuffer{Max: maxCommandOutput}, osguard.CappedBuffer{Max: maxCommandOutput}
	g.Cmd.Stdout, g.Cmd.Stderr = &stdout, &stderr
	err := g.RunPipesWithin(k.pipesWait)
	switch {
	case ctx.Err() != nil:
		return out, &WaitError{Awaiting: k.Awaiting(), Cancelled: true}
	case cx.Err() != nil:
		return out, &WaitError{Awaiting: k.Awaiting(), After: k.timeout}
	case interrupted(err):
		return out, &WaitError{Awaiting: k.Awaiting(), Cancelled: true}
	case err != nil:
		return out, k.failed(err, stderr.String())
	}
	raw, ok := parseSignatureHex(strings.TrimSpace(stdout.String()))
	if !ok {
		return out, &SourceError{By: k.Awaiting(), Text: "printed no signature on its standard output (it must print 0x and 130 hex digits, and nothing else): " + outputSummary(stdout.String())}
	}
	return raw, nil
}

// failed words a command that could not run or exited non-zero, with the
// start of its stderr cleaned to one line (long hex runs and recovery
// phrases cut: it may repeat what it was given).
func (k *CommandKey) failed(err error, stderr string) error {
	var exit *exec.ExitError
	what := "could not run (" + safetext.Line(safetext.Quoted(err.Error()), maxCommandError) + ")"
	if errors.As(err, &exit) {
		what = "exited with status " + fmt.Sprint(exit.ExitCode())
		if exit.ExitCode() < 0 {
			what = "was ended by a signal"
		}
	}
	if s := safetext.Line(safetext.Quoted(stderr), maxCommandError); s != "" {
		what += ": " + s
	}
	return &SourceError{By: k.Awaiting(), Text: what, Refused: errors.As(err, &exit)}
}

// interrupted reports whether the command died of ctrl+c (SIGINT, or the
// status 130 a program gives itself for it): on the command line the
// terminal sends it to the command's process group, which has the
// terminal while it runs, and svcwallet learns of it by the command's end.
func interrupted(err error) bool {
	var exit *exec.ExitError
	if !errors.As(err, &exit) {
		return false
	}
	if ws, ok := exit.Sys().(syscall.WaitStatus); ok && ws.Signaled() && ws.Signal() == syscall.SIGINT {
		return true
	}
	return exit.ExitCode() == 130
}

// outputSummary says what a command printed instead of a signature,
// without repeating more than the start of a hex run.
func outputSummary(s string) string {
	s = strings.TrimSpace(s)
	if s == "" {
		return "it printed nothing"
	}
	return fmt.Sprintf("it printed %d bytes, %q", len(s), safetext.Line(safetext.Quoted(s), 60))
}

// parseSignatureHex reads 0x and 130 hex digits as r ‖ s ‖ v.
func parseSignatureHex(s string) ([65]byte, bool) {
	var out [65]byte
	h, ok := strings.CutPrefix(s, "0x")
	if !ok || len(h) != 130 {
		return out, false
	}
	if _, err := hex.Decode(out[:], []byte(h)); err != nil {
		return out, false
	}
	return out, true
}

// WaitError is a signature that never came: the wait was cancelled (ctrl+c,
// a screen left) or ran past its time.
type WaitError struct {
	Awaiting  string
	Cancelled bool
	After     time.Duration
}

func (e *WaitError) Error() string {
	if e.Cancelled {
		return "cancelled while waiting for " + e.Awaiting
	}
	return fmt.Sprintf("no signature after waiting %s for %s", e.After, e.Awaiting)
}

// SourceError is a key source that said no or failed: clef's refusal, a
// signing command that exited non-zero or printed no signature.
type SourceError struct {
	By   string // what was asked: "approval in clef at …", "the signing command cast"
	Text string
	// Refused: the source answered, and the answer is no (clef denied the
	// request, the command exited non-zero); not a fault of svcwallet's.
	Refused bool
}

func (e *SourceError) Error() string {
	by := strings.TrimPrefix(e.By, "approval in ")
	return by + " " + e.Text
}
