package cli

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"runtime"
	"strings"

	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/svcwallet/svcwallet/internal/osguard"
	"github.com/svcwallet/svcwallet/internal/plain"
	"github.com/svcwallet/svcwallet/internal/safetext"
	"github.com/svcwallet/svcwallet/service/config"
	"github.com/svcwallet/svcwallet/signer"
)

const keyLong = `Manages the signing keys in the keystore. Key files are geth-compatible
keystore V3 (scrypt, 0600). The directory is --keystore, else
$SVCWALLET_KEYSTORE, else the keystore folder (docs/config.md). When stdin is
not a terminal, each secret (key, passphrase, repeated passphrase) is read as
one line of stdin. Never pass a key as an argument: other users can read a
command line, and shell history keeps it.

Exit status: 0 done, 1 failed, 2 usage.`

// keyFlags are the flags of the key commands; list has no --password-file.
type keyFlags struct{ dir, passwordFile string }

// keyCommand is `svcwallet key new|import|list`.
func (a *app) keyCommand() *cobra.Command {
	c := &cobra.Command{
		Use:   "key",
		Short: "Manage keystore keys (new, import, list)",
		Long:  keyLong,
		Args:  subcommandOnly,
		RunE:  giveA("command"),
	}
	sub := func(use, short, long, example string, run func(context.Context, CLIEnv, keyFlags) error, passwordFile bool) *cobra.Command {
		var f keyFlags
		s := &cobra.Command{
			Use: use, Short: short, Long: long + "\n\nExit status: 0 done, 1 failed, 2 usage.", Example: example, Args: noArgs,
			RunE: func(c *cobra.Command, _ []string) error {
				return failed(run(c.Context(), a.env, f))
			},
		}
		s.Flags().StringVar(&f.dir, "keystore", "", "keystore dir (default $"+signer.KeystoreEnvVar+" or the user's)")
		_ = s.MarkFlagDirname("keystore")
		if passwordFile {
			s.Flags().StringVar(&f.passwordFile, "password-file", "", "read the passphrase from this file's first line")
		}
		return s
	}
	c.AddCommand(
		sub("new", "Create a random key, encrypted with a passphrase",
			"Creates a random key, encrypted with a passphrase asked for twice (or read\nfrom the first line of --password-file).",
			"  svcwallet key new\n  svcwallet key list", keyNew, true),
		sub("import", "Encrypt an existing raw hex private key, read from stdin",
			"Encrypts an existing raw hex private key, read from stdin (a hidden prompt\nwhen stdin is a terminal). Never pass the key as an argument: other users\ncan read a command line, and shell history keeps it.",
			"  svcwallet key import\n  svcwallet key import --password-file ~/.svcwallet-pass < key.txt", keyImport, true),
		sub("list", "Show the address and file of every key",
			"Shows the address and file of every key (files written by Foundry do not\nsay their address: it shows once they are decrypted), then the key pairs\nmade for a builder's API key in the console, kept in the keystore's builder\nfolder: they sign the builder's trades and are never offered to log in.",
			"  svcwallet key list\n  svcwallet key list --json", keyList, false),
	)
	return c
}

func keyNew(ctx context.Context, env CLIEnv, f keyFlags) error {
	dir, err := keystoreDir(f.dir, env)
	if err != nil {
		return err
	}
	pass, err := newPassphrase(ctx, env, f.passwordFile)
	if err != nil {
		return err
	}
	addr, path, err := signer.NewKeystoreKey(dir, pass)
	if err != nil {
		return err
	}
	fmt.Fprintln(plain.Fitted(env.Stderr), "Keep the passphrase and a backup of the file: without both the key cannot be recovered.")
	return printNewKey(env, addr.Hex(), path, f.dir)
}

