package cli

import (
	"cmp"
	"context"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"time"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/spf13/cobra"

	"github.com/svcwallet/svcwallet/internal/osguard"
	"github.com/svcwallet/svcwallet/internal/plain"
	"github.com/svcwallet/svcwallet/internal/safetext"
	"github.com/svcwallet/svcwallet/screens"
	"github.com/svcwallet/svcwallet/screens/kit"
	"github.com/svcwallet/svcwallet/service/config"
	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/follow"
	"github.com/svcwallet/svcwallet/service/journal"
	"github.com/svcwallet/svcwallet/service/sandbox"
	"github.com/svcwallet/svcwallet/service/target"
	"github.com/svcwallet/svcwallet/signer"
	"github.com/svcwallet/svcwallet/tui"
)

// consoleRun is where runConsole meets the terminal: whether a stream is
// one (plain.IsTerminal), and the program run on it until it ends (runDrawn),
// handed the screens' app; a test's own stand in, and owe through the app
// what the console's end must make, within end (0: quitWait).
type consoleRun struct {
	terminal func(stream any) bool
	run      func(ctx context.Context, env CLIEnv, app *kit.App, model *tui.Model) error
	end      time.Duration
}

// drawnConsole runs the console on the terminal.
var drawnConsole = consoleRun{terminal: plain.IsTerminal, run: func(ctx context.Context, env CLIEnv, _ *kit.App, model *tui.Model) error {
	return runDrawn(ctx, env, model, lipgloss.Writer.Profile)
}}

// consoleFlags are the console's own flags.
type consoleFlags struct {
	theme string
	plain bool // --plain: line prompts (plain.Wanted)
}

const consoleLong = `svcwallet: a terminal console for an exchange funding account.

Without a command it opens the full-screen console (on which exchange:
svcwallet help environments); the commands below serve scripts (--json).

--plain (or SVCWALLET_PLAIN=1, TERM=dumb, ACCESSIBLE=1) runs the console's
flows as line prompts, one question a line, for screen readers and dumb
terminals; with answers from a pipe it stops at the review and prints the
command to run instead (exit 2): it signs only on a terminal.

--debug (or SVCWALLET_DEBUG=1) logs requests, answers' statuses and timings:
commands to stderr, the console to debug.log in the state directory. Exit
statuses: svcwallet help exit-status.`

// consoleCommand is `svcwallet` itself: the root command, which opens the console.
func (a *app) consoleCommand() *cobra.Command {
	var f consoleFlags
	c := &cobra.Command{
		Use:   "svcwallet",
		Short: "A terminal console for an exchange funding account",
		Long:  consoleLong,
		Example: `  svcwallet --env sandbox
  svcwallet status q-123 --watch`,
		Args: rootArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			var chosen *bool
			if c.Flags().Changed("plain") {
				chosen = &f.plain
			}
			wantPlain := plain.Wanted(chosen, a.env.Getenv)
			if !wantPlain {
				// Said by the console too, whose full screen covers
				// stderr: seen here once it is given back.
				for _, m := range a.leftBeside {
					a.sayLeftBeside(m)
				}
			}
			if f.theme != "" && f.theme != "light" && f.theme != "dark" {
				return usageError("--theme must be light or dark, not %.20q", f.theme)
			}
			if wantPlain {
				return a.runPlain(c.Context())
			}
			return a.runConsole(c.Context(), f)
		},
	}
	a.envFlags(c)
	c.Flags().StringVar(&f.theme, "theme", "", "light or dark (default: the config's theme, else detected)")
	c.Flags().BoolVar(&f.plain, "plain", false, "line prompts, no full screen ($"+plain.PlainVar+"=1, TERM=dumb, ACCESSIBLE=1; --plain=false or $"+plain.PlainVar+"=0: full screen)")
	_ = c.RegisterFlagCompletionFunc("theme", cobra.FixedCompletions([]string{"light", "dark"}, cobra.ShellCompDirectiveNoFileComp))
	return c
}

