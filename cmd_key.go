package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"golang.org/x/term"

	"svcwallet/signer"
)

// CLIEnv is what a subcommand may touch of its process, so tests can run it
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
}

const keyUsage = `Usage:
  svcwallet key new [--keystore DIR] [--password-file FILE] [--json]
      Create a random key, encrypted with a passphrase asked for twice (or
      read from the first line of --password-file).
  svcwallet key import [--keystore DIR] [--password-file FILE] [--json]
      Encrypt an existing raw hex private key, read from stdin (a hidden
      prompt when stdin is a terminal). Never pass the key as an argument:
      other users can read a command line, and shell history keeps it.
  svcwallet key list [--keystore DIR] [--json]
      Show the address and file of every key (files written by Foundry do
      not say their address: it shows once they are decrypted).

Key files are geth-compatible keystore V3 (scrypt, 0600). The directory is
--keystore, else $SVCWALLET_KEYSTORE, else <user config dir>/svcwallet/keystore.
When stdin is not a terminal, each secret (key, passphrase, repeated
passphrase) is read as one line of stdin.
`

// runKey runs `svcwallet key ...` and returns the exit status: 0 done,
// 1 failed, 2 bad usage.
func runKey(args []string, env CLIEnv) int {
	// Checked before anything else so a key typed as an argument is never
	// echoed, used as a directory name or printed back in a path.
	for _, a := range args {
		if looksLikeKey(a) {
			fmt.Fprintln(env.Stderr, "svcwallet key: refusing a private key on the command line: other users can read it in the process list and your shell history keeps it; pipe it to `svcwallet key import` on stdin or type it at the prompt")
			return 2
		}
	}
	if len(args) == 0 {
		fmt.Fprint(env.Stderr, keyUsage)
		return 2
	}
	switch args[0] {
	case "new":
		return keyNew(args[1:], env)
	case "import":
		return keyImport(args[1:], env)
	case "list":
		return keyList(args[1:], env)
	case "help", "-h", "-help", "--help":
		fmt.Fprint(env.Stdout, keyUsage)
		return 0
	}
	return keyUsageError(env, "unknown command %.32q", args[0])
}

// looksLikeKey reports whether an argument, or the value of --flag=value, is
// 32 bytes of hex: the shape of a private key.
func looksLikeKey(arg string) bool {
	if _, v, ok := strings.Cut(arg, "="); ok {
		arg = v
	}
	arg = strings.TrimPrefix(strings.TrimPrefix(arg, "0x"), "0X")
	if len(arg) != 64 {
		return false
	}
	for _, c := range arg {
		if !strings.ContainsRune("0123456789abcdefABCDEF", c) {
			return false
		}
	}
	return true
}

func keyNew(args []string, env CLIEnv) int {
	fs, f := keyFlags("new", env)
	if code, ok := parseKeyFlags(fs, args, env); !ok {
		return code
	}
	if fs.NArg() > 0 {
		return keyUsageError(env, "key new takes no arguments")
	}
	dir, err := keystoreDir(*f.dir, env)
	if err != nil {
		return keyFail(env, "new", err)
	}
	pass, err := newPassphrase(env, *f.passwordFile)
	if err != nil {
		return keyFail(env, "new", err)
	}
	addr, path, err := signer.NewKeystoreKey(dir, pass)
	if err != nil {
		return keyFail(env, "new", err)
	}
	fmt.Fprintln(env.Stderr, "Keep the passphrase and a backup of the file: without both the key cannot be recovered.")
	return printNewKey(env, "new", *f.json, addr.Hex(), path)
}

// printNewKey tells where a new or imported key went, as text or JSON.
func printNewKey(env CLIEnv, cmd string, asJSON bool, address, path string) int {
	if !asJSON {
		fmt.Fprintf(env.Stdout, "Address:       %s\nKeystore file: %s\n", address, path)
		return 0
	}
	if err := writeJSON(env.Stdout, map[string]string{"address": address, "path": path}); err != nil {
		return keyFail(env, cmd, err)
	}
	return 0
}

// writeJSON writes one indented JSON document, as every key command does.
func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

