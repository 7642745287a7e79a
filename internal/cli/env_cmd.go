package cli

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/svcwallet/svcwallet/internal/osguard"
	"github.com/svcwallet/svcwallet/internal/plain"
	"github.com/svcwallet/svcwallet/internal/safetext"
	"github.com/svcwallet/svcwallet/service/config"
	"github.com/svcwallet/svcwallet/service/exchange"
)

// envAddFlags are env add's flags: the environment's hosts and names.
type envAddFlags struct {
	config.Environment
	alias bool
}

// envCommand is `svcwallet env`: the config's environments, edited in the
// file's text so its comments and order stay (config.AddEnvironment).
func (a *app) envCommand() *cobra.Command {
	c := &cobra.Command{
		Use:   "env",
		Short: "Name, list, choose and remove environments",
		Long: `Edits the config's environments without editing TOML, as kubectl config
use-context and gh auth switch do: env add names a deployment (and probes
it), env list shows them with the current one marked, env use makes one the
default (default_env), env remove takes one out. The file's comments and
order stay: each edit changes its own lines, and is written only when the
file then reads as meant.`,
		Args: subcommandOnly,
		RunE: giveA("command"),
	}
	c.PersistentFlags().StringVar(&a.configPath, "config", "", "config file (else $"+configPathVar+")")
	c.AddCommand(a.envAddCommand(), a.envListCommand(), a.envUseCommand(), a.envRemoveCommand())
	return c
}

func (a *app) envAddCommand() *cobra.Command {
	var f envAddFlags
	c := &cobra.Command{
		Use:   "add NAME",
		Short: "Name a deployment: its hosts and chain id",
		Long: `Adds an environment to the config. On a terminal it asks for what the flags
leave out (the auth and market-data hosts default to the base URL, as on a
sandbox); without one --base-url and --chain-id are needed. It then asks each
host for /time and says what it found, and which name looks wrong when one
does not answer as a deployment should (docs/real-service.md). A second name
for a service another name reaches is refused unless --alias.`,
		Example:           `  svcwallet env add local --base-url http://127.0.0.1:8700 --chain-id 327`,
		Args:              a.oneEnvName("add"),
		ValidArgsFunction: cobra.NoFileCompletions, // a new name: nothing to offer
		RunE: func(c *cobra.Command, args []string) error {
			f.Name = args[0]
			return a.envAdd(c.Context(), f)
		},
	}
	fl := c.Flags()
	fl.StringVar(&f.BaseURL, "base-url", "", "the API host (https://…)")
	fl.StringVar(&f.AuthURL, "auth-url", "", "the login host (default: the base URL)")
	fl.StringVar(&f.MarketDataURL, "market-data-url", "", "the host of /time (default: the base URL)")
	fl.Uint64Var(&f.ChainID, "chain-id", 0, "the chain id: 325 production, 326 testnet, 327 staging")
	fl.StringVar(&f.DomainName, "domain-name", "", "the EIP-712 domain name (default Service Exchange)")
	fl.StringVar(&f.CookieName, "cookie-name", "", "the session cookie's name (default svc)")
	fl.StringVar(&f.AccountIDHeader, "account-id-header", "", "the account-id header's name")
	fl.BoolVar(&f.alias, "alias", false, "allow a second name for a service another name reaches")
	return c
}

func (a *app) envAdd(ctx context.Context, f envAddFlags) error {
	e := f.Environment
	if plain.IsTerminal(a.env.Stdin) {
		if err := a.askEnv(ctx, &e); err != nil {
			return err
		}
	}
	switch {
	case e.BaseURL == "":
		return usageError("give --base-url, the API host (on a terminal env add asks for it)")
	case e.ChainID == 0:
		return usageError("give --chain-id: 325 production, 326 testnet, 327 staging")
	}
	if e.AuthURL == "" {
		e.AuthURL = e.BaseURL
	}
	if e.MarketDataURL == "" {
		e.MarketDataURL = e.BaseURL
	}
	// A config missing is made, named or the default one: a newcomer's
	// first env add.
	path, created, err := a.configToEdit()
	if err != nil {
		return otherError(err)
	}
	written, err := config.AddEnvironment(path, e, f.alias)
	if err := addRefused(err, e.Name, newInvocation("", a.configPath, a.env.Getenv)); err != nil {
		if created {
			os.Remove(path) // made empty: a refused add leaves nothing
		}
		return err
	}
	if created {
		fmt.Fprintf(a.env.Stdout, "Created %s with environment %s: %s, chain %d.\n", safetext.Shown(path), e.Name, e.Service().Host, e.ChainID)
	} else {
		fmt.Fprintf(a.env.Stdout, "Added environment %s to %s: %s, chain %d.\n", e.Name, configWritten(written), e.Service().Host, e.ChainID)
	}
	a.probeNew(ctx, e)
	next := newInvocation("", a.configPath, a.env.Getenv)
	fmt.Fprintf(a.env.Stdout, "Next: %s, then %s.\n", next.command("env", "use", e.Name), next.command("auth", "login"))
	if created && a.configPath != "" && filepath.Clean(path) != filepath.Clean(config.DefaultConfigPath()) {
		// A file made where --config said, a mistyped path too: the console
		// and every later command read the default config unless told.
		fmt.Fprintf(a.env.Stdout, "Commands read it only when it is named, by --config as above or by $%s; without either they read %s.\n", configPathVar, safetext.Shown(config.DefaultConfigPath()))
	}
	return nil
}

