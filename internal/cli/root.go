package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/svcwallet/svcwallet/internal/osguard"
	"github.com/svcwallet/svcwallet/internal/plain"
	"github.com/svcwallet/svcwallet/internal/quitcatch"
	"github.com/svcwallet/svcwallet/internal/safetext"
	"github.com/svcwallet/svcwallet/internal/startenv"
	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/signer"
)

// Main runs the process's command line and returns its exit status.
func Main(args []string, stamp Stamp) int {
	// Hidden while the dependencies initialised (lipgloss would have run
	// tmux info unbounded); svcwallet's own questions to tmux are bounded.
	startenv.GiveBackTMUX()
	// Once, before any command reads a key: the console, key, builder and
	// status commands may all hold one, and the rule is simplest kept whole.
	if err := osguard.ProtectProcess(); err != nil {
		warn(os.Stderr, "svcwallet", "%v", err)
	}
	env := StdEnv()
	env.Stamp = stamp
	defer sayLockWaitsOn(env.Stderr)()
	status := Run(args, env)
	if printsOnly(args) {
		return endedByHeldQuit(quitcatch.Held, env.Stderr, status)
	}
	return status
}

// endedByHeldQuit is a print-only command's status: it catches nothing of
// its own, so a ctrl+\ quitcatch held while it printed ends it as ctrl+\
// ends any command, said in one line, 131.
func endedByHeldQuit(held func() bool, stderr io.Writer, status int) int {
	if !held() {
		return status
	}
	fmt.Fprintln(stderr, consoleEndedBy(signalCause(syscall.SIGQUIT)))
	return 128 + int(syscall.SIGQUIT)
}

// Run runs one command line and returns the exit status (README, "Exit
// status"): a command's typed error carries its status; anything cobra
// refuses (flags, arguments, unknown commands) is a usage error, 2.
func Run(args []string, env CLIEnv) int {
	a := newApp(env)
	if env.Interrupt != nil && !printsOnly(args) {
		var stop func()
		a.ctx, stop = env.Interrupt(a.ctx)
		defer stop()
	}
	return a.execute(args)
}

// printsOnly reports whether args name a command that only prints
// (version, help, man, completion): it asks nothing, waits for nothing and
// sends nothing, so ctrl+c may end it as any program, and it starts no
// watch of signals (a ctrl+\ quitcatch held ends it: endedByHeldQuit).
func printsOnly(args []string) bool {
	if len(args) == 0 {
		return false
	}
	switch args[0] {
	case "version", "--version", "help", "--help", "-h", "man", "completion":
		return true
	}
	return false
}

// helpAsked reports whether the line asks for a command's help (--help or
// -h before any --), which only prints, as printsOnly's commands do.
func helpAsked(args []string) bool {
	for _, a := range args {
		switch a {
		case "--":
			return false
		case "--help", "-h":
			return true
		}
	}
	return false
}

// app is one run of the command line: the process's env, its context
// (ended by ctrl+c in a real process), the flags every command shares, the
// environment resolved once (target), and the commands whose clocks,
// waits and probes tests replace.
type app struct {
	env   CLIEnv
	ctx   context.Context
	json  bool
	debug bool
	// cmd is the command that runs, and name what its messages start
	// with: its path (svcwallet status), or annotationSaidBy.
	cmd  *cobra.Command
	name string
	// envName and configPath are --env and --config, of whichever command runs.
	envName, configPath string
	target              runTarget
	// moveEarlier moves an earlier version's files to where this one
	// keeps them (osguard.MoveEarlierFiles).
	moveEarlier func() []osguard.Moved
	// leftBeside are the journals an earlier version left beside the one
	// in use (osguard.LeftBeside), which the console and plain mode say.
	leftBeside []osguard.Moved
	// unserved is why a kept wallet session does not serve, as said on
	// stderr (keptClient) once a run however often it is looked for.
	unserved string
	// argumentWarning says a signing command's secret in its arguments
	// once a run, on stderr before its first signature.
	argumentWarning signer.ArgumentWarning
	status          statusCmd
	builder         builderCmd
	doctor          doctorCmd
	withdraw        withdrawCmd
	console         consoleRun
}

func newApp(env CLIEnv) *app {
	return &app{
		env:         env,
		ctx:         context.Background(),
		moveEarlier: osguard.MoveEarlierFiles,
		console:     drawnConsole,
		status:      statusCmd{sleep: exchange.Sleep, jitter: rand.Int64N, now: time.Now},
		builder:     builderCmd{now: time.Now, nonce: signer.NewNonce, terminal: func(env CLIEnv) bool { return answers(env).OnTerminal() }},
		doctor:      doctorCmd{tmuxOption: tmuxGlobalOption, goos: runtime.GOOS, protect: osguard.ProtectProcess, ownerOnly: osguard.CheckOwnerOnly},
		withdraw: withdrawCmd{now: time.Now, nonce: signer.NewNonce, sleep: exchange.Sleep, jitter: rand.Int64N,
			terminal: func(env CLIEnv) bool { return answers(env).OnTerminal() }},
	}
}

