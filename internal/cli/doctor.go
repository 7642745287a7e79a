package cli

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/svcwallet/svcwallet/internal/osguard"
	"github.com/svcwallet/svcwallet/internal/plain"
	"github.com/svcwallet/svcwallet/internal/safetext"
	"github.com/svcwallet/svcwallet/screens/kit"
	"github.com/svcwallet/svcwallet/service/config"
	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/follow"
	"github.com/svcwallet/svcwallet/service/journal"
	"github.com/svcwallet/svcwallet/service/sandbox"
	"github.com/svcwallet/svcwallet/service/withdrawal"
	"github.com/svcwallet/svcwallet/signer"
)

const doctorLong = `Checks what svcwallet depends on and says how to fix what is wrong: the config
file, the keystore and the withdrawal journal (paths, permissions, health,
and lines svcwallet wrote to it that it lost: an older copy put back), two
environments that name one service, each environment's hosts (reachable,
round-trip time) and the difference
between the server's clock and this machine's (signatures expire by both),
the terminal and the clipboard (inside tmux, set-clipboard). It logs in to
nothing and sends no secret. The configured environments are probed; the
embedded sandbox too when it is the chosen environment (--env, else
$SVCWALLET_ENV, else default_env, else the sandbox).

A journal that lost lines is not signed on until you accept it: check the
withdrawals doctor names as lost (svcwallet status QUOTE_ID), put the
journal back if you can, then --accept-journal records it as it now is.

Exit status: 0 everything ok, 1 something needs fixing, 2 usage.`

// doctorProbeTimeout bounds each environment's probe.
const doctorProbeTimeout = 5 * time.Second

// doctorCheck is one line of the report.
type doctorCheck struct {
	Check  string `json:"check"`
	Status string `json:"status"` // "ok" or "warning"
	Detail string `json:"detail"`
	Fix    string `json:"fix,omitempty"`
}

// doctorCmd is `svcwallet doctor`; tmuxOption reads a global tmux option
// (a real tmux in a real process, a fake in tests); goos is the system
// whose checks and words apply (runtime.GOOS; another in tests), protect
// turns on the process's protections (osguard.ProtectProcess).
type doctorCmd struct {
	env        CLIEnv
	app        *app
	tmuxOption func(name string) (string, error)
	sandbox    sandbox.Options
	goos       string
	protect    func() error
	// ownerOnly reads who may open a path where modes mean nothing
	// (osguard.CheckOwnerOnly); privateFiles are the session store's.
	ownerOnly    func(path string) error
	privateFiles []string
}

// doctorCommand is `svcwallet doctor`.
func (a *app) doctorCommand() *cobra.Command {
	var accept bool
	c := &cobra.Command{
		Use:   "doctor",
		Short: "Check setup, hosts and clock; say the fixes",
		Long:  doctorLong,
		Example: `  svcwallet doctor
  # Only what needs fixing, for a script
  svcwallet doctor --json | jq '.checks[] | select(.status != "ok")'`,
		Args: noArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			d := a.doctor
			d.env, d.app = a.env, a
			if d.privateFiles == nil {
				d.privateFiles = []string{a.sessionStore().File}
			}
			if accept {
				if err := d.acceptJournal(); err != nil {
					return err
				}
			}
			return d.run(c.Context(), a.envName, a.configPath)
		},
	}
	c.Flags().BoolVar(&accept, acceptJournalFlag[2:], false, "accept the journal as it now is, after lost lines")
	a.envFlags(c)
	return c
}

// tmuxGlobalOption asks the tmux server this process runs in for an option,
// for at most osguard.QuickWait: a server that never answers held doctor.
func tmuxGlobalOption(name string) (string, error) {
	return osguard.TmuxGlobalOption(osguard.QuickWait, name)
}

