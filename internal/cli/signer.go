package cli

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"strings"

	"github.com/ethereum/go-ethereum/common"
	"github.com/spf13/cobra"

	"github.com/svcwallet/svcwallet/internal/safetext"
	"github.com/svcwallet/svcwallet/service/config"
	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/sandbox"
	"github.com/svcwallet/svcwallet/signer"
)

// signerFlags choose the key of a command that signs or logs in by wallet.
type signerFlags struct {
	source, account string // --signer, --account
	// keystore is --keystore-file (withdraw, builder authorize): the same
	// as --signer FILE.
	keystore, passwordFile string
}

// addSignerFlags adds --signer, --account and --password-file, and with
// keystoreFile --keystore-file.
func addSignerFlags(c *cobra.Command, f *signerFlags, keystoreFile bool) {
	fl := c.Flags()
	fl.StringVar(&f.source, "signer", "", "key source: env, command, clef:URL, keystore:ADDR")
	fl.StringVar(&f.account, "account", "", "the address to sign with")
	fl.StringVar(&f.passwordFile, "password-file", "", "read a keystore passphrase from this file")
	if keystoreFile {
		fl.StringVar(&f.keystore, "keystore-file", "", "keystore file of the main key (as --signer FILE)")
	}
	_ = c.RegisterFlagCompletionFunc("signer", func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
		return []string{"env", "command", "offline", "clef:" + signer.DefaultClefEndpoint, "keystore:"}, cobra.ShellCompDirectiveNoSpace | cobra.ShellCompDirectiveDefault
	})
}

// onCommandLine reports whether the command line chose the key source.
func (f signerFlags) onCommandLine() bool { return f.source != "" || f.keystore != "" }

// keyUsageError is a key choice the user must correct on the command line
// or in the config: exit status 2.
type keyUsageError struct{ error }

func (e keyUsageError) Unwrap() error { return e.error }

// isUsage reports whether err is the user's to correct (exit 2): no key
// at all, or a key choice that cannot be.
func isUsage(err error) bool {
	return errors.As(err, new(*noCredentialError)) || errors.As(err, new(keyUsageError))
}

// keySource is a chosen key source and whether the environment's signer
// in the config chose it rather than a flag, which its errors name.
type keySource struct {
	signer.Source
	configured bool
}

// chosen is the chosen key source: --signer, else --keystore-file, else
// the environment's signer; ok false when none is chosen.
func (f signerFlags) chosen(e config.Environment) (keySource, bool, error) {
	switch {
	case f.source != "" && f.keystore != "":
		return keySource{}, false, keyUsageError{errors.New("--signer and --keystore-file both choose the key: give one")}
	case f.source != "":
		s, err := signer.ParseSource(f.source)
		if err != nil {
			return keySource{}, false, keyUsageError{fmt.Errorf("--signer: %v", err)}
		}
		return keySource{Source: s}, true, nil
	case f.keystore != "":
		s, err := signer.KeystoreFile(f.keystore)
		if err != nil {
			return keySource{}, false, keyUsageError{fmt.Errorf("--keystore-file: %v", err)}
		}
		return keySource{Source: s}, true, nil
	case e.Signer != "":
		// Checked when the config was loaded.
		s, err := signer.ParseSource(e.Signer)
		return keySource{Source: s, configured: true}, err == nil, err
	}
	return keySource{}, false, nil
}

// chose names what chose s where its error says so: flag, the words of
// --signer, or the environment's signer in the config file read.
func (s keySource) chose(flag string, e config.Environment, configFile string) string {
	if !s.configured {
		return flag
	}
	shown := config.ShownPath(configFile) // escaped (safetext.Shown)
	return fmt.Sprintf("signer = %q of environment %s in the config (%s)", e.Signer, e.Name, shown)
}

// accountSaid names account a as what gave it, where an error says so:
// --account, else the environment's account in the config file read (a
// flag never given was said as given).
func (f signerFlags) accountSaid(a common.Address, e config.Environment, configFile string) string {
	if f.account != "" {
		return "--account " + a.Hex()
	}
	shown := config.ShownPath(configFile) // escaped (safetext.Shown)
	return fmt.Sprintf("account = %q of environment %s in the config (%s)", a.Hex(), e.Name, shown)
}

// accountOf is --account, else the environment's account; zero when neither.
func (f signerFlags) accountOf(e config.Environment) (common.Address, error) {
	a := f.account
	if a == "" {
		a = e.Account
	}
	if a == "" {
		return common.Address{}, nil
	}
	if !common.IsHexAddress(a) {
		return common.Address{}, keyUsageError{fmt.Errorf("--account: %s is not an address (0x and 40 hex digits)", safetext.NameQuoted(a))}
	}
	return common.HexToAddress(a), nil
}

// keyChoice is a command's key, opened: its address is known, Load gives
// the key (asking a keystore's passphrase then). what names it for
// messages, never with a secret.
type keyChoice struct {
	signer.Opened
	what string
	// file is the path what names (offline signing's), kept whole where
	// a review row wraps.
	file string
}