// newConfigChecked runs between the check of a new config's name and the
// file's making (configToEdit): a test plants a link there, as a race would.
var newConfigChecked = func(string) {}

// configToEdit is the path of the config an edit (env add, env use)
// writes, made empty first when missing (created), in one checked way
// whether it was named or is the default: never at a link (a dangling one
// planted at the name; config.CheckNewConfig) nor through one planted after
// the check (config.CreateConfig: O_EXCL, O_NOFOLLOW, 0600). The default's
// folder, the user's own, is made 0700 when missing; a named one's must
// exist, a mistyped folder being no place to lose a config in.
func (a *app) configToEdit() (path string, created bool, err error) {
	_, path, err = loadConfig(a.configPath, a.env.Getenv)
	named := errors.As(err, new(*config.NoConfigError))
	if err != nil && !named {
		return "", false, err
	}
	if path == "" {
		// No config named and no folder of the user's to put one in: the
		// name "" would be checked and made in the working folder.
		_, err := osguard.UserDirs()
		return "", false, fmt.Errorf("no config file to edit: %v; or name one with --config", err)
	}
	if _, err := os.Stat(path); !errors.Is(err, fs.ErrNotExist) {
		return path, false, nil // there: the edit takes it as it is
	}
	if !named {
		if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
			return "", false, fmt.Errorf("config folder %s: %w", safetext.Shown(filepath.Dir(path)), err)
		}
	}
	if err := config.CheckNewConfig(path); err != nil {
		return "", false, err
	}
	newConfigChecked(path)
	if err := config.CreateConfig(path); err != nil {
		return "", false, err
	}
	return path, true, nil
}

// configWritten names the config an edit wrote: its path, and where a
// link is there (a dotfiles manager's, kept), the file the edit wrote
// through it, as the edit looked it up.
func configWritten(w config.Written) string {
	if w.Link != "" {
		return safetext.Shown(w.Path) + ", a link: written to " + safetext.Shown(w.Link)
	}
	return safetext.Shown(w.Path)
}

// addRefused words env add's refusal of the environment name, nil for
// none: what to do instead, a command of v's config.
func addRefused(err error, name string, v invocation) error {
	var same *config.SameServiceError
	var taken *config.NameTakenError
	switch {
	case errors.As(err, &same):
		return usageError("%v; use %s, or add --alias to name it twice", err, same.Other)
	case errors.As(err, &taken) && taken.Name == config.SandboxEnv:
		// The embedded sandbox is in no config: no command takes it out.
		return usageError("%v, say local, for a standalone svcwallet sandbox (the embedded one is built in)", err)
	case errors.As(err, &taken):
		return usageError("%v (%s takes it out)", err, v.command("env", "remove", cmp.Or(taken.Like, name)))
	case err != nil && strings.HasPrefix(err.Error(), "environment "):
		return usageError("%v", err)
	case err != nil:
		return failure(exitFailed, "%v", err)
	}
	return nil
}

