package cli

import (
	"io"
	"slices"
	"strings"

	"github.com/svcwallet/svcwallet/internal/config"

	"github.com/spf13/cobra"
)

// Shell completion: `svcwallet completion SHELL` writes the script (bash,
// zsh, fish, powershell) with cobra's generators; the scripts call back
// `svcwallet __complete`, which runs the functions below. They read the
// config only: a completion never reaches the network.

// completionCommand is ours rather than cobra's default, so that a missing
// or unknown shell is a usage error like any other (exit 2), not help with
// status 0.
func completionCommand() *cobra.Command {
	c := &cobra.Command{
		Use:   "completion",
		Short: "Write a shell's completion script",
		Long: "Writes the completion script for a shell to standard output. For example:\n" +
			"  source <(svcwallet completion bash)      # bash, this shell\n" +
			"  svcwallet completion zsh > \"${fpath[1]}/_svcwallet\"\n" +
			"  svcwallet completion fish > ~/.config/fish/completions/svcwallet.fish\n" +
			"--env completes the config's environments, deposit generate the chains.",
		Args: subcommandOnly,
		RunE: func(c *cobra.Command, _ []string) error {
			return usageError("give a shell: %s", subcommandNames(c))
		},
	}
	for _, sh := range []struct {
		name string
		gen  func(root *cobra.Command, w io.Writer) error
	}{
		{"bash", func(r *cobra.Command, w io.Writer) error { return r.GenBashCompletionV2(w, true) }},
		{"fish", func(r *cobra.Command, w io.Writer) error { return r.GenFishCompletion(w, true) }},
		{"powershell", func(r *cobra.Command, w io.Writer) error { return r.GenPowerShellCompletionWithDesc(w) }},
		{"zsh", func(r *cobra.Command, w io.Writer) error { return r.GenZshCompletion(w) }},
	} {
		c.AddCommand(&cobra.Command{
			Use: sh.name, Short: "Write the " + sh.name + " completion script", Args: noArgs,
			ValidArgsFunction: cobra.NoFileCompletions,
			RunE:              func(c *cobra.Command, _ []string) error { return sh.gen(c.Root(), c.OutOrStdout()) },
		})
	}
	return c
}

// envFlags adds --env and --config, with --env completing the config's
// environment names; they choose the environment of app.target.
func (a *app) envFlags(c *cobra.Command) {
	c.Flags().StringVar(&a.envName, "env", "", "environment (else $"+envNameVar+", default_env)")
	c.Flags().StringVar(&a.configPath, "config", "", "config file (else $"+configPathVar+")")
	_ = c.RegisterFlagCompletionFunc("env", func(c *cobra.Command, _ []string, _ string) ([]string, cobra.ShellCompDirective) {
		return a.envNames(flagValue(c, "config")), cobra.ShellCompDirectiveNoFileComp
	})
}

// envNames are the names --env accepts: the config's and the sandbox.
func (a *app) envNames(configPath string) []string {
	cfg, _, err := loadConfig(configPath, a.env.Getenv)
	if err != nil {
		return []string{config.SandboxEnv}
	}
	names := append(cfg.Names(), config.SandboxEnv)
	slices.Sort(names)
	return slices.Compact(names)
}

// chainNames are the chains svcwallet knows a name for without asking the
// service: the production explorers' and the environments' explorer_tx.
func (a *app) chainNames(configPath string) []string {
	var names []string
	for name := range config.DefaultExplorerTx {
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