// demoKeyName names what a command falls back to on the embedded sandbox
// when given no key: its demo API key (status, deposit) or its demo wallet
// key (the commands that sign), in a login's or a review's words.
const demoKeyName = "the sandbox demo key"

// noKeyError says no key here signs for account (zero: any), in the one
// rule's words (signer.NoKeyError), then the ways to give one (keyWays).
// It is reached only when no source is chosen, the config's signer
// included, so none is set that could be fixed.
func noKeyError(env CLIEnv, account common.Address) error {
	nk := &signer.NoKeyError{Account: account}
	return errors.New(nk.Error() + ": " + keyWays(env, account, nk))
}

// keyWays are the command line's ways to give the key that signs for
// account (zero: any), in the one rule's set for nk's case
// (signer.NoKeyError.Steps) around the flag: when the keystore holds keys
// it names the --signer that signs with one (the one of account, else the
// only one), so the step is a flag to add, not a form to fill in.
func keyWays(env CLIEnv, account common.Address, nk *signer.NoKeyError) string {
	var known []string
	if dir, err := keystoreDir("", env); err == nil {
		keys, _ := signer.ListKeystore(dir)
		for _, k := range keys {
			if k.AddressKnown && (account == (common.Address{}) || k.Address == account) {
				known = append(known, k.Address.Hex())
			}
		}
	}
	sources := "clef:" + signer.DefaultClefEndpoint + ", command, ..."
	switch len(known) {
	case 0:
		return nk.Steps("choose a key source with --signer (keystore:ADDRESS, "+sources+")", "import its keystore file ("+invocation{}.command("key", "import")+")")
	case 1:
		return nk.Steps("add --signer keystore:"+known[0]+" to sign with the keystore's key", "choose another source with --signer ("+sources+")")
	}
	return nk.Steps(fmt.Sprintf("add --signer keystore:ADDRESS with the one of the keystore's %d keys that signs (%s)", len(known), invocation{}.command("key", "list")), "choose another source with --signer ("+sources+")")
}

// openKey opens the key a command signs with: the chosen source (see
// chosen), else $SVCWALLET_PRIVATE_KEY, else on the sandbox its demo key.
// Each signature from clef or a signing command is announced on stderr
// and can be cancelled with ctrl+c (watchWait). Errors the user must
// correct are keyUsageErrors.
func (a *app) openKey(ctx context.Context, f signerFlags, e config.Environment) (keyChoice, error) {
	env := a.env
	src, ok, err := f.chosen(e)
	if err != nil {
		return keyChoice{}, err
	}
	account, err := f.accountOf(e)
	if err != nil {
		return keyChoice{}, err
	}
	o := signer.Opening{
		Account: account, RawKey: env.Getenv(signer.KeyEnvVar),
		SignCommand: signer.SignCommandLine(e.SignCommand, env.Getenv), Start: signer.SignCommandStarter(true), Wait: e.SignWait(),
		Passphrase: func(prompt string) (string, error) {
			if f.passwordFile != "" {
				return readPasswordFile(f.passwordFile)
			}
			return signingPassphrase(ctx, env, prompt)
		},
	}
	what := ""
	if !ok {
		src = keySource{Source: signer.Source{Kind: signer.SourceEnv}}
		switch {
		case o.RawKey != "":
		case e.Name == config.SandboxEnv:
			o.RawKey, what = sandbox.DemoPrivateKey, demoKeyName
		default:
			return keyChoice{}, keyUsageError{noKeyError(env, account)}
		}
	}
	if src.Kind == signer.SourceKeystore {
		if o.KeystoreDir, err = keystoreDir("", env); err != nil && src.Path == "" {
			return keyChoice{}, err
		}
	}
	cx := ctx
	if src.Kind == signer.SourceClef && account == (common.Address{}) {
		var done func()
		cx, done = a.watchWait(cx, "clef at "+src.Endpoint+" to list its accounts (approve the listing there)")
		defer done()
	}
	op, err := o.Open(cx, src.Source)
	configFile := newInvocation(e.Name, a.configPath, env.Getenv).configFile
	switch {
	case errors.Is(err, signer.ErrNeedAccount) || errors.Is(err, signer.ErrOffline) || errors.As(err, new(*signer.OtherAccountError)):
		return keyChoice{}, keyUsageError{keyWords(err, src, f, e, configFile)}
	case err != nil && (src.Kind == signer.SourceEnv || src.Kind == signer.SourceCommand):
		// $SVCWALLET_PRIVATE_KEY unset or not a key; no signing command,
		// or one that cannot be run as written.
		return keyChoice{}, keyUsageError{keyWords(err, src, f, e, configFile)}
	case err != nil:
		return keyChoice{}, keyWords(err, src, f, e, configFile)
	}
	if what == "" {
		what = src.Describe()
	}
	load := op.Load
	op.Load = func() (signer.Key, error) {
		k, err := load()
		switch {
		case errors.Is(err, signer.ErrWrongPassphrase) && f.passwordFile != "":
			return nil, fmt.Errorf("%w: check the passphrase in %s (--password-file)", err, safetext.Shown(f.passwordFile))
		case errors.Is(err, signer.ErrWrongPassphrase):
			return nil, fmt.Errorf("%w: run the command again and type it", err)
		case err != nil:
			return nil, err
		}
		if words := a.argumentWarning.Due(k); words != "" {
			fmt.Fprintf(a.env.Stderr, "%s: warning: %s: %s\n", a.name, words, signer.ArgumentSecretFix)
		}
		return signer.Watch(k, a.watchWait), nil
	}
	return keyChoice{Opened: op, what: what}, nil
}