// askEnv asks on stderr, one a line, for the hosts and chain id the flags
// left out; an empty answer takes the default shown, and where none is
// shown asks again. Each answer is
// checked as it is typed, and a refused one said and asked again, so a
// typo in the third answer does not cost the other three.
func (a *app) askEnv(ctx context.Context, e *config.Environment) error {
	// The name first: one refused at the end cost every answer. A config
	// not there yet (env add makes it) holds no name.
	cfg, _, _ := loadConfig(a.configPath, a.env.Getenv)
	if err := addRefused(config.CheckNewName(cfg, e.Name), e.Name, newInvocation("", a.configPath, a.env.Getenv)); err != nil {
		return err
	}
	ask := func(question, def string, check func(string) error) (string, error) {
		if def != "" {
			question += " [" + def + "]"
		}
		for {
			fmt.Fprint(a.env.Stderr, plain.Fit(a.env.Stderr, question+": "))
			line, err := untilDone(ctx, func() (string, error) { return plain.ReadLine(a.env.Stdin) })
			if ctx.Err() != nil {
				fmt.Fprintln(a.env.Stderr)
				return "", interrupted(ctx, ": nothing was written")
			}
			switch line = strings.TrimSpace(line); {
			case err != nil:
				return def, nil // the input ended: what is missing is said after
			case line == "" && def == "":
				continue // nothing to take: the question needs its answer
			case line == "":
				return def, nil
			}
			if safetext.HoldsKeyShape(line) {
				// Never repeated: a key pasted at the wrong question.
				fmt.Fprintln(a.env.Stderr, "Not accepted: that has a private key's shape; it is not repeated.")
				continue
			}
			if err := check(line); err != nil {
				fmt.Fprintf(a.env.Stderr, "Not accepted: %s.\n", safetext.Line(err.Error(), 400))
				continue
			}
			return line, nil
		}
	}
	var err error
	if e.BaseURL == "" {
		if e.BaseURL, err = ask("Base URL, the API host (https://…)", "", config.CheckURL); err != nil {
			return err
		}
	}
	if e.AuthURL == "" {
		if e.AuthURL, err = ask("Auth URL, where logins go", e.BaseURL, config.CheckURL); err != nil {
			return err
		}
	}
	if e.MarketDataURL == "" {
		if e.MarketDataURL, err = ask("Market-data URL, the host of /time", e.BaseURL, config.CheckURL); err != nil {
			return err
		}
	}
	if e.ChainID == 0 {
		s, err := ask("Chain id (325 production, 326 testnet, 327 staging)", "", func(s string) error {
			n, err := strconv.ParseUint(s, 10, 64)
			if err != nil || n == 0 {
				return fmt.Errorf("%s is not a chain id: a whole number such as 327", safetext.NameQuoted(s))
			}
			// The config's own bound, said here: at the end every answer is lost.
			if err := config.ChainIDAboveExact(n); err != nil {
				return fmt.Errorf("chain id %d %w", n, err)
			}
			return nil
		})
		if err != nil {
			return err
		}
		e.ChainID, _ = strconv.ParseUint(s, 10, 64)
	}
	return nil
}

// probeNew asks each host of e once and says what it found, naming the
// config key that looks wrong when a host does not answer as it should.
func (a *app) probeNew(ctx context.Context, e config.Environment) {
	ctx, cancel := context.WithTimeout(ctx, doctorProbeTimeout)
	defer cancel()
	p := exchange.New(e, exchange.Options{Logger: a.env.Log}).Probe(ctx)
	out := a.env.Stdout
	for _, h := range p.Hosts {
		if s, ok := exchange.SuspectOfHost(h); ok {
			fmt.Fprintf(out, "  %s %s: %s; check %s in [env.%s] (docs/real-service.md)\n", h.Label, h.URL, s.Seen, s.Key, e.Name)
			continue
		}
		fmt.Fprintf(out, "  %s %s answers in %s\n", h.Label, h.URL, h.RTT.Round(time.Millisecond))
	}
	if s, ok := exchange.SuspectOfClock(p.ClockErr); ok {
		fmt.Fprintf(out, "  %s: %s; check %s\n", s.Key, s.Seen, s.Key)
	} else if p.ClockErr == nil {
		fmt.Fprintf(out, "  the server's clock is %s this machine's\n", clockWords(p.ClockOffset.Round(time.Second)))
	}
}

func (a *app) envListCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "list",
		Short: "List the environments, the current one marked",
		Long: `Lists the config's environments and the embedded sandbox, each with its host
and chain id, and marks with * the one commands and the console use, saying
what chose it ($SVCWALLET_ENV or default_env). A name that chooses none of
them is said, with its fix.

Exit status: 0 done, 1 the config cannot be read.`,
		Args: noArgs,
		RunE: func(*cobra.Command, []string) error {
			cfg, _, err := loadConfig(a.configPath, a.env.Getenv)
			if err != nil {
				return otherError(err)
			}
			current, by := chooseEnvBy(a.envName, a.env.Getenv, cfg)
			type row struct {
				Name    string `json:"name"`
				Current bool   `json:"current"`
				Host    string `json:"host"`
				ChainID uint64 `json:"chain_id"`
			}
			var rows []row
			for _, n := range cfg.Names() {
				e, _ := cfg.Lookup(n)
				rows = append(rows, row{n, n == current, e.Service().Host, e.ChainID})
			}
			rows = append(rows, row{config.SandboxEnv, current == config.SandboxEnv, "embedded", 327})
			if a.env.JSON {
				return outputError(writeJSON(a.env.Stdout, rows))
			}
			marked := false
			for _, r := range rows {
				mark := " "
				if r.Current {
					mark, marked = "*", true
				}
				fmt.Fprintf(a.env.Stdout, "%s %-16s %s, chain %d\n", mark, r.Name, r.Host, r.ChainID)
			}
			if !marked {
				// A name none of these is: commands refuse it, so none is current.
				fmt.Fprintf(a.env.Stdout, "(none is current: %s names %s, which is not one of these, so commands refuse it; %s)\n",
					by, envShown(current), envNameFix(by, newInvocation("", a.configPath, a.env.Getenv)))
				return nil
			}
			fmt.Fprintf(a.env.Stdout, "(* chosen by %s)\n", by)
			return nil
		},
	}
}