func (a *app) execute(args []string) int {
	root := a.rootFor(args)
	defer func() {
		if a.target.stop != nil {
			a.target.stop()
		}
	}()
	// Before cobra sees the line: a private key typed as an argument must
	// not be echoed back in an "unknown flag" or "unknown command" message.
	a.env.JSON = jsonRequested(args)
	// status finds a payout hash standing alone here, and never sends it.
	found, _, _ := root.Find(args)
	status := found != nil && found.Name() == "status"
	if held := keyArgument(args, status); held != nil {
		cmd := root
		if len(args) > 0 && (args[0] == "key" || args[0] == "builder") {
			cmd, _, _ = root.Find(args[:1])
		}
		if status {
			cmd = found
		}
		return a.report(cmd, refuseKeyArgument(args, status, held))
	}
	// A document stdout does not take is an output error in every command
	// (failedWrite.unwritten); the console's own, a conversation drawn on
	// a terminal, is not one, and a terminal's stdout stays the terminal.
	stdout := &failedWrite{w: a.env.Stdout}
	if !plain.IsTerminal(a.env.Stdout) {
		a.env.Stdout = stdout
	}
	// The print-only commands, a command's help, and the sandbox, whose
	// output is a server's log, end at a pipe with no reader as any
	// program does.
	if top := topCommand(found); a.env.BrokenPipes != nil && top != nil && top.HasParent() && !printsOnly([]string{top.Name()}) && !helpAsked(args) && top.Name() != "sandbox" {
		defer a.env.BrokenPipes()()
	}
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
	cmd, err := root.ExecuteContextC(a.ctx)
	// The root's document is its help or version; its console and plain
	// mode are a conversation.
	if cmd != nil && (cmd.HasParent() || cmd.Flags().Changed("help") || cmd.Flags().Changed("version")) {
		err = stdout.unwritten(err)
	}
	return a.report(cmd, err)
}

// topCommand is the command under the console that cmd is or is under
// (the console itself, or nil, for those).
func topCommand(cmd *cobra.Command) *cobra.Command {
	for cmd != nil && cmd.HasParent() && cmd.Parent().HasParent() {
		cmd = cmd.Parent()
	}
	return cmd
}

// rootCommand is `svcwallet`: the console, and every command under it.
func (a *app) rootCommand() *cobra.Command {
	root := a.bareRoot()
	for _, name := range commandNames {
		root.AddCommand(a.commands()[name]())
	}
	root.SetHelpCommand(helpCommand())
	root.AddCommand(completionCommand())
	root.AddCommand(helpTopics()...)
	return root
}

// commandNames are the commands under the console, in help's order.
var commandNames = []string{"auth", "env", "withdraw", "status", "deposit", "builder", "key", "history", "doctor", "sandbox", "version", "man"}

// commands makes each command under the console, by name.
func (a *app) commands() map[string]func() *cobra.Command {
	return map[string]func() *cobra.Command{
		"auth": a.authCommand, "env": a.envCommand, "withdraw": a.withdrawCommand, "status": a.statusCommand, "deposit": a.depositCommand, "builder": a.builderCommand,
		"key": a.keyCommand, "history": a.historyCommand, "doctor": a.doctorCommand, "sandbox": a.sandboxCommand,
		"version": a.versionCommand, "man": a.manCommand,
	}
}

// rootFor is the command tree args can reach, built no further: the
// console alone when args are empty, the console and the one command
// args start with when they start with one; else the whole tree (help,
// man, completion and a mistyped name walk it). Every start paid for the whole
// tree's flags and texts.
func (a *app) rootFor(args []string) *cobra.Command {
	if len(args) == 0 {
		return a.bareRoot()
	}
	if make, ok := a.commands()[args[0]]; ok && args[0] != "man" {
		root := a.bareRoot()
		root.AddCommand(make())
		return root
	}
	return a.rootCommand()
}

// bareRoot is the console's command with the flags every command takes.
func (a *app) bareRoot() *cobra.Command {
	root := a.consoleCommand()
	root.PersistentFlags().BoolVar(&a.json, "json", false, "print JSON, errors included")
	root.PersistentFlags().BoolVar(&a.debug, "debug", false, "log requests and timings ($"+debugVar+"=1)")
	root.PersistentPreRun = func(cmd *cobra.Command, _ []string) { a.configure(cmd) }
	root.SetFlagErrorFunc(badFlag)
	root.CompletionOptions.DisableDefaultCmd = true
	return root
}

