package cli

import (
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"svcwallet/service"
)

// Shell completion: cobra's `completion` command writes the scripts (bash,
// zsh, fish, powershell); the scripts call back `svcwallet __complete`,
// which runs the functions below. They read the config only: a completion
// never reaches the network.

// envFlags adds --env and --config, with --env completing the config's
// environment names.
func (a *app) envFlags(c *cobra.Command, envName, configPath *string) {
	c.Flags().StringVar(envName, "env", "", "environment (default $"+envNameVar+", default_env, sandbox)")
	c.Flags().StringVar(configPath, "config", "", "config file (default $"+configPathVar+" or the user's)")
	_ = c.RegisterFlagCompletionFunc("env", func(c *cobra.Command, _ []string, _ string) ([]string, cobra.ShellCompDirective) {
		return a.envNames(flagValue(c, "config")), cobra.ShellCompDirectiveNoFileComp
	})
}

// envNames are the names --env accepts: the config's and the sandbox.
func (a *app) envNames(configPath string) []string {
	cfg, _, err := loadConfig(configPath, a.env.Getenv)
	if err != nil {
		return []string{service.SandboxEnv}
	}
	names := append(cfg.Names(), service.SandboxEnv)
	slices.Sort(names)
	return slices.Compact(names)
}

// chainNames are the chains svcwallet knows a name for without asking the
// service: the production explorers' and the environments' explorer_tx.
func (a *app) chainNames(configPath string) []string {
	var names []string
	for name := range service.DefaultExplorerTx {
		names = append(names, name)
	}
	if cfg, _, err := loadConfig(configPath, a.env.Getenv); err == nil {
		for _, env := range cfg.Names() {
			e, _ := cfg.Lookup(env)
			for name := range e.ExplorerTx {
				names = append(names, strings.ToUpper(name))
			}
		}
	}
	slices.Sort(names)
	return slices.Compact(names)
}

func flagValue(c *cobra.Command, name string) string {
	if f := c.Flag(name); f != nil {
		return f.Value.String()
	}
	return ""
}
