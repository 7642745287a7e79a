package cli

import (
	"errors"
	"fmt"
	"os"

	"github.com/svcwallet/svcwallet/internal/config"
	"github.com/svcwallet/svcwallet/internal/safetext"
	"github.com/svcwallet/svcwallet/internal/sandbox"
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

// chooseEnv is the one order every command and the console follow: --env,
// else $SVCWALLET_ENV, else the config's default_env, else the sandbox.
func chooseEnv(flagValue string, getenv func(string) string, cfg config.Config) string {
	name, _ := chooseEnvBy(flagValue, getenv, cfg)
	return name
}

// chooseEnvBy is chooseEnv with the setting that chose: "--env",
// "$SVCWALLET_ENV", "default_env in the config" or "no setting".
func chooseEnvBy(flagValue string, getenv func(string) string, cfg config.Config) (name, by string) {
	for _, c := range []struct{ name, by string }{
		{flagValue, "--env"}, {getenv(envNameVar), "$" + envNameVar}, {cfg.DefaultEnv, "default_env in the config"},
	} {
		if c.name != "" {
			return c.name, c.by
		}
	}
	return config.SandboxEnv, "no setting: the embedded sandbox"
}

// envUsageError is an environment choice the user must correct.
type envUsageError struct{ msg string }

func (e envUsageError) Error() string { return e.msg }

// unknownEnv refuses an --env (or default_env) name the config does not
// define, listing the names that exist.
func unknownEnv(name, configPath string, cfg config.Config) error {
	where := "the config file"
	if configPath != "" {
		where = configPath
	}
	if len(cfg.Names()) == 0 {
		what := where + " configures none"
		if _, err := os.Stat(configPath); configPath == "" || errors.Is(err, os.ErrNotExist) {
			what = "there is no config file (" + where + ")"
		}
		return envUsageError{fmt.Sprintf("no environment %.40q: %s, so the only one is %s", safetext.Quoted(name), what, config.SandboxEnv)}
	}
	return envUsageError{fmt.Sprintf("no environment %.40q in %s; known: %s", safetext.Quoted(name), where, cfg.KnownNames())}
}

// commandEnv resolves the environment of a non-interactive command (see
// chooseEnv). "sandbox" starts the embedded sandbox in this process until the
// returned func is called.
func commandEnv(configPath, envName string, getenv func(string) string) (config.Environment, func(), error) {
	cfg, configPath, err := loadConfig(configPath, getenv)
	if err != nil {
		return config.Environment{}, nil, err
	}
	if envName = chooseEnv(envName, getenv, cfg); envName != config.SandboxEnv {
		e, err := cfg.Lookup(envName)
		if err != nil {
			return config.Environment{}, nil, unknownEnv(envName, configPath, cfg)
		}
		return e, func() {}, nil
	}
	srv, err := sandbox.Start("127.0.0.1:0", sandbox.Options{})
	if err != nil {
		return config.Environment{}, nil, fmt.Errorf("cannot start the embedded sandbox: %w", err)
	}
	return config.SandboxEnvironment(srv.URL, sandbox.DefaultChainID), func() { srv.Close() }, nil
}