// keyWords says how the command line chooses otherwise when src cannot
// be opened: the flags that name the account, the key or the file. What
// chose src, and the account, is named as it was: a flag, or the
// config's setting of e in configFile.
func keyWords(err error, src keySource, f signerFlags, e config.Environment, configFile string) error {
	var other *signer.OtherAccountError
	var need *signer.AccountNeededError
	switch {
	case errors.As(err, &other) && src.Kind == signer.SourceKeystore && src.Path == "":
		return fmt.Errorf("%s and %s name different keys", src.chose("--signer keystore:"+other.Holds.Hex(), e, configFile), f.accountSaid(other.Named, e, configFile))
	case errors.As(err, &other):
		return fmt.Errorf("%s holds the key of %s, not of %s", src.Describe(), other.Holds.Hex(), f.accountSaid(other.Named, e, configFile))
	case errors.As(err, &need) && src.Kind == signer.SourceKeystore:
		return fmt.Errorf("%s: which key? give --account ADDRESS, or use --signer keystore:ADDRESS", src.chose("--signer keystore", e, configFile))
	case errors.As(err, &need) && src.Kind == signer.SourceClef:
		return fmt.Errorf("%s: give --account ADDRESS to choose one", need.Why)
	case errors.As(err, &need):
		return fmt.Errorf("%s: give --account ADDRESS", need.Why)
	case errors.Is(err, signer.ErrOffline):
		return fmt.Errorf("offline signing has no key here: the typed data is written to a file (--out) to sign elsewhere, and the signature submitted; to log in, set $%s", apiKeyVar)
	case errors.Is(err, signer.ErrNoEnvKey):
		return fmt.Errorf("%s: %w", src.chose("--signer "+string(src.Kind), e, configFile), err)
	case errors.Is(err, signer.ErrChooseFile):
		return fmt.Errorf("%w with --keystore-file", err)
	case errors.Is(err, signer.ErrNoSignCommand) || src.configured:
		why := err
		if src.configured && src.Path != "" && errors.Is(err, fs.ErrNotExist) {
			why = exchange.UserError{Text: signer.ErrFileNotThere.Error(), Cause: err}
		}
		said := fmt.Errorf("%s: %w", src.chose("--signer "+string(src.Kind), e, configFile), why)
		if src.configured {
			// The config's signer stops the command, as it stops every
			// face's look for a key; a flag's source is taken before it.
			said = fmt.Errorf("%w; or give --signer, which the command takes before the config's (env for $%s, keystore:ADDRESS, …)", said, signer.KeyEnvVar)
		}
		return said
	}
	return err
}

// watchWait is what the command line does while a signature is awaited
// from clef or a signing command: it says so on stderr; ctrl+c, SIGTERM
// or SIGHUP end ctx (interruptible), which cancels the wait and ends a
// signing command's whole process group. A signing command that has the
// terminal gets the ctrl+c itself.
func (a *app) watchWait(ctx context.Context, awaiting string) (context.Context, func()) {
	fmt.Fprintf(a.env.Stderr, "%s: waiting for %s (ctrl+c cancels)\n", a.name, awaiting)
	cx, cancel := context.WithCancel(ctx)
	return cx, cancel
}

// keyLogin is the wallet-login credential of the key f chooses in e,
// opened here: the commands' login (loginCredential) and auth login
// take it so.
func (a *app) keyLogin(ctx context.Context, f signerFlags, e config.Environment) (exchange.Credential, string, error) {
	k, err := a.openKey(ctx, f, e)
	if err != nil {
		return nil, "", err
	}
	return walletLogin(k)
}

// walletLogin is the wallet-login credential of an opened key.
func walletLogin(k keyChoice) (exchange.Credential, string, error) {
	key, err := k.Load()
	if err != nil {
		return nil, "", err
	}
	return exchange.Wallet(key), "the wallet " + k.Address.Hex() + " (from " + k.what + ")", nil
}

// withSignerHelp adds to a command's --help text, before its exit
// statuses, where the key and the environment are said (the help topics).
func withSignerHelp(long string) string {
	const topics = "The key: svcwallet help keys. The environment: svcwallet help environments."
	if i := strings.Index(long, "\nExit status"); i >= 0 {
		return long[:i] + topics + "\n" + long[i:]
	}
	return long + "\n\n" + topics
}

// signFailure reports whether err is a key source's refusal or failure, a
// wait for it that was cancelled or ran out, or a signature by another key
// (exchange.SignFailure): nothing was sent, exit status 1.
func signFailure(err error) bool {
	return errors.As(err, new(*signer.SourceError)) || errors.As(err, new(*signer.WaitError)) || errors.Is(err, signer.ErrWrongSigner)
}