// runConsole opens the full-screen console.
func (a *app) runConsole(ctx context.Context, f consoleFlags) error {
	env := a.env
	cfg, chosen, err := a.chosenEnv()
	switch {
	case err != nil:
		return err
	case !a.console.terminal(env.Stdin) || !a.console.terminal(env.Stdout):
		if env.JSON {
			return usageError("the console needs a terminal, and standard input or output is not one; for scripts use the commands (svcwallet --help)")
		}
		fmt.Fprint(env.Stderr, noTerminal)
		return exitStatus(exitUsage)
	}
	// The renderer measures each character past U+02FF through a width
	// table of 2 MB, built on the first one: built now, beside what follows,
	// not in the first frame's way. Then the console needs one processor
	// (consoleProcs); two until then, so the table is built beside the rest.
	procs := env.Getenv("GOMAXPROCS") == ""
	go func() {
		ansi.WcWidth.StringWidth("•")
		if procs {
			runtime.GOMAXPROCS(consoleProcs)
		}
	}()
	targets, closeAll, err := openTargets(env, cfg, chosen, a.keptOnly)
	if err != nil {
		return failure(exitFailed, "%w", err)
	}
	defer closeAll()

	// The keystore directory only pre-fills the login form; without one the
	// user types a path.
	keystoreDir, _ := signer.DefaultKeystoreDir(env.Getenv)
	theme := f.theme
	if theme == "" {
		theme = cfg.Theme
	}
	common := tui.NewCommon(darkFirst(theme, env.Getenv("COLORFGBG")), nil)
	// Cancelled on quit: calls still out end with the console.
	root, quit := context.WithCancel(ctx)
	defer quit()
	var running signer.Running
	var owed kit.Flushes
	var writes kit.Writes
	var sends kit.Sends
	app := &kit.App{
		Deps: kit.Deps{Common: common, Targets: targets, KeystoreDir: keystoreDir, Bell: cfg.Bell, Notify: cfg.Notify, Getenv: env.Getenv,
			PollInterval: follow.DefaultPollInterval, Context: root, Running: &running, Flushes: &owed, Writes: &writes, Sends: &sends,
			ConfigFlag: newInvocation("", a.configPath, env.Getenv).config, LoginMethods: loginMethods(), ExportDir: exportDir(os.Getwd, os.UserHomeDir),
			EarlierJournals: a.leftBeside},
		Session: kit.Session{Target: targets[0]},
		Hooks:   kit.Hooks{LoadKeystore: func(path, pass string) (signer.Key, error) { return signer.LoadKeystoreKey(path, pass) }},
	}
	// Signals end the console through ctx alone, which interruptible ends
	// at the first SIGINT, SIGTERM or SIGHUP (a closed terminal): the
	// terminal is given back, what the watch board learned since its last
	// save is written, and the deferred closeAll removes the embedded
	// sandbox's journal directory. Bubble Tea's own signal handler is off:
	// it catches signals only once running (the first frame is up before),
	// and with ctx ended too it would wait for ever to hand its quit over.
	//
	// The colour profile is the one lipgloss detected for standard output at
	// start-up, from the same environment but TMUX (internal/startenv):
	// Bubble Tea would detect it again before the first frame (terminfo
	// read, and `tmux info` run in tmux, unbounded). Inside tmux, runDrawn
	// asks tmux itself once the first frame is up.
	model := tui.New(screens.Console(app), tui.Options{Theme: theme, Common: common})
	err = a.console.run(ctx, env, app, model)
	// A signing command still running is killed (its context ends) and
	// waited for, so neither it nor its typed data file outlives the
	// console; a state a follow learned just before q (COMPLETED) is
	// journaled by a command the program did not wait for, made here, as
	// is what the watch board owes its file, and a review's send still out
	// is awaited (kit.Sends): all within quitWait. What is left is said,
	// and a write not made ends the console with 1.
	quit()
	werr, ferr, left := app.Ended(cmp.Or(a.console.end, quitWait))
	if werr != nil {
		fmt.Fprintf(env.Stderr, "svcwallet: the journal could not be written as the console ended: %v\n", werr)
	}
	if ferr != nil {
		fmt.Fprintf(env.Stderr, "svcwallet: the watch board's last changes could not be saved: %v\n", ferr)
	}
	for _, l := range oneEach(left) {
		fmt.Fprintf(env.Stderr, "svcwallet: %v\n", l)
	}
	if exit, ok := signalExit(ctx); ok {
		fmt.Fprintln(env.Stderr, consoleEndedBy(context.Cause(ctx)))
		return exitStatus(exit)
	}
	if err != nil {
		return failure(exitFailed, "%w", err)
	}
	// Said above; a wrapper or a script sees it too.
	status := leftExit(left)
	if werr != nil || ferr != nil {
		status = max(status, exitFailed)
	}
	return exitStatus(status)
}