// printNewKey tells where a new or imported key went, as text or JSON,
// and how to sign with it: a key not named to a command is never used, and
// a newcomer who stopped here met "no signing key" at withdraw.
func printNewKey(env CLIEnv, address, path, dirFlag string) error {
	if !env.JSON {
		// Written at once, so a write that fails is told; on a terminal a
		// path that wraps continues under its column.
		var b bytes.Buffer
		w := plain.FittedFor(&b, env.Stdout)
		plain.Row(w, "Address:       ", address)
		plain.PathRow(w, "Keystore file: ", safetext.Shown(path), safetext.Shown(path))
		if _, err := env.Stdout.Write(b.Bytes()); err != nil {
			return outputError(err)
		}
		// keystore:ADDRESS looks in the default folder only; a file
		// elsewhere is named by its path.
		source := "keystore:" + address
		if dirFlag != "" {
			source = path
		}
		configShown := config.ShownPath(newInvocation("", "", env.Getenv).configFile)
		if !safetext.Printable(source) {
			// Shown escaped above; a flag or a TOML string naming it raw
			// would not read as it is.
			fmt.Fprintf(plain.Fitted(env.Stderr), "To sign with it: --signer and the file's path on a command, or signer in its environment's table of the config (%s); the path holds a character a terminal acts on or hides, so it is not printed: a folder named without one is easier to name.\n", configShown)
			return nil
		}
		// Quoted for the shell (a keystore folder may hold a space); the
		// config the commands read, $SVCWALLET_CONFIG's where it is set.
		fmt.Fprintf(plain.Fitted(env.Stderr), "To sign with it: --signer %s on a command, or signer = %q in its environment's table of the config (%s).\n",
			safetext.ShellWord(source), source, configShown)
		return nil
	}
	// The key is kept whatever stdout takes, so the error names its file.
	if err := writeJSON(env.Stdout, map[string]string{"address": address, "path": path}); err != nil {
		return outputError(fmt.Errorf("%w; the key is kept in %s", err, safetext.Shown(path)))
	}
	return nil
}

func keyImport(ctx context.Context, env CLIEnv, f keyFlags) error {
	dir, err := keystoreDir(f.dir, env)
	if err != nil {
		return err
	}
	hexKey, err := readSecret(ctx, env, "Private key (hex): ", "the private key", nothingWritten)
	if err != nil {
		return err
	}
	// Refuse a bad or known key before asking for a passphrase twice.
	k, err := signer.ParsePrivateKeyHex(hexKey)
	if err != nil {
		return err
	}
	if err := signer.NotStored(dir, k.Address()); err != nil {
		return err
	}
	pass, err := newPassphrase(ctx, env, f.passwordFile)
	if err != nil {
		return err
	}
	addr, path, err := signer.ImportRawKey(dir, hexKey, pass)
	if err != nil {
		return err
	}
	return printNewKey(env, addr.Hex(), path, f.dir)
}

// nothingWritten is what an interrupted key command left as it was.
const nothingWritten = ": nothing was written"

func keyList(_ context.Context, env CLIEnv, f keyFlags) error {
	dir, err := keystoreDir(f.dir, env)
	if err != nil {
		return err
	}
	entries, err := signer.ListKeystore(dir)
	if err != nil {
		return err
	}
	builderKeys, err := signer.ListKeystore(signer.BuilderKeysDir(dir))
	if err != nil {
		return err
	}
	if env.JSON {
		type entry struct {
			Address string `json:"address"` // "" when the file does not say it
			Name    string `json:"name"`
			Path    string `json:"path"`
			Builder bool   `json:"builder"` // a key pair made for a builder's API key
		}
		out := make([]entry, 0, len(entries)+len(builderKeys))
		for i, e := range append(entries, builderKeys...) {
			a := ""
			if e.AddressKnown {
				a = e.Address.Hex()
			}
			out = append(out, entry{a, e.Name(), e.Path, i >= len(entries)})
		}
		return outputError(writeJSON(env.Stdout, out))
	}
	if len(entries)+len(builderKeys) == 0 {
		// The commands as printed make the key where this listing looks.
		var where []string
		if f.dir != "" {
			where = []string{"--keystore", f.dir}
		}
		if !safetext.Printable(f.dir) {
			// Shown escaped; a command naming it would not read as it runs.
			fmt.Fprintf(plain.Fitted(env.Stderr), "No keys in %s; create one with key new or key import and --keystore with that folder's path, which holds a character a terminal acts on or hides, so it is not printed.\n", safetext.Shown(dir))
			return nil
		}
		newCmd, importCmd := invocation{}.command(append([]string{"key", "new"}, where...)...), invocation{}.command(append([]string{"key", "import"}, where...)...)
		fmt.Fprintf(plain.Fitted(env.Stderr), "No keys in %s; create one with `%s` or `%s`.\n", safetext.Shown(dir), newCmd, importCmd)
		return nil
	}
	var b bytes.Buffer // written at once, so a write that fails is told
	for _, e := range entries {
		fmt.Fprintf(&b, "%-42s  %s\n", e.AddressText(), safetext.Shown(e.Path))
	}
	if len(builderKeys) > 0 {
		// The table's rows as they are; its heading, prose, fit.
		fmt.Fprintln(plain.FittedFor(&b, env.Stdout), "Builder API key pairs (they sign a builder's trades; not login keys):")
		for _, e := range builderKeys {
			fmt.Fprintf(&b, "%-42s  %s\n", e.AddressText(), safetext.Shown(e.Path))
		}
	}
	_, err = env.Stdout.Write(b.Bytes())
	return outputError(err)
}

