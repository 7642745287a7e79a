package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/svcwallet/svcwallet/internal/plain"
	"github.com/svcwallet/svcwallet/internal/safetext"
	"github.com/svcwallet/svcwallet/service/config"
	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/follow"
	"github.com/svcwallet/svcwallet/service/session"
)

const authLong = `Logs in once and keeps the session, as gh auth login keeps its token: status,
deposit, history --refresh, withdraw and the console then use it until it
ends, asking for no API key or passphrase. It is kept in the system's
credential store (the macOS Keychain, the Secret Service, the Windows
Credential Manager), bound to the environment's hosts and chain id: if the
environment's name later reaches another service, it is not sent there.`

const authLoginLong = `Logs in to the environment and keeps the session (see svcwallet auth).

By API key: asked on the terminal without echo, else read from standard
input with --with-api-key (as gh's --with-token), else taken from
$SVCWALLET_API_KEY. The key is kept with the session in the credential
store, so the session renews itself when it ends.

By wallet signature: --signer SOURCE (or --keystore-file), or --wallet for
the environment's signer or $SVCWALLET_PRIVATE_KEY. Only the session is
kept: when it ends (30 days on the published service), log in again.

Where no credential store can be reached (a server, CI), --insecure-storage
keeps the session, never the API key, in a 0600 file in the state folder,
readable by anything that runs as you.

Exit status: 0 logged in and kept, 1 not kept, 2 usage, 5 the login failed.`

// authFlags are auth login's own flags.
type authFlags struct {
	withAPIKey, wallet, insecure bool
	key                          signerFlags
}

// authCommand is `svcwallet auth`.
func (a *app) authCommand() *cobra.Command {
	c := &cobra.Command{
		Use:   "auth",
		Short: "Log in once; see and end kept sessions",
		Long:  authLong,
		Args:  subcommandOnly,
		RunE:  giveA("command"),
	}
	c.AddCommand(a.authLoginCommand(), a.authStatusCommand(), a.authLogoutCommand())
	return c
}

func (a *app) authLoginCommand() *cobra.Command {
	var f authFlags
	c := &cobra.Command{
		Use:   "login",
		Short: "Log in to an environment and keep the session",
		Long:  authLoginLong,
		Example: `  svcwallet auth login
  printf %s "$KEY" | svcwallet auth login --with-api-key
  svcwallet auth login --wallet --password-file ~/.svcwallet-pass`,
		Args:        noArgs,
		Annotations: map[string]string{annotationOtherExit: "yes"},
		RunE: func(c *cobra.Command, _ []string) error {
			return a.authLogin(c.Context(), f)
		},
	}
	c.Flags().BoolVar(&f.withAPIKey, "with-api-key", false, "read the API key from standard input")
	c.Flags().BoolVar(&f.wallet, "wallet", false, "log in by wallet signature with the environment's key source")
	c.Flags().BoolVar(&f.insecure, "insecure-storage", false, "keep the session in a 0600 file, not the credential store")
	addSignerFlags(c, &f.key, true)
	a.envFlags(c)
	return c
}

// authLoginJSON is auth login's --json.
type authLoginJSON struct {
	whereJSON
	Service   string    `json:"service"`
	AccountID string    `json:"account_id"`
	Method    string    `json:"method"`
	Expires   time.Time `json:"expires"`
	Kept      string    `json:"kept"`
	File      string    `json:"file,omitempty"`
}

func (a *app) authLogin(ctx context.Context, f authFlags) error {
	e, err := a.environment()
	if err != nil {
		return err
	}
	if e.Embedded() {
		return usageError("the embedded sandbox ends with svcwallet, and its sessions with it: there is nothing to keep; run %s and name it with the env add it prints", invocation{}.command("sandbox"))
	}
	apiKey, what, given, err := a.givenAPIKey(e, f)
	if err != nil {
		return loginFailed(err)
	}
	store := a.sessionStore()
	if !f.insecure {
		if err := store.Available(); err != nil {
			return failure(exitFailed, "%v: nothing was sent. Keep the session in a 0600 file instead with --insecure-storage (%s), or keep none and log in on each command with $%s or --signer", err, safetext.Shown(store.File), exchange.APIKeyEnvVar)
		}
	}
	cred := exchange.APIKey(apiKey)
	if !given {
		if cred, apiKey, what, err = a.askedCredential(ctx, e, f); err != nil {
			return loginFailed(err)
		}
	}
	client := exchange.New(e, exchange.Options{Logger: a.env.Log})
	if _, err := client.Login(ctx, cred); errors.Is(err, context.Canceled) && !signFailure(err) {
		return interrupted(ctx, "")
	} else if err != nil {
		if s, ok := exchange.SuspectOfLogin(err); ok {
			err = fmt.Errorf("%w; %s: check %s in [env.%s] (docs/real-service.md)", loginError(what, e.Name, err), s.Seen, s.Key, e.Name)
			return loginFailed(err)
		}
		return loginFailed(loginError(what, e.Name, err))
	}
	k, _ := client.Kept()
	where, err := store.Save(e, k, apiKey, f.insecure)
	if err != nil {
		next := ""
		if _, ok := errors.AsType[*session.UnkeptError](err); ok {
			next = fmt.Sprintf("; log in on each command instead, with $%s or --signer", exchange.APIKeyEnvVar)
		}
		return failure(exitFailed, "logged in to %s, but the session could not be kept: %v%s", e.Name, err, next)
	}
	out := authLoginJSON{whereJSON: whereOf(e), Service: e.Service().String(), AccountID: k.AccountID, Method: k.Method,
		Expires: follow.OutputTime(k.Expires), Kept: string(where)}
	if where == session.InFile {
		out.File = store.File
	}
	if a.env.JSON {
		return outputError(writeJSON(a.env.Stdout, out))
	}
	w := plain.Fitted(a.env.Stdout) // wrapped at spaces on a terminal, its commands whole
	fmt.Fprintf(w, "Logged in to %s (%s) by %s: account %s, until %s.\n", e.Name, out.Service, k.Method, k.AccountID, k.Expires.UTC().Format("2006-01-02 15:04 UTC"))
	switch {
	case where == session.InFile && apiKey != "":
		fmt.Fprintf(w, "The session is kept in %s (0600), readable by anything that runs as you (--insecure-storage); the API key is not kept, so log in again when it ends.\n", safetext.Shown(store.File))
	case where == session.InFile:
		fmt.Fprintf(w, "The session is kept in %s (0600), readable by anything that runs as you (--insecure-storage); log in again when it ends.\n", safetext.Shown(store.File))
	case apiKey != "":
		fmt.Fprintln(w, "The session and the API key are kept in the system's credential store: commands and the console use the session, renewed with the key when it ends.")
	default:
		fmt.Fprintln(w, "The session is kept in the system's credential store: commands and the console use it until it ends, then log in again.")
	}
	fmt.Fprintf(w, "%s forgets it.\n", newInvocation(e.Name, a.configPath, a.env.Getenv).command("auth", "logout"))
	return nil
}