func keyImport(args []string, env CLIEnv) int {
	fs, f := keyFlags("import", env)
	if code, ok := parseKeyFlags(fs, args, env); !ok {
		return code
	}
	if fs.NArg() > 0 {
		return keyUsageError(env, "key import takes no arguments; it reads the key from stdin or a hidden prompt")
	}
	dir, err := keystoreDir(*f.dir, env)
	if err != nil {
		return keyFail(env, "import", err)
	}
	hexKey, err := readSecret(env, "Private key (hex): ", "the private key")
	if err != nil {
		return keyFail(env, "import", err)
	}
	// Refuse a bad or known key before asking for a passphrase twice.
	k, err := signer.ParsePrivateKeyHex(hexKey)
	if err != nil {
		return keyFail(env, "import", err)
	}
	if path, err := signer.FindKeystore(dir, k.Address()); err == nil {
		return keyFail(env, "import", fmt.Errorf("%s is already in the keystore: %s", k.Address().Hex(), path))
	}
	pass, err := newPassphrase(env, *f.passwordFile)
	if err != nil {
		return keyFail(env, "import", err)
	}
	addr, path, err := signer.ImportRawKey(dir, hexKey, pass)
	if err != nil {
		return keyFail(env, "import", err)
	}
	return printNewKey(env, "import", *f.json, addr.Hex(), path)
}

func keyList(args []string, env CLIEnv) int {
	fs, f := keyFlags("list", env)
	if code, ok := parseKeyFlags(fs, args, env); !ok {
		return code
	}
	if fs.NArg() > 0 {
		return keyUsageError(env, "key list takes no arguments")
	}
	dir, err := keystoreDir(*f.dir, env)
	if err != nil {
		return keyFail(env, "list", err)
	}
	entries, err := signer.ListKeystore(dir)
	if err != nil {
		return keyFail(env, "list", err)
	}
	if *f.json {
		type entry struct {
			Address string `json:"address"` // "" when the file does not say it
			Name    string `json:"name"`
			Path    string `json:"path"`
		}
		out := make([]entry, 0, len(entries))
		for _, e := range entries {
			a := ""
			if e.AddressKnown {
				a = e.Address.Hex()
			}
			out = append(out, entry{a, e.Name(), e.Path})
		}
		if err := writeJSON(env.Stdout, out); err != nil {
			return keyFail(env, "list", err)
		}
		return 0
	}
	if len(entries) == 0 {
		fmt.Fprintf(env.Stderr, "No keys in %s; create one with `svcwallet key new` or `svcwallet key import`.\n", dir)
		return 0
	}
	for _, e := range entries {
		fmt.Fprintf(env.Stdout, "%-42s  %s\n", e.AddressText(), e.Path)
	}
	return 0
}

// parseKeyFlags parses a key subcommand's flags: -h/--help prints the usage
// to stdout (exit 0); a bad flag prints it to stderr (exit 2).
func parseKeyFlags(fs *flag.FlagSet, args []string, env CLIEnv) (int, bool) {
	switch err := fs.Parse(args); {
	case errors.Is(err, flag.ErrHelp):
		fmt.Fprint(env.Stdout, keyUsage)
		return 0, false
	case err != nil:
		fmt.Fprint(env.Stderr, keyUsage)
		return 2, false
	}
	return 0, true
}

// keyCmdFlags are the flags of the key commands; list ignores --password-file.
type keyCmdFlags struct {
	dir, passwordFile *string
	json              *bool
}

func keyFlags(cmd string, env CLIEnv) (*flag.FlagSet, keyCmdFlags) {
	fs := flag.NewFlagSet("svcwallet key "+cmd, flag.ContinueOnError)
	fs.SetOutput(env.Stderr)
	fs.Usage = func() {} // parseKeyFlags prints it, to the right stream
	f := keyCmdFlags{
		dir:  fs.String("keystore", "", "keystore directory"),
		json: fs.Bool("json", false, "print JSON"),
	}
	if cmd != "list" {
		f.passwordFile = fs.String("password-file", "", "read the passphrase from the first line of this file")
	}
	return fs, f
}

// keystoreDir is --keystore, else $SVCWALLET_KEYSTORE as env sees it, else the default.
func keystoreDir(flagValue string, env CLIEnv) (string, error) {
	if flagValue != "" {
		return flagValue, nil
	}
	if d := env.Getenv(signer.KeystoreEnvVar); d != "" {
		return d, nil
	}
	return signer.DefaultKeystoreDir()
}