// keystoreDir is --keystore, else $SVCWALLET_KEYSTORE as env sees it, else the default.
func keystoreDir(flagValue string, env CLIEnv) (string, error) {
	if flagValue != "" {
		return flagValue, nil
	}
	return signer.DefaultKeystoreDir(env.Getenv)
}

// newPassphrase asks twice, so a typo at a hidden prompt cannot lock the key
// away; a password file is read once.
func newPassphrase(ctx context.Context, env CLIEnv, passwordFile string) (string, error) {
	if passwordFile != "" {
		p, err := readPasswordFile(passwordFile)
		if err == nil && p == "" {
			err = fmt.Errorf("%s starts with an empty line; a keystore file needs a passphrase, nothing was written", safetext.Shown(passwordFile))
		}
		return p, err
	}
	p1, err := readSecret(ctx, env, "Passphrase: ", "the passphrase", nothingWritten)
	if err != nil {
		return "", err
	}
	if p1 == "" {
		return "", errors.New("passphrase is empty; a keystore file needs one, nothing was written")
	}
	p2, err := readSecret(ctx, env, "Repeat passphrase: ", "the repeated passphrase", nothingWritten)
	if err != nil {
		return "", err
	}
	if p1 != p2 {
		return "", errors.New("passphrases do not match; nothing was written, run the command again")
	}
	return p1, nil
}

// readPasswordFile reads the first line of a --password-file, as geth and
// Foundry do. Its content never appears in an error; its path is named
// escaped (safetext.Shown), never cleaned into another file's name.
func readPasswordFile(path string) (string, error) {
	f, err := osguard.OpenSecretFile(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return "", fmt.Errorf("the password file %s does not exist: check the path given to --password-file", safetext.Shown(path))
	case err != nil:
		if u, ok := errors.AsType[*osguard.UnsafePathError](err); ok && u.Fix == osguard.RenameFirst {
			// Not thenMend's doctor run: doctor checks no password file.
			// Named anew, the same refusal says the chmod that mends it.
			return "", fmt.Errorf("cannot read the password file: %s: %s, then give --password-file its new name, and the refusal names the command that mends it", u.What, u.Fix)
		}
		return "", fmt.Errorf("cannot read the password file: %w", err)
	}
	defer f.Close()
	line, err := plain.ReadLine(f)
	if errors.Is(err, io.EOF) {
		return "", fmt.Errorf("%s is empty; put the passphrase on its first line", safetext.Shown(path))
	}
	if err != nil {
		return "", fmt.Errorf("cannot read the password file %s: %v", safetext.Shown(path), err)
	}
	return line, nil
}

// readSecret asks for one secret, what, at a hidden prompt (a line of
// stdin without a terminal); ctrl+c there is an interruption, which
// leaves untouched (": nothing was written") as it was.
func readSecret(ctx context.Context, env CLIEnv, prompt, what, untouched string) (string, error) {
	s, err := env.ReadSecret(ctx, prompt)
	if errors.Is(err, plain.ErrPastedLines) || err == nil && ctx.Err() == nil && stdinGate(env).PastedMore(ctx, false) {
		return "", fmt.Errorf("more lines came with %s at the terminal, and were dropped unread and not shown%s; paste or type it alone", what, untouched)
	}
	return secretRead(ctx, s, err, what, untouched)
}

// stdinGate is the gate of answers read from stdin: env.Terminal's, else
// plain.TerminalGate of stdin alone (stderr may be a file or a pipe).
func stdinGate(env CLIEnv) plain.Gate {
	if env.Terminal != nil {
		return env.Terminal()
	}
	if f, ok := env.Stdin.(*os.File); ok {
		return plain.TerminalGate(f, f)
	}
	return plain.Gate{}
}

