package main

import (
	"fmt"
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
			return service.Environment{}, nil, envUsageError{err.Error()}
		}
		return e, func() {}, nil
	}
	srv, err := sandbox.Start("127.0.0.1:0", sandbox.Options{})
	if err != nil {
		return service.Environment{}, nil, fmt.Errorf("cannot start the embedded sandbox: %w", err)
	}
	return service.SandboxEnvironment(srv.URL, sandbox.DefaultChainID), func() { srv.Close() }, nil
}
