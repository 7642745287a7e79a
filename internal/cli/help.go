package cli

import (
	"cmp"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/svcwallet/svcwallet/internal/plain"
	"github.com/svcwallet/svcwallet/internal/safetext"
	"github.com/svcwallet/svcwallet/tui"
)

// Help is drawn here rather than by a library that asks the terminal for
// its background colour: a terminal that never answers (the Linux console,
// script, a serial line) stalled every --help and usage error for seconds.
// Nothing here reads from or asks the terminal.

// helpWidth is the width help is written for, whatever the terminal: a
// longer line is wrapped at a space, and no line is padded.
const helpWidth = 80

// helpStyles are the two looks help uses. Headings are bold; names are in
// the terminal's own cyan, one of the 16 colours every terminal theme sets
// to read on its background, so no query is needed to choose them.
type helpStyles struct {
	heading, name lipgloss.Style
}

// helpStylesFor is the look out can show: none when piped, bold headings
// alone with NO_COLOR, and the cyan names on a colour terminal.
func helpStylesFor(p colorprofile.Profile) helpStyles {
	st := helpStyles{heading: lipgloss.NewStyle(), name: lipgloss.NewStyle()}
	if p > colorprofile.NoTTY {
		st.heading = st.heading.Bold(true)
	}
	if p >= colorprofile.ANSI {
		st.name = st.name.Foreground(lipgloss.Cyan)
	}
	return st
}

// showHelp is every command's help (--help, -h, svcwallet help CMD).
func (a *app) showHelp(c *cobra.Command, _ []string) {
	out := c.OutOrStdout()
	_, _ = io.WriteString(out, helpText(c, helpStylesFor(helpProfile(out, a.env.Getenv))))
}

// helpProfile is what out can show, from the environment alone (TERM,
// NO_COLOR, CLICOLOR, COLORTERM...): NoTTY when out is not a terminal,
// unless CLICOLOR_FORCE asks for colour there too (as a pager that shows
// colour would; NO_COLOR still wins).
func helpProfile(out io.Writer, getenv func(string) string) colorprofile.Profile {
	forced, _ := strconv.ParseBool(getenv("CLICOLOR_FORCE"))
	if !(forced && getenv("NO_COLOR") == "") && (!plain.IsTerminal(out) || !enableEscapes(out)) {
		return colorprofile.NoTTY
	}
	var environ []string
	for _, name := range colourVariables {
		if v := getenv(name); v != "" {
			environ = append(environ, name+"="+v)
		}
	}
	return colorprofile.Env(environ)
}

// helpText is c's help in the order a reader needs it: what it does, how
// to call it, its commands, its flags, examples to paste, where to read on.
func helpText(c *cobra.Command, st helpStyles) string {
	var b strings.Builder
	for _, l := range strings.Split(strings.TrimSpace(cmp.Or(c.Long, c.Short)), "\n") {
		for _, w := range tui.WrapAtSpaces(l, helpWidth) {
			b.WriteString(w + "\n")
		}
	}
	section := func(title string, lines []string) {
		if len(lines) > 0 {
			fmt.Fprintf(&b, "\n%s\n%s\n", st.heading.Render(title), strings.Join(lines, "\n"))
		}
	}
	if c.IsAdditionalHelpTopicCommand() {
		return b.String() // a topic is its text
	}
	section("USAGE", usageLines(c))
	section("COMMANDS", commandLines(c, st))
	section("HELP TOPICS", topicLines(c, st))
	section("FLAGS", flagLines(c.LocalFlags(), st))
	section("INHERITED FLAGS", flagLines(c.InheritedFlags(), st))
	section("EXAMPLES", exampleLines(c))
	section("LEARN MORE", learnMoreLines(c))
	return b.String()
}

// usageLines are the ways to call c: by itself when it does something of
// its own (it has flags of its own beside --help: the console, withdraw,
// deposit), and with a command under it.
func usageLines(c *cobra.Command) []string {
	path := c.CommandPath()
	var lines []string
	ownFlags := false
	c.LocalNonPersistentFlags().VisitAll(func(f *pflag.Flag) { ownFlags = ownFlags || (f.Name != "help" && !f.Hidden) })
	if !c.HasAvailableSubCommands() {
		lines = append(lines, "  "+strings.TrimSpace(path+" "+argsOf(c))+" [flags]")
	} else {
		if ownFlags {
			lines = append(lines, "  "+path+" [flags]")
		}
		lines = append(lines, "  "+path+" <command> [flags]")
	}
	return lines
}