func (c doctorCmd) run(ctx context.Context, envName, configPath string) error {
	var checks []doctorCheck
	add := func(check, detail, fix string) {
		if fix == osguard.RenameFirst {
			fix += ", then run " + newInvocation(envName, configPath, c.env.Getenv).command("doctor") + " again for the command that mends it"
		}
		status := "ok"
		if fix != "" {
			status = "warning"
		}
		// A path from the environment or a file's name may hold an escape:
		// written escaped, the report drives no terminal.
		checks = append(checks, doctorCheck{check, status, safetext.Escaped(detail), safetext.Escaped(fix)})
	}
	cfg, chosen := c.checkConfig(configPath, envName, add)
	c.checkFileModes(add)
	c.checkKeystore(add)
	c.checkJournal(add)
	c.checkSameService(cfg, add)
	checkStateFiles(add)
	c.checkProcess(add)
	envs, stop := c.environments(cfg, chosen, add)
	defer stop()
	for _, e := range envs {
		c.checkEnvironment(ctx, e, add)
	}
	c.checkTerminal(add)
	c.checkVariables(add)
	c.checkSignCommandArgs(cfg, add)
	if ctx.Err() != nil {
		return interrupted(ctx, "")
	}

	ok := true
	for _, ch := range checks {
		ok = ok && ch.Status == "ok"
	}
	if c.env.JSON {
		if err := outputError(writeJSON(c.env.Stdout, struct {
			OK     bool          `json:"ok"`
			Checks []doctorCheck `json:"checks"`
		}{ok, checks})); err != nil {
			return err
		}
	} else {
		for _, ch := range checks {
			fmt.Fprintf(c.env.Stdout, "%-8s %-24s %s\n", ch.Status, ch.Check, ch.Detail)
			if ch.Fix != "" {
				fmt.Fprintf(c.env.Stdout, "%-8s %-24s fix: %s\n", "", "", ch.Fix)
			}
		}
	}
	if !ok {
		return exitStatus(exitFailed)
	}
	return nil
}

// checkConfig reports the config file and the environment commands choose.
func (c doctorCmd) checkConfig(configFlag, envName string, add func(check, detail, fix string)) (config.Config, string) {
	cfg, path, err := loadConfig(configFlag, c.env.Getenv)
	if err != nil {
		detail, fix := explainUnsafe(err, "correct the file, or point --config / $SVCWALLET_CONFIG at another")
		add("config", detail, fix)
		return config.Config{}, config.SandboxEnv
	}
	chosen, by := chooseEnvBy(envName, c.env.Getenv, cfg)
	// The path as typed may hold an escape or a bidi override: shown
	// escaped, as env add and env use show it.
	if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
		add("config", safetext.Shown(path)+": no file; the embedded sandbox is the only environment", "")
	} else {
		add("config", fmt.Sprintf("%s: environments %s", safetext.Shown(path), cfg.KnownNames()), "")
	}
	if chosen != config.SandboxEnv {
		if _, err := cfg.Lookup(chosen); err != nil {
			add("environment", unknownEnv(chosen, by, path, cfg, true).Error(), envNameFix(by, newInvocation("", configFlag, c.env.Getenv)))
			return cfg, config.SandboxEnv
		}
	}
	if fallback := sandboxByDefault(cfg, chosen, envName, c.env.Getenv); fallback != "" {
		to := strings.Join(cfg.Names(), ", ")
		if len(cfg.Names()) > 1 {
			to = "one of " + to // "one of local" read as a slip
		}
		add("environment", chosen+" (chosen by "+by+"): "+fallback, "set default_env in the config to "+to+", or give --env NAME")
		return cfg, chosen
	}
	add("environment", chosen+" (chosen by "+by+")", "")
	return cfg, chosen
}

// checkKeystore reports the keystore directory, its keys and permissions.
func (c doctorCmd) checkKeystore(add func(check, detail, fix string)) {
	dir, err := keystoreDir("", c.env)
	if err != nil {
		add("keystore", err.Error(), "set $"+signer.KeystoreEnvVar+" to a directory")
		return
	}
	if !c.statPrivate(add, "keystore", dir, "no keystore yet (svcwallet key new or key import makes one)", "the directory", "700") {
		return
	}
	addUnsafe(add, "keystore", osguard.CheckPrivatePath(dir))
	entries, err := signer.ListKeystore(dir)
	if err != nil {
		add("keystore", err.Error(), "check the directory's permissions")
		return
	}
	for _, e := range entries {
		c.checkKeyFile(e.Path, add)
	}
	c.leftOutKeys(dir, add)
	add("keystore", fmt.Sprintf("%s: %d %s", safetext.Shown(dir), len(entries), kit.Plural(len(entries), "key file", "key files")), "")
}