// leftExit is the console's exit for the review sends its end left out
// (kit.Sends): 5 when one was signed and got no answer, its outcome not
// known, as withdraw's request without an answer; else 1 when one was
// cut before it was sent (nothing paid, as a signature's wait cancelled);
// else 0. Exiting 0, a script read an end with a send out as all done.
func leftExit(left error) int {
	status := exitCompleted
	for _, l := range oneEach(left) {
		e, ok := l.(*kit.LeftError)
		switch {
		case !ok || !e.Send:
		case e.Signed:
			return exitError
		default:
			status = exitFailed
		}
	}
	return status
}

// oneEach are the errors errors.Join made err of, each said on its line;
// err alone when it is one.
func oneEach(err error) []error {
	if joined, ok := err.(interface{ Unwrap() []error }); ok {
		return joined.Unwrap()
	}
	if err == nil {
		return nil
	}
	return []error{err}
}

// consoleEndedBy is the line said once a signal ended the console and it
// gave the terminal back: a ctrl+c or ctrl+\ typed before it took the
// terminal (raw mode makes them keys after), or a signal from elsewhere.
func consoleEndedBy(cause error) string {
	switch cause {
	case signalCause(syscall.SIGINT):
		return "svcwallet: ended by ctrl+c (SIGINT)."
	case signalCause(syscall.SIGQUIT):
		return "svcwallet: ended by ctrl+\\ (SIGQUIT)."
	case signalCause(syscall.SIGHUP):
		return "svcwallet: ended by SIGHUP (the terminal closed)."
	}
	return "svcwallet: ended by SIGTERM."
}

// quitWait bounds the console's end in all (kit.Deps.Ended): signing
// commands (a killed command's pipes are closed within signer's two-second
// WaitDelay), journal writes and the watch board's, side by side; past it
// what is unwritten is said on stderr. Plain mode waits as long for its
// signing commands.
const quitWait = 5 * time.Second

// noTerminal is said, before anything starts, when the console has no
// terminal to draw on (a pipe, a redirect, a cron job).
const noTerminal = `svcwallet: the console needs a terminal, and standard input or output is not one.
For scripts, use the commands:
  svcwallet status QUOTE_ID [--watch] [--json]   a withdrawal's status
  svcwallet deposit [generate CHAIN] [--json]    deposit addresses
  svcwallet builder authorize ... [--json]       builder authorization
  svcwallet key list [--json]                    signing keys
svcwallet --help lists them all.
`

// darkFirst is whether the console's first frame is drawn for a dark
// background: as theme says (--theme, else the config's), else as
// COLORFGBG ("15;0", "0;default;15": the background last, a colour number
// from 0 to 15 of which 7 and 9 to 15 are light), else dark. The frame is
// drawn again when the terminal's own answer differs.
func darkFirst(theme, colorfgbg string) bool {
	if theme != "" {
		return theme != "light"
	}
	bg := colorfgbg[strings.LastIndexByte(colorfgbg, ';')+1:]
	n, err := strconv.Atoi(bg)
	if err != nil || n < 0 || n > 15 {
		return true
	}
	return n != 7 && n < 9
}

// consoleLog is the console's debug log: with --debug a file in the state
// directory, named on stderr now (it stays above the console after it quits);
// otherwise nil. The returned func closes the file.
func consoleLog(env CLIEnv) (*slog.Logger, func(), error) {
	if !env.Debug {
		return nil, func() {}, nil
	}
	log, path, closeLog, err := consoleDebugLog()
	if err != nil {
		return nil, nil, err
	}
	fmt.Fprintf(env.Stderr, "svcwallet: debug log in %s\n", safetext.Shown(path))
	return log, closeLog, nil
}