// oneEnvName takes the one environment env add, use or remove acts on;
// none or several is said with what to give (cobra said "accepts 1
// arg(s), received 0"): add's shape, or the names there are to use or
// remove. The arguments are counted, never repeated.
func (a *app) oneEnvName(verb string) cobra.PositionalArgs {
	return func(_ *cobra.Command, args []string) error {
		switch {
		case len(args) == 1:
			return nil
		case verb == "add":
			return usageError("give one name for the new environment: %s (got %d arguments)",
				newInvocation("", a.configPath, a.env.Getenv).command("env", "add", "NAME", "--base-url", "URL", "--chain-id", "ID"), len(args))
		}
		known := ""
		if cfg, _, err := loadConfig(a.configPath, a.env.Getenv); err == nil {
			names := cfg.Names()
			if verb == "use" {
				names = append(names, config.SandboxEnv)
			}
			if len(names) > 0 {
				known = ": " + config.JoinNames(names)
			}
		}
		return usageError("give the name of one environment to %s%s (got %d arguments)", verb, known, len(args))
	}
}

func (a *app) envUseCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "use NAME",
		Short: "Make an environment the default (default_env)",
		Long: `Makes NAME, one of the config's environments or sandbox, the default of
every command and the console (default_env in the config). --env and
$SVCWALLET_ENV still choose another where they are given (it says so).

Exit status: 0 done, 1 the config cannot be written, 2 no such environment.`,
		Args:              a.oneEnvName("use"),
		ValidArgsFunction: a.completeEnvArg(true),
		RunE: func(_ *cobra.Command, args []string) error {
			cfg, path, err := loadConfig(a.configPath, a.env.Getenv)
			if err != nil {
				return otherError(err)
			}
			if _, err := cfg.Lookup(args[0]); err != nil && args[0] != config.SandboxEnv {
				return unknownEnv(args[0], "", path, cfg, true) // a name mistyped, as --env's
			}
			path, created, err := a.configToEdit()
			if err != nil {
				return otherError(err)
			}
			written, err := config.UseEnvironment(path, args[0])
			if err != nil {
				if created {
					os.Remove(path) // made empty: a refused edit leaves nothing
				}
				return failure(exitFailed, "%v", err)
			}
			fmt.Fprintf(a.env.Stdout, "Commands and the console now use %s (default_env in %s).\n", args[0], configWritten(written))
			if v := a.env.Getenv(envNameVar); v != "" && v != args[0] {
				fmt.Fprintf(a.env.Stdout, "$%s=%s still chooses another here.\n", envNameVar, v)
			}
			return nil
		},
	}
}

func (a *app) envRemoveCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "remove NAME",
		Short: "Take an environment out of the config, and forget its session",
		Long: `Takes NAME out of the config (the rest of the file stays as it is) and
forgets the session auth login kept for it. The default environment is
refused until another is made the default (svcwallet env use); the built-in
sandbox has nothing to remove.

Exit status: 0 done, 1 the config cannot be written, 2 usage.`,
		Args:              a.oneEnvName("remove"),
		ValidArgsFunction: a.completeEnvArg(false),
		RunE: func(_ *cobra.Command, args []string) error {
			cfg, path, err := loadConfig(a.configPath, a.env.Getenv)
			if err != nil {
				return otherError(err)
			}
			_, err = cfg.Lookup(args[0])
			switch {
			case err != nil && args[0] == config.SandboxEnv:
				// Not "no environment sandbox … the only one is sandbox".
				return usageError("%s is the embedded sandbox, built in: the config holds nothing of it to remove", config.SandboxEnv)
			case err != nil:
				return unknownEnv(args[0], "", path, cfg, false) // the sandbox is not removed
			}
			written, err := config.RemoveEnvironment(path, args[0])
			if errors.As(err, new(*config.DefaultEnvError)) {
				return usageError("%v: %s", err, newInvocation("", a.configPath, a.env.Getenv).command("env", "use", "ANOTHER"))
			} else if err != nil {
				return failure(exitFailed, "%v", err)
			}
			fmt.Fprintf(a.env.Stdout, "Removed environment %s from %s.\n", args[0], configWritten(written))
			if had, _ := a.sessionStore().Forget(args[0]); had {
				fmt.Fprintf(a.env.Stdout, "Forgot the session kept for %s.\n", args[0])
			}
			return nil
		},
	}
}
