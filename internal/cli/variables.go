package cli

import (
	"strings"

	"github.com/svcwallet/svcwallet/internal/plain"
	"github.com/svcwallet/svcwallet/internal/safetext"
	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/signer"
)

// variable is one environment variable svcwallet reads: the man page's
// ENVIRONMENT section, the table of docs/config.md and doctor's report are
// made from this one list (TestVariablesListed holds it to the code).
type variable struct {
	name string
	// set is how it is written when its value matters ("SVCWALLET_DEBUG=1"),
	// else the name.
	set string
	// means says what it does, in one sentence.
	means string
	// secret: doctor says it is set, never what it holds.
	secret bool
	// command: a command line, of which doctor names the program alone:
	// its arguments may hold a password (cast's --password).
	command bool
}

// variables, in the order a reader meets them.
var variables = []variable{
	{name: envNameVar, means: "the environment when --env is not given."},
	{name: configPathVar, means: "the config file when --config is not given."},
	{name: exchange.APIKeyEnvVar, secret: true, means: "the API key commands and svcwallet auth login log in with (before a stored one); pre-fills the console's API key field."},
	{name: signer.KeyEnvVar, secret: true, means: "a raw hex signing key (never on the command line); without an API key, commands log in by wallet signature with it."},
	{name: signer.KeystoreEnvVar, means: "the keystore directory."},
	{name: signer.SignCommandEnvVar, command: true, means: "the signing command of --signer command when the environment sets no sign_command ({file}: the typed data file)."},
	{name: debugVar, set: debugVar + "=1", means: "log requests, statuses and timings, as --debug."},
	{name: plain.PlainVar, set: plain.PlainVar + "=1", means: "plain mode, as --plain: the console's flows as line prompts; " + plain.PlainVar + "=0 opens the full screen even where TERM=dumb or ACCESSIBLE would choose plain mode."},
	{name: "ACCESSIBLE", means: "set true (1, t, true) it chooses plain mode, unless " + plain.PlainVar + " or --plain says otherwise."},
	{name: "TERM", set: "TERM=dumb", means: "a terminal that draws nothing but text: plain mode, unless " + plain.PlainVar + "=0 (then the full screen, without colour or attributes); other values say what colours help may use."},
	{name: "NO_COLOR", means: "the console and help without colour; every choice and focus still shows by a character."},
	{name: "CLICOLOR_FORCE", set: "CLICOLOR_FORCE=1", means: "help in colour even on a pipe (NO_COLOR still wins)."},
	{name: "CLICOLOR", set: "CLICOLOR=0", means: "help without colour on a terminal."},
	{name: "COLORTERM", means: "how many colours the terminal shows (truecolor, 24bit), for help; WT_SESSION, ConEmuANSI and ANSICON say so on Windows."},
	{name: "XDG_CONFIG_HOME", means: "the config folder's parent, on every system when it is an absolute path (docs/config.md, Where files live)."},
	{name: "XDG_STATE_HOME", means: "the state folder's parent (journal, session store, state files), on every system when it is an absolute path."},
	{name: "HOME", means: "the home directory, where the default folders are (USERPROFILE on Windows)."},
	{name: "APPDATA", means: "Windows: the config folder's parent when XDG_CONFIG_HOME is not set."},
	{name: "LOCALAPPDATA", means: "Windows: the state folder's and the keystore's parent when XDG_STATE_HOME is not set."},
	{name: "COLORFGBG", means: "the terminal's colours (\"15;0\": the background last); the console's first frame takes its theme from it when neither --theme nor the config's theme names one."},
	{name: "TMUX", means: "inside tmux, copies are wrapped for its passthrough, doctor checks its set-clipboard option and the console asks it whether it shows true colour."},
	{name: "DISPLAY", means: "Linux and the BSDs: a graphical session, where the console's links open in a browser."},
	{name: "WAYLAND_DISPLAY", means: "as DISPLAY, for a Wayland session."},
	{name: "GOMAXPROCS", means: "Go's processors: unset, the console runs on one once started (it waits on the terminal and the network, and idles cheaper so); set, on as many as it says."},
	{name: "GOTRACEBACK", set: "GOTRACEBACK=all", means: "set, ctrl+\\ is left to Go, which prints every goroutine's stack (a developer's look at a hung process); unset, it quits as ctrl+c does."},
	{name: sourceDateVar, means: "svcwallet man dates the page by these seconds since 1970 (a release sets the commit's time), not by the build's day."},
}

// colourVariables are the variables that say what colours help may use,
// as charmbracelet/colorprofile reads them.
var colourVariables = []string{"TERM", "NO_COLOR", "CLICOLOR", "CLICOLOR_FORCE", "COLORTERM", "WT_SESSION", "ConEmuANSI", "ANSICON", "ANSICON_VER"}

// variablesProse is the man page's ENVIRONMENT section: one paragraph a
// variable.
func variablesProse() string {
	var b strings.Builder
	for _, v := range variables {
		b.WriteString(v.written() + ": " + v.means + "\n\n")
	}
	return strings.TrimSpace(b.String())
}

func (v variable) written() string {
	if v.set != "" {
		return v.set
	}
	return v.name
}

// variablesSet names the listed variables getenv finds set, for doctor: a
// secret's name alone, a command's program, another's value too (escaped
// when it is not clean text), unless it holds a key's or a recovery
// phrase's shape.
func variablesSet(getenv func(string) string) []string {
	var set []string
	for _, v := range variables {
		switch val := getenv(v.name); {
		case val == "":
		case v.secret:
			set = append(set, v.name+" (set; not shown)")
		case safetext.SecretIn(val) != safetext.NoSecret:
			// A signing command given --private-key KEY: doctor's report
			// is what is pasted into a support ticket.
			set = append(set, v.name+" (set; it holds what looks like a key or a recovery phrase, not shown)")
		case v.command:
			set = append(set, v.name+" ("+commandShown(val)+")")
		default:
			set = append(set, v.name+"="+safetext.Shown(val))
		}
	}
	return set
}

// commandShown says a command line set by its program alone: doctor's
// report is what is pasted into a support ticket.
func commandShown(line string) string {
	words, err := signer.SplitCommand(line)
	if err != nil || len(words) == 0 {
		return "set; not shown"
	}
	return "set: runs " + safetext.Shown(words[0]) + "; its arguments not shown, as they may hold a password"
}