// helpCommand is `svcwallet help [COMMAND...]`: cobra's, except that an
// unknown topic is a usage error like any other.
func helpCommand() *cobra.Command {
	return &cobra.Command{
		Use:         "help [command]",
		Annotations: map[string]string{annotationNoFiles: "yes"},
		Short:       "Help about any command",
		Long: "Prints the help of a command, as its --help does: svcwallet help key new.\n" +
			"Without one it prints svcwallet's own; the topics several commands share\n" +
			"(keys, environments, checks, offline, exit-status) are read the same way:\n" +
			"svcwallet help checks.",
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
				return usageError("no command %s; the commands are: %s", safetext.NameQuoted(strings.Join(args, " ")), subcommandNames(c.Root()))
			}
			cmd.InitDefaultHelpFlag()
			return cmd.Help()
		},
	}
}

// configure applies the persistent flags to the env every command gets.
func (a *app) configure(cmd *cobra.Command) {
	a.cmd, a.name = cmd, cmd.CommandPath()
	if by := cmd.Annotations[annotationSaidBy]; by != "" {
		a.name = by
	}
	a.env.JSON = a.json
	if on, err := strconv.ParseBool(a.env.Getenv(debugVar)); err == nil && on {
		a.debug = true
	}
	if a.env.Debug = a.debug; a.debug {
		a.env.Log = debugLogger(a.env.Stderr)
	}
	if !readsNoFiles(cmd) {
		moved := a.moveEarlier()
		a.leftBeside = osguard.LeftBeside(moved)
		// The console's own command says the journals left beside as it
		// knows which face runs: plain mode says them on its output.
		a.sayMoved(moved, cmd.HasParent())
	}
}

// readsNoFiles reports whether cmd, or a command above it, is marked
// annotationNoFiles.
func readsNoFiles(cmd *cobra.Command) bool {
	for c := cmd; c != nil; c = c.Parent() {
		if c.Annotations[annotationNoFiles] != "" {
			return true
		}
	}
	return false
}

// annotationNoFiles marks a command that reads none of svcwallet's files
// (version, man, completion, help): it moves nothing of an earlier version.
const annotationNoFiles = "svcwallet/no-files"

// sayMoved tells, on stderr, what an earlier version's files were moved
// to, and what could not be moved and must be by hand; the journals left
// beside the one in use only when beside.
func (a *app) sayMoved(moved []osguard.Moved, beside bool) {
	for _, m := range moved {
		if errors.Is(m.Err, osguard.ErrLeftBeside) {
			if beside {
				a.sayLeftBeside(m)
			}
			continue
		}
		var linked *osguard.LinkedError
		if errors.As(m.Err, &linked) {
			// Moved by hand, it would go over itself.
			fmt.Fprintf(a.env.Stderr, "svcwallet: moved %s to %s, where this version keeps it, but its earlier name could not be removed (%s): it is one file at both, and the next run removes that name\n", safetext.Shown(m.From), safetext.Shown(m.To), m.Why())
			continue
		}
		if m.Err != nil {
			warn(a.env.Stderr, "svcwallet", "%s, written by an earlier version, could not be moved to %s (%s): move it there by hand", safetext.Shown(m.From), safetext.Shown(m.To), m.Why())
			continue
		}
		fmt.Fprintf(a.env.Stderr, "svcwallet: moved %s to %s, where this version keeps it (docs/config.md, Where files live)\n", safetext.Shown(m.From), safetext.Shown(m.To))
	}
}

// sayLeftBeside says on stderr a journal an earlier version left beside
// the one in use (osguard.ErrLeftBeside).
func (a *app) sayLeftBeside(m osguard.Moved) {
	if nm := m.NotMoved(); nm != nil {
		// Nothing may be at its new place: moved elsewhere, it stays unseen.
		warn(a.env.Stderr, "svcwallet", "%s, a withdrawal journal an earlier version wrote, could not be moved to %s (%s), so it is left where it is: the withdrawals in it are not seen by the check that a withdrawal is sent once; before making one of them again, look it up by its quote id (status, or the watch board): the file is text, and a withdrawal's lines name it after \"quote_id\"; quit the earlier svcwallet if one is still open: the next run moves it once nothing stops it", safetext.Shown(m.From), safetext.Shown(m.To), nm.Why())
		return
	}
	// Moved by hand, it would replace the journal in use.
	warn(a.env.Stderr, "svcwallet", "%s, a withdrawal journal an earlier version wrote, was left where it is: %s is the journal now, and the withdrawals in the earlier one are not seen by the check that a withdrawal is sent once; before making one of them again, look it up by its quote id (status, or the watch board): the file is text, and a withdrawal's lines name it after \"quote_id\"; quit the earlier svcwallet if one is still open, then move that file elsewhere", safetext.Shown(m.From), safetext.Shown(m.To))
}

// say says err, an error about one of several things a command does (an
// id of the status stream), as report does, and returns its status.
func (a *app) say(err error) int { return a.report(a.cmd, err) }