// signingPassphrase asks for the passphrase that unlocks a key to sign.
// When stdin is a terminal it is plain mode's (plain.AskPassphrase): what
// was typed before the question is discarded, and a paste whose Enter
// came with it is asked again, so a line typed ahead never signs a wallet
// login, a withdrawal or a builder authorization, wherever stderr goes.
// Otherwise it is one line of stdin, as readSecret reads it, so scripts
// work.
func signingPassphrase(ctx context.Context, env CLIEnv, prompt string) (string, error) {
	g := stdinGate(env)
	if !g.OnTerminal() {
		return readSecret(ctx, env, prompt, "the passphrase", nothingSent)
	}
	var hidden plain.SecretReader // where the gate reads no keys (Windows)
	if f, ok := env.Stdin.(*os.File); ok {
		hidden = plain.TerminalSecret(f)
	}
	out, done := questionOut(env.Stderr)
	defer done()
	s, err := plain.AskPassphrase(ctx, g, env.Stdin, out, hidden, strings.TrimSuffix(prompt, " "))
	if ctx.Err() != nil {
		fmt.Fprintln(out) // the question's line is ended, as an answer's Enter ends it
	}
	return secretRead(ctx, s, err, "the passphrase", nothingSent)
}

// questionOut is where a question answered at the terminal is written:
// stderr, or the terminal itself when stderr is a file or a pipe, so the
// person typing sees what is asked (and what was discarded) as ssh and
// sudo show theirs.
func questionOut(stderr io.Writer) (io.Writer, func()) {
	f, ok := stderr.(*os.File)
	if !ok || term.IsTerminal(int(f.Fd())) {
		return stderr, func() {}
	}
	name := "/dev/tty"
	if runtime.GOOS == "windows" {
		name = "CONOUT$"
	}
	tty, err := os.OpenFile(name, os.O_WRONLY, 0)
	if err != nil { // no terminal to write on: stderr as before
		return stderr, func() {}
	}
	return tty, func() { _ = tty.Close() }
}

// secretRead words how reading the secret what ended: ctrl+c leaves
// untouched as it was, and the input's end says how to give secrets.
func secretRead(ctx context.Context, s string, err error, what, untouched string) (string, error) {
	if ctx.Err() != nil {
		return "", interrupted(ctx, untouched)
	}
	if errors.Is(err, plain.ErrHungUp) {
		return "", fmt.Errorf("the terminal closed before %s was typed (it hung up, or its input ended)%s", what, untouched)
	}
	if errors.Is(err, plain.ErrEnd) {
		return "", fmt.Errorf("the terminal's input ended (ctrl+d) before %s%s", what, untouched)
	}
	if errors.Is(err, io.EOF) {
		return "", fmt.Errorf("stdin ended before %s; give each secret on its own line, or run in a terminal", what)
	}
	if err != nil {
		return "", fmt.Errorf("cannot read %s: %w", what, err)
	}
	return s, nil
}

// terminalReadSecret prompts on stderr and reads with echo off when stdin is
// a terminal (plain.TerminalSecret: echo is back on once it is read, or
// ctrl+c ends the read, and off again after ctrl+z and fg); otherwise it
// reads one line of stdin, so scripts can pipe secrets without them
// reaching argv.
func terminalReadSecret(ctx context.Context, prompt string) (string, error) {
	hidden := plain.TerminalSecret(os.Stdin)
	if hidden == nil {
		return untilDone(ctx, func() (string, error) { return plain.ReadLine(os.Stdin) })
	}
	return hiddenSecret(ctx, hidden, os.Stderr, prompt)
}

// hiddenSecret reads one secret at the terminal's hidden prompt, writing
// prompt on stderr. The input's end there is ctrl+d typed (or the terminal
// gone), not a script's stdin run out: plain.ErrEnd, as secretRead words it.
func hiddenSecret(ctx context.Context, hidden plain.SecretReader, stderr io.Writer, prompt string) (string, error) {
	s, err := hidden(ctx, func() { fmt.Fprint(stderr, plain.Fit(stderr, prompt)) })
	fmt.Fprintln(stderr)
	if errors.Is(err, io.EOF) {
		return "", plain.ErrEnd
	}
	return s, err
}

// untilDone is read's result, or ctx's error once ctx ends first: a read
// of a terminal or a pipe cannot be cancelled, and is left to end with
// the process.
func untilDone[T any](ctx context.Context, read func() (T, error)) (T, error) {
	type result struct {
		v   T
		err error
	}
	done := make(chan result, 1)
	go func() {
		v, err := read()
		done <- result{v, err}
	}()
	select {
	case r := <-done:
		return r.v, r.err
	case <-ctx.Done():
		var zero T
		return zero, ctx.Err()
	}
}
