package cli

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/svcwallet/svcwallet/internal/exchange"
	"github.com/svcwallet/svcwallet/internal/osguard"
	"github.com/svcwallet/svcwallet/internal/safetext"
	"github.com/svcwallet/svcwallet/internal/signer"
)

// Main runs the process's command line and returns its exit status.
func Main(args []string, stamp Stamp) int {
	// Once, before any command reads a key: the console, key, builder and
	// status commands may all hold one, and the rule is simplest kept whole.
	if err := osguard.ProtectProcess(); err != nil {
		fmt.Fprintln(os.Stderr, "svcwallet: warning:", err)
	}
	env := StdEnv()
	env.Stamp = stamp
	return Run(args, env)
}

// Run runs one command line and returns the exit status (README, "Exit
// status"): a command's typed error carries its status; anything cobra
// refuses (flags, arguments, unknown commands) is a usage error, 2.
func Run(args []string, env CLIEnv) int {
	return newApp(env).execute(args)
}

// app is one run of the command line: the process's env, and the commands
// whose clocks, waits and probes tests replace.
type app struct {
	env      CLIEnv
	json     bool
	debug    bool
	status   statusCmd
	builder  builderCmd
	doctor   doctorCmd
	withdraw withdrawCmd
}

func newApp(env CLIEnv) *app {
	return &app{
		env:     env,
		status:  statusCmd{sleep: exchange.Sleep, jitter: rand.Int64N, now: time.Now},
		builder: builderCmd{now: time.Now, nonce: signer.NewNonce, terminal: func(env CLIEnv) bool { return isTerminal(env.Stdin) }},
		doctor:  doctorCmd{tmuxOption: tmuxGlobalOption, goos: runtime.GOOS, protect: osguard.ProtectProcess},
		withdraw: withdrawCmd{now: time.Now, nonce: signer.NewNonce, sleep: exchange.Sleep, jitter: rand.Int64N,
			terminal: func(env CLIEnv) bool { return isTerminal(env.Stdin) }},
	}
}

func (a *app) execute(args []string) int {
	// Before cobra sees the line: a private key typed as an argument must
	// not be echoed back in an "unknown flag" or "unknown command" message.
	a.env.JSON = jsonRequested(args)
	if looksLikeKeyArgument(args) {
		return a.env.report(refuseKeyArgument(args))
	}
	root := a.rootCommand()
	root.SetArgs(args)
	root.SetIn(a.env.Stdin)
	root.SetOut(a.env.Stdout)
	root.SetErr(a.env.Stderr)
	// Errors are reported once, by report, in the one style every command
	// uses; cobra prints neither them nor the usage.
	root.SilenceErrors, root.SilenceUsage = true, true
	bi, ok := debug.ReadBuildInfo()
	root.Version = versionText(a.env.Stamp, bi, ok)
	root.SetVersionTemplate("{{.Version}}\n")
	root.SetHelpFunc(a.showHelp)
	if err := root.ExecuteContext(context.Background()); err != nil {
		return a.env.report(a.asCommandError(root, args, err))
	}
	return 0
}

// asCommandError is err as the command's typed error; cobra's own errors
// (a bad flag, a wrong number of arguments, an unknown command) are usage
// errors of the command the line names.
func (a *app) asCommandError(root *cobra.Command, args []string, err error) *commandError {
	var ce *commandError
	if errors.As(err, &ce) {
		return ce
	}
	a.env.JSON = a.env.JSON || a.json
	cmd, _, ferr := root.Find(args)
	if ferr != nil || cmd == nil {
		cmd = root
	}
	return usageError(cmd.CommandPath(), "%s", oneLine(err.Error()))
}

// rootCommand is `svcwallet`: the console, and every command under it.
func (a *app) rootCommand() *cobra.Command {
	root := a.consoleCommand()
	root.PersistentFlags().BoolVar(&a.json, "json", false, "print JSON, errors included")
	root.PersistentFlags().BoolVar(&a.debug, "debug", false, "log requests and timings ($"+debugVar+"=1)")
	root.PersistentPreRun = func(*cobra.Command, []string) { a.configure() }
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error {
		return usageError(c.CommandPath(), "%s", err)
	})
	root.AddCommand(a.withdrawCommand(), a.statusCommand(), a.depositCommand(), a.builderCommand(), a.keyCommand(),
		a.historyCommand(), a.doctorCommand(), a.sandboxCommand(), a.versionCommand(), manCommand())
	root.SetHelpCommand(helpCommand())
	root.CompletionOptions.DisableDefaultCmd = true
	root.AddCommand(completionCommand())
	return root
}

// helpCommand is `svcwallet help [COMMAND...]`: cobra's, except that an
// unknown topic is a usage error like any other.
func helpCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "help [command]",
		Short: "Help about any command",
		Long:  "Prints the help of a command, as its --help does: svcwallet help key new.",
		ValidArgsFunction: func(c *cobra.Command, args []string, _ string) ([]string, cobra.ShellCompDirective) {
			cmd, _, err := c.Root().Find(args)
			if err != nil || cmd == nil {
				return nil, cobra.ShellCompDirectiveNoFileComp
			}
			var names []string
			for _, s := range cmd.Commands() {
				if s.IsAvailableCommand() {
					names = append(names, s.Name())
				}
			}
			return names, cobra.ShellCompDirectiveNoFileComp
		},
		RunE: func(c *cobra.Command, args []string) error {
			cmd, rest, err := c.Root().Find(args)
			if err != nil || cmd == nil || len(rest) > 0 {
				return usageError(c.CommandPath(), "no command %.40q; the commands are: %s", safetext.Quoted(strings.Join(args, " ")), subcommandNames(c.Root()))
			}
			cmd.InitDefaultHelpFlag()
			return cmd.Help()
		},
	}
}

// configure applies the persistent flags to the env every command gets.
func (a *app) configure() {
	a.env.JSON = a.json
	if on, err := strconv.ParseBool(a.env.Getenv(debugVar)); err == nil && on {
		a.debug = true
	}
	if a.env.Debug = a.debug; a.debug {
		a.env.Log = debugLogger(a.env.Stderr)
	}
}

// exit turns a command's exit status into RunE's error: nil for 0, else a
// status whose message the command has already printed.
func exit(code int) error {
	if code == 0 {
		return nil
	}
	return &commandError{Exit: code, printed: true}
}

// noArgs refuses any argument as a usage error of the command.
func noArgs(c *cobra.Command, args []string) error {
	if len(args) > 0 {
		// Not echoed: a stray argument may be something secret.
		return usageError(c.CommandPath(), "%s takes no arguments (got %d)", c.Name(), len(args))
	}
	return nil
}

// subcommandOnly refuses an argument that names no subcommand.
func subcommandOnly(c *cobra.Command, args []string) error {
	if len(args) > 0 {
		return usageError(c.CommandPath(), "unknown command %.32q; the commands are: %s", safetext.Quoted(args[0]), subcommandNames(c))
	}
	return nil
}

func subcommandNames(c *cobra.Command) string {
	names := ""
	for _, s := range c.Commands() {
		if s.IsAvailableCommand() {
			if names != "" {
				names += ", "
			}
			names += s.Name()
		}
	}
	return names
}