// argsOf is what c's Use says after its name: "QUOTE_ID...", "FILE".
func argsOf(c *cobra.Command) string {
	_, rest, _ := strings.Cut(c.Use, " ")
	return rest
}

// commandLines lists the commands under c, a column of names and their
// one-line summaries.
func commandLines(c *cobra.Command, st helpStyles) []string {
	var subs []*cobra.Command
	width := 0
	for _, s := range c.Commands() {
		if s.IsAvailableCommand() {
			subs = append(subs, s)
			width = max(width, utf8.RuneCountInString(s.Use))
		}
	}
	lines := make([]string, 0, len(subs))
	for _, s := range subs {
		args := argsOf(s)
		if args != "" {
			args = " " + args
		}
		pad := strings.Repeat(" ", width-utf8.RuneCountInString(s.Use)+2)
		lines = append(lines, "  "+st.name.Render(s.Name())+args+pad+s.Short)
	}
	return lines
}

// topicLines lists the help topics under c (svcwallet help keys).
func topicLines(c *cobra.Command, st helpStyles) []string {
	var lines []string
	for _, s := range c.Commands() {
		if s.IsAdditionalHelpTopicCommand() {
			lines = append(lines, "  "+st.name.Render(s.Name())+strings.Repeat(" ", max(14-len(s.Name()), 2))+s.Short)
		}
	}
	return lines
}

// flagLines lists a flag set as pflag does (-h, --help, the value's name)
// with the usage's first letter capitalised and a default that is not
// zero.
func flagLines(set *pflag.FlagSet, st helpStyles) []string {
	type row struct{ short, long, usage string }
	var rows []row
	width := 0
	set.VisitAll(func(f *pflag.Flag) {
		if f.Hidden {
			return
		}
		value, usage := pflag.UnquoteUsage(f)
		r := row{short: "    ", long: "--" + f.Name, usage: safetext.Capitalized(usage)}
		if f.Shorthand != "" {
			r.short = "-" + f.Shorthand + ", "
		}
		if value != "" {
			r.long += " " + value
		}
		if d := flagDefault(f); d != "" {
			r.usage += " (default " + d + ")"
		}
		rows = append(rows, r)
		width = max(width, utf8.RuneCountInString(r.short+r.long))
	})
	lines := make([]string, 0, len(rows))
	for _, r := range rows {
		name, value, _ := strings.Cut(r.long, " ")
		if value != "" {
			value = " " + value
		}
		pad := strings.Repeat(" ", width-utf8.RuneCountInString(r.short+r.long)+2)
		short := r.short
		if strings.TrimSpace(short) != "" {
			short = st.name.Render(strings.TrimSuffix(short, ", ")) + ", "
		}
		// A long usage goes on below, under its own column.
		usage := tui.WrapAtSpaces(strings.Repeat(" ", width+4)+r.usage, helpWidth)
		lines = append(lines, "  "+short+st.name.Render(name)+value+pad+strings.TrimLeft(usage[0], " "))
		lines = append(lines, usage[1:]...)
	}
	return lines
}

// flagDefault is a flag's default worth saying: not empty, false or zero.
func flagDefault(f *pflag.Flag) string {
	switch f.DefValue {
	case "", "false", "0", "0s", "[]":
		return ""
	}
	return f.DefValue
}

// exampleLines are c's examples as written, two spaces in, so each can be
// pasted into a shell as it stands.
func exampleLines(c *cobra.Command) []string {
	if strings.TrimSpace(c.Example) == "" {
		return nil
	}
	var lines []string
	for _, l := range strings.Split(strings.Trim(c.Example, "\n"), "\n") {
		lines = append(lines, "  "+strings.TrimRight(strings.TrimPrefix(l, "  "), " "))
	}
	return lines
}

func learnMoreLines(c *cobra.Command) []string {
	root := c.Root().Name()
	var lines []string
	if c.HasAvailableSubCommands() {
		lines = append(lines, fmt.Sprintf("  Use '%s <command> --help' for more about a command.", c.CommandPath()))
	}
	return append(lines, fmt.Sprintf("  Every command in one page: %s man | man -l -", root))
}