// givenAPIKey is the API key auth login was given, piped (--with-api-key)
// or in $SVCWALLET_API_KEY, checked unsent, and its name for errors:
// checked before the credential store is, so a bad key is the failed login
// every command says. given is false for a wallet login or a key to type.
func (a *app) givenAPIKey(e config.Environment, f authFlags) (key, what string, given bool, err error) {
	envKey, inEnv := exchange.GivenAPIKey(a.env.Getenv)
	switch {
	case f.wallet || f.key.onCommandLine():
		if f.withAPIKey {
			return "", "", false, keyUsageError{errors.New("--with-api-key and a wallet login exclude each other: choose one")}
		}
		return "", "", false, nil
	case f.withAPIKey && !plain.IsTerminal(a.env.Stdin):
		b, err := io.ReadAll(io.LimitReader(a.env.Stdin, 4096))
		if err != nil {
			return "", "", false, fmt.Errorf("cannot read the API key from standard input: %w", err)
		}
		key, what = strings.TrimSpace(string(b)), "the API key read from standard input"
		if key == "" {
			return "", "", false, keyUsageError{errors.New(`standard input held no API key: pipe it in, as printf %s "$KEY" | ` + newInvocation(e.Name, a.configPath, a.env.Getenv).command("auth", "login", "--with-api-key") + `; nothing was sent`)}
		}
	case !f.withAPIKey && inEnv:
		key, what = envKey, "the API key in $"+exchange.APIKeyEnvVar
	default:
		return "", "", false, nil
	}
	if err := exchange.CheckAPIKey(key); err != nil {
		// Refused unsent: a failed login said as every command says it
		// (loginError, exit 5), never a usage error of the line typed.
		return "", "", false, loginError(what, e.Name, err)
	}
	return key, what, true, nil
}

// askedCredential is the credential auth login logs in with when it was
// given no API key, once the store is known to keep it: the wallet's, or a
// key typed at the terminal; with the API key to keep ("" for a wallet)
// and its name for errors.
func (a *app) askedCredential(ctx context.Context, e config.Environment, f authFlags) (exchange.Credential, string, string, error) {
	if f.wallet || f.key.onCommandLine() {
		cred, what, err := a.keyLogin(ctx, f.key, e)
		return cred, "", what, err
	}
	if !plain.IsTerminal(a.env.Stdin) {
		return nil, "", "", keyUsageError{errors.New("no API key: on a terminal svcwallet auth login asks for it; in a script pipe it with --with-api-key, or set $" + exchange.APIKeyEnvVar + "; or log in by wallet with --signer or --wallet")}
	}
	// --with-api-key too: read as a pipe is, the terminal would echo the
	// key in the clear, with no prompt saying it waits for one.
	k, err := typedAPIKey(ctx, a.env, e.Name)
	if err != nil {
		return nil, "", "", err
	}
	key, what := strings.TrimSpace(k), "the API key typed"
	if err := exchange.CheckAPIKey(key); err != nil {
		return nil, "", "", loginError(what, e.Name, err)
	}
	return exchange.APIKey(key), key, what, nil
}

// typedAPIKey asks for the API key at the terminal's hidden prompt, its
// read's end worded as a key's (secretRead): ctrl+d or ctrl+c there sends
// nothing, and says so.
func typedAPIKey(ctx context.Context, env CLIEnv, name string) (string, error) {
	return readSecret(ctx, env, "API key for "+name+" (not shown): ", "the API key", nothingSent)
}