// openTargets is what the console and plain mode work on: the debug log
// (consoleLog) and the environments (consoleTargets); the returned func
// closes both.
func openTargets(env CLIEnv, cfg config.Config, chosen string, kept func(config.Environment, exchange.Options) (*exchange.Client, string)) ([]target.Target, func(), error) {
	log, closeLog, err := consoleLog(env)
	if err != nil {
		return nil, nil, err
	}
	targets, closeAll, err := consoleTargets(cfg, chosen, log, kept)
	if err != nil {
		closeLog()
		return nil, nil, err
	}
	return targets, func() { closeAll(); closeLog() }, nil
}

// consoleTargets lists the environments the login screen offers, the chosen
// one first, its client holding the session svcwallet auth login kept for
// it when there is one (kept). The embedded sandbox is always among them.
func consoleTargets(cfg config.Config, envName string, log *slog.Logger, kept func(config.Environment, exchange.Options) (*exchange.Client, string)) ([]target.Target, func(), error) {
	var targets []target.Target
	var jr *journal.Journal
	var err error
	if len(cfg.Environments) > 0 {
		if jr, err = journal.Open(journal.DefaultPath()); err != nil {
			return nil, nil, fmt.Errorf("the withdrawal journal cannot be opened: %w", err)
		}
	}
	for _, name := range cfg.Names() {
		e, _ := cfg.Lookup(name)
		t := target.Target{Env: e, Client: exchange.New(e, exchange.Options{Logger: log}), Journal: jr}
		if name == envName {
			client, unserved := kept(e, exchange.Options{Logger: log})
			if client != nil {
				t.Client, t.Kept = client, true
			}
			t.Unkept = unserved
			targets = append([]target.Target{t}, targets...)
		} else {
			targets = append(targets, t)
		}
	}
	// The embedded sandbox is always offered: first when it is the one
	// chosen (or there is no other), else last in the environment picker.
	{
		e, stop, err := startEnv(cfg, config.SandboxEnv)
		if err != nil {
			return nil, nil, err
		}
		// The embedded sandbox forgets everything when the process ends, so
		// its withdrawals go to a journal that ends with it, as withdraw's.
		wt, err := newWithdrawTarget(e)
		if err != nil {
			stop()
			return nil, nil, err
		}
		closeAll := func() { stop(); wt.cleanup() }
		sbJournal, err := journal.Open(wt.journalPath)
		if err != nil {
			closeAll()
			return nil, nil, err
		}
		sb := target.Target{Env: e, Client: exchange.New(e, exchange.Options{Logger: log}), Journal: sbJournal,
			Demo: sandboxDemo()}
		if envName == config.SandboxEnv || len(targets) == 0 {
			targets = append([]target.Target{sb}, targets...)
		} else {
			targets = append(targets, sb)
		}
		return targets, closeAll, nil
	}
}

// sandboxDemo is what the console offers of the embedded sandbox's demo
// data: its credentials and its demo account's address book.
func sandboxDemo() *target.Demo {
	d := &target.Demo{APIKey: sandbox.DemoAPIKey, PrivateKey: sandbox.DemoPrivateKey, Builder: sandbox.BuilderAddress}
	for _, p := range sandbox.DemoAddressBook {
		d.AddressBook = append(d.AddressBook, target.Payee(p))
	}
	return d
}

// exportDir is the folder the board's export is offered in: the one the
// console started in, where a support agent looks for what they exported
// (the state folder is hidden, and the embedded sandbox's is removed at
// exit); not the home folder nor the root, where a console started from a
// menu or a launcher opens, nor one another user can write (/tmp, a
// shared folder), who could swap the file once written: "" there, for the
// state folder.
func exportDir(getwd func() (string, error), home func() (string, error)) string {
	wd, err := getwd()
	if err != nil || !filepath.IsAbs(wd) || filepath.Dir(wd) == wd {
		return ""
	}
	if h, err := home(); err == nil && filepath.Clean(h) == filepath.Clean(wd) {
		return ""
	}
	if osguard.CheckPrivatePath(wd) != nil {
		return ""
	}
	return wd
}