// statPrivate says what doctor's check finds of path, a folder or file
// of the user's alone: not there yet (missing says why that is fine), not
// readable (where holds it), or open to other users, with the chmod to
// mode that closes it. It reports whether path is there to look into.
func (c doctorCmd) statPrivate(add func(check, detail, fix string), check, path, missing, where, mode string) bool {
	fi, err := os.Stat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		add(check, safetext.Shown(path)+": "+missing, "")
		return false
	case err != nil:
		add(check, fmt.Sprintf("%s: %v", safetext.Shown(path), err), "check "+where+"'s permissions")
		return false
	case c.modesMean() && fi.Mode().Perm()&0o077 != 0:
		add(check, fmt.Sprintf("%s is open to other users (%v)", safetext.Shown(path), fi.Mode().Perm()), osguard.FixOf(path, safetext.ShellLine("chmod", mode, path)))
	}
	return true
}

// checkKeyFile says what lets other users read or change the key file at
// path: its mode, and what osguard.CheckPrivatePath refuses. The one check
// of the listed key files and those left out for their names, which it
// names safetext.Shown, with no command to run (osguard.RenameFirst).
func (c doctorCmd) checkKeyFile(path string, add func(check, detail, fix string)) {
	if fi, err := os.Stat(path); err == nil && c.modesMean() && fi.Mode().Perm()&0o077 != 0 {
		fix := osguard.FixOf(path, safetext.ShellLine("chmod", "600", path))
		add("keystore", fmt.Sprintf("%s is readable by other users (%v)", safetext.Shown(path), fi.Mode().Perm()), fix)
	}
	addUnsafe(add, "keystore", osguard.CheckPrivatePath(path))
}

// leftOutKeys says which keystore files of dir no list of keys shows, for
// a name holding a control or escape character (signer.KeystoreLeftOut):
// each may hold a key, so it is said, its name escaped, and checked as a
// listed one is (checkKeyFile).
func (c doctorCmd) leftOutKeys(dir string, add func(check, detail, fix string)) {
	left, err := signer.KeystoreLeftOut(dir)
	if err != nil {
		return // ListKeystore said it already
	}
	for _, p := range left {
		add("keystore", fmt.Sprintf("%s holds a keystore file whose name has a control or escape character (%s): no list of keys shows it",
			safetext.Shown(dir), safetext.Shown(filepath.Base(p))), "rename it with letters, digits and dashes only to use it, or move it out of the keystore")
		c.checkKeyFile(p, add)
	}
}

// checkJournal reports the withdrawal journal's path, permissions and health.
func (c doctorCmd) checkJournal(add func(check, detail, fix string)) {
	path := journal.DefaultPath()
	if err := osguard.CheckPrivateFile(path); err != nil {
		addUnsafe(add, "journal", err) // journal.Open would refuse it
		return
	}
	if !c.statPrivate(add, "journal", path, "none yet (the first withdrawal writes it)", "the state directory", "600") {
		return
	}
	j, err := openJournal(c.env, "svcwallet doctor", path)
	var t journal.Tally
	if err == nil {
		t, err = j.Tally()
	}
	if err != nil {
		add("journal", fmt.Sprintf("%s cannot be read: %v", safetext.Shown(path), err), "move the file aside and keep it for support; svcwallet starts a new one")
		return
	}
	if t.Skipped > 0 {
		add("journal", fmt.Sprintf("%s: %d %s could not be read and %s skipped", safetext.Shown(path), t.Skipped, kit.Plural(t.Skipped, "line", "lines"), kit.Plural(t.Skipped, "is", "are")),
			"keep a copy of the file for support; the withdrawals on the other lines are read")
	}
	add("journal", fmt.Sprintf("%s: %d %s, %d unfinished", safetext.Shown(path), t.Withdrawals, kit.Plural(t.Withdrawals, "withdrawal", "withdrawals"), t.Unfinished), "")
	c.checkWritten(j, add)
}

// checkStateFiles reports the state files beside the journal that another
// user could change, or that are links: svcwallet refuses to use them.
func checkStateFiles(add func(check, detail, fix string)) {
	dir := filepath.Dir(journal.DefaultPath())
	for _, name := range []string{filepath.Base(withdrawal.BridgePinsPath(dir)), follow.WatchlistFile, debugLogFile, filepath.Base(journal.IndexPath(journal.DefaultPath())),
		filepath.Base(journal.WrittenPath(journal.DefaultPath()))} {
		path := filepath.Join(dir, name)
		if _, err := os.Lstat(path); err == nil {
			addUnsafe(add, "state files", osguard.CheckPrivateFile(path))
		}
	}
}

// addUnsafe reports a file or directory the rules of osguard.CheckPrivatePath
// refuse; nil adds nothing.
func addUnsafe(add func(check, detail, fix string), check string, err error) {
	if err != nil {
		detail, fix := explainUnsafe(err, "check the file's owner and permissions")
		add(check, detail, fix)
	}
}

