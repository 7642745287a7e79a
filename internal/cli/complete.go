package cli

import (
	"errors"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/svcwallet/svcwallet/service/config"
	"github.com/svcwallet/svcwallet/service/follow"
	"github.com/svcwallet/svcwallet/service/journal"
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
		Use:         "completion",
		Annotations: map[string]string{annotationNoFiles: "yes"},
		Short:       "Write a shell's completion script",
		Long: "Writes the completion script for a shell to standard output. For example:\n" +
			"  source <(svcwallet completion bash)      # bash, this shell\n" +
			"  svcwallet completion zsh > \"${fpath[1]}/_svcwallet\"\n" +
			"  svcwallet completion fish > ~/.config/fish/completions/svcwallet.fish\n" +
			"--env, env use and env remove complete the config's environments, deposit\n" +
			"generate and withdraw --chain the chains, status and withdraw resume the\n" +
			"quote ids of this environment's journal (unfinished first). The bash script\n" +
			"needs no bash-completion package.",
		Args: subcommandOnly,
		RunE: giveA("shell"),
	}
	for _, sh := range []struct {
		name string
		gen  func(root *cobra.Command, w io.Writer) error
		// take is where the shell takes it in, then the command, then
		// what keeps it for every shell ("" for nothing).
		take, cmd, keep string
	}{
		{"bash", genBash, "In this shell:", "source <(svcwallet completion bash)", "For every shell, put that line in ~/.bashrc."},
		{"fish", func(r *cobra.Command, w io.Writer) error { return r.GenFishCompletion(w, true) },
			"For every shell, save it where fish looks:", "svcwallet completion fish > ~/.config/fish/completions/svcwallet.fish", ""},
		{"powershell", func(r *cobra.Command, w io.Writer) error { return r.GenPowerShellCompletionWithDesc(w) },
			"In this shell:", "svcwallet completion powershell | Out-String | Invoke-Expression", "For every shell, put that line in $PROFILE."},
		{"zsh", func(r *cobra.Command, w io.Writer) error { return r.GenZshCompletion(w) },
			"For every shell, save it on $fpath:", `svcwallet completion zsh > "${fpath[1]}/_svcwallet"`, ""},
	} {
		c.AddCommand(&cobra.Command{
			Use: sh.name, Short: "Write the " + sh.name + " completion script", Args: noArgs,
			Long: strings.TrimSpace("Writes the "+sh.name+" completion script to standard output.\n"+sh.take+"\n  "+sh.cmd+"\n"+sh.keep) +
				"\nsvcwallet completion --help says what each command completes.",
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

// completeEnvArg completes the NAME of env use (withSandbox) and env
// remove, which the config holds and the sandbox is not, as --env's.
func (a *app) completeEnvArg(withSandbox bool) cobra.CompletionFunc {
	return func(c *cobra.Command, args []string, _ string) ([]string, cobra.ShellCompDirective) {
		if len(args) > 0 {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		names := a.envNames(flagValue(c, "config"))
		if !withSandbox {
			names = slices.DeleteFunc(names, func(n string) bool { return n == config.SandboxEnv })
		}
		return names, cobra.ShellCompDirectiveNoFileComp
	}
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

// completedIDs is how many of the journal's latest withdrawals quote-id
// completion offers after the unfinished ones.
const completedIDs = 50

// quoteIDs completes the quote ids this machine's journal holds of the
// chosen environment (any account: none is logged in to complete): the
// unfinished first, then the latest, each with its state, amount,
// destination and chain. It reads the journal through its index
// (journal.Journal.UnfinishedIn, Recent), never the network, and creates
// no journal.
func (a *app) quoteIDs(taken []string, prefix string) []string {
	_, env, err := a.chosenEnv()
	path := journal.DefaultPath()
	if err != nil || path == "" {
		return nil
	}
	if _, err := os.Lstat(path); err != nil {
		return nil
	}
	j, err := journal.Open(path)
	if err != nil {
		return nil
	}
	open, _ := j.UnfinishedIn(env)
	recent, _ := j.RecentIn(env, completedIDs)
	var out []string
	for _, r := range append(open, recent...) {
		if !strings.HasPrefix(r.QuoteID, prefix) || slices.Contains(taken, r.QuoteID) {
			continue
		}
		taken = append(taken, r.QuoteID)
		out = append(out, r.QuoteID+"\t"+follow.RecordOutcome(r).Name+" "+r.Intent.PayAmount.String()+" "+r.Intent.TokenIn+
			" to "+r.Intent.ToAddress+" on "+r.Intent.Chain)
	}
	return out
}

// genBash writes cobra's bash script, made to work without the
// bash-completion package: its stand-in for _init_completion calls that
// package's _get_comp_words_by_ref, which a bare bash lacks (every TAB then
// said "command not found"); without it the words are the command line's
// up to the cursor, split on blanks, so that --env=NAME stays one word.
func genBash(root *cobra.Command, w io.Writer) error {
	var b strings.Builder
	if err := root.GenBashCompletionV2(&b, true); err != nil {
		return err
	}
	name := root.Name()
	was := "__" + name + "_init_completion()\n{\n    COMPREPLY=()\n    _get_comp_words_by_ref \"$@\" cur prev words cword\n}\n"
	if !strings.Contains(b.String(), was) {
		return errors.New("the bash script's word splitting is not cobra's as known: it would need the bash-completion package")
	}
	now := "__" + name + `_init_completion()
{
    COMPREPLY=()
    if declare -F _get_comp_words_by_ref >/dev/null 2>&1; then
        _get_comp_words_by_ref "$@" cur prev words cword
        return
    fi
    # No bash-completion package: the line up to the cursor, split on blanks.
    local line=${COMP_LINE:0:COMP_POINT}
    read -ra words <<< "$line"
    [[ -z $line || $line == *[[:blank:]] ]] && words+=("")
    cword=$((${#words[@]} - 1))
    cur=${words[cword]}
    prev=${words[cword-1]}
}
`
	_, err := io.WriteString(w, strings.Replace(b.String(), was, now, 1))
	return err
}

func flagValue(c *cobra.Command, name string) string {
	if f := c.Flag(name); f != nil {
		return f.Value.String()
	}
	return ""
}