// newPassphrase asks twice, so a typo at a hidden prompt cannot lock the key
// away; a password file is read once.
func newPassphrase(env CLIEnv, passwordFile string) (string, error) {
	if passwordFile != "" {
		p, err := readPasswordFile(passwordFile)
		if err == nil && p == "" {
			err = fmt.Errorf("%s starts with an empty line; a keystore file needs a passphrase, nothing was written", passwordFile)
		}
		return p, err
	}
	p1, err := readSecret(env, "Passphrase: ", "the passphrase")
	if err != nil {
		return "", err
	}
	if p1 == "" {
		return "", errors.New("passphrase is empty; a keystore file needs one, nothing was written")
	}
	p2, err := readSecret(env, "Repeat passphrase: ", "the repeated passphrase")
	if err != nil {
		return "", err
	}
	if p1 != p2 {
		return "", errors.New("passphrases do not match; nothing was written, run the command again")
	}
	return p1, nil
}

// readPasswordFile reads the first line of a --password-file, as geth and
// Foundry do. Its content never appears in an error.
func readPasswordFile(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", fmt.Errorf("cannot read the password file: %w", err)
	}
	defer f.Close()
	line, err := readLine(f)
	if errors.Is(err, io.EOF) {
		return "", fmt.Errorf("%s is empty; put the passphrase on its first line", path)
	}
	if err != nil {
		return "", fmt.Errorf("cannot read the password file %s: %v", path, err)
	}
	return line, nil
}

func readSecret(env CLIEnv, prompt, what string) (string, error) {
	s, err := env.ReadSecret(prompt)
	if errors.Is(err, io.EOF) {
		return "", fmt.Errorf("stdin ended before %s; give each secret on its own line, or run in a terminal", what)
	}
	if err != nil {
		return "", fmt.Errorf("cannot read %s: %w", what, err)
	}
	return s, nil
}

func keyFail(env CLIEnv, cmd string, err error) int {
	fmt.Fprintf(env.Stderr, "svcwallet key %s: %v\n", cmd, err)
	return 1
}

func keyUsageError(env CLIEnv, format string, a ...any) int {
	fmt.Fprintf(env.Stderr, "svcwallet key: "+format+"\n\n", a...)
	fmt.Fprint(env.Stderr, keyUsage)
	return 2
}

// maxSecretLine bounds a secret read from a pipe; a hex key is 66 bytes.
const maxSecretLine = 4096

// terminalReadSecret prompts on stderr and reads with echo off when stdin is
// a terminal; otherwise it reads one line of stdin, so scripts can pipe
// secrets without them reaching argv.
func terminalReadSecret(prompt string) (string, error) {
	fd := int(os.Stdin.Fd())
	if !term.IsTerminal(fd) {
		return readLine(os.Stdin)
	}
	// Ctrl+C would otherwise kill the process with echo still off, leaving
	// the user's shell blind.
	state, err := term.GetState(fd)
	if err != nil {
		return "", err
	}
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	defer func() { signal.Stop(sigs); close(sigs) }()
	go func() {
		if _, ok := <-sigs; ok {
			term.Restore(fd, state)
			fmt.Fprintln(os.Stderr)
			os.Exit(130)
		}
	}()
	fmt.Fprint(os.Stderr, prompt)
	b, err := term.ReadPassword(fd)
	fmt.Fprintln(os.Stderr)
	return string(b), err
}

// readLine reads up to a newline one byte at a time: a buffered reader would
// swallow the lines meant for the next secret. A final line without newline
// counts; no input at all is io.EOF.
func readLine(r io.Reader) (string, error) {
	var line []byte
	var b [1]byte
	for {
		n, err := r.Read(b[:])
		if n == 1 {
			if b[0] == '\n' {
				break
			}
			if len(line) == maxSecretLine {
				return "", errors.New("line is too long")
			}
			line = append(line, b[0])
			continue
		}
		if err == io.EOF && len(line) > 0 {
			break
		}
		if err != nil {
			return "", err
		}
	}
	return strings.TrimSuffix(string(line), "\r"), nil
}