// explainUnsafe splits an unsafe path's error into what is wrong and the
// fix it names; any other error is its text, with fallback as the fix.
func explainUnsafe(err error, fallback string) (detail, fix string) {
	if u, ok := errors.AsType[*osguard.UnsafePathError](err); ok {
		return u.What, u.Fix
	}
	return err.Error(), fallback
}

// environments lists the configured environments, and the embedded sandbox
// (started here, stopped by the returned func) when it is the chosen one.
func (c doctorCmd) environments(cfg config.Config, chosen string, add func(check, detail, fix string)) ([]config.Environment, func()) {
	var out []config.Environment
	stop := func() {}
	if chosen == config.SandboxEnv {
		srv, err := sandbox.Start("127.0.0.1:0", c.sandbox)
		if err != nil {
			add("sandbox", "the embedded sandbox cannot start: "+err.Error(), "free a loopback port, or choose an environment with --env")
		} else {
			stop = func() { srv.Close() }
			out = append(out, config.SandboxEnvironment(srv.URL, sandbox.DefaultChainID))
		}
	}
	for _, name := range cfg.Names() {
		e, _ := cfg.Lookup(name)
		out = append(out, e)
	}
	return out, stop
}

// checkEnvironment probes one environment's hosts and clock.
func (c doctorCmd) checkEnvironment(ctx context.Context, e config.Environment, add func(check, detail, fix string)) {
	ctx, cancel := context.WithTimeout(ctx, doctorProbeTimeout)
	defer cancel()
	p := exchange.New(e, exchange.Options{Logger: c.env.Log}).Probe(ctx)
	for _, h := range p.Hosts {
		check := e.Name + " " + h.Label
		if h.Err != nil {
			add(check, fmt.Sprintf("%s: %v", h.URL, h.Err), "check the URL in the config, the network and any proxy")
			continue
		}
		add(check, fmt.Sprintf("%s answers in %s", h.URL, h.RTT.Round(time.Millisecond)), "")
	}
	check := e.Name + " clock"
	off := p.ClockOffset.Round(time.Second)
	switch {
	case p.ClockErr != nil:
		add(check, "the server's time is unknown: "+p.ClockErr.Error(), "signatures need it: fix the market_data_url host first")
	case off > exchange.MaxClockSkew || off < -exchange.MaxClockSkew:
		add(check, fmt.Sprintf("the server's clock is %s this machine's (more than %s apart)", clockWords(off), exchange.MaxClockSkew),
			"check your clock: turn on network time (timedatectl set-ntp true); signatures are refused until the two agree")
	default:
		add(check, fmt.Sprintf("the server's clock is %s this machine's", clockWords(off)), "")
	}
}

// clockWords says an offset as "3m10s ahead of" or "2s behind".
func clockWords(d time.Duration) string {
	if d < 0 {
		return (-d).String() + " behind"
	}
	return d.String() + " ahead of"
}

// checkTerminal reports what the console will draw on and copy through.
func (c doctorCmd) checkTerminal(add func(check, detail, fix string)) {
	term := c.env.Getenv("TERM")
	detail := "TERM=" + term
	if !plain.IsTerminal(c.env.Stdout) {
		detail += "; standard output is not a terminal here (the console needs one)"
	}
	if c.env.Getenv("NO_COLOR") != "" {
		detail += "; NO_COLOR set"
	}
	fix := ""
	switch {
	case plain.Wanted(nil, c.env.Getenv):
		// Nothing to fix: plain mode is the console there.
		detail += "; the console runs in plain mode (line prompts, no full screen)"
	case term == "dumb":
		fix = "unset " + plain.PlainVar + " to run the console in plain mode here, or use a terminal that draws (TERM=xterm-256color or similar)"
	}
	add("terminal", detail, fix)
	if c.env.Getenv("TMUX") == "" {
		add("clipboard", "copies use OSC 52, which most terminals accept (some ask first)", "")
		return
	}
	v, err := c.tmuxOption("set-clipboard")
	switch {
	case err != nil:
		add("clipboard", "inside tmux, but its set-clipboard option cannot be read: "+err.Error(), "tmux set -g set-clipboard on")
	case v == "on":
		add("clipboard", "inside tmux with set-clipboard on: copies reach the clipboard", "")
	default:
		add("clipboard", "inside tmux with set-clipboard "+v+": copies stay inside tmux", "tmux set -g set-clipboard on (and add it to ~/.tmux.conf)")
	}
}
