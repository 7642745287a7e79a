package cli

import (
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/svcwallet/svcwallet/internal/plain"
	"github.com/svcwallet/svcwallet/internal/safetext"
	"github.com/svcwallet/svcwallet/service/config"
	"github.com/svcwallet/svcwallet/service/sandbox"
)

// Environment variables that stand in for --config and --env.
const (
	configPathVar = "SVCWALLET_CONFIG"
	envNameVar    = "SVCWALLET_ENV"
)

// loadConfig reads --config, else $SVCWALLET_CONFIG, else the default config
// file (a missing default file is no error: the sandbox is there). It
// returns the path it read, for messages.
func loadConfig(configPath string, getenv func(string) string) (config.Config, string, error) {
	if configPath == "" {
		configPath = getenv(configPathVar)
	}
	explicit := configPath != ""
	if !explicit {
		configPath = config.DefaultConfigPath()
	}
	cfg, err := config.LoadConfig(configPath, explicit)
	return cfg, configPath, err
}

// chooseEnvBy is the one order every command and the console follow
// (--env, $SVCWALLET_ENV, default_env, the sandbox), with what chose.
func chooseEnvBy(flagValue string, getenv func(string) string, cfg config.Config) (name, by string) {
	for _, c := range []struct{ name, by string }{
		{flagValue, "--env"}, {getenv(envNameVar), "$" + envNameVar}, {cfg.DefaultEnv, byDefaultEnv},
	} {
		if c.name != "" {
			return c.name, c.by
		}
	}
	return config.SandboxEnv, sandboxByNothing
}

// byDefaultEnv is how default_env chooses (chooseEnvBy).
const byDefaultEnv = "default_env in the config"

// envNameFix is the fix of an unknown name given by what chose it
// (chooseEnvBy): the variable, default_env (env use, on v's config), or
// --env.
func envNameFix(by string, v invocation) string {
	switch by {
	case "$" + envNameVar:
		return "set $" + envNameVar + " to a configured name, or unset it"
	case byDefaultEnv:
		return "choose a configured one with " + v.command("env", "use", "NAME")
	}
	return "give --env a configured name"
}

// sandboxByNothing is how the embedded sandbox is chosen when nothing
// names an environment (chooseEnvBy).
const sandboxByNothing = "default, as no --env, $SVCWALLET_ENV or default_env names one"

// consoleEnv reads the config and the environment the console opens on,
// refusing an unknown name before anything starts.
func consoleEnv(configPath, envName string, getenv func(string) string) (config.Config, string, error) {
	cfg, configPath, err := loadConfig(configPath, getenv)
	if err != nil {
		return cfg, "", otherError(err)
	}
	envName, by := chooseEnvBy(envName, getenv, cfg)
	if envName != config.SandboxEnv {
		if _, err := cfg.Lookup(envName); err != nil {
			return cfg, "", unknownEnv(envName, by, configPath, cfg, true)
		}
	}
	return cfg, envName, nil
}

// unknownEnv refuses an --env (or default_env) name the config does not
// define, saying what gave it (by: "--env", "$SVCWALLET_ENV", "default_env
// in the config"; "" for a command's argument), the name it is close to,
// and the names that exist: a usage error. sandboxToo is false for a
// command that refuses the sandbox (env remove), which is then neither
// suggested nor listed.
func unknownEnv(name, by, configPath string, cfg config.Config, sandboxToo bool) error {
	where := "the config file"
	if configPath != "" {
		where = configPath
	}
	from := ""
	if by != "" {
		from = " (from " + by + ")"
	}
	names := cfg.Names()
	if len(names) == 0 {
		what := where + " configures none"
		if _, err := os.Stat(configPath); configPath == "" || errors.Is(err, os.ErrNotExist) {
			what = "there is no config file (" + where + ")"
		}
		if !sandboxToo {
			return usageError("no environment %s%s: %s, so there is none to remove", envShown(name), from, what)
		}
		return usageError("no environment %s%s: %s, so the only one is %s", envShown(name), from, what, config.SandboxEnv)
	}
	if sandboxToo {
		names = append(names, config.SandboxEnv)
	}
	hint := "known: " + config.JoinNames(names)
	if m := config.ClosestName(name, names); m != "" {
		hint = "did you mean " + m + "? (known: " + config.JoinNames(names) + ")"
	}
	return usageError("no environment %s%s in %s; %s", envShown(name), from, where, hint)
}

// envShown is an environment's name as a refusal quotes it: one holding
// what a terminal acts on or hides is escaped in ASCII, not cleaned, so
// "local" with an escape in it is not said to be no environment "local".
func envShown(name string) string {
	if safetext.Text(name) != name {
		return safetext.NameQuoted(name)
	}
	return fmt.Sprintf("%.40q", safetext.Quoted(name))
}

// startEnv is the environment name of cfg, the embedded sandbox started
// for "sandbox" until the returned func is called.
func startEnv(cfg config.Config, name string) (config.Environment, func(), error) {
	if name != config.SandboxEnv {
		e, err := cfg.Lookup(name)
		return e, func() {}, err
	}
	srv, err := sandbox.Start("127.0.0.1:0", sandbox.Options{})
	if err != nil {
		return config.Environment{}, nil, fmt.Errorf("cannot start the embedded sandbox: %w", err)
	}
	return config.SandboxEnvironment(srv.URL, sandbox.DefaultChainID), func() { srv.Close() }, nil
}

// runTarget is the environment of one run, resolved once, when a command
// first asks: version, help, key and completion read no config.
type runTarget struct {
	cfg  *config.Config
	name string
	err  error
	env  config.Environment
	stop func() // set once env is; stops the embedded sandbox
}

// chosenEnv reads the config and chooses the environment (consoleEnv).
func (a *app) chosenEnv() (config.Config, string, error) {
	if t := &a.target; t.cfg == nil {
		cfg, name, err := consoleEnv(a.configPath, a.envName, a.env.Getenv)
		t.cfg, t.name, t.err = &cfg, name, err
	}
	return *a.target.cfg, a.target.name, a.target.err
}

// environment is the chosen environment: the config's, or the embedded
// sandbox, started in this process until the command ends.
func (a *app) environment() (config.Environment, error) {
	t := &a.target
	cfg, name, err := a.chosenEnv()
	if err == nil && t.stop == nil {
		if t.env, t.stop, err = startEnv(cfg, name); err != nil {
			return t.env, otherError(err)
		}
		if fallback := sandboxByDefault(cfg, name, a.envName, a.env.Getenv); fallback != "" {
			fmt.Fprintf(plain.Fitted(a.env.Stderr), "%s: %s; choose one with --env NAME, $%s or default_env in the config\n", a.name, fallback, envNameVar)
		}
	}
	return t.env, err
}

// sandboxByDefault says why a command on name is worth a word, or "":
// nothing chose an environment though the config defines some, so it runs
// on a throwaway embedded sandbox, which knows none of their withdrawals.
func sandboxByDefault(cfg config.Config, name, flagValue string, getenv func(string) string) string {
	if _, by := chooseEnvBy(flagValue, getenv, cfg); name != config.SandboxEnv || by != sandboxByNothing || len(cfg.Names()) == 0 {
		return ""
	}
	return "no environment chosen, so this runs on a throwaway embedded sandbox that knows none of the withdrawals of " + strings.Join(cfg.Names(), ", ")
}

// invocation is how this run chose its environment, for the commands it
// prints for the user to run next.
func (a *app) invocation() invocation {
	return newInvocation(a.target.name, a.configPath, a.env.Getenv)
}
