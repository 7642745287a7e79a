package main

import (
	"errors"
	"fmt"
	"os"
	"strings"

	"svcwallet/service"
	"svcwallet/service/sandbox"
)

// loadConfig reads --config, or the default config file when the flag is
// empty (a missing default file is no error: the sandbox is there). It
// returns the path it read, for messages.
func loadConfig(configPath string) (service.Config, string, error) {
	explicit := configPath != ""
	if !explicit {
		configPath = service.DefaultConfigPath()
	}
	cfg, err := service.LoadConfig(configPath, explicit)
	return cfg, configPath, err
}

// envUsageError is an environment choice the user must correct.
type envUsageError struct{ msg string }

func (e envUsageError) Error() string { return e.msg }

// unknownEnv refuses an --env (or default_env) name the config does not
// define, listing the names that exist.
func unknownEnv(name, configPath string, cfg service.Config) error {
	where := "the config file"
	if configPath != "" {
		where = configPath
	}
	if len(cfg.Names()) == 0 {
		what := where + " configures none"
		if _, err := os.Stat(configPath); configPath == "" || errors.Is(err, os.ErrNotExist) {
			what = "there is no config file (" + where + ")"
		}
		return envUsageError{fmt.Sprintf("no environment %q: %s, so the only one is %s", name, what, service.SandboxEnv)}
	}
	return envUsageError{fmt.Sprintf("no environment %q in %s; known: %s", name, where, cfg.KnownNames())}
}

// commandEnv resolves the environment of a non-interactive command: --env,
// else the config's default_env. "sandbox" starts the embedded sandbox in
// this process until the returned func is called. With no environment
// chosen, sandboxByDefault picks the sandbox; otherwise it is a usage error.
func commandEnv(configPath, envName string, sandboxByDefault bool) (service.Environment, func(), error) {
	cfg, configPath, err := loadConfig(configPath)
	if err != nil {
		return service.Environment{}, nil, err
	}
	if envName == "" {
		envName = cfg.DefaultEnv
	}
	switch {
	case envName == "" && !sandboxByDefault && len(cfg.Names()) == 0:
		return service.Environment{}, nil, envUsageError{fmt.Sprintf(
			"choose an environment: %s configures none; --env %s tries the embedded sandbox",
			configPath, service.SandboxEnv)}
	case envName == "" && !sandboxByDefault:
		return service.Environment{}, nil, envUsageError{fmt.Sprintf(
			"choose an environment with --env NAME (one of %s) or set default_env in %s",
			strings.Join(cfg.Names(), ", "), configPath)}
	case envName != "" && envName != service.SandboxEnv:
		e, err := cfg.Lookup(envName)
		if err != nil {
			return service.Environment{}, nil, unknownEnv(envName, configPath, cfg)
		}
		return e, func() {}, nil
	}
	srv, err := sandbox.Start("127.0.0.1:0", sandbox.Options{})
	if err != nil {
		return service.Environment{}, nil, fmt.Errorf("cannot start the embedded sandbox: %w", err)
	}
	return service.SandboxEnvironment(srv.URL, sandbox.DefaultChainID), func() { srv.Close() }, nil
}
